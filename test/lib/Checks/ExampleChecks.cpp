//===- ExampleChecks.cpp - the compiler-core examples ---------------------===//

#include "Checks/KernelChecks.h"

#include <cmath>

using namespace llk::checks;
using llk::interp::ElemType;

void llk::checks::vectorAddProblem(Problem &p, int64_t n) {
  HostBuffer &x = p.randn("x", ElemType::F32, {n});
  HostBuffer &y = p.randn("y", ElemType::F32, {n});
  HostBuffer &out = p.output("out", ElemType::F32, {n});
  for (int64_t i = 0; i < n; ++i)
    out.reference[i] = x[i] + y[i];
  p.pointerArg(x);
  p.pointerArg(y);
  p.pointerArg(out);
  p.scalarArg(ElemType::I32, n);
}

static void vectorAdd(Problem &p) {
  const int64_t n = 1000, block = 128;
  vectorAddProblem(p, n);
  setGrid(p, ceilDiv(n, block));
}

std::pair<HostBuffer *, HostBuffer *>
llk::checks::rowSoftmaxProblem(Problem &p, int64_t rows, int64_t cols,
                               int64_t inStride, int64_t outStride) {
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
  return {&in, &out};
}

// softmax over rows of `cols` < BLOCK columns; input rows padded (stride).
static void softmax(Problem &p) {
  const int64_t rows = 6, cols = 80, inStride = 96, outStride = 80;
  auto [in, out] = rowSoftmaxProblem(p, rows, cols, inStride, outStride);
  p.pointerArg(*out);
  p.pointerArg(*in);
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

std::vector<KernelCheck> llk::checks::exampleChecks() {
  return {
      {"vector_add", "vector_add.mlir", "add_kernel", {{"BLOCK", 128}}, 1e-5, vectorAdd},
      // Triton's tutorial 01, the same kernel in the short forms (n = 1000:
      // no divisibility by 16 to promise).
      {"triton_01_vector_add", "triton/01_vector_add.mlir", "add_kernel",
       {{"BLOCK", 128}, {"DIV", 1}}, 1e-5, vectorAdd},
      {"softmax", "softmax.mlir", "softmax_kernel", {{"BLOCK", 128}}, 1e-5, softmax},
      {"rms_norm", "rms_norm.mlir", "rms_norm_kernel", {{"BLOCK", 128}}, 1e-5, rmsNorm},
  };
}

