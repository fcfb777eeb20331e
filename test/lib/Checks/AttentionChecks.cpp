//===- AttentionChecks.cpp - FlashAttention forward and backward ----------===//
//
// The kernels of examples/attention/ against float64 references: the
// forward (o, lse), the backward's delta preprocess, dK/dV and dQ. Each
// check names one configuration of the example's set (element type, head
// dim, causal or not, the blocks, warps and stages kept for it) and runs it
// at a small shape with masked tails on every side — n_q and n_k no multiple
// of the blocks, causal with fewer queries than keys (the mask aligned
// bottom-right), grouped-query heads — in the interpreter (CI) and on the
// GPU, and at larger shapes on the GPU (sm_90 and sm_90a), the Llama prompt
// case (512 new tokens after 3584 cached) among them. The tensors are
// token-major with padded rows ([B][N][H][D + pad], the padding NaN) or
// head-major ([B][H][N][D]); outputs' padding must keep its poison.
//
// The backward kernels take lse and delta as inputs: the float64 values
// from the inputs, rounded to f32; the reference computes with those
// rounded values, as the kernels do.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

#include <cmath>
#include <string>

using namespace llk::checks;
using llk::interp::ElemType;

namespace {

/// One configuration of examples/attention/'s set: the blocks, warps and
/// stages and programs an SM (on sm_80/sm_90, on sm_90a) of each kernel for
/// head dim `d` (the tables in fwd.mlir and bwd_dkdv.mlir's headers).
struct Blocks {
  int64_t blockM, blockN;
  unsigned warps, stages;
  unsigned programs = 0, wgmmaPrograms = 0; // 0: none asked
};

enum class Kernel { Fwd, Preprocess, DkDv, Dq };

Blocks blocksOf(Kernel kernel, int64_t d) {
  switch (kernel) {
  case Kernel::Fwd: return {128, 64, 8, 3, 0, d == 64 ? 2u : 0u};
  case Kernel::Preprocess: return {128, 0, 4, 0};
  case Kernel::DkDv: return {32, 128, 8, 3};
  case Kernel::Dq: return {128, 32, 8, 3};
  }
  return {};
}

/// Batch, query heads (group of them per KV head), sequence lengths, head
/// dim, causality and the tensors' layout.
struct AttnShape {
  int64_t batch, heads, group, nQ, nK, d;
  bool causal;
  /// [B][N][H][D + rowPad] (rows of all heads of a token together, as a QKV
  /// projection writes them) rather than [B][H][N][D].
  bool tokenMajor = false;
  int64_t rowPad = 0;
  int64_t headsKv() const { return heads / group; }
  std::string label() const {
    return std::to_string(batch) + "x" + std::to_string(heads) +
           (group > 1 ? "/" + std::to_string(headsKv()) : "") + " q" +
           std::to_string(nQ) + " k" + std::to_string(nK) + " d" +
           std::to_string(d) + (causal ? " causal" : "") +
           (tokenMajor ? " bshd" : "");
  }
};

/// Element strides of a [batch][heads][rows][d] tensor in `s`'s layout.
struct Strides {
  int64_t b, h, m, elems;
};

Strides stridesOf(const AttnShape &s, int64_t heads, int64_t rows) {
  if (s.tokenMajor) {
    int64_t m = heads * s.d + s.rowPad;
    return {rows * m, s.d, m, s.batch * rows * m};
  }
  int64_t m = s.d + s.rowPad;
  return {heads * rows * m, rows * m, m, s.batch * heads * rows * m};
}

/// A [batch][heads][rows][d] tensor of `type` in a buffer with its strides.
struct Tensor4 {
  HostBuffer *buffer;
  Strides strides;
  size_t index(int64_t b, int64_t h, int64_t i, int64_t c) const {
    return b * strides.b + h * strides.h + i * strides.m + c;
  }
  double operator()(int64_t b, int64_t h, int64_t i, int64_t c) const {
    return (*buffer)[index(b, h, i, c)];
  }
};

/// Overwrites every element outside the [.., d] rows with NaN (bytes and
/// value): the padding, which no kernel may let into its results.
void poisonPadding(HostBuffer &buffer, const AttnShape &s, const Strides &st,
                   int64_t heads, int64_t rows) {
  std::vector<bool> used(buffer.size(), false);
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t c = 0; c < s.d; ++c)
          used[b * st.b + h * st.h + i * st.m + c] = true;
  for (size_t i = 0; i < buffer.size(); ++i)
    if (!used[i])
      buffer.set(i, NAN);
}

Tensor4 input(Problem &p, const char *name, ElemType type, const AttnShape &s,
              int64_t heads, int64_t rows) {
  Strides st = stridesOf(s, heads, rows);
  HostBuffer &buffer = p.randn(name, type, {st.elems});
  poisonPadding(buffer, s, st, heads, rows);
  return {&buffer, st};
}

Tensor4 output(Problem &p, const char *name, ElemType type, const AttnShape &s,
               int64_t heads, int64_t rows) {
  Strides st = stridesOf(s, heads, rows);
  return {&p.output(name, type, {st.elems}), st};
}

/// 1/sqrt(D) as the kernels get it (an f32 argument).
double smScale(const AttnShape &s) {
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.d)));
}

/// Whether query i sees key j: the bottom-right aligned causal mask.
bool sees(const AttnShape &s, int64_t i, int64_t j) {
  return !s.causal || j <= i + s.nK - s.nQ;
}

/// The inputs every kernel but the preprocess reads, and the softmax
/// statistics from them: lse of every row (in f32, as the forward writes it)
/// and, for the backward, O and delta.
struct Attention {
  AttnShape s;
  Tensor4 q, k, v;
  double scale;

  Attention(Problem &p, const AttnShape &shape, ElemType type)
      : s(shape), q(input(p, "q", type, s, s.heads, s.nQ)),
        k(input(p, "k", type, s, s.headsKv(), s.nK)),
        v(input(p, "v", type, s, s.headsKv(), s.nK)), scale(smScale(s)) {}

  /// Scaled scores of row (b, h, i) over every key (-inf where masked).
  std::vector<double> scores(int64_t b, int64_t h, int64_t i) const {
    std::vector<double> row(s.nK, -INFINITY);
    for (int64_t j = 0; j < s.nK; ++j) {
      if (!sees(s, i, j))
        continue;
      double dot = 0;
      for (int64_t c = 0; c < s.d; ++c)
        dot += q(b, h, i, c) * k(b, h / s.group, j, c);
      row[j] = scale * dot;
    }
    return row;
  }

  static double logSumExp(const std::vector<double> &row) {
    double m = -INFINITY, sum = 0;
    for (double x : row)
      m = std::max(m, x);
    for (double x : row)
      sum += std::exp(x - m);
    return m + std::log(sum);
  }

  /// Runs body(b, h, i) for every query row, rows split among the host's
  /// cores (the GPU shapes' references are large).
  template <typename Body> void forEachRow(Body body) const {
    parallelRows(s.batch * s.heads * s.nQ, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r)
        body(r / (s.heads * s.nQ), r / s.nQ % s.heads, r % s.nQ);
    });
  }

  void args(Problem &p, Strides qs, Strides ks) const {
    p.scalarArg(ElemType::I32, s.nQ);
    p.scalarArg(ElemType::I32, s.nK);
    p.scalarArg(ElemType::I32, s.heads);
    p.scalarArg(ElemType::I32, s.group);
    for (int64_t stride : {qs.b, qs.h, qs.m, ks.b, ks.h, ks.m})
      p.scalarArg(ElemType::I32, stride);
    p.scalarArg(ElemType::F32, scale);
  }

  /// Bytes of Q, K, V (and as many again per further Q- or K-sized tensor).
  double bytes(ElemType type) const {
    double size = llk::interp::elemTypeSize(type);
    return size * s.d * s.batch * (s.heads * s.nQ + 2 * s.headsKv() * s.nK);
  }
};

/// lse [B][H][n_q], f32, packed.
HostBuffer &rowStats(Problem &p, const char *name, const AttnShape &s, bool out) {
  std::vector<int64_t> shape{s.batch, s.heads, s.nQ};
  return out ? p.output(name, ElemType::F32, shape) : p.zeros(name, ElemType::F32, shape);
}

size_t rowIndex(const AttnShape &s, int64_t b, int64_t h, int64_t i) {
  return (b * s.heads + h) * s.nQ + i;
}

//===----------------------------------------------------------------------===//
// Forward: o and lse
//===----------------------------------------------------------------------===//

void forward(Problem &p, const AttnShape &s, ElemType type) {
  Attention a(p, s, type);
  Tensor4 o = output(p, "o", type, s, s.heads, s.nQ);
  HostBuffer &lse = rowStats(p, "lse", s, /*out=*/true);
  a.forEachRow([&](int64_t b, int64_t h, int64_t i) {
    std::vector<double> row = a.scores(b, h, i);
    double l = Attention::logSumExp(row);
    lse.reference[rowIndex(s, b, h, i)] = l;
    for (int64_t c = 0; c < s.d; ++c) {
      double sum = 0;
      for (int64_t j = 0; j < s.nK; ++j)
        if (row[j] > -INFINITY)
          sum += std::exp(row[j] - l) * a.v(b, h / s.group, j, c);
      o.buffer->reference[o.index(b, h, i, c)] = sum;
    }
  });
  p.pointerArg(*a.q.buffer);
  p.pointerArg(*a.k.buffer);
  p.pointerArg(*a.v.buffer);
  p.pointerArg(*o.buffer);
  p.pointerArg(lse);
  a.args(p, a.q.strides, a.k.strides);
  Blocks blocks = blocksOf(Kernel::Fwd, s.d);
  setGrid(p, ceilDiv(s.nQ, blocks.blockM), s.batch * s.heads);
  p.bytes = a.bytes(type) + llk::interp::elemTypeSize(type) * s.batch *
                                s.heads * s.nQ * s.d + 4.0 * s.batch * s.heads * s.nQ;
}

//===----------------------------------------------------------------------===//
// Backward: delta = rowsum(O ∘ dO), then dK/dV and dQ
//===----------------------------------------------------------------------===//

void preprocess(Problem &p, const AttnShape &s, ElemType type) {
  Tensor4 o = input(p, "o", type, s, s.heads, s.nQ);
  Tensor4 dout = input(p, "do", type, s, s.heads, s.nQ);
  HostBuffer &delta = rowStats(p, "delta", s, /*out=*/true);
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t h = 0; h < s.heads; ++h)
      for (int64_t i = 0; i < s.nQ; ++i) {
        double sum = 0;
        for (int64_t c = 0; c < s.d; ++c)
          sum += o(b, h, i, c) * dout(b, h, i, c);
        delta.reference[rowIndex(s, b, h, i)] = sum;
      }
  p.pointerArg(*o.buffer);
  p.pointerArg(*dout.buffer);
  p.pointerArg(delta);
  p.scalarArg(ElemType::I32, s.nQ);
  p.scalarArg(ElemType::I32, s.heads);
  for (int64_t stride : {o.strides.b, o.strides.h, o.strides.m})
    p.scalarArg(ElemType::I32, stride);
  setGrid(p, ceilDiv(s.nQ, blocksOf(Kernel::Preprocess, s.d).blockM),
          s.batch * s.heads);
  p.bytes = 2.0 * llk::interp::elemTypeSize(type) * s.batch * s.heads * s.nQ * s.d +
            4.0 * s.batch * s.heads * s.nQ;
}

/// The backward's inputs: Q, K, V, dO and the forward's lse and delta (from
/// the exact O), each rounded as stored.
struct Backward : Attention {
  Tensor4 dout;
  HostBuffer *lse, *delta;

  Backward(Problem &p, const AttnShape &shape, ElemType type)
      : Attention(p, shape, type),
        dout(input(p, "do", type, s, s.heads, s.nQ)),
        lse(&rowStats(p, "lse", s, false)), delta(&rowStats(p, "delta", s, false)) {
    forEachRow([&](int64_t b, int64_t h, int64_t i) {
      std::vector<double> row = scores(b, h, i);
      double l = logSumExp(row), sum = 0;
      for (int64_t c = 0; c < s.d; ++c) {
        double oc = 0;
        for (int64_t j = 0; j < s.nK; ++j)
          if (row[j] > -INFINITY)
            oc += std::exp(row[j] - l) * v(b, h / s.group, j, c);
        sum += oc * dout(b, h, i, c);
      }
      lse->set(rowIndex(s, b, h, i), l);
      delta->set(rowIndex(s, b, h, i), sum);
    });
  }

  /// P and dS of row (b, h, i) from the stored lse and delta.
  void gradients(int64_t b, int64_t h, int64_t i, std::vector<double> &prob,
                 std::vector<double> &ds) const {
    prob = scores(b, h, i);
    ds.assign(s.nK, 0.0);
    size_t r = rowIndex(s, b, h, i);
    for (int64_t j = 0; j < s.nK; ++j) {
      prob[j] = prob[j] > -INFINITY ? std::exp(prob[j] - (*lse)[r]) : 0.0;
      double dp = 0;
      for (int64_t c = 0; c < s.d; ++c)
        dp += dout(b, h, i, c) * v(b, h / s.group, j, c);
      ds[j] = prob[j] * (dp - (*delta)[r]);
    }
  }

  void pointers(Problem &p) const {
    p.pointerArg(*q.buffer);
    p.pointerArg(*k.buffer);
    p.pointerArg(*v.buffer);
    p.pointerArg(*dout.buffer);
    p.pointerArg(*lse);
    p.pointerArg(*delta);
  }
};

void dkdv(Problem &p, const AttnShape &s, ElemType type) {
  Backward a(p, s, type);
  Tensor4 dk = output(p, "dk", type, s, s.headsKv(), s.nK);
  Tensor4 dv = output(p, "dv", type, s, s.headsKv(), s.nK);
  // Sums over the query rows (and heads of a group) per key: by KV head.
  parallelRows(s.batch * s.headsKv(), [&](int64_t begin, int64_t end) {
    std::vector<double> prob, ds;
    for (int64_t r = begin; r < end; ++r) {
      int64_t b = r / s.headsKv(), hk = r % s.headsKv();
      std::vector<double> sumK(s.nK * s.d, 0.0), sumV(s.nK * s.d, 0.0);
      for (int64_t h = hk * s.group; h < (hk + 1) * s.group; ++h)
        for (int64_t i = 0; i < s.nQ; ++i) {
          a.gradients(b, h, i, prob, ds);
          for (int64_t j = 0; j < s.nK; ++j)
            for (int64_t c = 0; c < s.d; ++c) {
              sumK[j * s.d + c] += ds[j] * a.q(b, h, i, c);
              sumV[j * s.d + c] += prob[j] * a.dout(b, h, i, c);
            }
        }
      for (int64_t j = 0; j < s.nK; ++j)
        for (int64_t c = 0; c < s.d; ++c) {
          dk.buffer->reference[dk.index(b, hk, j, c)] = a.scale * sumK[j * s.d + c];
          dv.buffer->reference[dv.index(b, hk, j, c)] = sumV[j * s.d + c];
        }
    }
  });
  a.pointers(p);
  p.pointerArg(*dk.buffer);
  p.pointerArg(*dv.buffer);
  a.args(p, a.q.strides, a.k.strides);
  setGrid(p, ceilDiv(s.nK, blocksOf(Kernel::DkDv, s.d).blockN),
          s.batch * s.headsKv());
  p.bytes = 2 * a.bytes(type);
}

void dq(Problem &p, const AttnShape &s, ElemType type) {
  Backward a(p, s, type);
  Tensor4 dq = output(p, "dq", type, s, s.heads, s.nQ);
  a.forEachRow([&](int64_t b, int64_t h, int64_t i) {
    std::vector<double> prob, ds;
    a.gradients(b, h, i, prob, ds);
    for (int64_t c = 0; c < s.d; ++c) {
      double sum = 0;
      for (int64_t j = 0; j < s.nK; ++j)
        sum += ds[j] * a.k(b, h / s.group, j, c);
      dq.buffer->reference[dq.index(b, h, i, c)] = a.scale * sum;
    }
  });
  a.pointers(p);
  p.pointerArg(*dq.buffer);
  a.args(p, a.q.strides, a.k.strides);
  setGrid(p, ceilDiv(s.nQ, blocksOf(Kernel::Dq, s.d).blockM), s.batch * s.heads);
  p.bytes = 2 * a.bytes(type);
}

//===----------------------------------------------------------------------===//
// The checks
//===----------------------------------------------------------------------===//

using Builder = void (*)(Problem &, const AttnShape &, ElemType);

/// A launch of `kernel` at `shape` with its configuration's warps and stages.
std::function<void(Problem &)> launch(Kernel kernel, Builder build,
                                      AttnShape shape, ElemType type,
                                      std::string arch = "") {
  return [=](Problem &p) {
    Blocks blocks = blocksOf(kernel, shape.d);
    p.numWarps = blocks.warps;
    p.numStages = blocks.stages;
    p.minProgramsPerSM = blocks.programs;
    p.wgmmaMinProgramsPerSM = blocks.wgmmaPrograms;
    p.arch = arch;
    build(p, shape, type);
  };
}

struct CheckSpec {
  const char *name, *source, *kernel;
  Kernel which;
  Builder build;
  ElemType type;
  int64_t d;
  bool causal;
  /// Query heads per KV head at the small shape (the kernels that take it).
  int64_t group;
};

/// Output rounding to T plus the probabilities' rounding to T before the
/// dots: bf16 keeps 3 fewer significand bits than f16.
double toleranceOf(ElemType type) { return type == ElemType::BF16 ? 8e-3 : 1e-3; }

KernelCheck makeCheck(const CheckSpec &c) {
  std::string typeName = llk::interp::elemTypeName(c.type).str();
  Blocks blocks = blocksOf(c.which, c.d);
  llk::Constants constants{{"T", *llk::ConstantValue::fromTypeName(typeName)},
                           {"D", c.d},
                           {"BLOCK_M", blocks.blockM}};
  if (c.which != Kernel::Preprocess) {
    constants["BLOCK_N"] = blocks.blockN;
    constants["CAUSAL"] = c.causal ? 1 : 0;
  }
  // Small: 200 queries over 300 keys (causal: bottom-right), so that every
  // kernel takes both stages and partial blocks at both ends; padded
  // token-major rows. GPU: the same kinds of tails at 1000+ tokens, a square
  // shape, and GQA's 4 heads per KV head, each on sm_90 (mma.sync) and sm_90a.
  AttnShape small{1, c.group == 1 ? 2 : 4, c.group, 200, 300, c.d, c.causal,
                  /*tokenMajor=*/true, /*rowPad=*/8};
  std::vector<AttnShape> gpuShapes = {
      {2, 8, 4, 1000, 1000, c.d, c.causal},
      {2, 4, 1, 777, 1031, c.d, c.causal, true, 8},
      {1, 16, 1, 2048, 2048, c.d, c.causal},
  };
  // Llama's prompt: 512 new tokens after 3584 cached, 32 query heads over 8
  // or 32 KV heads of 128, token-major as the QKV projection writes them.
  if (c.which == Kernel::Fwd && c.causal && c.d == 128)
    for (int64_t group : {4, 1})
      gpuShapes.push_back({1, 32, group, 512, 4096, 128, true, true});
  std::vector<GpuCase> cases;
  for (const AttnShape &shape : gpuShapes)
    for (const char *arch : {"", "sm_90a"})
      cases.push_back({shape.label() + (*arch ? " sm_90a" : ""),
                       launch(c.which, c.build, shape, c.type, arch)});
  return {c.name,  c.source,   c.kernel, constants, toleranceOf(c.type),
          launch(c.which, c.build, small, c.type), std::move(cases)};
}

} // namespace

std::vector<KernelCheck> llk::checks::attentionChecks() {
  const ElemType f16 = ElemType::F16, bf16 = ElemType::BF16;
  const CheckSpec specs[] = {
      // Forward: each head dim, type, causality and grouping at least once.
      {"attn_fwd_f16_d64", "attention/fwd.mlir", "attn_fwd_kernel",
       Kernel::Fwd, forward, f16, 64, false, 4},
      {"attn_fwd_causal_bf16_d64", "attention/fwd.mlir", "attn_fwd_kernel",
       Kernel::Fwd, forward, bf16, 64, true, 1},
      {"attn_fwd_bf16_d128", "attention/fwd.mlir", "attn_fwd_kernel",
       Kernel::Fwd, forward, bf16, 128, false, 1},
      {"attn_fwd_causal_f16_d128", "attention/fwd.mlir", "attn_fwd_kernel",
       Kernel::Fwd, forward, f16, 128, true, 4},
      {"attn_bwd_preprocess_f16_d64", "attention/bwd_preprocess.mlir",
       "attn_bwd_preprocess_kernel", Kernel::Preprocess, preprocess, f16, 64,
       false, 1},
      {"attn_bwd_preprocess_bf16_d128", "attention/bwd_preprocess.mlir",
       "attn_bwd_preprocess_kernel", Kernel::Preprocess, preprocess, bf16, 128,
       false, 1},
      {"attn_bwd_dkdv_causal_f16_d64", "attention/bwd_dkdv.mlir",
       "attn_bwd_dkdv_kernel", Kernel::DkDv, dkdv, f16, 64, true, 4},
      {"attn_bwd_dkdv_bf16_d128", "attention/bwd_dkdv.mlir",
       "attn_bwd_dkdv_kernel", Kernel::DkDv, dkdv, bf16, 128, false, 1},
      {"attn_bwd_dq_causal_f16_d64", "attention/bwd_dq.mlir",
       "attn_bwd_dq_kernel", Kernel::Dq, dq, f16, 64, true, 4},
      {"attn_bwd_dq_bf16_d128", "attention/bwd_dq.mlir", "attn_bwd_dq_kernel",
       Kernel::Dq, dq, bf16, 128, false, 1},
  };
  std::vector<KernelCheck> checks;
  for (const CheckSpec &spec : specs)
    checks.push_back(makeCheck(spec));
  return checks;
}
