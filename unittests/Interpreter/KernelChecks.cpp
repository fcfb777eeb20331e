//===- KernelChecks.cpp - every kernel against its float64 reference ------===//

#include "KernelChecks.h"

#include "llk/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"

#include <cmath>
#include <sstream>

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

/// Stores `values` in the buffer's type and keeps the rounded values.
static void fill(HostBuffer &buffer, const std::vector<double> &values) {
  size_t size = interp::elemTypeSize(buffer.type);
  for (size_t i = 0; i < values.size(); ++i) {
    interp::encodeElement(buffer.type, values[i], &buffer.bytes[i * size]);
    buffer.values[i] = interp::decodeElement(buffer.type, &buffer.bytes[i * size]);
  }
}

HostBuffer &Problem::randn(std::string name, ElemType type,
                           std::vector<int64_t> shape) {
  HostBuffer &buffer = add(std::move(name), type, std::move(shape));
  std::normal_distribution<double> normal;
  std::vector<double> values(buffer.size());
  for (double &v : values)
    v = normal(rng);
  fill(buffer, values);
  return buffer;
}

HostBuffer &Problem::uniform(std::string name, ElemType type,
                             std::vector<int64_t> shape, double lo, double hi) {
  HostBuffer &buffer = add(std::move(name), type, std::move(shape));
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> values(buffer.size());
  for (double &v : values)
    v = dist(rng);
  fill(buffer, values);
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

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

// vector_add: out[i] = x[i] + y[i], n not a multiple of BLOCK.
static void vectorAdd(Problem &p) {
  const int64_t n = 1000, block = 128;
  HostBuffer &x = p.randn("x", ElemType::F32, {n});
  HostBuffer &y = p.randn("y", ElemType::F32, {n});
  HostBuffer &out = p.output("out", ElemType::F32, {n});
  for (int64_t i = 0; i < n; ++i)
    out.reference[i] = x[i] + y[i];
  p.pointerArg(x);
  p.pointerArg(y);
  p.pointerArg(out);
  p.scalarArg(ElemType::I32, n);
  p.grid = {static_cast<uint32_t>((n + block - 1) / block), 1, 1};
}

// softmax over rows of `cols` < BLOCK columns; input rows padded (stride).
static void softmax(Problem &p) {
  const int64_t rows = 6, cols = 80, inStride = 96, outStride = 80;
  HostBuffer &in = p.uniform("in", ElemType::F32, {rows, inStride}, -8, 8);
  HostBuffer &out = p.output("out", ElemType::F32, {rows, outStride});
  for (int64_t r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      max = std::max(max, in[r * inStride + c]);
    for (int64_t c = 0; c < cols; ++c)
      sum += std::exp(in[r * inStride + c] - max);
    for (int64_t c = 0; c < cols; ++c)
      out.reference[r * outStride + c] = std::exp(in[r * inStride + c] - max) / sum;
  }
  p.pointerArg(out);
  p.pointerArg(in);
  p.scalarArg(ElemType::I32, inStride);
  p.scalarArg(ElemType::I32, outStride);
  p.scalarArg(ElemType::I32, cols);
  p.grid = {static_cast<uint32_t>(rows), 1, 1};
}

// rms_norm with gamma: out = x * rsqrt(mean(x^2) + eps) * gamma, per row.
static void rmsNorm(Problem &p) {
  const int64_t rows = 6, cols = 112, stride = 128;
  const double eps = 1e-5;
  HostBuffer &x = p.randn("x", ElemType::F32, {rows, stride});
  HostBuffer &gamma = p.uniform("gamma", ElemType::F32, {cols}, 0.5, 1.5);
  HostBuffer &out = p.output("out", ElemType::F32, {rows, stride});
  // Columns past `cols` are padding the kernel never touches.
  for (int64_t r = 0; r < rows; ++r) {
    double squares = 0;
    for (int64_t c = 0; c < cols; ++c)
      squares += x[r * stride + c] * x[r * stride + c];
    // eps is passed as f32: the reference uses the same value.
    double scale = 1 / std::sqrt(squares / cols + static_cast<double>(static_cast<float>(eps)));
    for (int64_t c = 0; c < cols; ++c)
      out.reference[r * stride + c] = x[r * stride + c] * scale * gamma[c];
  }
  p.pointerArg(out);
  p.pointerArg(x);
  p.pointerArg(gamma);
  p.scalarArg(ElemType::I32, stride);
  p.scalarArg(ElemType::I32, cols);
  p.scalarArg(ElemType::F32, eps);
  p.grid = {static_cast<uint32_t>(rows), 1, 1};
}

const std::vector<KernelCheck> &llk::checks::kernelChecks() {
  static const std::vector<KernelCheck> checks = {
      {"vector_add", "vector_add.mlir", "add_kernel", {{"BLOCK", 128}}, 1e-5, vectorAdd},
      {"softmax", "softmax.mlir", "softmax_kernel", {{"BLOCK", 128}}, 1e-5, softmax},
      {"rms_norm", "rms_norm.mlir", "rms_norm_kernel", {{"BLOCK", 128}}, 1e-5, rmsNorm},
  };
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
    if (std::isnan(want)) {
      bool poisoned = interp::isFloat(out.type) ? std::isnan(got) : got == -1;
      if (!poisoned) {
        detail = "element " + std::to_string(i) +
                 " has no reference value, but the kernel wrote it";
        return INFINITY;
      }
      continue;
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

CheckResult llk::checks::runCheck(const KernelCheck &check,
                                  const std::string &examplesDir, uint64_t seed,
                                  mlir::MLIRContext &context) {
  CheckResult result;
  result.error = NAN;
  std::string error;
  auto module = interp::loadKernelSource(context, examplesDir + "/" + check.source,
                                         check.constants, error);
  if (!module) {
    result.message = error;
    return result;
  }
  mlir::func::FuncOp kernel = interp::findKernel(*module, check.kernel, error);
  if (!kernel) {
    result.message = error;
    return result;
  }

  std::mt19937_64 rng(seed);
  Problem problem(rng);
  check.build(problem);

  interp::Options options;
  options.checkUninitialized = true;
  interp::Interpreter interpreter(options);
  for (HostBuffer &buffer : problem.buffers) {
    if (buffer.isOutput) { // poison: NaN for floats, 0xFF.. for integers
      size_t size = interp::elemTypeSize(buffer.type);
      for (size_t i = 0; i < buffer.size(); ++i)
        if (interp::isFloat(buffer.type))
          interp::encodeElement(buffer.type, NAN, &buffer.bytes[i * size]);
        else
          std::memset(&buffer.bytes[i * size], 0xff, size);
    }
    if (auto err = interpreter.addBuffer(buffer.bytes.data(), buffer.bytes.size(),
                                         buffer.name, !buffer.isOutput)) {
      result.message = *err;
      return result;
    }
  }
  interp::KernelArgs args;
  for (const Problem::Arg &arg : problem.args) {
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
    case ElemType::F16:
    case ElemType::BF16: {
      uint16_t bits;
      interp::encodeElement(arg.type, arg.value, &bits);
      args.add<uint16_t>(bits);
      break;
    }
    }
  }
  if (auto err = interpreter.run(kernel, problem.grid, args.pointers())) {
    result.message = *err;
    return result;
  }

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
