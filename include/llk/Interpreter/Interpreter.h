//===- Interpreter.h - run tile kernels on the CPU --------------*- C++ -*-===//
//
// A reference executor for the tile dialect: it runs a kernel (the verified
// tile IR after specialization, before layout assignment; layouts, if any,
// are ignored) program by program over its grid, on host memory, with the
// launch ABI of the GPU: pointer arguments are 64-bit host addresses, scalars
// are passed by value.
//
// Every memory access is checked against the buffers the caller registered:
// an access outside them (or misaligned) stops the run with an error naming
// the program, the op's source location, the element and the address. With
// `checkUninitialized`, reads of bytes of an uninitialized buffer that no
// store has written are reported as well.
//
// Nothing here aborts on bad input: errors come back as strings.
//
//   llk::interp::Interpreter interp;
//   interp.addBuffer(x.data(), x.size() * 4, "x");
//   interp.addBuffer(out.data(), out.size() * 4, "out", /*initialized=*/false);
//   llk::interp::KernelArgs args;
//   args.addPointer(x.data()); args.addPointer(out.data()); args.add<int32_t>(n);
//   if (auto error = interp.run(kernel, {blocks, 1, 1}, args.pointers()))
//     report(*error);
//
//===----------------------------------------------------------------------===//

#ifndef LLK_INTERPRETER_INTERPRETER_H
#define LLK_INTERPRETER_INTERPRETER_H

#include "llk/ConstantValue.h"
#include "llk/Export.h"
#include "llk/Interpreter/TensorDescriptor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llk::interp {

/// Number of programs along x, y and z; each at least 1.
struct Grid {
  uint32_t x = 1, y = 1, z = 1;
};

/// Ops one program may execute by default before the run stops with an
/// error: far more than any kernel's program needs, a few seconds to minutes
/// of interpretation.
constexpr uint64_t kDefaultMaxSteps = 10'000'000;

struct Options {
  /// Report loads of bytes of buffers registered as uninitialized that no
  /// store (or atomic) has written.
  bool checkUninitialized = false;
  /// The watchdog: ops (terminators and loop bodies' ops included, each
  /// time they run) one program may execute before the run stops with an
  /// error naming the kernel, the program and the op, so that a kernel that
  /// never finishes cannot hang its host. Unset: $LLK_INTERP_MAX_STEPS if
  /// set, else kDefaultMaxSteps. 0: no limit.
  std::optional<uint64_t> maxSteps;
  /// Run tile.print (to stdout) and tile.assert (a failure stops the run
  /// with its error), as a kernel compiled with device debug does; otherwise
  /// they do nothing, as the compiler erases them. Unset: LLK_DEVICE_DEBUG.
  std::optional<bool> deviceDebug;
};

/// The values of a kernel's arguments, in the form `cuLaunchKernel` takes
/// them: one pointer per argument to storage of the argument's size (8 bytes
/// for `!tile.ptr<T>`, 4 for i32 and f32, 2 for f16 ...).
class KernelArgs {
public:
  void addPointer(const void *address) {
    add<uint64_t>(reinterpret_cast<uintptr_t>(address));
  }
  template <typename T> void add(T value) {
    static_assert(sizeof(T) <= sizeof(uint64_t), "kernel scalars are <= 8 bytes");
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    storage.push_back(bits);
    slots.push_back(&storage.back());
  }
  /// Little-endian hosts only (as CUDA's): a narrower value sits at the
  /// start of its 8-byte slot.
  llvm::ArrayRef<const void *> pointers() const { return slots; }

private:
  std::deque<uint64_t> storage; // stable addresses
  std::vector<const void *> slots;
};

/// Runs tile kernels on host memory. Registered buffers, and what of them
/// has been written, persist across runs.
class LLK_API Interpreter {
public:
  explicit Interpreter(Options options = {});
  ~Interpreter();
  Interpreter(const Interpreter &) = delete;
  Interpreter &operator=(const Interpreter &) = delete;

  /// Makes `[data, data + bytes)` accessible to kernels under `name` (used
  /// in error messages). Buffers must not overlap. A buffer registered as not
  /// `initialized` is tracked byte by byte when uninitialized reads are
  /// checked. Returns an error for an empty or overlapping range.
  std::optional<std::string> addBuffer(const void *data, uint64_t bytes,
                                       std::string name,
                                       bool initialized = true);
  /// Forgets every registered buffer.
  void clearBuffers();

  /// Runs every program of `grid` (z slowest, x fastest) with the argument
  /// values `args` (one per kernel argument, see KernelArgs). Stops at the
  /// first error and returns its message: source location, program id and
  /// what went wrong.
  std::optional<std::string> run(mlir::func::FuncOp kernel, Grid grid,
                                 llvm::ArrayRef<const void *> args);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// The names of the operations the interpreter runs, sorted: those its op
/// families handle, and the terminators and func.func its core runs itself.
/// They are KernelOps.h's table (the unit tests compare the two).
LLK_API std::vector<llvm::StringRef> getInterpretedOpNames();

/// Binds the `${NAME}` constants of the kernel source in `path` and parses
/// and verifies it in `context` (which needs the dialects of
/// llk::registerAllDialects). On failure returns null and sets `error` to the
/// diagnostics, with file:line:col.
LLK_API mlir::OwningOpRef<mlir::ModuleOp>
loadKernelSource(mlir::MLIRContext &context, llvm::StringRef path,
                 const llk::Constants &constants,
                 std::string &error);
/// The same for source text in memory; `bufferName` names it in messages.
LLK_API mlir::OwningOpRef<mlir::ModuleOp>
parseKernelSource(mlir::MLIRContext &context, llvm::StringRef source,
                  llvm::StringRef bufferName,
                  const llk::Constants &constants,
                  std::string &error);

/// The kernel named `name` in `module`, or, when `name` is empty, its only
/// kernel. Sets `error` when there is none or the choice is ambiguous.
LLK_API mlir::func::FuncOp findKernel(mlir::ModuleOp module, llvm::StringRef name,
                              std::string &error);

//===----------------------------------------------------------------------===//
// Host data in the element types of kernels, for tools and tests
//===----------------------------------------------------------------------===//

enum class ElemType { F64, F32, F16, BF16, I64, I32, I16, I8, F8E4M3FN, F8E5M2 };

/// Parses f64, f32, f16, bf16, i64, i32, i16, i8, f8E4M3FN, f8E5M2.
LLK_API std::optional<ElemType> parseElemType(llvm::StringRef name);
LLK_API llvm::StringRef elemTypeName(ElemType type);
/// The matching MLIR type.
LLK_API mlir::Type toMLIRType(mlir::MLIRContext &context, ElemType type);
LLK_API size_t elemTypeSize(ElemType type);
LLK_API bool isFloat(ElemType type);
/// Writes `value` to `dst` as `type`: floats rounded to nearest even (fp8
/// saturating, as tile.cast does),
/// integers truncated toward zero and saturated.
LLK_API void encodeElement(ElemType type, double value, void *dst);
/// Reads a `type` element at `src` as a double (exact except i64 beyond 2^53).
LLK_API double decodeElement(ElemType type, const void *src);

} // namespace llk::interp

#endif // LLK_INTERPRETER_INTERPRETER_H
