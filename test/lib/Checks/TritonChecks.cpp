//===- TritonChecks.cpp - the ports of Triton's tutorials -----------------===//
//
// examples/triton/: each tutorial kernel against a float64 reference of what
// the tutorial computes, at a small shape that takes every path (masked
// tails, loops of several steps, persistent grids smaller than the work) and
// at the tutorials' own shapes on the GPU.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

#include "llk/Dialect/Tile/IR/Philox.h"

#include <cmath>

using namespace llk::checks;
using llk::interp::ElemType;
namespace philox = llk::tile::philox;

namespace {

llk::ConstantValue typeConstant(ElemType type) {
  return *llk::ConstantValue::fromTypeName(llk::interp::elemTypeName(type).str());
}

std::string suffixed(const char *base, ElemType type) {
  return std::string(base) + "_" + llk::interp::elemTypeName(type).str();
}

/// ||out - ref|| / ||ref|| accepted for results stored in `type` (its
/// rounding, a few ulps of f32 arithmetic for f32).
double storageTolerance(ElemType type) {
  switch (type) {
  case ElemType::F16: return 2e-3;
  case ElemType::BF16: return 1.6e-2;
  default: return 1e-5;
  }
}

//===----------------------------------------------------------------------===//
// 02: fused softmax, persistent
//===----------------------------------------------------------------------===//

/// `rows` x `cols` (input rows `inStride` apart, output rows `outStride`) on
/// `programs` programs.
std::function<void(Problem &)> softmax(int64_t rows, int64_t cols,
                                       int64_t inStride, int64_t outStride,
                                       int64_t programs, int64_t block = 0,
                                       int64_t div = 0) {
  return [=](Problem &p) {
    auto [in, out] = rowSoftmaxProblem(p, rows, cols, inStride, outStride);
    p.pointerArg(*out);
    p.pointerArg(*in);
    p.scalarArg(ElemType::I32, inStride);
    p.scalarArg(ElemType::I32, outStride);
    p.scalarArg(ElemType::I32, rows);
    p.scalarArg(ElemType::I32, cols);
    setGrid(p, programs);
    p.bytes = 4.0 * 2 * rows * cols;
    if (block) {
      p.constants = {{"BLOCK", block}, {"DIV", div}};
      p.numWarps = block >= 2048 ? 8 : 4;
    }
  };
}

KernelCheck softmaxCheck() {
  // 7 rows on 3 programs (the first does 3), 80 of 128 columns.
  return {"triton_02_fused_softmax", "triton/02_fused_softmax.mlir",
          "softmax_kernel", {{"BLOCK", 128}, {"DIV", 16}}, 1e-5,
          softmax(7, 80, 96, 80, 3),
          {{"1823x781", softmax(1823, 781, 781, 781, 264, 1024, 1)},
           {"4096x4096", softmax(4096, 4096, 4096, 4096, 264, 4096, 16)}}};
}

//===----------------------------------------------------------------------===//
// 05: layer norm, forward and backward
//===----------------------------------------------------------------------===//

/// float64 mean and 1/std of each row of x [m, n].
void rowStatistics(const HostBuffer &x, int64_t m, int64_t n,
                   std::vector<double> &mean, std::vector<double> &rstd,
                   double eps) {
  mean.assign(m, 0);
  rstd.assign(m, 0);
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < n; ++c)
      mean[r] += x[r * n + c];
    mean[r] /= n;
    double var = 0;
    for (int64_t c = 0; c < n; ++c)
      var += (x[r * n + c] - mean[r]) * (x[r * n + c] - mean[r]);
    rstd[r] = 1 / std::sqrt(var / n + eps);
  }
}

/// eps passes as f32: the references use the same value.
const double kEps = static_cast<float>(1e-5);

/// The tutorial's inputs: x ~ -2.3 + 0.5 N(0, 1), w and b ~ U[0, 1).
HostBuffer &layerNormInput(Problem &p, ElemType type, int64_t m, int64_t n) {
  HostBuffer &x = p.randn("x", type, {m, n});
  for (size_t i = 0; i < x.size(); ++i)
    x.set(i, -2.3 + 0.5 * x[i]);
  return x;
}

std::function<void(Problem &)> layerNormFwd(ElemType type, int64_t m,
                                            int64_t n, int64_t block = 0,
                                            int64_t div = 0) {
  return [=](Problem &p) {
    HostBuffer &x = layerNormInput(p, type, m, n);
    HostBuffer &y = p.output("y", type, {m, n});
    HostBuffer &w = p.uniform("w", type, {n}, 0, 1);
    HostBuffer &b = p.uniform("b", type, {n}, 0, 1);
    HostBuffer &mean = p.output("mean", ElemType::F32, {m});
    HostBuffer &rstd = p.output("rstd", ElemType::F32, {m});
    std::vector<double> mu, rs;
    rowStatistics(x, m, n, mu, rs, kEps);
    for (int64_t r = 0; r < m; ++r) {
      mean.reference[r] = mu[r];
      rstd.reference[r] = rs[r];
      for (int64_t c = 0; c < n; ++c)
        y.reference[r * n + c] = (x[r * n + c] - mu[r]) * rs[r] * w[c] + b[c];
    }
    for (HostBuffer *buffer : {&x, &y, &w, &b, &mean, &rstd})
      p.pointerArg(*buffer);
    p.scalarArg(ElemType::I32, n); // stride
    p.scalarArg(ElemType::I32, n);
    p.scalarArg(ElemType::F32, kEps);
    setGrid(p, m);
    p.bytes = llk::interp::elemTypeSize(type) * (2.0 * m * n + 2.0 * n) + 8.0 * m;
    if (block) {
      p.constants = {{"BLOCK", block}, {"DIV", div}};
      p.numWarps = 8;
    }
  };
}

KernelCheck layerNormFwdCheck(ElemType type) {
  // BLOCK 32 over 80 columns: three chunks, the last one masked.
  return {suffixed("triton_05_layer_norm_fwd", type),
          "triton/05_layer_norm_fwd.mlir",
          "layer_norm_fwd_fused",
          {{"T", typeConstant(type)}, {"BLOCK", 32}, {"DIV", 16}},
          storageTolerance(type),
          layerNormFwd(type, 7, 80),
          {{"1151x8192", layerNormFwd(type, 1151, 8192, 8192, 16)},
           {"4096x4096", layerNormFwd(type, 4096, 4096, 4096, 16)},
           {"333x4000", layerNormFwd(type, 333, 4000, 4096, 1)}}};
}

/// The partial sums' rows and the statistics the forward pass saved.
std::function<void(Problem &)> layerNormBwdDx(ElemType type, int64_t m,
                                              int64_t n, int64_t group,
                                              int64_t block = 0,
                                              int64_t div = 0) {
  return [=](Problem &p) {
    HostBuffer &x = layerNormInput(p, type, m, n);
    HostBuffer &dy = p.randn("dy", type, {m, n});
    for (size_t i = 0; i < dy.size(); ++i)
      dy.set(i, 0.1 * dy[i]);
    HostBuffer &w = p.uniform("w", type, {n}, 0, 1);
    std::vector<double> mu, rs;
    rowStatistics(x, m, n, mu, rs, kEps);
    HostBuffer &mean = p.zeros("mean", ElemType::F32, {m});
    HostBuffer &rstd = p.zeros("rstd", ElemType::F32, {m});
    for (int64_t r = 0; r < m; ++r) {
      mean.set(r, mu[r]);
      rstd.set(r, rs[r]);
    }
    HostBuffer &dx = p.output("dx", type, {m, n});
    // Rows of the partial sums that no row of x reaches keep the poison.
    HostBuffer &dw = p.output("dw_partial", type, {group, n});
    HostBuffer &db = p.output("db_partial", type, {group, n});
    HostBuffer &locks = p.zeros("locks", ElemType::I32, {2 * group});
    for (int64_t r = 0; r < m; ++r) {
      // The gradient of the normalization at the saved (rounded) statistics.
      double c1 = 0, c2 = 0;
      std::vector<double> xhat(n), wdy(n);
      for (int64_t c = 0; c < n; ++c) {
        xhat[c] = (x[r * n + c] - mean[r]) * rstd[r];
        wdy[c] = w[c] * dy[r * n + c];
        c1 += xhat[c] * wdy[c];
        c2 += wdy[c];
      }
      c1 /= n;
      c2 /= n;
      int64_t g = r % group;
      for (int64_t c = 0; c < n; ++c) {
        dx.reference[r * n + c] = (wdy[c] - (xhat[c] * c1 + c2)) * rstd[r];
        double &dwSum = dw.reference[g * n + c], &dbSum = db.reference[g * n + c];
        if (r < group)
          dwSum = dbSum = 0;
        dwSum += dy[r * n + c] * xhat[c];
        dbSum += dy[r * n + c];
      }
    }
    for (HostBuffer *buffer : {&dx, &dy, &dw, &db, &x, &w, &mean, &rstd, &locks})
      p.pointerArg(*buffer);
    p.scalarArg(ElemType::I32, n); // stride
    p.scalarArg(ElemType::I32, n);
    setGrid(p, m);
    p.bytes = llk::interp::elemTypeSize(type) * (3.0 * m * n + n) + 8.0 * m;
    if (block) {
      p.constants = {{"BLOCK", block}, {"DIV", div}, {"GROUP_SIZE_M", group}};
      p.numWarps = 8;
    }
  };
}

/// The bwd file's kernels share its constants; dwdb's blocks for the dx
/// checks and the reverse.
llk::Constants layerNormBwdConstants(ElemType type) {
  return {{"T", typeConstant(type)}, {"BLOCK", 128}, {"DIV", 16},
          {"GROUP_SIZE_M", 4}, {"BLOCK_M", 4}, {"BLOCK_N", 32}};
}

KernelCheck layerNormBwdDxCheck(ElemType type) {
  // 7 rows into 4 partial-sum rows: three rows take two, one takes one.
  // The partial sums add in T, in the order the locks are taken.
  return {suffixed("triton_05_layer_norm_bwd_dx", type),
          "triton/05_layer_norm_bwd.mlir",
          "layer_norm_bwd_dx_fused",
          layerNormBwdConstants(type),
          2 * storageTolerance(type),
          layerNormBwdDx(type, 7, 80, 4),
          // The tutorial's GROUP_SIZE_M for these N.
          {{"1151x8192", layerNormBwdDx(type, 1151, 8192, 96, 8192, 16)},
           {"4096x4096", layerNormBwdDx(type, 4096, 4096, 128, 4096, 16)},
           {"333x4000", layerNormBwdDx(type, 333, 4000, 128, 4096, 1)}}};
}

std::function<void(Problem &)> layerNormBwdDwdb(ElemType type, int64_t group,
                                                int64_t n, int64_t blockM = 0,
                                                int64_t blockN = 0) {
  return [=](Problem &p) {
    HostBuffer &dw = p.randn("dw_partial", type, {group, n});
    HostBuffer &db = p.randn("db_partial", type, {group, n});
    HostBuffer &finalDw = p.output("dw", type, {n});
    HostBuffer &finalDb = p.output("db", type, {n});
    for (int64_t c = 0; c < n; ++c) {
      double sw = 0, sb = 0;
      for (int64_t g = 0; g < group; ++g) {
        sw += dw[g * n + c];
        sb += db[g * n + c];
      }
      finalDw.reference[c] = sw;
      finalDb.reference[c] = sb;
    }
    for (HostBuffer *buffer : {&dw, &db, &finalDw, &finalDb})
      p.pointerArg(*buffer);
    p.scalarArg(ElemType::I32, group);
    p.scalarArg(ElemType::I32, n);
    int64_t bn = blockN ? blockN : 32;
    setGrid(p, ceilDiv(n, bn));
    p.bytes = llk::interp::elemTypeSize(type) * (2.0 * group * n + 2.0 * n);
    if (blockM) {
      p.constants = {{"BLOCK_M", blockM}, {"BLOCK_N", blockN}, {"DIV", 16}};
      p.numWarps = 4;
    }
  };
}

KernelCheck layerNormBwdDwdbCheck(ElemType type) {
  // 10 rows in blocks of 4 (a masked last step), 80 columns on 3 programs.
  return {suffixed("triton_05_layer_norm_bwd_dwdb", type),
          "triton/05_layer_norm_bwd.mlir",
          "layer_norm_bwd_dwdb",
          layerNormBwdConstants(type),
          storageTolerance(type),
          layerNormBwdDwdb(type, 10, 80),
          {{"96x8192", layerNormBwdDwdb(type, 96, 8192, 32, 128)},
           {"128x4096", layerNormBwdDwdb(type, 128, 4096, 32, 128)}}};
}

//===----------------------------------------------------------------------===//
// 04: low-memory dropout
//===----------------------------------------------------------------------===//

/// The seeded dropout of n elements, a fresh seed and p: the keep bits from
/// Philox.h's uniforms (tl.rand's, exact), the kept elements x / (1 - p) in
/// float64 (1 - p rounded to f32 as the kernel computes it).
std::function<void(Problem &)> dropoutProblem(int64_t n, int64_t block) {
  return [=](Problem &p) {
    HostBuffer &x = p.randn("x", ElemType::F32, {n});
    HostBuffer &out = p.output("output", ElemType::F32, {n});
    float drop = float(p.randomInt(1, 9)) / 10;
    int64_t seed = p.randomInt(INT32_MIN, INT32_MAX);
    std::array<uint32_t, 2> key = philox::key(seed);
    double scale = double(1.0f - drop);
    for (int64_t i = 0; i < n; ++i) {
      float u = philox::uniform(philox::philox(philox::counter(uint64_t(i), false), key)[0]);
      out.reference[i] = u > drop ? x[i] / scale : 0.0;
    }
    p.pointerArg(x);
    p.pointerArg(out);
    p.scalarArg(ElemType::I32, n);
    p.scalarArg(ElemType::F32, drop);
    p.scalarArg(ElemType::I32, double(seed));
    setGrid(p, ceilDiv(n, block));
    p.bytes = 8.0 * n;
    if (block != 128) {
      p.constants = {{"BLOCK", block}, {"DIV", n % 16 ? 1 : 16}};
      p.numWarps = 4;
    }
  };
}

KernelCheck dropoutCheck() {
  // The keep bits exact; a kept element within the rounding of one f32
  // division.
  return {"triton_04_low_memory_dropout", "triton/04_low_memory_dropout.mlir",
          "seeded_dropout", {{"BLOCK", 128}, {"DIV", 8}}, 1e-6,
          dropoutProblem(1000, 128),
          {{"98432", dropoutProblem(98432, 1024)},
           {"2^24", dropoutProblem(1 << 24, 1024)}}};
}

//===----------------------------------------------------------------------===//
// 07: libdevice asin
//===----------------------------------------------------------------------===//

std::function<void(Problem &)> asinProblem(ElemType type, int64_t n,
                                           int64_t block) {
  return [=](Problem &p) {
    HostBuffer &x = p.uniform("x", type, {n}, -1, 1);
    HostBuffer &y = p.output("y", type, {n});
    for (int64_t i = 0; i < n; ++i)
      y.reference[i] = std::asin(x[i]);
    p.pointerArg(x);
    p.pointerArg(y);
    p.scalarArg(ElemType::I32, n);
    setGrid(p, ceilDiv(n, block));
    p.bytes = 2.0 * llk::interp::elemTypeSize(type) * n;
    if (block != 128) {
      p.constants = {{"BLOCK", block}, {"DIV", n % 16 ? 1 : 16}};
      p.numWarps = 4;
    }
  };
}

KernelCheck asinCheck(ElemType type) {
  // libdevice's asinf is within 2 ulp (f32); asin within 2 ulp (f64).
  return {suffixed("triton_07_libdevice_asin", type),
          "triton/07_libdevice_asin.mlir",
          "asin_kernel",
          {{"T", typeConstant(type)}, {"BLOCK", 128}, {"DIV", 8}},
          type == ElemType::F64 ? 1e-14 : 1e-6,
          asinProblem(type, 1000, 128),
          {{"98432", asinProblem(type, 98432, 1024)},
           {"2^24", asinProblem(type, 1 << 24, 1024)}}};
}

//===----------------------------------------------------------------------===//
// 08: grouped GEMM
//===----------------------------------------------------------------------===//

struct GemmShape {
  int64_t m, n, k;
};

/// C_g = A_g * B_g (f16, row-major, packed) for every shape, on `programs`
/// programs.
std::function<void(Problem &)> groupedGemm(std::vector<GemmShape> shapes,
                                           int64_t programs, int64_t bm = 0,
                                           int64_t bn = 0, int64_t bk = 0) {
  return [=](Problem &p) {
    std::vector<const HostBuffer *> as, bs, cs;
    int64_t g = static_cast<int64_t>(shapes.size());
    HostBuffer &sizes = p.zeros("group_gemm_sizes", ElemType::I32, {g, 3});
    HostBuffer &lds = p.zeros("g_lds", ElemType::I32, {g, 3});
    double flops = 0;
    for (int64_t i = 0; i < g; ++i) {
      auto [m, n, k] = shapes[i];
      std::string id = std::to_string(i);
      HostBuffer &a = p.randn("a" + id, ElemType::F16, {m, k});
      HostBuffer &b = p.randn("b" + id, ElemType::F16, {k, n});
      HostBuffer &c = p.output("c" + id, ElemType::F16, {m, n});
      parallelRows(m, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r)
          for (int64_t j = 0; j < n; ++j) {
            double sum = 0;
            for (int64_t q = 0; q < k; ++q)
              sum += a[r * k + q] * b[q * n + j];
            c.reference[r * n + j] = sum;
          }
      });
      as.push_back(&a);
      bs.push_back(&b);
      cs.push_back(&c);
      for (int64_t j = 0; j < 3; ++j) {
        sizes.set(i * 3 + j, j == 0 ? m : j == 1 ? n : k);
        lds.set(i * 3 + j, j == 0 ? k : n);
      }
      flops += 2.0 * m * n * k;
      p.bytes += 2.0 * (m * k + k * n + m * n);
    }
    p.pointerArg(p.addressTable("group_a_ptrs", as));
    p.pointerArg(p.addressTable("group_b_ptrs", bs));
    p.pointerArg(p.addressTable("group_c_ptrs", cs));
    p.pointerArg(sizes);
    p.pointerArg(lds);
    p.scalarArg(ElemType::I32, g);
    setGrid(p, programs);
    if (bm) {
      p.constants = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", bk}};
      p.numWarps = 4;
    }
  };
}

KernelCheck groupedGemmCheck() {
  // Three problems of 2, 2 and 3 blocks (K of 2, 1 and 3 steps) on 3
  // programs: each crosses problems, one takes three blocks.
  std::vector<GemmShape> small = {{64, 32, 64}, {32, 64, 32}, {96, 32, 96}};
  std::vector<GemmShape> tutorial = {
      {1024, 1024, 1024}, {512, 512, 512}, {256, 256, 256}, {128, 128, 128}};
  std::vector<GemmShape> llama = {
      {512, 4096, 4096}, {512, 11008, 4096}, {512, 4096, 11008}, {256, 4096, 4096}};
  return {"triton_08_grouped_gemm", "triton/08_grouped_gemm.mlir",
          "grouped_matmul_kernel",
          {{"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 32}},
          2e-3,
          groupedGemm(small, 3),
          {{"1024+512+256+128 square", groupedGemm(tutorial, 132, 128, 128, 32)},
           {"4 Llama-2 7B prompt GEMMs", groupedGemm(llama, 132, 128, 128, 32)}}};
}

//===----------------------------------------------------------------------===//
// 10 (stand-in): fp8 GEMM with per-tensor and per-row scales
//===----------------------------------------------------------------------===//

/// The arguments and launch of examples/triton/10_fp8_gemm.mlir's kernels:
/// buffers a, b, c, sa, sb, the scales' strides, M, N, K and the row
/// strides of packed A, B and C; blocks of 32 unless bm (then the GPU
/// shape's, on sm_90a, with `warps`).
void fp8GemmArgs(Problem &p, std::initializer_list<HostBuffer *> buffers, int64_t strideSa,
                 int64_t strideSb, int64_t m, int64_t n, int64_t k, int64_t bm, int64_t bn,
                 int64_t bk, unsigned warps = 4) {
  for (HostBuffer *buffer : buffers)
    p.pointerArg(*buffer);
  for (int64_t v : {strideSa, strideSb, m, n, k, k, k, n})
    p.scalarArg(ElemType::I32, double(v));
  int64_t blockM = bm ? bm : 32, blockN = bn ? bn : 32;
  setGrid(p, ceilDiv(m, blockM), ceilDiv(n, blockN));
  p.bytes = double(m * k + n * k) + 2.0 * m * n;
  if (bm) {
    p.constants = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", bk}};
    p.numWarps = warps;
    p.arch = "sm_90a";
  }
}

/// The buffers of an fp8 GEMM with per-tensor or per-row scales.
struct Fp8Gemm {
  HostBuffer *a, *b, *c, *sa, *sb;
};

/// C = (A * B^T) * sa[m] * sb[n] (bf16), A M x K and B N x K of `type`,
/// scales per row (`rowwise`) or one per tensor (strides 0), with C's
/// float64 reference.
Fp8Gemm fp8GemmProblem(Problem &p, ElemType type, bool rowwise, int64_t m,
                       int64_t n, int64_t k) {
  HostBuffer &a = p.randn("a", type, {m, k});
  HostBuffer &b = p.randn("b", type, {n, k});
  HostBuffer &c = p.output("c", ElemType::BF16, {m, n});
  HostBuffer &sa = p.uniform("scale_a", ElemType::F32, {rowwise ? m : 1}, 0.5, 2);
  HostBuffer &sb = p.uniform("scale_b", ElemType::F32, {rowwise ? n : 1}, 0.5, 2);
  parallelRows(m, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t q = 0; q < k; ++q)
          sum += a[r * k + q] * b[j * k + q];
        c.reference[r * n + j] = sum * sa[rowwise ? r : 0] * sb[rowwise ? j : 0];
      }
  });
  return {&a, &b, &c, &sa, &sb};
}

/// @fp8_gemm (pointer loads).
std::function<void(Problem &)> fp8Gemm(ElemType type, bool rowwise, int64_t m,
                                       int64_t n, int64_t k, int64_t bm = 0,
                                       int64_t bn = 0, int64_t bk = 0) {
  return [=](Problem &p) {
    Fp8Gemm g = fp8GemmProblem(p, type, rowwise, m, n, k);
    fp8GemmArgs(p, {g.a, g.b, g.c, g.sa, g.sb}, rowwise ? 1 : 0, rowwise ? 1 : 0, m, n, k, bm,
                bn, bk);
  };
}

/// @fp8_gemm_tma (10_fp8_gemm_tma.mlir, sm_90a): A and B as tensor
/// descriptors, then c, sa, sb, the scales' strides, M, N, K, stride_cm;
/// BLOCK_K 128 (TMA's 128-byte rows).
std::function<void(Problem &)> fp8GemmTma(ElemType type, bool rowwise, int64_t m, int64_t n,
                                          int64_t k, int64_t bm, int64_t bn, unsigned warps,
                                          unsigned stages) {
  return [=](Problem &p) {
    Fp8Gemm g = fp8GemmProblem(p, type, rowwise, m, n, k);
    p.descriptorArg(*g.a);
    p.descriptorArg(*g.b);
    for (HostBuffer *buffer : {g.c, g.sa, g.sb})
      p.pointerArg(*buffer);
    for (int64_t v : {int64_t(rowwise), int64_t(rowwise), m, n, k, n})
      p.scalarArg(ElemType::I32, double(v));
    setGrid(p, ceilDiv(m, bm), ceilDiv(n, bn));
    p.bytes = double(m * k + n * k) + 2.0 * m * n;
    p.constants = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", 128}};
    p.numWarps = warps;
    p.numStages = stages;
    p.arch = "sm_90a";
  };
}

/// DeepSeek-V3's block scales: C = sum over K blocks kb of 128 of
/// (A B^T)_kb * sa[m, kb] * sb[n / 128, kb].
std::function<void(Problem &)> fp8BlockGemm(int64_t m, int64_t n, int64_t k, int64_t bm = 0,
                                            int64_t bn = 0, int64_t bk = 0) {
  return [=](Problem &p) {
    int64_t kBlocks = ceilDiv(k, 128), nBlocks = ceilDiv(n, 128);
    HostBuffer &a = p.randn("a", ElemType::F8E4M3FN, {m, k});
    HostBuffer &b = p.randn("b", ElemType::F8E4M3FN, {n, k});
    HostBuffer &c = p.output("c", ElemType::BF16, {m, n});
    HostBuffer &sa = p.uniform("scale_a", ElemType::F32, {m, kBlocks}, 0.5, 2);
    HostBuffer &sb = p.uniform("scale_b", ElemType::F32, {nBlocks, kBlocks}, 0.5, 2);
    parallelRows(m, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r)
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0;
          for (int64_t kb = 0; kb < kBlocks; ++kb) {
            double part = 0;
            for (int64_t q = kb * 128; q < std::min(k, kb * 128 + 128); ++q)
              part += a[r * k + q] * b[j * k + q];
            sum += part * sa[r * kBlocks + kb] * sb[(j / 128) * kBlocks + kb];
          }
          c.reference[r * n + j] = sum;
        }
    });
    // The bench's 8 warps: a K block's partial sums beside the accumulator
    // spill 4 warps' registers.
    fp8GemmArgs(p, {&a, &b, &c, &sa, &sb}, kBlocks, kBlocks, m, n, k, bm, bn, bk, /*warps=*/8);
  };
}

KernelCheck fp8GemmCheck(ElemType type, bool rowwise) {
  std::string name = suffixed("triton_10_fp8_gemm", type) + (rowwise ? "_rowwise" : "_tensorwise");
  // Blocks crossing M, N and a K tail (K = 80: two steps of 32 and half a
  // third) on the interpreter.
  return {name, "triton/10_fp8_gemm.mlir", "fp8_gemm",
          {{"T", typeConstant(type)}, {"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 32}},
          storageTolerance(ElemType::BF16),
          fp8Gemm(type, rowwise, 48, 80, 80),
          {{"4096x4096x4096", fp8Gemm(type, rowwise, 4096, 4096, 4096, 128, 128, 128)}}};
}

KernelCheck fp8GemmTmaCheck(ElemType type, bool rowwise) {
  std::string name =
      suffixed("triton_10_fp8_gemm_tma", type) + (rowwise ? "_rowwise" : "_tensorwise");
  // 64 x 64 x 128 blocks (64 rows: one warpgroup's MMA; K 128: TMA's
  // 128-byte rows): M and N edges and a K tail of 16 past the tensors'
  // edges.
  return {name, "triton/10_fp8_gemm_tma.mlir", "fp8_gemm_tma",
          {{"T", typeConstant(type)}},
          storageTolerance(ElemType::BF16),
          fp8GemmTma(type, rowwise, 100, 72, 272, 64, 64, 4, 3),
          // The bench's blocks, with edges in M, N and K.
          {{"1000x776x1040", fp8GemmTma(type, rowwise, 1000, 776, 1040, 128, 128, 4, 4)}}};
}

//===----------------------------------------------------------------------===//
// 11: vector add as a programmatic dependent launch
//===----------------------------------------------------------------------===//

std::function<void(Problem &)> pdlAdd(int64_t n, int64_t block) {
  return [=](Problem &p) {
    vectorAddProblem(p, n);
    setGrid(p, ceilDiv(n, block));
    p.bytes = 12.0 * n;
    if (block != 128) {
      p.constants = {{"BLOCK", block}, {"DIV", n % 16 ? 1 : 16}};
      p.numWarps = 4;
    }
  };
}

KernelCheck pdlAddCheck(int64_t useGdc) {
  return {"triton_11_pdl_vector_add" + std::string(useGdc ? "" : "_no_gdc"),
          "triton/11_pdl_vector_add.mlir",
          "add_kernel",
          {{"BLOCK", 128}, {"DIV", 8}, {"USE_GDC", useGdc}},
          1e-6,
          pdlAdd(1000, 128),
          {{"2^24", pdlAdd(1 << 24, 1024)}}};
}

} // namespace

std::vector<KernelCheck> llk::checks::tritonChecks() {
  std::vector<KernelCheck> checks = {softmaxCheck()};
  for (ElemType type : {ElemType::F16, ElemType::F32})
    checks.push_back(layerNormFwdCheck(type));
  for (ElemType type : {ElemType::F16, ElemType::F32})
    checks.push_back(layerNormBwdDxCheck(type));
  for (ElemType type : {ElemType::F16, ElemType::F32})
    checks.push_back(layerNormBwdDwdbCheck(type));
  checks.push_back(dropoutCheck());
  for (ElemType type : {ElemType::F32, ElemType::F64})
    checks.push_back(asinCheck(type));
  checks.push_back(groupedGemmCheck());
  for (ElemType type : {ElemType::F8E4M3FN, ElemType::F8E5M2})
    for (bool rowwise : {false, true})
      checks.push_back(fp8GemmCheck(type, rowwise));
  for (ElemType type : {ElemType::F8E4M3FN, ElemType::F8E5M2})
    for (bool rowwise : {false, true})
      checks.push_back(fp8GemmTmaCheck(type, rowwise));
  // Two 128-column scale blocks of B, three K blocks (the last of 16).
  checks.push_back({"triton_10_fp8_gemm_blockwise", "triton/10_fp8_gemm.mlir", "fp8_gemm_blockwise",
                    {{"T", llk::ElementType::F8E4M3FN}, {"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 32}},
                    storageTolerance(ElemType::BF16), fp8BlockGemm(48, 160, 272),
                    {{"4096x4096x4096", fp8BlockGemm(4096, 4096, 4096, 128, 128, 128)}}});
  checks.push_back(pdlAddCheck(1));
  checks.push_back(pdlAddCheck(0));
  return checks;
}
