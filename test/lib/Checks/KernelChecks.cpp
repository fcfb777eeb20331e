//===- KernelChecks.cpp - every kernel against its float64 reference ------===//

#include "Checks/KernelChecks.h"

#include "llk/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <thread>

using namespace llk;
using namespace llk::checks;
using interp::ElemType;

HostBuffer &Problem::add(std::string name, ElemType type,
                         std::vector<int64_t> shape) {
  HostBuffer &buffer = buffers.emplace_back();
  buffer.name = std::move(name);
  buffer.type = type;
  buffer.shape = std::move(shape);
  size_t count = 1;
  for (int64_t d : buffer.shape)
    count *= d;
  buffer.values.assign(count, 0.0);
  buffer.bytes.assign(count * interp::elemTypeSize(type), 0);
  return buffer;
}

/// Stores values drawn from `next`, in order, in the buffer's type and keeps
/// the rounded values.
template <typename Next> static void fill(HostBuffer &buffer, Next next) {
  for (size_t i = 0; i < buffer.size(); ++i)
    buffer.set(i, next());
}

HostBuffer &Problem::randn(std::string name, ElemType type,
                           std::vector<int64_t> shape) {
  HostBuffer &buffer = add(std::move(name), type, std::move(shape));
  std::normal_distribution<double> normal;
  fill(buffer, [&] { return normal(rng); });
  return buffer;
}

HostBuffer &Problem::uniform(std::string name, ElemType type,
                             std::vector<int64_t> shape, double lo, double hi) {
  HostBuffer &buffer = add(std::move(name), type, std::move(shape));
  std::uniform_real_distribution<double> dist(lo, hi);
  fill(buffer, [&] { return dist(rng); });
  return buffer;
}

HostBuffer &Problem::zeros(std::string name, ElemType type,
                           std::vector<int64_t> shape) {
  HostBuffer &buffer = add(std::move(name), type, std::move(shape));
  fill(buffer, [] { return 0.0; });
  return buffer;
}

HostBuffer &Problem::output(std::string name, ElemType type,
                            std::vector<int64_t> shape) {
  HostBuffer &buffer = add(std::move(name), type, std::move(shape));
  buffer.isOutput = true;
  // NaN: an element the kernel must leave alone (padding).
  buffer.reference.assign(buffer.size(), NAN);
  return buffer;
}

HostBuffer &Problem::addressTable(std::string name,
                                  std::vector<const HostBuffer *> buffers) {
  HostBuffer &table = add(std::move(name), ElemType::I64,
                          {static_cast<int64_t>(buffers.size())});
  table.addresses = std::move(buffers);
  return table;
}

void llk::checks::writeAddresses(
    HostBuffer &table, const std::function<uint64_t(const HostBuffer &)> &address) {
  for (size_t i = 0; i < table.addresses.size(); ++i) {
    uint64_t value = address(*table.addresses[i]);
    std::memcpy(&table.bytes[i * sizeof(value)], &value, sizeof(value));
    table.values[i] = static_cast<double>(value);
  }
}

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

// vector_add: out[i] = x[i] + y[i], n not a multiple of BLOCK.
const std::vector<KernelCheck> &llk::checks::kernelChecks() {
  static const std::vector<KernelCheck> checks = [] {
    std::vector<KernelCheck> all;
    for (auto group : {exampleChecks, llamaQuantChecks, llamaApexChecks, llamaElementwiseChecks, llamaAttentionChecks, llamaModelChecks, gemmChecks, attentionChecks, tritonChecks, languageChecks})
      for (KernelCheck &check : group())
        all.push_back(std::move(check));
    return all;
  }();
  return checks;
}

//===----------------------------------------------------------------------===//
// Running a check
//===----------------------------------------------------------------------===//

std::unique_ptr<mlir::MLIRContext> llk::checks::makeContext() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  auto context = std::make_unique<mlir::MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

/// ||out - ref|| / ||ref|| over the elements with a reference; those without
/// (NaN) must still hold the poison the run started with.
static double relativeError(const HostBuffer &out, std::string &detail) {
  size_t size = interp::elemTypeSize(out.type);
  double diff = 0, norm = 0;
  size_t wrong = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    double got = interp::decodeElement(out.type, &out.bytes[i * size]);
    double want = out.reference[i];
    // Masked scores are -inf: exact or wrong, and out of the norms.
    if (std::isinf(want)) {
      if (got != want) {
        detail = "element " + std::to_string(i) + " should be " +
                 std::to_string(want) + ", got " + std::to_string(got);
        return INFINITY;
      }
      continue;
    }
    if (std::isnan(want)) {
      bool poisoned = interp::isFloat(out.type) ? std::isnan(got) : got == -1;
      if (!poisoned) {
        detail = "element " + std::to_string(i) +
                 " has no reference value, but the kernel wrote it";
        return INFINITY;
      }
      continue;
    }
    if (out.exact && got != want) {
      std::ostringstream os;
      os << std::setprecision(17) << "element " << i << " must be exactly "
         << want << ", got " << got;
      detail = os.str();
      return INFINITY;
    }
    if (!(std::abs(got - want) <= 1e-3 * std::abs(want) + 1e-6) && wrong++ == 0) {
      std::ostringstream os;
      os << "first mismatch at element " << i << ": got " << got << ", want "
         << want;
      detail = os.str();
    }
    diff += (got - want) * (got - want);
    norm += want * want;
  }
  return norm == 0 ? std::sqrt(diff) : std::sqrt(diff / norm);
}

std::optional<std::string>
llk::checks::runOnInterpreter(const KernelCheck &check, Problem &problem,
                              const std::string &examplesDir,
                              mlir::MLIRContext &context) {
  std::string error;
  llk::Constants constants = check.constants;
  for (const auto &[name, value] : problem.constants)
    constants[name] = value;
  auto module = interp::loadKernelSource(context, examplesDir + "/" + check.source,
                                         constants, error);
  if (!module)
    return error;
  mlir::func::FuncOp kernel = interp::findKernel(*module, check.kernel, error);
  if (!kernel)
    return error;

  interp::Options options;
  options.checkUninitialized = true;
  interp::Interpreter interpreter(options);
  for (HostBuffer &buffer : problem.buffers)
    writeAddresses(buffer, [](const HostBuffer &b) {
      return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(b.bytes.data()));
    });
  for (HostBuffer &buffer : problem.buffers)
    if (auto err = interpreter.addBuffer(buffer.bytes.data(), buffer.bytes.size(),
                                         buffer.name, !buffer.isOutput))
      return err;
  interp::KernelArgs args;
  std::deque<interp::TensorDescriptor> descriptors; // stable addresses
  for (const Problem::Arg &arg : problem.args) {
    if (arg.descriptor) {
      const std::vector<int64_t> &shape = arg.buffer->shape;
      descriptors.push_back({arg.buffer->bytes.data(), shape[0], shape[1], shape[1]});
      args.addPointer(&descriptors.back());
      continue;
    }
    if (arg.buffer) {
      args.addPointer(arg.buffer->bytes.data());
      continue;
    }
    switch (arg.type) {
    case ElemType::F64: args.add<double>(arg.value); break;
    case ElemType::F32: args.add<float>(static_cast<float>(arg.value)); break;
    case ElemType::I64: args.add<int64_t>(static_cast<int64_t>(arg.value)); break;
    case ElemType::I32: args.add<int32_t>(static_cast<int32_t>(arg.value)); break;
    case ElemType::I16: args.add<int16_t>(static_cast<int16_t>(arg.value)); break;
    case ElemType::I8: args.add<int8_t>(static_cast<int8_t>(arg.value)); break;
    case ElemType::F8E4M3FN: // kernels take fp8 by pointer only
    case ElemType::F8E5M2: break;
    case ElemType::F16:
    case ElemType::BF16: {
      uint16_t bits;
      interp::encodeElement(arg.type, arg.value, &bits);
      args.add<uint16_t>(bits);
      break;
    }
    }
  }
  return interpreter.run(kernel, problem.grid, args.pointers());
}

CheckResult llk::checks::runCheck(const KernelCheck &check,
                                  const std::string &examplesDir, uint64_t seed,
                                  mlir::MLIRContext &context) {
  std::mt19937_64 rng(seed);
  Problem problem(rng);
  check.build(problem);
  poisonOutputs(problem);
  if (auto error = runOnInterpreter(check, problem, examplesDir, context)) {
    CheckResult result;
    result.error = NAN;
    result.message = *error;
    return result;
  }
  return compareOutputs(check, problem);
}

void llk::checks::poisonOutputs(Problem &problem) {
  for (HostBuffer &buffer : problem.buffers) {
    if (!buffer.isOutput)
      continue;
    size_t size = interp::elemTypeSize(buffer.type);
    for (size_t i = 0; i < buffer.size(); ++i)
      if (interp::isFloat(buffer.type))
        interp::encodeElement(buffer.type, NAN, &buffer.bytes[i * size]);
      else
        std::memset(&buffer.bytes[i * size], 0xff, size);
  }
}

CheckResult llk::checks::compareOutputs(const KernelCheck &check,
                                        const Problem &problem) {
  CheckResult result;
  result.error = 0;
  result.passed = true;
  std::ostringstream summary;
  for (const HostBuffer &buffer : problem.buffers) {
    if (!buffer.isOutput)
      continue;
    std::string detail;
    double err = relativeError(buffer, detail);
    summary << (summary.tellp() ? "; " : "") << buffer.name
            << ": rel. error " << err;
    if (!(err < check.tolerance)) {
      result.passed = false;
      summary << " > " << check.tolerance;
    }
    if (!detail.empty())
      summary << " (" << detail << ")";
    if (!(err <= result.error))
      result.error = err;
  }
  result.message = summary.str();
  return result;
}

void llk::checks::parallelRows(
    int64_t rows, const std::function<void(int64_t, int64_t)> &body) {
  int64_t workers = std::clamp<int64_t>(std::thread::hardware_concurrency(), 1, 64);
  workers = std::min(workers, std::max<int64_t>(rows / 16, 1));
  int64_t chunk = (rows + workers - 1) / workers;
  std::vector<std::thread> threads;
  for (int64_t begin = chunk; begin < rows; begin += chunk)
    threads.emplace_back(body, begin, std::min(rows, begin + chunk));
  body(0, std::min(rows, chunk));
  for (std::thread &t : threads)
    t.join();
}
