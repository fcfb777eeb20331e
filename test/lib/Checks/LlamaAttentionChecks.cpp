//===- LlamaAttentionChecks.cpp - attention over the KV cache (decode) ----===//
//
// The kernels of examples/llama/attn_*.mlir against float64 references:
// scores K.q (attn_scores), probabilities times the transposed V cache
// (attn_values), and the fused flash-decoding pair (attn_decode partial and
// combine). Cache formats as in the spec: K f16 [C][NH_kv][D], V f16
// [NH_kv][D][C]. Cache slots at and past n_kv hold NaN, and so does row
// padding of the inputs: a kernel that lets any of them into its result
// fails.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

#include <algorithm>
#include <cmath>
#include <string>

using namespace llk::checks;
using llk::interp::ElemType;

namespace {

/// Heads, grouping, head dim, tokens in the cache and its capacity.
struct AttnShape {
  int64_t nh;  // query heads
  int64_t g;   // query heads per kv head
  int64_t d;   // head dim
  int64_t nKv; // tokens in the cache
  int64_t cap; // cache capacity C (a multiple of 16)
  int64_t nhKv() const { return nh / g; }
  std::string label() const {
    return std::to_string(nh) + "x" + std::to_string(d) + " n_kv=" +
           std::to_string(nKv) + " C=" + std::to_string(cap) +
           (g > 1 ? " g=" + std::to_string(g) : "");
  }
};

/// Overwrites element `i` of an input with NaN (bytes and value).
void poison(HostBuffer &buffer, size_t i) {
  size_t size = llk::interp::elemTypeSize(buffer.type);
  llk::interp::encodeElement(buffer.type, NAN, &buffer.bytes[i * size]);
  buffer.values[i] = NAN;
}

/// The K and V caches, random where t < n_kv and NaN in the unused slots.
struct KvCache {
  AttnShape shape;
  HostBuffer *k = nullptr, *v = nullptr;

  KvCache(Problem &p, const AttnShape &s) : shape(s) {
    k = &p.randn("k_cache", ElemType::F16, {s.cap, s.nhKv(), s.d});
    v = &p.randn("v_cache", ElemType::F16, {s.nhKv(), s.d, s.cap});
    for (int64_t t = s.nKv; t < s.cap; ++t)
      for (int64_t j = 0; j < s.nhKv(); ++j)
        for (int64_t i = 0; i < s.d; ++i) {
          poison(*k, (t * s.nhKv() + j) * s.d + i);
          poison(*v, (j * s.d + i) * s.cap + t);
        }
  }
  double K(int64_t t, int64_t j, int64_t i) const {
    return (*k)[(t * shape.nhKv() + j) * shape.d + i];
  }
  double V(int64_t j, int64_t i, int64_t t) const {
    return (*v)[(j * shape.d + i) * shape.cap + t];
  }
  /// s[h, t] = sum_i K[t, h/g, i] * q[h, i]; q is [NH][D].
  double score(const HostBuffer &q, int64_t h, int64_t t) const {
    double sum = 0;
    for (int64_t i = 0; i < shape.d; ++i)
      sum += K(t, h / shape.g, i) * q[h * shape.d + i];
    return sum;
  }
  /// Bytes of K and V for n_kv tokens (what attention must read).
  double bytesPerCache() const { return 2.0 * shape.nKv * shape.nhKv() * shape.d; }
};

/// Softmax statistics of head h over tokens [begin, end) with scaled scores:
/// m = max s, l = sum exp(s - m), o = sum exp(s - m) V[:, t].
struct Partial {
  double m = -INFINITY, l = 0;
  std::vector<double> o;
};

Partial attend(const KvCache &cache, const HostBuffer &q, int64_t h,
               double scale, int64_t begin, int64_t end) {
  const AttnShape &s = cache.shape;
  std::vector<double> scores;
  Partial r;
  for (int64_t t = begin; t < end; ++t) {
    scores.push_back(scale * cache.score(q, h, t));
    r.m = std::max(r.m, scores.back());
  }
  r.o.assign(s.d, 0.0);
  for (int64_t t = begin; t < end; ++t) {
    double w = std::exp(scores[t - begin] - r.m);
    r.l += w;
    for (int64_t i = 0; i < s.d; ++i)
      r.o[i] += w * cache.V(h / s.g, i, t);
  }
  return r;
}

//===----------------------------------------------------------------------===//
// attn_scores
//===----------------------------------------------------------------------===//

// s rows padded to sStride (>= n_kv): the padding must stay untouched.
void attnScores(Problem &p, const AttnShape &s, int64_t sStride, int64_t blockT) {
  HostBuffer &q = p.randn("q", ElemType::F32, {s.nh, s.d});
  KvCache cache(p, s);
  HostBuffer &out = p.output("s", ElemType::F32, {s.nh, sStride});
  for (int64_t h = 0; h < s.nh; ++h)
    for (int64_t t = 0; t < s.nKv; ++t)
      out.reference[h * sStride + t] = cache.score(q, h, t);
  p.pointerArg(out);
  p.pointerArg(q);
  p.pointerArg(*cache.k);
  p.scalarArg(ElemType::I32, s.nKv);
  p.scalarArg(ElemType::I32, s.nhKv() * s.d);
  p.scalarArg(ElemType::I32, s.g);
  p.scalarArg(ElemType::I32, sStride);
  setGrid(p, ceilDiv(s.nKv, blockT), s.nh);
  p.bytes = cache.bytesPerCache() + 4.0 * s.nh * s.d + 4.0 * s.nh * s.nKv;
}

//===----------------------------------------------------------------------===//
// attn_values
//===----------------------------------------------------------------------===//

// p rows of pStride (>= n_kv) values; the padding holds NaN.
void attnValues(Problem &p, const AttnShape &s, int64_t pStride, int64_t blockD) {
  HostBuffer &probs = p.uniform("p", ElemType::F32, {s.nh, pStride}, 0.01, 1.0);
  for (int64_t h = 0; h < s.nh; ++h)
    for (int64_t t = s.nKv; t < pStride; ++t)
      poison(probs, h * pStride + t);
  KvCache cache(p, s);
  HostBuffer &out = p.output("o", ElemType::F32, {s.nh, s.d});
  for (int64_t h = 0; h < s.nh; ++h)
    for (int64_t i = 0; i < s.d; ++i) {
      double sum = 0;
      for (int64_t t = 0; t < s.nKv; ++t)
        sum += cache.V(h / s.g, i, t) * probs[h * pStride + t];
      out.reference[h * s.d + i] = sum;
    }
  p.pointerArg(out);
  p.pointerArg(probs);
  p.pointerArg(*cache.v);
  p.scalarArg(ElemType::I32, s.nKv);
  p.scalarArg(ElemType::I32, s.cap);
  p.scalarArg(ElemType::I32, s.g);
  p.scalarArg(ElemType::I32, pStride);
  setGrid(p, ceilDiv(s.d, blockD), s.nh);
  p.bytes = cache.bytesPerCache() + 4.0 * s.nh * s.nKv + 4.0 * s.nh * s.d;
}

//===----------------------------------------------------------------------===//
// attn_decode: partial (one chunk of tokens per program) and combine
//===----------------------------------------------------------------------===//

/// 1/sqrt(D) as the kernel gets it (an f32 argument).
double decodeScale(const AttnShape &s) {
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.d)));
}

void attnDecodePartial(Problem &p, const AttnShape &s, int64_t chunk) {
  const int64_t nChunks = ceilDiv(s.nKv, chunk);
  const double scale = decodeScale(s);
  HostBuffer &q = p.randn("q", ElemType::F32, {s.nh, s.d});
  KvCache cache(p, s);
  HostBuffer &partO = p.output("part_o", ElemType::F32, {s.nh, nChunks, s.d});
  HostBuffer &partM = p.output("part_m", ElemType::F32, {s.nh, nChunks});
  HostBuffer &partL = p.output("part_l", ElemType::F32, {s.nh, nChunks});
  for (int64_t h = 0; h < s.nh; ++h)
    for (int64_t c = 0; c < nChunks; ++c) {
      Partial r = attend(cache, q, h, scale, c * chunk,
                         std::min((c + 1) * chunk, s.nKv));
      partM.reference[h * nChunks + c] = r.m;
      partL.reference[h * nChunks + c] = r.l;
      for (int64_t i = 0; i < s.d; ++i)
        partO.reference[(h * nChunks + c) * s.d + i] = r.o[i];
    }
  p.pointerArg(partO);
  p.pointerArg(partM);
  p.pointerArg(partL);
  p.pointerArg(q);
  p.pointerArg(*cache.k);
  p.pointerArg(*cache.v);
  p.scalarArg(ElemType::I32, s.nKv);
  p.scalarArg(ElemType::I32, chunk);
  p.scalarArg(ElemType::I32, s.nhKv() * s.d);
  p.scalarArg(ElemType::I32, s.cap);
  p.scalarArg(ElemType::I32, s.g);
  p.scalarArg(ElemType::F32, scale);
  p.grid = {static_cast<uint32_t>(nChunks), static_cast<uint32_t>(s.nh), 1};
  // K, V, q read; the partials written.
  p.bytes = 2 * cache.bytesPerCache() + 4.0 * s.nh * s.d +
            4.0 * s.nh * nChunks * (s.d + 2);
}

/// attn_decode_partial_pos_kernel (attn_decode_pos.mlir): the same partials
/// with n_kv = pos + 1 read from device memory and the grid's n_chunks fixed:
/// chunk = ceil(n_kv / n_chunks) rounded up to BLOCK_T; chunks past n_kv
/// hold m = -inf, l = 0, o = 0.
void attnDecodePartialPos(Problem &p, const AttnShape &s, int64_t nChunks,
                          int64_t blockT, bool fused = false) {
  const int64_t chunk = ceilDiv(ceilDiv(s.nKv, nChunks), blockT) * blockT;
  const double scale = decodeScale(s);
  HostBuffer *o = fused ? &p.output("o", ElemType::F32, {s.nh, s.d}) : nullptr;
  HostBuffer &q = p.randn("q", ElemType::F32, {s.nh, s.d});
  KvCache cache(p, s);
  HostBuffer &pos = p.zeros("pos", ElemType::I32, {1});
  pos.set(0, static_cast<double>(s.nKv - 1));
  HostBuffer &partO = p.output("part_o", ElemType::F32, {s.nh, nChunks, s.d});
  HostBuffer &partM = p.output("part_m", ElemType::F32, {s.nh, nChunks});
  HostBuffer &partL = p.output("part_l", ElemType::F32, {s.nh, nChunks});
  HostBuffer *count = fused ? &p.zeros("count", ElemType::I32, {s.nh}) : nullptr;
  for (int64_t h = 0; h < s.nh; ++h) {
    for (int64_t c = 0; c < nChunks; ++c) {
      int64_t begin = std::min(c * chunk, s.nKv), end = std::min(begin + chunk, s.nKv);
      Partial r = attend(cache, q, h, scale, begin, end);
      partM.reference[h * nChunks + c] = r.m;
      partL.reference[h * nChunks + c] = r.l;
      for (int64_t i = 0; i < s.d; ++i)
        partO.reference[(h * nChunks + c) * s.d + i] = r.o[i];
    }
    if (o) { // the whole softmax at once
      Partial all = attend(cache, q, h, scale, 0, s.nKv);
      for (int64_t i = 0; i < s.d; ++i)
        o->reference[h * s.d + i] = all.o[i] / all.l;
    }
  }
  if (o)
    p.pointerArg(*o);
  p.pointerArg(partO);
  p.pointerArg(partM);
  p.pointerArg(partL);
  p.pointerArg(q);
  p.pointerArg(*cache.k);
  p.pointerArg(*cache.v);
  p.pointerArg(pos);
  p.scalarArg(ElemType::I32, s.nhKv() * s.d);
  p.scalarArg(ElemType::I32, s.cap);
  p.scalarArg(ElemType::I32, s.g);
  p.scalarArg(ElemType::F32, scale);
  if (count)
    p.pointerArg(*count);
  p.grid = {static_cast<uint32_t>(nChunks), static_cast<uint32_t>(s.nh), 1};
  p.bytes = 2 * cache.bytesPerCache() + 4.0 * s.nh * s.d +
            4.0 * s.nh * nChunks * (s.d + 2) + (fused ? 4.0 * s.nh * s.d : 0);
}

/// attn_prefill_kernel (attn_prefill.mlir): `tokens` new tokens at positions
/// n_past.. (the cache holds s.nKv = n_past + tokens), each attending to the
/// keys up to its own position; q rows qStride apart, o f16 rows of NH * D.
void attnPrefill(Problem &p, const AttnShape &s, int64_t tokens, int64_t qStride) {
  const int64_t nPast = s.nKv - tokens, width = s.nh * s.d;
  const double scale = decodeScale(s);
  HostBuffer &o = p.output("o", ElemType::F16, {tokens, width});
  HostBuffer &q = p.randn("q", ElemType::F32, {tokens, qStride});
  KvCache cache(p, s);
  parallelRows(tokens, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t)
      for (int64_t h = 0; h < s.nh; ++h) {
        const int64_t nKv = nPast + t + 1;
        std::vector<double> sc(nKv);
        double m = -INFINITY, l = 0;
        for (int64_t u = 0; u < nKv; ++u) {
          double dot = 0;
          for (int64_t i = 0; i < s.d; ++i)
            dot += cache.K(u, h / s.g, i) * q[t * qStride + h * s.d + i];
          sc[u] = scale * dot;
          m = std::max(m, sc[u]);
        }
        for (double &e : sc)
          l += (e = std::exp(e - m));
        for (int64_t i = 0; i < s.d; ++i) {
          double acc = 0;
          for (int64_t u = 0; u < nKv; ++u)
            acc += sc[u] * cache.V(h / s.g, i, u);
          o.reference[t * width + h * s.d + i] = acc / l;
        }
      }
  });
  p.pointerArg(o);
  p.pointerArg(q);
  p.pointerArg(*cache.k);
  p.pointerArg(*cache.v);
  p.scalarArg(ElemType::I32, nPast);
  p.scalarArg(ElemType::I32, qStride);
  p.scalarArg(ElemType::I32, width);
  p.scalarArg(ElemType::I32, s.nhKv() * s.d);
  p.scalarArg(ElemType::I32, s.cap);
  p.scalarArg(ElemType::I32, s.g);
  p.scalarArg(ElemType::F32, scale);
  p.grid = {static_cast<uint32_t>(tokens), static_cast<uint32_t>(s.nh), 1};
  p.bytes = 2 * cache.bytesPerCache() + 4.0 * tokens * width + 2.0 * tokens * width;
}

// Partials as the partial kernel leaves them (m of scaled scores around 0..4,
// l >= 1, o of the size of l times a V value); reference: the merge in f64.
void attnDecodeCombine(Problem &p, int64_t nh, int64_t d, int64_t nChunks) {
  HostBuffer &partO = p.randn("part_o", ElemType::F32, {nh, nChunks, d});
  HostBuffer &partM = p.uniform("part_m", ElemType::F32, {nh, nChunks}, -1.0, 4.0);
  HostBuffer &partL = p.uniform("part_l", ElemType::F32, {nh, nChunks}, 1.0, 40.0);
  HostBuffer &out = p.output("o", ElemType::F32, {nh, d});
  for (int64_t h = 0; h < nh; ++h) {
    double mMax = -INFINITY, den = 0;
    for (int64_t c = 0; c < nChunks; ++c)
      mMax = std::max(mMax, partM[h * nChunks + c]);
    for (int64_t c = 0; c < nChunks; ++c)
      den += std::exp(partM[h * nChunks + c] - mMax) * partL[h * nChunks + c];
    for (int64_t i = 0; i < d; ++i) {
      double num = 0;
      for (int64_t c = 0; c < nChunks; ++c)
        num += std::exp(partM[h * nChunks + c] - mMax) *
               partO[(h * nChunks + c) * d + i];
      out.reference[h * d + i] = num / den;
    }
  }
  p.pointerArg(out);
  p.pointerArg(partO);
  p.pointerArg(partM);
  p.pointerArg(partL);
  p.scalarArg(ElemType::I32, nChunks);
  p.grid = {static_cast<uint32_t>(nh), 1, 1};
  p.bytes = 4.0 * nh * nChunks * (d + 2) + 4.0 * nh * d;
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

// Llama-2 7B decode: 32 heads of 128, cache of capacity 4096; n_kv from one
// token to a full cache, grouped-query g = 4 (8 kv heads), and a capacity
// that is not a power of two.
const int64_t kNH = 32, kD = 128, kCap = 4096;
const AttnShape kDecodeShapes[] = {
    {kNH, 1, kD, 1, kCap},    {kNH, 1, kD, 17, kCap},  {kNH, 1, kD, 512, kCap},
    {kNH, 1, kD, 4096, kCap}, {kNH, 4, kD, 4096, kCap}, {kNH, 4, kD, 1000, 1040},
    {kNH, 1, kD, 4095, kCap},
};

/// Tokens per partial program: enough programs to fill the GPU (>= 4 per SM
/// over 32 heads), at least 64 tokens each.
int64_t decodeChunk(int64_t nKv) {
  int64_t chunk = 64;
  while (chunk < 1024 && ceilDiv(nKv, chunk) > 16)
    chunk *= 2;
  return chunk;
}

std::vector<GpuCase> scoresCases() {
  std::vector<GpuCase> cases;
  for (const AttnShape &s : kDecodeShapes)
    cases.push_back({s.label(), [s](Problem &p) {
                       p.constants = {{"BLOCK_T", 64}, {"D", s.d}};
                       p.numWarps = 4;
                       attnScores(p, s, s.nKv, 64);
                     }});
  return cases;
}

std::vector<GpuCase> valuesCases() {
  std::vector<GpuCase> cases;
  for (const AttnShape &s : kDecodeShapes)
    cases.push_back({s.label(), [s](Problem &p) {
                       p.constants = {{"BLOCK_D", 16}, {"BLOCK_T", 512}, {"D", s.d}};
                       p.numWarps = 4;
                       attnValues(p, s, s.nKv, 16);
                     }});
  return cases;
}

const llk::Constants kDecodeGpuConstants = {
    {"BLOCK_T", 64}, {"D", kD}, {"MAX_CHUNKS", 32}};

std::vector<GpuCase> decodePartialCases() {
  std::vector<GpuCase> cases;
  for (const AttnShape &s : kDecodeShapes) {
    int64_t chunk = decodeChunk(s.nKv);
    cases.push_back({s.label() + " chunk=" + std::to_string(chunk),
                     [s, chunk](Problem &p) {
                       p.constants = kDecodeGpuConstants;
                       p.numWarps = 8;
                       attnDecodePartial(p, s, chunk);
                     }});
  }
  return cases;
}

/// The chunks llk-llama gives a cache of capacity C: C / 64, 1 to 16.
int64_t posChunks(int64_t cap) { return std::clamp<int64_t>(cap / 64, 1, 16); }

std::vector<GpuCase> decodePartialPosCases(bool fused) {
  std::vector<GpuCase> cases;
  for (const AttnShape &s : kDecodeShapes) {
    int64_t nChunks = posChunks(s.cap);
    cases.push_back({s.label() + " chunks=" + std::to_string(nChunks),
                     [s, nChunks, fused](Problem &p) {
                       p.constants = {{"BLOCK_T", 64}, {"D", s.d}};
                       if (fused)
                         p.constants["MAX_CHUNKS"] = 16;
                       p.numWarps = 8;
                       attnDecodePartialPos(p, s, nChunks, 64, fused);
                     }});
  }
  return cases;
}

std::vector<GpuCase> decodeCombineCases() {
  std::vector<GpuCase> cases;
  for (int64_t nChunks : {1, 7, 16, 32})
    cases.push_back({"32x128 chunks=" + std::to_string(nChunks),
                     [nChunks](Problem &p) {
                       p.constants = kDecodeGpuConstants;
                       p.numWarps = 4;
                       attnDecodeCombine(p, kNH, kD, nChunks);
                     }});
  return cases;
}

} // namespace

// Interpreter shapes: 4 heads of D = 128 in 2 kv heads (g = 2), n_kv = 37
// tokens in a cache of 48: partial blocks, chunks and V rows not a multiple of
// 8 tokens.
std::vector<KernelCheck> llk::checks::llamaAttentionChecks() {
  const AttnShape small = {4, 2, kD, 37, 48};
  return {
      {"attn_scores", "llama/attn_scores.mlir", "attn_scores_kernel",
       {{"BLOCK_T", 16}, {"D", kD}}, 1e-5,
       [small](Problem &p) { attnScores(p, small, 40, 16); }, scoresCases()},
      {"attn_values", "llama/attn_values.mlir", "attn_values_kernel",
       {{"BLOCK_D", 32}, {"BLOCK_T", 16}, {"D", kD}}, 1e-5,
       [small](Problem &p) { attnValues(p, small, 41, 32); }, valuesCases()},
      {"attn_decode_partial", "llama/attn_decode.mlir",
       "attn_decode_partial_kernel",
       {{"BLOCK_T", 16}, {"D", kD}, {"MAX_CHUNKS", 8}}, 1e-5,
       [small](Problem &p) { attnDecodePartial(p, small, 32); },
       decodePartialCases()},
      // 4 chunks of 16 tokens for n_kv = 37: the last chunk empty.
      {"attn_decode_partial_pos", "llama/attn_decode_pos.mlir",
       "attn_decode_partial_pos_kernel", {{"BLOCK_T", 16}, {"D", kD}}, 1e-5,
       [small](Problem &p) { attnDecodePartialPos(p, small, 4, 16); },
       decodePartialPosCases(false)},
      // The same with each head's last chunk merging them (4 chunks of 16:
      // the last one empty).
      {"attn_decode_fused", "llama/attn_decode_fused.mlir", "attn_decode_fused_kernel",
       {{"BLOCK_T", 16}, {"D", kD}, {"MAX_CHUNKS", 4}}, 1e-5,
       [small](Problem &p) { attnDecodePartialPos(p, small, 4, 16, /*fused=*/true); },
       decodePartialPosCases(true)},
      // 6 new tokens after 31 cached ones (n_kv = 37 in a cache of 48); q
      // rows of a QKV output (stride 4 * 128 + 2 * 2 * 128).
      {"attn_prefill", "llama/attn_prefill.mlir", "attn_prefill_kernel",
       {{"BLOCK_T", 16}, {"D", kD}}, 1e-3,
       [small](Problem &p) { attnPrefill(p, small, 6, 1024); },
       {{"7b 512 tokens from 0", [](Problem &p) {
          p.constants = {{"BLOCK_T", 64}, {"D", kD}};
          p.numWarps = 8;
          attnPrefill(p, {kNH, 1, kD, 512, kCap}, 512, 3 * kNH * kD); }},
        {"7b 512 tokens after 3584", [](Problem &p) {
          p.constants = {{"BLOCK_T", 64}, {"D", kD}};
          p.numWarps = 8;
          attnPrefill(p, {kNH, 1, kD, 4096, kCap}, 512, 3 * kNH * kD); }}}},
      {"attn_decode_combine", "llama/attn_decode.mlir",
       "attn_decode_combine_kernel",
       {{"BLOCK_T", 16}, {"D", kD}, {"MAX_CHUNKS", 8}}, 1e-5,
       [](Problem &p) { attnDecodeCombine(p, 4, kD, 5); },
       decodeCombineCases()},
  };
}
