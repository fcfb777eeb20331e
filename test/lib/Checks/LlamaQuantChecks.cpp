//===- LlamaQuantChecks.cpp - Llama's int8 (q8_0 / q8_1) kernels ----------===//
//
// quantize_q8_1, linear_q8_0 and mul_mat_vec_q (examples/llama/), the
// prompt-phase GEMM on q8_0 weights (examples/gemm_q8_0.mlir), and the
// prompt's other path: the weights dequantized to f16 (dequant_q8_0.mlir)
// for the TMA GEMM (prefill_gemm.mlir), against float64 references. The packed formats are built and read byte by byte, as
// llama.cpp stores them (../shared/spec/llama-kernels.md):
//   block_q8_0 = 34 bytes { f16 d; int8 qs[32]; }
//   block_q8_1 = 36 bytes { f16 d; f16 s; int8 qs[32]; }
// and every reference is computed from the bytes the kernel reads.
//
//===----------------------------------------------------------------------===//

#include "QuantBlocks.h"

#include <cmath>
#include <cstring>

using namespace llk::checks;
using namespace llk::checks::quant;
using llk::interp::ElemType;

namespace {

//===----------------------------------------------------------------------===//
// quantize_q8_1
//===----------------------------------------------------------------------===//

constexpr int64_t kQuantizeBlocks = 16; // BLOCKS on the GPU: 512 values a program

/// `rows` rows of `kx` values (kx a multiple of 16) padded to `kxPadded` (a
/// multiple of 512). The inputs are multiples of 2^-10 in [-4, 4), so the
/// kernel's f32 sums are exact in any order and every output byte is
/// determined: the reference is the bytes themselves (a quant may still
/// differ by one where x/d is within f32 rounding of a half).
void quantizeQ8_1(Problem &p, int64_t rows, int64_t kx, int64_t kxPadded,
                  int64_t blocks) {
  HostBuffer &x = p.uniform("x", ElemType::F32, {rows, kx}, -4, 4);
  for (size_t i = 0; i < x.size(); ++i)
    x.set(i, std::round(x[i] * 1024) / 1024); // exact in f32
  std::vector<double> padded(rows * kxPadded, 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < kx; ++c)
      padded[r * kxPadded + c] = x[r * kx + c];
  std::vector<uint8_t> want = packRows(padded, rows, kxPadded, kQ8_1Bytes, writeQ8_1);
  HostBuffer &y = p.output("y", ElemType::I8, {static_cast<int64_t>(want.size())});
  for (size_t i = 0; i < want.size(); ++i)
    y.reference[i] = static_cast<int8_t>(want[i]);
  p.pointerArg(y);
  p.pointerArg(x);
  p.scalarArg(ElemType::I32, kx);
  p.scalarArg(ElemType::I32, kxPadded);
  p.grid = {static_cast<uint32_t>(ceilDiv(kxPadded, kQK * blocks)),
            static_cast<uint32_t>(rows), 1};
  p.bytes = rows * kx * 4.0 + want.size();
}

GpuCase quantizeCase(int64_t rows, int64_t kx) {
  int64_t kxPadded = ceilDiv(kx, 512) * 512;
  return {std::to_string(rows) + "x" + std::to_string(kx),
          [=](Problem &p) {
            quantizeQ8_1(p, rows, kx, kxPadded, kQuantizeBlocks);
            p.constants = {{"BLOCKS", kQuantizeBlocks}};
          }};
}

//===----------------------------------------------------------------------===//
// linear_q8_0 and mul_mat_vec_q
//===----------------------------------------------------------------------===//

/// ROWS (rows a program) and BLOCKS (blocks of a row an iteration) of
/// examples/kernels.list.
struct MatVecConfig {
  int64_t rows, blocks;
};
constexpr MatVecConfig kLinearConfig{8, 32};
constexpr MatVecConfig kMulMatVecQConfig{4, 32};

llk::Constants matVecConstants(MatVecConfig c) {
  return {{"ROWS", c.rows}, {"BLOCKS", c.blocks}};
}

/// y = W x with W an n x k block_q8_0 matrix and x f32.
void linearQ8_0(Problem &p, int64_t n, int64_t k) {
  HostBuffer &w = randomQ8_0(p, "w", n, k);
  HostBuffer &x = p.randn("x", ElemType::F32, {k});
  HostBuffer &y = p.output("y", ElemType::F32, {n});
  PackedView wv = viewQ8_0(w, k);
  for (int64_t r = 0; r < n; ++r) {
    double sum = 0;
    for (int64_t b = 0; b < k / kQK; ++b) {
      double dot = 0;
      for (int64_t j = 0; j < kQK; ++j)
        dot += wv.q(r, b, j) * x[b * kQK + j];
      sum += wv.d(r, b) * dot;
    }
    y.reference[r] = sum;
  }
  p.pointerArg(y);
  p.pointerArg(w);
  p.pointerArg(x);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  p.bytes = w.bytes.size() + k * 4.0 + n * 4.0;
}

/// y = W xq with W an n x k block_q8_0 matrix and xq k values in block_q8_1
/// (padded to a multiple of 512, as quantize_q8_1 leaves them).
void mulMatVecQ(Problem &p, int64_t n, int64_t k) {
  HostBuffer &w = randomQ8_0(p, "w", n, k);
  int64_t kPadded = ceilDiv(k, 512) * 512;
  HostBuffer &xq = randomQ8_1(p, "xq", kPadded);
  HostBuffer &y = p.output("y", ElemType::F32, {n});
  PackedView wv = viewQ8_0(w, k), xv = viewQ8_1(xq, kPadded);
  for (int64_t r = 0; r < n; ++r) {
    double sum = 0;
    for (int64_t b = 0; b < k / kQK; ++b) {
      int64_t dot = 0;
      for (int64_t j = 0; j < kQK; ++j)
        dot += wv.q(r, b, j) * xv.q(0, b, j);
      sum += wv.d(r, b) * xv.d(0, b) * dot;
    }
    y.reference[r] = sum;
  }
  p.pointerArg(y);
  p.pointerArg(w);
  p.pointerArg(xq);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  p.bytes = w.bytes.size() + k / kQK * kQ8_1Bytes + n * 4.0;
}

using MatVec = void (*)(Problem &, int64_t, int64_t);

/// The interpreter's shape: ROWS = 4 and 8 blocks an iteration, N = 37 (the
/// last program has one row) and K = 13 blocks (the second iteration is
/// partly masked; rows are only 2-byte aligned).
template <MatVec kernel> void matVecSmall(Problem &p) {
  const int64_t n = 37, k = 13 * kQK;
  kernel(p, n, k);
  p.grid = {static_cast<uint32_t>(ceilDiv(n, 4)), 1, 1};
}

template <MatVec kernel>
GpuCase matVecCase(MatVecConfig c, int64_t n, int64_t k) {
  return {std::to_string(n) + "x" + std::to_string(k), [=](Problem &p) {
            kernel(p, n, k);
            p.constants = matVecConstants(c);
            p.grid = {static_cast<uint32_t>(ceilDiv(n, c.rows)), 1, 1};
          }};
}

/// Llama-2 7B's generation linears, and an awkward one (N odd, K = 129
/// blocks: rows not 16-byte aligned, the last iteration 1 block).
template <MatVec kernel> std::vector<GpuCase> matVecCases(MatVecConfig c) {
  return {matVecCase<kernel>(c, 4096, 4096), matVecCase<kernel>(c, 11008, 4096),
          matVecCase<kernel>(c, 4096, 11008), matVecCase<kernel>(c, 4001, 4128)};
}

//===----------------------------------------------------------------------===//
// gemm_q8_0 (prompt phase)
//===----------------------------------------------------------------------===//

/// C = A W^T with A m x k f16 activations, W an n x k block_q8_0 matrix and
/// C f32. The reference uses the exact weights d * qs; the kernel rounds
/// each to f16 once (relative 2^-12 a weight), hence f16 tolerances.
void gemmQ8_0(Problem &p, int64_t m, int64_t n, int64_t k, int64_t blockM,
              int64_t blockN) {
  HostBuffer &a = p.randn("a", ElemType::F16, {m, k});
  HostBuffer &w = randomQ8_0(p, "w", n, k);
  HostBuffer &c = p.output("c", ElemType::F32, {m, n});
  PackedView wv = viewQ8_0(w, k);
  std::vector<double> weights(n * k);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t q = 0; q < k; ++q)
      weights[r * k + q] = wv.d(r, q / kQK) * wv.q(r, q / kQK, q % kQK);
  parallelRows(m, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t q = 0; q < k; ++q)
          sum += a[i * k + q] * weights[j * k + q];
        c.reference[i * n + j] = sum;
      }
  });
  p.pointerArg(a);
  p.pointerArg(w);
  p.pointerArg(c);
  p.scalarArg(ElemType::I32, m);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  p.scalarArg(ElemType::I32, k); // stride_am
  p.scalarArg(ElemType::I32, n); // stride_cm
  p.grid = {static_cast<uint32_t>(ceilDiv(m, blockM) * ceilDiv(n, blockN)), 1, 1};
  p.bytes = 2.0 * m * k + w.bytes.size() + 4.0 * m * n;
}

/// The GPU's blocks: 128 x 64 x 64, 4 warps (examples/kernels.list).
GpuCase gemmQ8_0Case(int64_t m, int64_t n, int64_t k) {
  return {std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
          [=](Problem &p) {
            gemmQ8_0(p, m, n, k, 128, 64);
            p.constants = {{"BLOCK_M", 128}, {"BLOCK_N", 64}, {"BLOCK_K", 64},
                           {"GROUP_SIZE_M", 8}};
            p.numWarps = 4;
          }};
}

//===----------------------------------------------------------------------===//
// dequant_q8_0_trans and prefill_gemm (prompt phase, TMA)
//===----------------------------------------------------------------------===//

/// wt = f16(W)^T for an n x k q8_0 matrix W (split): the reference is each
/// exact d * q rounded to f16, as the kernel rounds it: exact.
void dequantQ8_0Trans(Problem &p, int64_t n, int64_t k, int64_t blockK, int64_t blockN) {
  HostBuffer &wt = p.output("wt", ElemType::F16, {k, n});
  SplitQ8_0 wv = randomSplitQ8_0(p, "w", n, k);
  uint8_t half[2];
  for (int64_t r = 0; r < n; ++r)
    for (int64_t q = 0; q < k; ++q) {
      putHalf(half, wv.d(r, q / kQK) * wv.q(r, q / kQK, q % kQK));
      wt.reference[q * n + r] = getHalf(half);
    }
  p.pointerArg(wt);
  p.pointerArg(wv.quants);
  p.pointerArg(wv.scales);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  p.scalarArg(ElemType::I32, n); // ld
  setGrid(p, ceilDiv(k, blockK), ceilDiv(n, blockN));
  p.bytes = n * k / kQK * kQ8_0Bytes + 2.0 * n * k;
}

/// The GPU's tiles: 128 x 64, 4 warps (llk-llama's).
GpuCase dequantCase(int64_t n, int64_t k) {
  return {std::to_string(n) + "x" + std::to_string(k), [=](Problem &p) {
            dequantQ8_0Trans(p, n, k, 128, 64);
            p.constants = {{"BLOCK_K", 128}, {"BLOCK_N", 64}, {"BLOCK_Q", 256}};
            p.numWarps = 4;
          }};
}

/// C = [R +] A B with A m x k and B k x n f16 (descriptors), C and R f32.
void prefillGemm(Problem &p, int64_t m, int64_t n, int64_t k, bool accumulate, int64_t block) {
  HostBuffer &a = p.randn("a", ElemType::F16, {m, k});
  HostBuffer &b = p.randn("b", ElemType::F16, {k, n});
  HostBuffer &c = p.output("c", ElemType::F32, {m, n});
  HostBuffer &r = p.randn("r", ElemType::F32, {m, n});
  parallelRows(m, [&](int64_t begin, int64_t end) {
    std::vector<double> row(n);
    for (int64_t i = begin; i < end; ++i) {
      for (int64_t j = 0; j < n; ++j)
        row[j] = accumulate ? r[i * n + j] : 0.0;
      for (int64_t q = 0; q < k; ++q)
        for (int64_t j = 0; j < n; ++j)
          row[j] += a[i * k + q] * b[q * n + j];
      for (int64_t j = 0; j < n; ++j)
        c.reference[i * n + j] = row[j];
    }
  });
  p.descriptorArg(a);
  p.descriptorArg(b);
  p.pointerArg(c);
  p.pointerArg(r);
  p.scalarArg(ElemType::I32, m);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  p.scalarArg(ElemType::I32, n); // stride_cm
  p.arch = "sm_90a";
  setGrid(p, ceilDiv(m, block), ceilDiv(n, block));
  p.bytes = 2.0 * (m * k + k * n) + 4.0 * m * n * (accumulate ? 2 : 1);
}

/// llk-llama's blocks: 128 x 128 x 64, 4 warps (8 with the residual); a
/// 511-token batch (the prompt of 512 but its last token, which the decode
/// step takes).
GpuCase prefillGemmCase(int64_t n, int64_t k, bool accumulate) {
  return {"511x" + std::to_string(n) + "x" + std::to_string(k), [=](Problem &p) {
            prefillGemm(p, 511, n, k, accumulate, 128);
            p.constants = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}};
            p.numWarps = accumulate ? 8 : 4;
          }};
}

KernelCheck prefillGemmCheck(bool accumulate) {
  // Small shape as gemm_tma's: M and N edges and a K tail in 64 x 64 x 64
  // blocks. GPU: the 7B layer's GEMMs (Q/K/V, gate/up, and the o and down
  // projections with the residual).
  std::vector<GpuCase> cases;
  if (accumulate)
    cases = {prefillGemmCase(4096, 4096, true), prefillGemmCase(4096, 11008, true)};
  else
    cases = {prefillGemmCase(12288, 4096, false), prefillGemmCase(11008, 4096, false)};
  return {accumulate ? "prefill_gemm_residual" : "prefill_gemm",
          "llama/prefill_gemm.mlir",
          "prefill_gemm",
          {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 64}, {"ACCUMULATE", accumulate ? 1 : 0}},
          // f32 sums of up to 11008 products on warpgroup MMA: 4.9e-6 at
          // K = 4096, 1.3e-5 at 11008 (H200, 2026-12-03).
          3e-5,
          [=](Problem &p) { prefillGemm(p, 100, 72, 80, accumulate, 64); },
          cases};
}

} // namespace

std::vector<KernelCheck> llk::checks::llamaQuantChecks() {
  // quantize_q8_1: bytes exact but for rare +-1 quants, so a tighter bound
  // than int8's 1e-2 (which a 1%-wrong scale would pass).
  return {
      {"quantize_q8_1", "llama/quantize_q8_1.mlir", "quantize_q8_1",
      {{"BLOCKS", 4}}, 2e-3,
      // 3 rows of 1008 values (31.5 blocks) padded to 1536: a half-masked
      // block and 16 all-zero ones (amax = 0) a row.
      [](Problem &p) { quantizeQ8_1(p, 3, 1008, 1536, 4); },
      // Decode and prompt (T = 512) activations, and an awkward length.
      {quantizeCase(1, 4096), quantizeCase(1, 11008), quantizeCase(512, 4096),
       quantizeCase(512, 11008), quantizeCase(7, 4000)}},
      // The dequantizing and the integer mat-vec compute exactly defined sums
      // of the stored values in f32: f32 accuracy.
      {"linear_q8_0", "llama/linear_q8_0.mlir", "linear_q8_0",
       matVecConstants({4, 8}), 1e-5, matVecSmall<linearQ8_0>,
       matVecCases<linearQ8_0>(kLinearConfig)},
      {"mul_mat_vec_q", "llama/mul_mat_vec_q.mlir", "mul_mat_vec_q",
       matVecConstants({4, 8}), 1e-5, matVecSmall<mulMatVecQ>,
       matVecCases<mulMatVecQ>(kMulMatVecQConfig)},
      // The prompt-phase GEMM on q8_0 weights. Small shape: M = 37 (rows
      // wrap), N = 40 (a partial block of columns), K = 5 blocks (the second
      // 64-wide step is half masked).
      {"gemm_q8_0", "gemm_q8_0.mlir", "gemm_q8_0_kernel",
       {{"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 64}, {"GROUP_SIZE_M", 2}},
       1e-3, [](Problem &p) { gemmQ8_0(p, 37, 40, 5 * kQK, 32, 32); },
       {gemmQ8_0Case(512, 4096, 4096), gemmQ8_0Case(512, 11008, 4096),
        gemmQ8_0Case(512, 4096, 11008), gemmQ8_0Case(333, 1000, 4128)}},
      // The f16 weights of the TMA path. Small shape: N = 40 (a partial tile
      // of 32 columns), K = 5 blocks (a partial tile of 64). The kernel's
      // contract: N and ld multiples of 8 (its stores are 16 bytes), so the
      // awkward GPU shape is N = 4040 (a partial tile of 64 rows).
      {"dequant_q8_0_trans", "llama/dequant_q8_0.mlir", "dequant_q8_0_trans",
       {{"BLOCK_K", 64}, {"BLOCK_N", 32}, {"BLOCK_Q", 64}}, 1e-7,
       [](Problem &p) { dequantQ8_0Trans(p, 40, 5 * kQK, 64, 32); },
       {dequantCase(12288, 4096), dequantCase(11008, 4096), dequantCase(4096, 11008),
        dequantCase(4040, 4128)}},
      prefillGemmCheck(false),
      prefillGemmCheck(true),
  };
}
