//===- KernelChecks.h - every kernel against its float64 reference -*- C++ -*-===//
//
// One entry per kernel of examples/: which source, which constants, and a
// function that makes random inputs at a small shape and computes the
// float64 reference of every output, plus the larger shapes the GPU runs.
// The unit tests and the main job (llk-check-kernels) run the small shape on
// the interpreter; the GPU checks run every shape through the runtime. A
// group of kernels lives in its own file (test/lib/Checks/<Group>Checks.cpp) and
// is listed in kernelChecks().
//
//===----------------------------------------------------------------------===//

#ifndef LLK_TEST_LIB_CHECKS_KERNELCHECKS_H
#define LLK_TEST_LIB_CHECKS_KERNELCHECKS_H

#include "llk/Interpreter/Interpreter.h"

#include "mlir/IR/MLIRContext.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace llk::checks {

/// A host buffer: its values as doubles (inputs: exactly what the kernel
/// reads, after rounding to the element type) and its bytes.
struct HostBuffer {
  std::string name;
  interp::ElemType type;
  std::vector<int64_t> shape;
  std::vector<double> values;
  std::vector<uint8_t> bytes;
  bool isOutput = false;
  /// Outputs: the float64 reference.
  std::vector<double> reference;
  /// An address table (i64): element i is the address of buffer
  /// `addresses[i]` as the kernel sees it, written where the buffers are
  /// placed (host memory for the interpreter, device memory on the GPU).
  std::vector<const HostBuffer *> addresses;
  /// Outputs: every element must be its reference exactly (integer results,
  /// floats computed exactly as the reference does), whatever the check's
  /// tolerance for the others.
  bool exact = false;

  size_t size() const { return values.size(); }
  double operator[](size_t i) const { return values[i]; }
  /// Stores `value` rounded to the type as element `i` (bytes and value).
  void set(size_t i, double value) {
    size_t size = interp::elemTypeSize(type);
    interp::encodeElement(type, value, &bytes[i * size]);
    values[i] = interp::decodeElement(type, &bytes[i * size]);
  }
};

/// One launch: buffers, the kernel's arguments in order, and the grid.
class Problem {
public:
  explicit Problem(std::mt19937_64 &rng) : rng(rng) {}

  /// An input of standard normal values.
  HostBuffer &randn(std::string name, interp::ElemType type,
                    std::vector<int64_t> shape);
  /// An input of values uniform in [lo, hi).
  HostBuffer &uniform(std::string name, interp::ElemType type,
                      std::vector<int64_t> shape, double lo, double hi);
  /// An input of zeros (e.g. counters that a kernel leaves zero again).
  HostBuffer &zeros(std::string name, interp::ElemType type,
                    std::vector<int64_t> shape);
  /// An output; set its `reference` to the expected values. The run poisons
  /// it (NaN) and registers it as uninitialized first.
  HostBuffer &output(std::string name, interp::ElemType type,
                     std::vector<int64_t> shape);
  /// An input of the addresses of `buffers` (i64, see HostBuffer::addresses):
  /// a kernel's table of pointers, as a grouped GEMM reads.
  HostBuffer &addressTable(std::string name,
                           std::vector<const HostBuffer *> buffers);

  /// A random integer in [lo, hi], for scalar inputs (seeds, offsets).
  int64_t randomInt(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }

  void pointerArg(HostBuffer &buffer) { args.push_back({&buffer, {}, 0}); }
  void scalarArg(interp::ElemType type, double value) {
    args.push_back({nullptr, type, value});
  }
  /// A `!tile.tensordesc` of the 2-D row-major `buffer` (its shape): a
  /// TensorDescriptor in the interpreter, a CUtensorMap with the kernel's
  /// box on the GPU.
  void descriptorArg(HostBuffer &buffer) {
    args.push_back({&buffer, buffer.type, 0, /*descriptor=*/true});
  }

  struct Arg {
    HostBuffer *buffer; // null for scalars
    interp::ElemType type;
    double value;
    bool descriptor = false; // the buffer as a tensor descriptor
  };
  std::deque<HostBuffer> buffers; // stable addresses
  std::vector<Arg> args;
  interp::Grid grid;
  /// Constants bound on top of the check's own, warps per program, pipeline
  /// stages and programs an SM (0: the kernel's), for shapes that need
  /// another specialization; the interpreter ignores all but the constants.
  /// The programs an SM are per target, as the attention tables' `a/b`: on
  /// sm_80/sm_90 and on sm_90a, chosen when the problem is compiled for one.
  llk::Constants constants;
  unsigned numWarps = 0;
  unsigned numStages = 0;
  unsigned minProgramsPerSM = 0, wgmmaMinProgramsPerSM = 0;
  /// The GPU target when the kernel needs more than the default (sm_90a:
  /// warpgroup MMA, tensor descriptors); the interpreter ignores it.
  std::string arch;
  /// Bytes the launch must move at the least (every input read once, every
  /// output written once): what bandwidth is measured against.
  double bytes = 0;

private:
  std::mt19937_64 &rng;
  HostBuffer &add(std::string name, interp::ElemType type,
                  std::vector<int64_t> shape);
};

/// ceil(a / b), for a >= 0 and b > 0: programs to cover `a` with blocks of `b`.
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Sets the launch grid to (x, y, z) programs.
inline void setGrid(Problem &p, int64_t x, int64_t y = 1, int64_t z = 1) {
  p.grid = {static_cast<uint32_t>(x), static_cast<uint32_t>(y),
            static_cast<uint32_t>(z)};
}

/// out = x + y over n f32 (random x and y), and the arguments (x, y, out, n)
/// of a vector add; the caller sets the grid.
void vectorAddProblem(Problem &p, int64_t n);

/// A shape a check runs at on the GPU.
struct GpuCase {
  std::string label; // e.g. "16384x4096"
  std::function<void(Problem &)> build;
};

struct KernelCheck {
  std::string name;   // what the table shows
  std::string source; // file name under examples/
  std::string kernel; // function name
  llk::Constants constants;
  /// Largest ||out - ref|| / ||ref|| accepted.
  double tolerance;
  /// The small shape: the interpreter runs it in CI (and the GPU too).
  std::function<void(Problem &)> build;
  /// Larger shapes for the GPU only (decode/prompt shapes, awkward sizes).
  std::vector<GpuCase> gpuCases = {};
};

/// Row-wise softmax's input ("in", rows `inStride` apart, uniform in
/// [-8, 8)) and output ("out", rows `outStride` apart) with its float64
/// reference over the first `cols` of each row (ExampleChecks.cpp; the
/// example's and tutorial 02's checks).
std::pair<HostBuffer *, HostBuffer *> rowSoftmaxProblem(Problem &p, int64_t rows,
                                                        int64_t cols,
                                                        int64_t inStride,
                                                        int64_t outStride);

/// The checks of each group of kernels.
std::vector<KernelCheck> exampleChecks();
std::vector<KernelCheck> llamaQuantChecks();
/// Apex fused LayerNorm/RMSNorm, forward and backward (test/lib/Checks/LlamaApexChecks.cpp).
std::vector<KernelCheck> llamaApexChecks();
std::vector<KernelCheck> llamaElementwiseChecks();
std::vector<KernelCheck> llamaAttentionChecks();
/// What a whole model adds: embedding, float mat-vecs, rope + KV append at a
/// device-held position, top-k sampling (test/lib/Checks/LlamaModelChecks.cpp).
std::vector<KernelCheck> llamaModelChecks();
std::vector<KernelCheck> gemmChecks();
/// The ports of Triton's tutorials, examples/triton/ (TritonChecks.cpp).
std::vector<KernelCheck> tritonChecks();
/// FlashAttention forward and backward (lib/Checks/AttentionChecks.cpp).
std::vector<KernelCheck> attentionChecks();
/// The ops a Triton user reaches for: random numbers, scans, sorts, ...
/// (test/lib/Checks/LanguageChecks.cpp).
std::vector<KernelCheck> languageChecks();

/// Every kernel check, in table order.
const std::vector<KernelCheck> &kernelChecks();

struct CheckResult {
  bool passed = false;
  /// Largest relative error over the outputs (NaN if a run failed).
  double error = 0;
  /// Why it failed, or a summary of what ran.
  std::string message;
};

/// Runs body(begin, end) over [0, rows) split among the host's cores: for
/// references that are large products (the GPU shapes of the GEMMs).
void parallelRows(int64_t rows,
                  const std::function<void(int64_t begin, int64_t end)> &body);

/// Writes the addresses of `table`'s buffers into it, as `address` gives
/// them (a no-op for a buffer that is no address table).
void writeAddresses(HostBuffer &table,
                    const std::function<uint64_t(const HostBuffer &)> &address);

/// Fills every output with poison: NaN for floats, all-ones for integers.
void poisonOutputs(Problem &problem);

/// Compares every output's bytes with its reference; elements without a
/// reference (NaN) must still hold the poison.
CheckResult compareOutputs(const KernelCheck &check, const Problem &problem);

/// Runs the kernel of `check` on the interpreter over `problem` (built and
/// poisoned), leaving what it wrote in the buffers' bytes; the
/// interpreter's error if the run failed.
std::optional<std::string> runOnInterpreter(const KernelCheck &check,
                                            Problem &problem,
                                            const std::string &examplesDir,
                                            mlir::MLIRContext &context);

/// Runs `check` on the interpreter with inputs from `seed`.
CheckResult runCheck(const KernelCheck &check, const std::string &examplesDir,
                     uint64_t seed, mlir::MLIRContext &context);

/// A context with every dialect kernels use loaded.
std::unique_ptr<mlir::MLIRContext> makeContext();

} // namespace llk::checks

#endif // LLK_TEST_LIB_CHECKS_KERNELCHECKS_H
