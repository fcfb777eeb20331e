//===- GemmChecks.cpp - the tensor-core GEMMs -----------------------------===//
//
// f16 or bf16 inputs, f32 accumulation, output in the input type: the
// reference is the float64 product of the rounded inputs, passed through the
// same epilogue; the kernels' error is the rounding of the output plus f32
// accumulation order.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

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

/// The TMA GEMMs (gemm_tma*.mlir, sm_90a): A and B as tensor descriptors,
/// then C, M, N, K, stride_cm; `extra` adds the pointers that follow C.
void gemmTmaProblem(Problem &p, int64_t m, int64_t n, int64_t k,
                    const std::function<void(Problem &)> &extra = {}) {
  gemmProblem(p, m, n, k, identity, ElemType::F16);
  HostBuffer &a = *p.args[0].buffer, &b = *p.args[1].buffer,
             &c = *p.args[2].buffer;
  p.args.clear();
  p.descriptorArg(a);
  p.descriptorArg(b);
  p.pointerArg(c);
  if (extra)
    extra(p);
  p.scalarArg(ElemType::I32, m);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  p.scalarArg(ElemType::I32, n); // stride_cm
  p.arch = "sm_90a";
}

/// Block shapes and warps of a TMA GEMM launch.
struct Blocks {
  int64_t bm, bn, bk;
  unsigned warps;
};

void useBlocks(Problem &p, Blocks blocks) {
  p.constants = {{"BLOCK_M", blocks.bm}, {"BLOCK_N", blocks.bn},
                 {"BLOCK_K", blocks.bk}};
  p.numWarps = blocks.warps;
}

/// gemm_tma_kernel: a 2-D grid of blocks.
std::function<void(Problem &)> gemmTma(int64_t m, int64_t n, int64_t k,
                                       Blocks blocks) {
  return [=](Problem &p) {
    gemmTmaProblem(p, m, n, k);
    useBlocks(p, blocks);
    setGrid(p, ceilDiv(m, blocks.bm), ceilDiv(n, blocks.bn));
  };
}

/// gemm_tma_splitk_kernel: gemm_splitk's schedule on TMA loads.
std::function<void(Problem &)> gemmTmaSplitK(SplitK s, unsigned warps) {
  return [=](Problem &p) {
    gemmTmaProblem(p, s.m, s.n, s.k, [&](Problem &q) {
      q.pointerArg(q.randn("work", ElemType::F32, {s.units(), s.bm, s.bn}));
      q.pointerArg(q.zeros("locks", ElemType::I32, {s.splitBlocks()}));
    });
    p.scalarArg(ElemType::I32, s.numFull);
    p.scalarArg(ElemType::I32, s.splitK);
    useBlocks(p, {s.bm, s.bn, s.bk, warps});
    setGrid(p, s.numFull + s.units());
  };
}

/// gemm_tma_persistent_kernel: `programs` programs looping over the blocks.
std::function<void(Problem &)> gemmTmaPersistent(int64_t m, int64_t n,
                                                 int64_t k, Blocks blocks,
                                                 int64_t programs) {
  return [=](Problem &p) {
    gemmTmaProblem(p, m, n, k);
    useBlocks(p, blocks);
    setGrid(p, programs);
  };
}

} // namespace

std::vector<KernelCheck> llk::checks::gemmChecks() {
  // Small shapes that are not multiples of the blocks: M = 100 (rows wrap),
  // N = 72 (a partial block of columns), K = 80 (a masked K tail).
  // The seed's matmul and Triton's tutorial 03, the same kernel in the
  // short forms.
  auto matmulCheck = [](const char *name, const char *source) {
    return KernelCheck{
        name, source, "matmul_kernel",
        {{"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 2}},
        2e-3, matmul(100, 72, 80, false),
        {{"1000x1000x1000", matmul(1000, 1000, 1000, true)},
         {"4096x4096x4096", matmul(4096, 4096, 4096, true)}}};
  };
  return {
      matmulCheck("matmul", "matmul.mlir"),
      matmulCheck("triton_03_matrix_multiplication",
                  "triton/03_matrix_multiplication.mlir"),
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
      // TMA (sm_90a on the GPU; the interpreter reads the descriptors'
      // blocks with the same zero fill). Small shape as above in 64x64x64
      // blocks, the smallest warpgroup MMA takes: M and N edges and the K
      // tail past the tensor's edges.
      {"gemm_tma", "gemm_tma.mlir", "gemm_tma_kernel",
       {{"T", *llk::ConstantValue::fromTypeName("f16")}},
       2e-3, gemmTma(100, 72, 80, {64, 64, 64, 4}),
       {{"777x264x1048", gemmTma(777, 264, 1048, {128, 128, 64, 4})},
        {"512x11008x4096", gemmTma(512, 11008, 4096, {128, 256, 64, 8})}}},
      // 4 blocks: 1 whole, 3 in 2 parts of K's 2 steps. GPU: the H100's
      // schedule at 512x11008x4096 in 128x256 blocks (132 whole, 40 in 3
      // parts), and every block split in 12.
      {"gemm_tma_splitk", "gemm_tma_splitk.mlir", "gemm_tma_splitk_kernel",
       {{"T", *llk::ConstantValue::fromTypeName("f16")}},
       2e-3, gemmTmaSplitK({100, 72, 80, 64, 64, 64, 1, 2}, 4),
       {{"512x11008x4096",
         gemmTmaSplitK({512, 11008, 4096, 128, 256, 64, 132, 3}, 8)},
        {"777x264x1048 all split",
         gemmTmaSplitK({777, 264, 1048, 128, 128, 64, 0, 12}, 4)}}},
      // 4 blocks on 3 programs (the first takes two). GPU: 272 blocks on
      // 132 programs, the next block's copies under the epilogue.
      {"gemm_tma_persistent", "gemm_tma_persistent.mlir",
       "gemm_tma_persistent_kernel",
       {{"T", *llk::ConstantValue::fromTypeName("f16")}},
       2e-3, gemmTmaPersistent(100, 72, 80, {64, 64, 64, 4}, 3),
       {{"2100x2048x520",
         gemmTmaPersistent(2100, 2048, 520, {128, 128, 64, 4}, 132)}}},
  };
}
