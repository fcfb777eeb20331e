//===- GemmChecks.cpp - the tensor-core GEMMs -----------------------------===//
//
// f16 or bf16 inputs, f32 accumulation, output in the input type: the
// reference is the float64 product of the rounded inputs, passed through the
// same epilogue; the kernels' error is the rounding of the output plus f32
// accumulation order.
//
//===----------------------------------------------------------------------===//

#include "llk/Checks/KernelChecks.h"

#include <cmath>

using namespace llk::checks;
using llk::interp::ElemType;

namespace {

/// C = act(A * B), A MxK, B KxN, C MxN, all row-major, packed, of `type`.
template <typename Act>
void gemmProblem(Problem &p, int64_t m, int64_t n, int64_t k, Act act,
                 ElemType type = ElemType::F16) {
  HostBuffer &a = p.randn("a", type, {m, k});
  HostBuffer &b = p.randn("b", type, {k, n});
  HostBuffer &c = p.output("c", type, {m, n});
  parallelRows(m, [&](int64_t begin, int64_t end) {
    std::vector<double> row(n);
    for (int64_t i = begin; i < end; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      for (int64_t q = 0; q < k; ++q) {
        double x = a[i * k + q];
        for (int64_t j = 0; j < n; ++j)
          row[j] += x * b[q * n + j];
      }
      for (int64_t j = 0; j < n; ++j)
        c.reference[i * n + j] = act(row[j]);
    }
  });
  p.pointerArg(a);
  p.pointerArg(b);
  p.pointerArg(c);
  p.scalarArg(ElemType::I32, m);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  p.scalarArg(ElemType::I32, k); // stride_am
  p.scalarArg(ElemType::I32, n); // stride_bk
  p.scalarArg(ElemType::I32, n); // stride_cm
  p.bytes = 2.0 * (m * k + k * n + m * n);
}

double leakyRelu(double x) { return x >= 0 ? x : 0.01 * x; }
double identity(double x) { return x; }

/// The seed's matmul: grouped 1-D grid, fused leaky_relu.
std::function<void(Problem &)> matmul(int64_t m, int64_t n, int64_t k,
                                      bool gpuBlocks) {
  return [=](Problem &p) {
    gemmProblem(p, m, n, k, leakyRelu);
    int64_t bm = gpuBlocks ? 128 : 32, bn = gpuBlocks ? 128 : 32;
    if (gpuBlocks) {
      p.constants = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32},
                     {"GROUP_SIZE_M", 8}};
      p.numWarps = 4;
    }
    p.grid = {static_cast<uint32_t>(ceilDiv(m, bm) * ceilDiv(n, bn)), 1, 1};
  };
}

/// The plain GEMM (examples/gemm.mlir) on `type`: 2-D grid.
std::function<void(Problem &)> gemm(ElemType type, int64_t m, int64_t n,
                                    int64_t k, bool gpuBlocks) {
  return [=](Problem &p) {
    gemmProblem(p, m, n, k, identity, type);
    int64_t bm = gpuBlocks ? 128 : 32, bn = gpuBlocks ? 128 : 32;
    if (gpuBlocks) {
      p.constants = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 32}};
      p.numWarps = 4;
    }
    p.grid = {static_cast<uint32_t>(ceilDiv(m, bm)),
              static_cast<uint32_t>(ceilDiv(n, bn)), 1};
  };
}

/// The check of examples/gemm.mlir at T = `type`, named gemm_<type>.
KernelCheck gemmCheck(ElemType type, double tolerance) {
  std::string typeName = llk::interp::elemTypeName(type).str();
  return {"gemm_" + typeName,
          "gemm.mlir",
          "gemm_kernel",
          {{"T", *llk::ConstantValue::fromTypeName(typeName)},
           {"BLOCK_M", 32},
           {"BLOCK_N", 32},
           {"BLOCK_K", 32}},
          tolerance,
          gemm(type, 100, 72, 80, false),
          {{"4096x4096x4096", gemm(type, 4096, 4096, 4096, true)},
           {"512x4096x4096", gemm(type, 512, 4096, 4096, true)},
           {"512x11008x4096", gemm(type, 512, 11008, 4096, true)}}};
}

/// The split-K schedule of gemm_splitk.mlir: blocks of bm x bn, the first
/// `numFull` over all of K, the others in `splitK` parts of K.
struct SplitK {
  int64_t m, n, k, bm, bn, bk, numFull, splitK;
  int64_t numPidM() const { return ceilDiv(m, bm); }
  int64_t numPidN() const { return ceilDiv(n, bn); }
  int64_t splitBlocks() const { return numPidM() * numPidN() - numFull; }
  int64_t units() const { return splitBlocks() * splitK; }
};

/// gemm_splitk_kernel: C, every block; the split ones summed from their
/// parts' partials in `work` by the part that arrives last at the block's
/// lock. `work` is scratch (random on entry), `locks` zero.
std::function<void(Problem &)> gemmSplitK(ElemType type, SplitK s,
                                          bool gpuBlocks) {
  return [=](Problem &p) {
    gemmProblem(p, s.m, s.n, s.k, identity, type);
    // gemmProblem's pointers (a, b, c) come first; then the scratch.
    std::vector<Problem::Arg> scalars(p.args.begin() + 3, p.args.end());
    p.args.resize(3);
    p.pointerArg(p.randn("work", ElemType::F32, {s.units(), s.bm, s.bn}));
    p.pointerArg(p.zeros("locks", ElemType::I32, {s.splitBlocks()}));
    p.args.insert(p.args.end(), scalars.begin(), scalars.end());
    p.scalarArg(ElemType::I32, s.numFull);
    p.scalarArg(ElemType::I32, s.splitK);
    if (gpuBlocks) {
      p.constants = {{"BLOCK_M", s.bm}, {"BLOCK_N", s.bn}, {"BLOCK_K", s.bk}};
      p.numWarps = 4;
    }
    setGrid(p, s.numFull + s.units());
  };
}

} // namespace

std::vector<KernelCheck> llk::checks::gemmChecks() {
  // Small shapes that are not multiples of the blocks: M = 100 (rows wrap),
  // N = 72 (a partial block of columns), K = 80 (a masked K tail).
  return {
      {"matmul", "matmul.mlir", "matmul_kernel",
       {{"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 2}},
       2e-3, matmul(100, 72, 80, false),
       {{"1000x1000x1000", matmul(1000, 1000, 1000, true)},
        {"4096x4096x4096", matmul(4096, 4096, 4096, true)}}},
      gemmCheck(ElemType::F16, 2e-3),
      // bf16 keeps 3 fewer significand bits than f16: 8x the output rounding.
      gemmCheck(ElemType::BF16, 1.6e-2),
      // Split-K tail, small shape as above in 32x32x32 blocks (12 of them):
      // 5 whole, 7 in 4 parts of K's 3 steps (one part masked, one empty).
      // GPU: 512x11008x4096 in 128x128x32 blocks, the H100's schedule (264
      // whole blocks on 132 SMs x 2, the other 80 in 3 parts).
      {"gemm_splitk", "gemm_splitk.mlir", "gemm_splitk_kernel",
       {{"T", *llk::ConstantValue::fromTypeName("f16")},
        {"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 32}},
       2e-3, gemmSplitK(ElemType::F16, {100, 72, 80, 32, 32, 32, 5, 4}, false),
       {{"512x11008x4096",
         gemmSplitK(ElemType::F16, {512, 11008, 4096, 128, 128, 32, 264, 3}, true)},
        {"777x264x1048 all split",
         gemmSplitK(ElemType::F16, {777, 264, 1048, 128, 128, 32, 0, 12}, true)}}},
  };
}
