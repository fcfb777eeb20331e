//===- LlamaElementwiseChecks.cpp - Llama's elementwise and row kernels ---===//
//
// rms_norm, add/mul, silu/swiglu, scale, softmax (plain and with scale and
// causal mask fused), rope (and its vectorized variant), cpy f32 -> f16 into
// the KV caches (generic, and the row and transposed fast paths), diag_mask_inf
// and GGML's 4-D broadcasting binary op (examples/llama/). Shapes follow
// ../shared/spec/llama-kernels.md: H = 4096, NH = 32, D = 128, F = 11008,
// T = 512 prompt tokens, contexts up to 4096.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

#include <algorithm>
#include <cmath>

using namespace llk::checks;
using llk::interp::ElemType;

namespace {

constexpr int64_t H = 4096, NH = 32, D = 128, F = 11008, T = 512, C = 4096;

/// A scalar as the kernel sees it (passed as f32).
double asF32(double v) { return static_cast<double>(static_cast<float>(v)); }

enum class BinOp { Add = 0, Sub = 1, Mul = 2, Div = 3 };

double apply(BinOp op, double a, double b) {
  switch (op) {
  case BinOp::Add: return a + b;
  case BinOp::Sub: return a - b;
  case BinOp::Mul: return a * b;
  case BinOp::Div: return a / b;
  }
  return NAN;
}

double silu(double x) { return x / (1 + std::exp(-x)); }

/// Stable softmax of `n` values (-inf allowed, not all of them) into `out`.
void softmaxRow(const double *in, int64_t n, double *out) {
  double max = -INFINITY, sum = 0;
  for (int64_t c = 0; c < n; ++c)
    max = std::max(max, in[c]);
  for (int64_t c = 0; c < n; ++c)
    sum += std::exp(in[c] - max);
  for (int64_t c = 0; c < n; ++c)
    out[c] = std::exp(in[c] - max) / sum;
}

//===----------------------------------------------------------------------===//
// rms_norm (gamma fused)
//===----------------------------------------------------------------------===//

struct Rows {
  int64_t rows, cols, xStride, dstStride;
};

void rmsNorm(Problem &p, Rows s, int64_t block) {
  const double eps = 1e-5;
  p.constants["BLOCK"] = block;
  HostBuffer &x = p.randn("x", ElemType::F32, {s.rows, s.xStride});
  HostBuffer &gamma = p.uniform("gamma", ElemType::F32, {s.cols}, 0.5, 1.5);
  HostBuffer &dst = p.output("dst", ElemType::F32, {s.rows, s.dstStride});
  for (int64_t r = 0; r < s.rows; ++r) {
    const double *row = &x.values[r * s.xStride];
    double squares = 0;
    for (int64_t c = 0; c < s.cols; ++c)
      squares += row[c] * row[c];
    double scale = 1 / std::sqrt(squares / s.cols + asF32(eps));
    for (int64_t c = 0; c < s.cols; ++c)
      dst.reference[r * s.dstStride + c] = row[c] * scale * gamma[c];
  }
  p.pointerArg(dst);
  p.pointerArg(x);
  p.pointerArg(gamma);
  p.scalarArg(ElemType::I32, s.dstStride);
  p.scalarArg(ElemType::I32, s.xStride);
  p.scalarArg(ElemType::I32, s.cols);
  p.scalarArg(ElemType::F32, eps);
  setGrid(p, s.rows);
  p.bytes = 4.0 * (2 * s.rows * s.cols + s.cols);
}

//===----------------------------------------------------------------------===//
// add / mul: dst[i] = x[i] op y[i % ky]
//===----------------------------------------------------------------------===//

void binary(Problem &p, BinOp op, int64_t rows, int64_t ky, int64_t block) {
  p.constants["BLOCK"] = block;
  p.constants["OP"] = static_cast<int64_t>(op);
  const int64_t kx = rows * ky;
  HostBuffer &x = p.randn("x", ElemType::F32, {kx});
  HostBuffer &y = p.uniform("y", ElemType::F32, {ky}, 0.5, 1.5);
  HostBuffer &dst = p.output("dst", ElemType::F32, {kx});
  for (int64_t i = 0; i < kx; ++i)
    dst.reference[i] = apply(op, x[i], y[i % ky]);
  p.pointerArg(x);
  p.pointerArg(y);
  p.pointerArg(dst);
  p.scalarArg(ElemType::I32, ky);
  setGrid(p, ceilDiv(ky, block), rows);
  p.bytes = 4.0 * (2 * kx + ky);
}

//===----------------------------------------------------------------------===//
// silu, swiglu, scale: flat elementwise
//===----------------------------------------------------------------------===//

void siluCase(Problem &p, int64_t n, int64_t block) {
  p.constants["BLOCK"] = block;
  HostBuffer &x = p.uniform("x", ElemType::F32, {n}, -8, 8);
  HostBuffer &dst = p.output("dst", ElemType::F32, {n});
  for (int64_t i = 0; i < n; ++i)
    dst.reference[i] = silu(x[i]);
  p.pointerArg(x);
  p.pointerArg(dst);
  p.scalarArg(ElemType::I32, n);
  setGrid(p, ceilDiv(n, block));
  p.bytes = 4.0 * 2 * n;
}

void swiglu(Problem &p, int64_t n, int64_t block) {
  p.constants["BLOCK"] = block;
  HostBuffer &gate = p.uniform("gate", ElemType::F32, {n}, -8, 8);
  HostBuffer &up = p.randn("up", ElemType::F32, {n});
  HostBuffer &dst = p.output("dst", ElemType::F32, {n});
  for (int64_t i = 0; i < n; ++i)
    dst.reference[i] = silu(gate[i]) * up[i];
  p.pointerArg(gate);
  p.pointerArg(up);
  p.pointerArg(dst);
  p.scalarArg(ElemType::I32, n);
  setGrid(p, ceilDiv(n, block));
  p.bytes = 4.0 * 3 * n;
}

void scale(Problem &p, int64_t n, int64_t block) {
  p.constants["BLOCK"] = block;
  const double factor = 1 / std::sqrt(double(D));
  HostBuffer &x = p.randn("x", ElemType::F32, {n});
  HostBuffer &dst = p.output("dst", ElemType::F32, {n});
  for (int64_t i = 0; i < n; ++i)
    dst.reference[i] = asF32(factor) * x[i];
  p.pointerArg(x);
  p.pointerArg(dst);
  p.scalarArg(ElemType::F32, factor);
  p.scalarArg(ElemType::I32, n);
  setGrid(p, ceilDiv(n, block));
  p.bytes = 4.0 * 2 * n;
}

//===----------------------------------------------------------------------===//
// softmax; softmax with scale and causal mask; diag_mask_inf
//===----------------------------------------------------------------------===//

/// DIV: 16 when the row length and strides allow 16-byte vectors.
int64_t divFor(std::initializer_list<int64_t> values) {
  for (int64_t v : values)
    if (v % 16)
      return 1;
  return 16;
}

/// Attention scores: NH heads x `tokens` queries, rows of n_kv = n_past +
/// tokens columns. `causal`: the fused kernel (scale, mask); otherwise a
/// plain softmax of the rows.
struct Scores {
  int64_t heads, tokens, nPast, xStride, dstStride;
  int64_t cols() const { return nPast + tokens; }
  int64_t rows() const { return heads * tokens; }
};

/// Whether score (r, c) is masked: c > n_past + r % tokens.
bool future(const Scores &s, int64_t r, int64_t c) {
  return c > s.nPast + r % s.tokens;
}

void softmax(Problem &p, Scores s, bool causal, int64_t block,
             unsigned warps = 0) {
  p.constants["BLOCK"] = block;
  p.constants["DIV"] = divFor({s.cols(), s.xStride, s.dstStride});
  p.numWarps = warps;
  const double factor = 1 / std::sqrt(double(D));
  const int64_t rows = s.rows(), cols = s.cols();
  HostBuffer &x = p.uniform("x", ElemType::F32, {rows, s.xStride}, -30, 30);
  HostBuffer &dst = p.output("dst", ElemType::F32, {rows, s.dstStride});
  std::vector<double> in(cols);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      double v = x[r * s.xStride + c];
      in[c] = !causal ? v : future(s, r, c) ? -INFINITY : asF32(factor) * v;
    }
    softmaxRow(in.data(), cols, &dst.reference[r * s.dstStride]);
  }
  p.pointerArg(dst);
  p.pointerArg(x);
  p.scalarArg(ElemType::I32, s.dstStride);
  p.scalarArg(ElemType::I32, s.xStride);
  p.scalarArg(ElemType::I32, cols);
  if (causal) {
    p.scalarArg(ElemType::F32, factor);
    p.scalarArg(ElemType::I32, s.nPast);
    p.scalarArg(ElemType::I32, s.tokens);
  }
  setGrid(p, rows);
  p.bytes = 4.0 * 2 * rows * cols;
}

/// Dense rows (the strides are ignored).
void diagMask(Problem &p, Scores s, int64_t block) {
  const int64_t rows = s.rows(), cols = s.cols();
  p.constants["BLOCK"] = block;
  p.constants["DIV"] = divFor({cols});
  HostBuffer &x = p.randn("x", ElemType::F32, {rows, cols});
  HostBuffer &dst = p.output("dst", ElemType::F32, {rows, cols});
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      dst.reference[r * cols + c] = future(s, r, c) ? -INFINITY : x[r * cols + c];
  p.pointerArg(x);
  p.pointerArg(dst);
  p.scalarArg(ElemType::I32, cols);
  p.scalarArg(ElemType::I32, s.tokens);
  p.scalarArg(ElemType::I32, s.nPast);
  setGrid(p, ceilDiv(cols, block), rows);
  p.bytes = 4.0 * 2 * rows * cols;
}

//===----------------------------------------------------------------------===//
// rope on [tokens][heads][D]
//===----------------------------------------------------------------------===//

/// `block` columns per program (rope.mlir); `quads` > 0: rope_vec.mlir with
/// QUADS quads (4 * quads columns) per program instead.
void rope(Problem &p, int64_t tokens, int64_t heads, int64_t nPast,
          int64_t pad, int64_t block, int64_t quads = 0) {
  const double base = 10000;
  if (quads) {
    p.constants["QUADS"] = quads;
    block = 4 * quads;
  } else {
    p.constants["BLOCK"] = block;
  }
  p.constants["D"] = D;
  const int64_t cols = heads * D, stride = cols + pad;
  HostBuffer &x = p.randn("x", ElemType::F32, {tokens, stride});
  HostBuffer &dst = p.output("dst", ElemType::F32, {tokens, stride});
  for (int64_t t = 0; t < tokens; ++t)
    for (int64_t c = 0; c < cols; c += 2) {
      double theta =
          double(nPast + t) * std::pow(base, -2.0 * double((c % D) / 2) / D);
      double x0 = x[t * stride + c], x1 = x[t * stride + c + 1];
      dst.reference[t * stride + c] = x0 * std::cos(theta) - x1 * std::sin(theta);
      dst.reference[t * stride + c + 1] = x0 * std::sin(theta) + x1 * std::cos(theta);
    }
  p.pointerArg(dst);
  p.pointerArg(x);
  p.scalarArg(ElemType::I32, stride);
  p.scalarArg(ElemType::I32, stride);
  p.scalarArg(ElemType::I32, cols);
  p.scalarArg(ElemType::I32, nPast);
  p.scalarArg(ElemType::F32, base);
  setGrid(p, ceilDiv(cols, block), tokens);
  p.bytes = 4.0 * 2 * tokens * cols;
}

//===----------------------------------------------------------------------===//
// cpy f32 -> f16 into the K and V caches
//===----------------------------------------------------------------------===//

/// One side of the copy: shape (ne0, ne1; ne2 implied) and byte strides.
struct Strided {
  int64_t offset, ne0, ne1, nb0, nb1, nb2;
  int64_t at(int64_t i) const {
    int64_t i2 = i / (ne0 * ne1), i1 = i % (ne0 * ne1) / ne0, i0 = i % ne0;
    return offset + i0 * nb0 + i1 * nb1 + i2 * nb2;
  }
};

/// The new tokens' K [tokens][heads][dim] (f32, dense) into the K cache
/// [ctx][heads][dim] or, `transposed`, V into the V cache [heads][dim][ctx]
/// (f16), at token nPast.
void cpyCache(Problem &p, bool transposed, int64_t tokens, int64_t heads,
              int64_t dim, int64_t ctx, int64_t nPast, int64_t block) {
  p.constants["BLOCK"] = block;
  const int64_t row = heads * dim, ne = tokens * row;
  HostBuffer &src = p.randn("src", ElemType::F32, {tokens, row});
  HostBuffer &cache =
      transposed ? p.output("v_cache", ElemType::F16, {row, ctx})
                 : p.output("k_cache", ElemType::F16, {ctx, row});
  Strided from = transposed ? Strided{0, tokens, row, 4 * row, 4, 4 * ne}
                            : Strided{0, dim, heads, 4, 4 * dim, 4 * row};
  Strided to = transposed
                   ? Strided{2 * nPast, tokens, row, 2, 2 * ctx, 2 * row * ctx}
                   : Strided{2 * nPast * row, dim, heads, 2, 2 * dim, 2 * row};
  for (int64_t i = 0; i < ne; ++i)
    cache.reference[to.at(i) / 2] = src[from.at(i) / 4];
  p.pointerArg(src);
  p.pointerArg(cache);
  for (int64_t v : {from.offset, to.offset, ne, from.ne0, from.ne1, from.nb0,
                    from.nb1, from.nb2, to.ne0, to.ne1, to.nb0, to.nb1, to.nb2})
    p.scalarArg(ElemType::I32, v);
  setGrid(p, ceilDiv(ne, block));
  p.bytes = (4.0 + 2.0) * ne;
}

/// cpy_rows.mlir: K [tokens][row] (f32; rows `srcPad` apart beyond `row`)
/// into the K cache [ctx][row] (f16) at token nPast, `block` columns per
/// program.
void cpyRows(Problem &p, int64_t tokens, int64_t row, int64_t srcPad,
             int64_t ctx, int64_t nPast, int64_t block) {
  p.constants["BLOCK"] = block;
  const int64_t srcStride = row + srcPad;
  HostBuffer &src = p.randn("src", ElemType::F32, {tokens, srcStride});
  HostBuffer &cache = p.output("k_cache", ElemType::F16, {ctx, row});
  for (int64_t t = 0; t < tokens; ++t)
    for (int64_t c = 0; c < row; ++c)
      cache.reference[(nPast + t) * row + c] = src[t * srcStride + c];
  p.pointerArg(src);
  p.pointerArg(cache);
  for (int64_t v : {srcStride, row, row, nPast * row})
    p.scalarArg(ElemType::I32, v);
  setGrid(p, ceilDiv(row, block), tokens);
  p.bytes = (4.0 + 2.0) * tokens * row;
}

/// cpy_trans.mlir: V [tokens][row] (f32, dense) transposed into the V cache
/// [row][ctx] (f16) at column nPast; [bt, be] tiles.
void cpyTrans(Problem &p, int64_t tokens, int64_t row, int64_t ctx,
              int64_t nPast, int64_t bt, int64_t be) {
  p.constants["BT"] = bt;
  p.constants["BE"] = be;
  HostBuffer &src = p.randn("src", ElemType::F32, {tokens, row});
  HostBuffer &cache = p.output("v_cache", ElemType::F16, {row, ctx});
  for (int64_t t = 0; t < tokens; ++t)
    for (int64_t e = 0; e < row; ++e)
      cache.reference[e * ctx + nPast + t] = src[t * row + e];
  p.pointerArg(src);
  p.pointerArg(cache);
  for (int64_t v : {row, row, tokens, ctx, nPast})
    p.scalarArg(ElemType::I32, v);
  setGrid(p, ceilDiv(nPast % 8 + tokens, bt), ceilDiv(row, be));
  p.bytes = (4.0 + 2.0) * tokens * row;
}

//===----------------------------------------------------------------------===//
// GGML's 4-D broadcasting binary op
//===----------------------------------------------------------------------===//

/// A 4-D f32 tensor: sizes and element strides (stride[0] = 1).
struct Tensor4 {
  int64_t ne[4], s[4];
  int64_t elements() const { return s[3] * ne[3]; } // buffer size
};

/// Rows padded by `pad` elements (not contiguous when pad > 0).
Tensor4 makeTensor(const int64_t (&ne)[4], int64_t pad) {
  Tensor4 t{{ne[0], ne[1], ne[2], ne[3]}, {1, ne[0] + pad, 0, 0}};
  t.s[2] = t.s[1] * ne[1];
  t.s[3] = t.s[2] * ne[2];
  return t;
}

/// ggml's bin_bcast_cuda: when every tensor is contiguous, merge dims 0 and
/// 1 while src1 is not broadcast along them, so that rows get long.
void collapse(Tensor4 &dst, Tensor4 &src0, Tensor4 &src1) {
  auto contiguous = [](const Tensor4 &t) {
    return t.s[1] == t.ne[0] && t.s[2] == t.s[1] * t.ne[1] &&
           t.s[3] == t.s[2] * t.ne[2];
  };
  if (!contiguous(dst) || !contiguous(src0) || !contiguous(src1))
    return;
  // nr[i] != 1 (src1 broadcast along the original dim i) stops the merging.
  bool repeated[4];
  for (int i = 0; i < 4; ++i)
    repeated[i] = dst.ne[i] != src1.ne[i];
  for (int i = 0; i < 4; ++i) {
    if (repeated[i])
      break;
    if (i == 0)
      continue;
    for (Tensor4 *t : {&dst, &src0, &src1}) {
      // Strides first (cnb[k] *= cne[k]), then the sizes shift down.
      for (int k = 1; k < 4; ++k)
        t->s[k] *= t->ne[k];
      t->ne[0] *= t->ne[1];
      t->ne[1] = t->ne[2];
      t->ne[2] = t->ne[3];
      t->ne[3] = 1;
    }
  }
}

void binBcast(Problem &p, BinOp op, const int64_t (&ne)[4],
              const int64_t (&ne1)[4], int64_t pad, int64_t block) {
  Tensor4 dst = makeTensor(ne, pad), src0 = makeTensor(ne, pad),
          src1 = makeTensor(ne1, 0);
  HostBuffer &a = p.randn("src0", ElemType::F32, {src0.elements()});
  // Away from 0 for div.
  HostBuffer &b = p.uniform("src1", ElemType::F32, {src1.elements()}, 0.5, 2);
  HostBuffer &out = p.output("dst", ElemType::F32, {dst.elements()});
  for (int64_t i3 = 0; i3 < ne[3]; ++i3)
    for (int64_t i2 = 0; i2 < ne[2]; ++i2)
      for (int64_t i1 = 0; i1 < ne[1]; ++i1)
        for (int64_t i0 = 0; i0 < ne[0]; ++i0) {
          auto at = [&](const Tensor4 &t, const int64_t (&i)[4]) {
            return i[3] % t.ne[3] * t.s[3] + i[2] % t.ne[2] * t.s[2] +
                   i[1] % t.ne[1] * t.s[1] + i[0] % t.ne[0];
          };
          const int64_t i[4] = {i0, i1, i2, i3};
          out.reference[at(dst, i)] = apply(op, a[at(src0, i)], b[at(src1, i)]);
        }
  p.bytes = 4.0 * (2 * ne[0] * ne[1] * ne[2] * ne[3] + src1.elements());

  collapse(dst, src0, src1);
  p.constants["BLOCK"] = block;
  p.constants["OP"] = static_cast<int64_t>(op);
  p.constants["DIV"] = divFor({dst.ne[0], src1.ne[0], dst.s[1], dst.s[2], dst.s[3],
                               src0.s[1], src0.s[2], src0.s[3], src1.s[1],
                               src1.s[2], src1.s[3]});
  p.pointerArg(a);
  p.pointerArg(b);
  p.pointerArg(out);
  for (const int64_t *v : {dst.ne, src1.ne})
    for (int k = 0; k < 4; ++k)
      p.scalarArg(ElemType::I32, v[k]);
  for (const Tensor4 *t : {&dst, &src0, &src1})
    for (int k = 1; k < 4; ++k)
      p.scalarArg(ElemType::I32, t->s[k]);
  setGrid(p, ceilDiv(dst.ne[0], block), dst.ne[1], dst.ne[2] * dst.ne[3]);
}

/// The Llama uses and awkward shapes of the 4-D op, for `op`.
std::vector<GpuCase> binBcastGpuCases(BinOp op) {
  return {
      // Residual add, decode and prompt: collapses to one long row.
      {"4096x1 (residual, decode)",
       [op](Problem &p) { binBcast(p, op, {H, 1, 1, 1}, {H, 1, 1, 1}, 0, 1024); }},
      {"4096x512 (residual, prompt)",
       [op](Problem &p) { binBcast(p, op, {H, T, 1, 1}, {H, T, 1, 1}, 0, 1024); }},
      // Norm weight, broadcast over the prompt's tokens.
      {"4096x512 by 4096 (gamma)",
       [op](Problem &p) { binBcast(p, op, {H, T, 1, 1}, {H, 1, 1, 1}, 0, 1024); }},
      // Attention-shaped 4-D, broadcast along dims 1 and 3.
      {"128x512x32x2 by 128x1x32x1",
       [op](Problem &p) { binBcast(p, op, {D, T, NH, 2}, {D, 1, NH, 1}, 0, 128); }},
      {"1000x37x3x2 by 1000x1x3x1 (padded rows)",
       [op](Problem &p) { binBcast(p, op, {1000, 37, 3, 2}, {1000, 1, 3, 1}, 24, 1024); }},
      {"4000x64x3 by 40x1x3 (dim-0 broadcast)",
       [op](Problem &p) { binBcast(p, op, {4000, 64, 3, 1}, {40, 1, 3, 1}, 0, 1024); }},
  };
}

/// The interpreter shape of each op covers another path: padded rows
/// broadcast along dims 1 and 3 (add), a dim-0 broadcast (sub), a full
/// collapse to one row (mul), a collapse of dims 0-1 then a broadcast (div).
KernelCheck binBcastCheck(const char *name, BinOp op) {
  return {name, "llama/bin_bcast.mlir", "bin_bcast_f32", {}, 1e-5,
          [op](Problem &p) {
            switch (op) {
            case BinOp::Add:
              return binBcast(p, op, {40, 3, 2, 2}, {40, 1, 2, 1}, 8, 32);
            case BinOp::Sub:
              return binBcast(p, op, {48, 5, 3, 1}, {16, 1, 3, 1}, 0, 32);
            case BinOp::Mul:
              return binBcast(p, op, {48, 5, 3, 2}, {48, 5, 3, 2}, 0, 256);
            case BinOp::Div:
              return binBcast(p, op, {32, 4, 3, 2}, {32, 4, 1, 2}, 0, 64);
            }
          },
          binBcastGpuCases(op)};
}

} // namespace

std::vector<KernelCheck> llk::checks::llamaElementwiseChecks() {
  std::vector<KernelCheck> checks = {
      {"llama_rms_norm", "llama/rms_norm.mlir", "rms_norm_f32", {}, 1e-5,
       [](Problem &p) { rmsNorm(p, {5, 112, 128, 144}, 128); },
       {{"1x4096 (decode)",
         [](Problem &p) { rmsNorm(p, {1, H, H, H}, 4096); p.numWarps = 8; }},
        {"512x4096 (prompt)",
         [](Problem &p) { rmsNorm(p, {T, H, H, H}, 4096); p.numWarps = 8; }},
        {"37x4000 (masked)",
         [](Problem &p) { rmsNorm(p, {37, 4000, 4096, 4000}, 4096); p.numWarps = 8; }}}},

      {"llama_add", "llama/binary.mlir", "binary_f32", {}, 1e-5,
       [](Problem &p) { binary(p, BinOp::Add, 1, 400, 64); },
       {{"4096 (residual, decode)",
         [](Problem &p) { binary(p, BinOp::Add, 1, H, 1024); }},
        {"512*4096 (residual, prompt)",
         [](Problem &p) { binary(p, BinOp::Add, 1, T * H, 1024); }},
        {"37x4000 by 4000 (masked)",
         [](Problem &p) { binary(p, BinOp::Add, 37, 4000, 1024); }}}},
      {"llama_mul", "llama/binary.mlir", "binary_f32", {}, 1e-5,
       [](Problem &p) { binary(p, BinOp::Mul, 5, 96, 64); },
       {{"4096 by 4096 (gamma, decode)",
         [](Problem &p) { binary(p, BinOp::Mul, 1, H, 1024); }},
        {"512x4096 by 4096 (gamma, prompt)",
         [](Problem &p) { binary(p, BinOp::Mul, T, H, 1024); }},
        {"37x4000 by 4000 (masked)",
         [](Problem &p) { binary(p, BinOp::Mul, 37, 4000, 1024); }}}},

      {"llama_silu", "llama/silu.mlir", "silu_f32", {}, 1e-5,
       [](Problem &p) { siluCase(p, 1008, 128); },
       {{"11008 (decode)", [](Problem &p) { siluCase(p, F, 1024); }},
        {"512x11008 (prompt)", [](Problem &p) { siluCase(p, T * F, 1024); }}}},
      {"llama_swiglu", "llama/silu.mlir", "swiglu_f32", {}, 1e-5,
       [](Problem &p) { swiglu(p, 1008, 128); },
       {{"11008 (decode)", [](Problem &p) { swiglu(p, F, 1024); }},
        {"512x11008 (prompt)", [](Problem &p) { swiglu(p, T * F, 1024); }}}},

      {"llama_scale", "llama/scale.mlir", "scale_f32", {}, 1e-5,
       [](Problem &p) { scale(p, 2 * 37 * 16, 256); },
       {{"32x4096 (decode scores)", [](Problem &p) { scale(p, NH * C, 1024); }},
        {"32x512x512 (prompt scores)",
         [](Problem &p) { scale(p, NH * T * T, 1024); }},
        {"32x1x1040 (masked)", [](Problem &p) { scale(p, NH * 1040, 1024); }}}},

      {"llama_soft_max", "llama/softmax.mlir", "soft_max_f32", {}, 1e-5,
       // Decode: 2 heads, 1 query, 37 scores (DIV = 1).
       [](Problem &p) { softmax(p, {2, 1, 36, 40, 37}, false, 64); },
       {{"32x4096 (decode)",
         [](Problem &p) { softmax(p, {NH, 1, C - 1, C, C}, false, 4096, 8); }},
        {"32x1037 (decode, dense rows)",
         [](Problem &p) { softmax(p, {NH, 1, 1036, 1037, 1037}, false, 2048, 4); }},
        {"32*512x512 (prompt)",
         [](Problem &p) { softmax(p, {NH, T, 0, T, T}, false, 512, 4); }}}},
      {"llama_soft_max_scale_causal", "llama/softmax.mlir",
       "soft_max_scale_causal_f32", {}, 1e-5,
       [](Problem &p) { softmax(p, {2, 5, 27, 48, 32}, true, 64); },
       {{"32*512x512 (prompt)",
         [](Problem &p) { softmax(p, {NH, T, 0, T, T}, true, 512, 4); }},
        {"32*512x4096 (prompt after 3584)",
         [](Problem &p) { softmax(p, {NH, T, C - T, C, C}, true, 4096, 8); }},
        {"32*100x400 (masked)",
         [](Problem &p) { softmax(p, {NH, 100, 300, 400, 400}, true, 512, 4); }}}},

      {"llama_rope", "llama/rope.mlir", "rope_f32", {}, 1e-5,
       [](Problem &p) { rope(p, 3, 3, 5, 16, 256); },
       {{"1x32x128 (decode at 4095)",
         [](Problem &p) { rope(p, 1, NH, C - 1, 0, 1024); }},
        {"512x32x128 (prompt)", [](Problem &p) { rope(p, T, NH, 0, 0, 1024); }},
        {"512x32x128 (prompt after 3584)",
         [](Problem &p) { rope(p, T, NH, C - T, 0, 1024); }},
        {"7x3x128 (padded rows, masked)",
         [](Problem &p) { rope(p, 7, 3, 100, 48, 256); }}}},

      // The vectorized rope: [quads, 4] tiles, angles per pair.
      {"llama_rope_vec", "llama/rope_vec.mlir", "rope_f32_vec", {}, 1e-5,
       // 384 columns, 256 per program: the second program is half masked;
       // positions 16381..16383, where theta reaches ~16383 rad.
       [](Problem &p) { rope(p, 3, 3, 16381, 16, 0, 64); },
       {{"16384x32x128 (prompt, positions 0..16383)",
         [](Problem &p) { rope(p, 16384, NH, 0, 0, 0, 256); }},
        {"1x32x128 (decode at 16383)",
         [](Problem &p) { rope(p, 1, NH, 16383, 0, 0, 256); }},
        {"512x32x128 (prompt after 15872)",
         [](Problem &p) { rope(p, T, NH, 16384 - T, 0, 0, 256); }},
        {"512x32x128 (prompt)", [](Problem &p) { rope(p, T, NH, 0, 0, 0, 256); }},
        {"7x3x128 (padded rows, masked)",
         [](Problem &p) { rope(p, 7, 3, 100, 48, 0, 64); }}}},

      {"llama_cpy_k", "llama/cpy.mlir", "cpy_f32_f16", {}, 1e-3,
       [](Problem &p) { cpyCache(p, false, 3, 4, 24, 16, 5, 128); },
       {{"1 token into 4096x32x128 (decode)",
         [](Problem &p) { cpyCache(p, false, 1, NH, D, C, C - 1, 1024); }},
        {"512 tokens into 4096x32x128 (prompt)",
         [](Problem &p) { cpyCache(p, false, T, NH, D, C, 0, 1024); }}}},
      {"llama_cpy_v", "llama/cpy.mlir", "cpy_f32_f16", {}, 1e-3,
       [](Problem &p) { cpyCache(p, true, 3, 4, 24, 16, 5, 128); },
       {{"1 token into 32x128x4096 (decode)",
         [](Problem &p) { cpyCache(p, true, 1, NH, D, C, C - 1, 1024); }},
        {"512 tokens into 32x128x4096 (prompt)",
         [](Problem &p) { cpyCache(p, true, T, NH, D, C, 100, 1024); }}}},

      // Fast paths of the cache writes (cpy_rows.mlir, cpy_trans.mlir).
      {"llama_cpy_k_rows", "llama/cpy_rows.mlir", "cpy_f32_f16_rows", {}, 1e-3,
       // 3 tokens of 96 (+16 padding) at token 5 of 9; 64 columns per
       // program, the second masked.
       [](Problem &p) { cpyRows(p, 3, 96, 16, 9, 5, 64); },
       {{"16384 tokens into 16384x4096 (benchmark)",
         [](Problem &p) { cpyRows(p, 16384, NH * D, 0, 16384, 0, 1024); }},
        {"1 token into 4096x32x128 (decode)",
         [](Problem &p) { cpyRows(p, 1, NH * D, 0, C, C - 1, 1024); }},
        {"512 tokens into 4096x32x128 (prompt after 100)",
         [](Problem &p) { cpyRows(p, T, NH * D, 0, C, 100, 1024); }},
        {"37 tokens of 4000 (padded rows, masked)",
         [](Problem &p) { cpyRows(p, 37, 4000, 96, 64, 13, 1024); }}}},
      {"llama_cpy_v_trans", "llama/cpy_trans.mlir", "cpy_f32_f16_trans", {},
       1e-3,
       // 37 tokens of 48 at column 5 of 64: 16x32 tiles, programs x = 0, 2
       // and y = 1 masked, (1, 0) unmasked.
       [](Problem &p) { cpyTrans(p, 37, 48, 64, 5, 16, 32); },
       {{"16384 tokens into 4096x16384 (benchmark)",
         [](Problem &p) { cpyTrans(p, 16384, NH * D, 16384, 0, 16, 128); }},
        {"1 token into 32x128x4096 (decode at 4095)",
         [](Problem &p) { cpyTrans(p, 1, NH * D, C, C - 1, 16, 128); }},
        {"1 token into 32x128x4096 (decode at 1000)",
         [](Problem &p) { cpyTrans(p, 1, NH * D, C, 1000, 16, 128); }},
        {"512 tokens into 32x128x4096 (prompt after 100)",
         [](Problem &p) { cpyTrans(p, T, NH * D, C, 100, 16, 128); }},
        {"512 tokens into 32x128x4096 (prompt after 3584)",
         [](Problem &p) { cpyTrans(p, T, NH * D, C, C - T, 16, 128); }},
        {"77 tokens of 112 at 13 (masked)",
         [](Problem &p) { cpyTrans(p, 77, 112, 96, 13, 16, 128); }}}},

      {"llama_diag_mask_inf", "llama/diag_mask.mlir", "diag_mask_inf_f32", {},
       1e-5, [](Problem &p) { diagMask(p, {2, 5, 32, 0, 0}, 16); },
       {{"32*512x512 (prompt)",
         [](Problem &p) { diagMask(p, {NH, T, 0, 0, 0}, 512); }},
        {"32*512x4096 (prompt after 3584)",
         [](Problem &p) { diagMask(p, {NH, T, C - T, 0, 0}, 1024); }},
        {"32*100x437 (dense, masked)",
         [](Problem &p) { diagMask(p, {NH, 100, 337, 0, 0}, 512); }}}},
  };
  for (auto [name, op] : {std::pair{"ggml_bin_bcast_add", BinOp::Add},
                          std::pair{"ggml_bin_bcast_sub", BinOp::Sub},
                          std::pair{"ggml_bin_bcast_mul", BinOp::Mul},
                          std::pair{"ggml_bin_bcast_div", BinOp::Div}})
    checks.push_back(binBcastCheck(name, op));
  return checks;
}
