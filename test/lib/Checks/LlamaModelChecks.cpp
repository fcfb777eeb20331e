//===- LlamaModelChecks.cpp - the kernels llk-llama adds ------------------===//
//
// The kernels a whole Llama model needs beyond one block's (examples/llama/):
// the token embedding (get_rows of f32, f16, bf16 and q8_0 tables), mat-vecs
// on f32/f16/bf16 weights (linear_f32, linear_half), the decode step's rope +
// KV-cache append at a position held in device memory (rope_kv), and the
// top-k that samples on the device (topk_partial, topk_final), against
// float64 references. (attn_decode_pos, the attention at a position in device
// memory, is with the other attention checks.) Shapes: Llama-2 7B (H = 4096,
// F = 11008, 32 heads of 128, vocabulary 32000) and TinyLlama's grouped
// heads (32 of 64 over 4 KV heads) on the GPU; small and awkward ones on the
// interpreter.
//
//===----------------------------------------------------------------------===//

#include "QuantBlocks.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace llk::checks;
using namespace llk::checks::quant;
using llk::interp::ElemType;

namespace {

constexpr int64_t kH = 4096, kF = 11008, kVocab = 32000;
/// The tolerance of results that must be exact (indices, copied values).
constexpr double kExact = 1e-12;

/// An i32 input holding `values`.
HostBuffer &intInput(Problem &p, std::string name, const std::vector<int64_t> &values) {
  HostBuffer &b = p.zeros(std::move(name), ElemType::I32,
                          {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i)
    b.set(i, static_cast<double>(values[i]));
  return b;
}

//===----------------------------------------------------------------------===//
// get_rows
//===----------------------------------------------------------------------===//

enum class TableType { F32, F16, BF16, Q8_0 };

/// dst[t] = table[clamp(ids[t])] for a table of `rows` x `cols`. Ids outside
/// the table are clamped to its first or last row.
void getRows(Problem &p, TableType type, int64_t rows, int64_t cols,
             const std::vector<int64_t> &ids, int64_t perProgram) {
  HostBuffer *table;
  std::vector<double> values; // the table as the kernel reads it
  if (type == TableType::Q8_0) {
    table = &randomQ8_0(p, "table", rows, cols);
    PackedView view = viewQ8_0(*table, cols);
    values.resize(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        values[r * cols + c] = view.d(r, c / kQK) * view.q(r, c / kQK, c % kQK);
  } else {
    ElemType elem = type == TableType::F32   ? ElemType::F32
                    : type == TableType::F16 ? ElemType::F16
                                             : ElemType::BF16;
    table = &p.randn("table", elem, {rows, cols});
    values = table->values;
  }
  HostBuffer &idBuffer = intInput(p, "ids", ids);
  const int64_t n = static_cast<int64_t>(ids.size());
  HostBuffer &dst = p.output("dst", ElemType::F32, {n, cols});
  for (int64_t t = 0; t < n; ++t) {
    int64_t row = std::clamp<int64_t>(ids[t], 0, rows - 1);
    for (int64_t c = 0; c < cols; ++c)
      dst.reference[t * cols + c] = values[row * cols + c];
  }
  p.pointerArg(dst);
  p.pointerArg(*table);
  p.pointerArg(idBuffer);
  p.scalarArg(ElemType::I32, rows);
  p.scalarArg(ElemType::I32, cols);
  setGrid(p, ceilDiv(cols, perProgram), n);
  double rowBytes = type == TableType::Q8_0 ? cols / kQK * kQ8_0Bytes
                    : type == TableType::F32 ? 4.0 * cols
                                             : 2.0 * cols;
  p.bytes = n * (rowBytes + 4.0 * cols) + 4.0 * n;
}

KernelCheck getRowsCheck(std::string name, std::string source, std::string kernel,
                         TableType type, llk::Constants constants) {
  const bool q8 = type == TableType::Q8_0;
  // Interpreter: 37 rows of 96 (3 blocks), 64 columns (2 blocks) a program;
  // ids in the table, and past either end (clamped).
  auto small = [type, q8](Problem &p) {
    getRows(p, type, 37, 96, {5, 36, 99, -3}, q8 ? 2 * kQK : 64);
  };
  llk::Constants gpu = constants;
  if (q8)
    gpu["BLOCKS"] = 32;
  else
    gpu["BLOCK"] = 1024;
  std::vector<GpuCase> cases;
  for (int64_t n : {1, 512})
    cases.push_back({std::to_string(kVocab) + "x" + std::to_string(kH) + " ids=" +
                         std::to_string(n),
                     [type, q8, n, gpu](Problem &p) {
                       std::vector<int64_t> ids(n);
                       for (int64_t t = 0; t < n; ++t)
                         ids[t] = (t * 7919 + 13) % kVocab;
                       p.constants = gpu;
                       getRows(p, type, kVocab, kH, ids, q8 ? 32 * kQK : 1024);
                     }});
  llk::Constants interp = constants;
  if (q8)
    interp["BLOCKS"] = 2;
  else
    interp["BLOCK"] = 64;
  return {std::move(name), std::move(source), std::move(kernel), interp, 1e-6, small,
          cases};
}

//===----------------------------------------------------------------------===//
// linear_f32 and linear_half
//===----------------------------------------------------------------------===//

/// y = W x for W n x k of `type` (f32, f16 or bf16) and x f32.
void linearFloat(Problem &p, ElemType type, int64_t n, int64_t k, int64_t rows) {
  HostBuffer &w = p.randn("w", type, {n, k});
  HostBuffer &x = p.randn("x", ElemType::F32, {k});
  HostBuffer &y = p.output("y", ElemType::F32, {n});
  parallelRows(n, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      double sum = 0;
      for (int64_t c = 0; c < k; ++c)
        sum += w[r * k + c] * x[c];
      y.reference[r] = sum;
    }
  });
  p.pointerArg(y);
  p.pointerArg(w);
  p.pointerArg(x);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  setGrid(p, ceilDiv(n, rows));
  p.bytes = n * k * llk::interp::elemTypeSize(type) + 4.0 * k + 4.0 * n;
}

KernelCheck linearFloatCheck(std::string name, std::string source, std::string kernel,
                             ElemType type, llk::Constants typeConstant) {
  llk::Constants small = typeConstant, gpu = typeConstant;
  small["ROWS"] = 4, small["BLOCK_K"] = 64;
  gpu["ROWS"] = 4, gpu["BLOCK_K"] = 256;
  std::vector<GpuCase> cases;
  for (auto [n, k] : {std::pair<int64_t, int64_t>{kH, kH}, {kF, kH}, {kH, kF},
                      {kVocab, kH}, {4001, 4128}})
    cases.push_back({std::to_string(n) + "x" + std::to_string(k), [=](Problem &p) {
                       p.constants = gpu;
                       linearFloat(p, type, n, k, 4);
                     }});
  // Interpreter: N = 37 (the last program has one row), K = 208 (the fourth
  // 64-wide step is a quarter full).
  return {std::move(name), std::move(source), std::move(kernel), small, 1e-5,
          [type](Problem &p) { linearFloat(p, type, 37, 208, 4); }, cases};
}

//===----------------------------------------------------------------------===//
// rope_kv
//===----------------------------------------------------------------------===//

struct RopeShape {
  int64_t nh, nhKv, d, cap, pos;
};

/// rope of x (heads of d) at `pos`, adjacent pairs, base 10000.
std::vector<double> ropeRef(const HostBuffer &x, int64_t d, int64_t pos) {
  std::vector<double> y(x.size());
  for (size_t c = 0; c < x.size(); c += 2) {
    double theta = pos * std::pow(10000.0, -2.0 * double((c % d) / 2) / d);
    y[c] = x[c] * std::cos(theta) - x[c + 1] * std::sin(theta);
    y[c + 1] = x[c] * std::sin(theta) + x[c + 1] * std::cos(theta);
  }
  return y;
}

void ropeKv(Problem &p, const RopeShape &s, int64_t block) {
  const int64_t nq = s.nh * s.d, nkv = s.nhKv * s.d;
  HostBuffer &qOut = p.output("q_out", ElemType::F32, {nq});
  HostBuffer &q = p.randn("q", ElemType::F32, {nq});
  HostBuffer &k = p.randn("k", ElemType::F32, {nkv});
  HostBuffer &v = p.randn("v", ElemType::F32, {nkv});
  // The caches: outputs of which only slot pos is written; every other
  // entry must keep its poison.
  HostBuffer &kCache = p.output("k_cache", ElemType::F16, {s.cap, nkv});
  HostBuffer &vCache = p.output("v_cache", ElemType::F16, {nkv, s.cap});
  HostBuffer &pos = intInput(p, "pos", {s.pos});
  std::vector<double> qr = ropeRef(q, s.d, s.pos), kr = ropeRef(k, s.d, s.pos);
  for (int64_t c = 0; c < nq; ++c)
    qOut.reference[c] = qr[c];
  if (s.pos >= 0 && s.pos < s.cap)
    for (int64_t c = 0; c < nkv; ++c) {
      kCache.reference[s.pos * nkv + c] = kr[c];
      vCache.reference[c * s.cap + s.pos] = v[c];
    }
  p.pointerArg(qOut);
  p.pointerArg(q);
  p.pointerArg(k);
  p.pointerArg(v);
  p.pointerArg(kCache);
  p.pointerArg(vCache);
  p.pointerArg(pos);
  p.scalarArg(ElemType::I32, nq);
  p.scalarArg(ElemType::I32, nkv);
  p.scalarArg(ElemType::I32, s.cap);
  p.scalarArg(ElemType::F32, 10000.0);
  setGrid(p, ceilDiv(nq, block));
  p.bytes = 8.0 * nq + 12.0 * nkv;
}

std::vector<GpuCase> ropeKvCases() {
  std::vector<GpuCase> cases;
  // Llama-2 7B at the first, a middle and the last slot of a 4096 cache;
  // TinyLlama's grouped heads; a position past the cache (nothing written).
  for (RopeShape s : {RopeShape{32, 32, 128, 4096, 0}, {32, 32, 128, 4096, 511},
                      {32, 32, 128, 4096, 4095}, {32, 4, 64, 2048, 1000},
                      {32, 32, 128, 512, 512}})
    cases.push_back({std::to_string(s.nh) + "x" + std::to_string(s.d) + " kv " +
                         std::to_string(s.nhKv) + " pos " + std::to_string(s.pos) +
                         " C=" + std::to_string(s.cap),
                     [s](Problem &p) {
                       p.constants = {{"BLOCK", 1024}, {"D", s.d}};
                       ropeKv(p, s, 1024);
                     }});
  return cases;
}

//===----------------------------------------------------------------------===//
// topk_partial and topk_final
//===----------------------------------------------------------------------===//

/// Indices of the k largest of `values[0..n)`, by value then by index.
std::vector<int64_t> topIndices(const double *values, int64_t n, int64_t k) {
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return values[a] > values[b]; });
  order.resize(std::min(n, k));
  return order;
}

/// Logits that tie often: multiples of 1/8 in [-4, 4).
HostBuffer &tiedLogits(Problem &p, std::string name, int64_t n) {
  HostBuffer &x = p.uniform(std::move(name), ElemType::F32, {n}, -4, 4);
  for (size_t i = 0; i < x.size(); ++i)
    x.set(i, std::floor(x[i] * 8) / 8);
  return x;
}

void topkPartial(Problem &p, int64_t n, int64_t block, int64_t k) {
  const int64_t blocks = ceilDiv(n, block);
  HostBuffer &vals = p.output("vals", ElemType::F32, {blocks * k});
  HostBuffer &ids = p.output("ids", ElemType::I32, {blocks * k});
  HostBuffer &logits = tiedLogits(p, "logits", n);
  for (int64_t b = 0; b < blocks; ++b) {
    int64_t size = std::min(block, n - b * block);
    std::vector<int64_t> top = topIndices(&logits.values[b * block], size, k);
    for (int64_t i = 0; i < k; ++i) {
      // A block of fewer than K logits repeats its first index at -inf.
      bool real = i < static_cast<int64_t>(top.size());
      vals.reference[b * k + i] = real ? logits[b * block + top[i]] : -INFINITY;
      ids.reference[b * k + i] = b * block + (real ? top[i] : 0);
    }
  }
  p.pointerArg(vals);
  p.pointerArg(ids);
  p.pointerArg(logits);
  p.scalarArg(ElemType::I32, n);
  setGrid(p, blocks);
  p.bytes = 4.0 * n + 8.0 * blocks * k;
}

void topkFinal(Problem &p, int64_t nCand, int64_t k, int64_t historyLen, int64_t pos) {
  HostBuffer &outVals = p.output("out_vals", ElemType::F32, {k});
  HostBuffer &outIds = p.output("out_ids", ElemType::I32, {k});
  HostBuffer &vals = tiedLogits(p, "vals", nCand);
  // Distinct candidate ids in no particular order.
  std::vector<int64_t> idValues(nCand);
  for (int64_t i = 0; i < nCand; ++i)
    idValues[i] = (i * 7919 + 101) % 32003;
  HostBuffer &ids = intInput(p, "ids", idValues);
  HostBuffer &token = p.output("token", ElemType::I32, {1});
  HostBuffer &history = p.output("history", ElemType::I32, {historyLen});
  HostBuffer &posIn = intInput(p, "pos", {pos});
  HostBuffer &posOut = p.output("pos_out", ElemType::I32, {1});
  std::vector<int64_t> top = topIndices(vals.values.data(), nCand, k);
  for (int64_t i = 0; i < k; ++i) {
    outVals.reference[i] = vals[top[i]];
    outIds.reference[i] = idValues[top[i]];
  }
  token.reference[0] = idValues[top[0]];
  if (pos >= 0 && pos < historyLen)
    history.reference[pos] = idValues[top[0]];
  posOut.reference[0] = pos + 1;
  p.pointerArg(outVals);
  p.pointerArg(outIds);
  p.pointerArg(vals);
  p.pointerArg(ids);
  p.scalarArg(ElemType::I32, nCand);
  p.pointerArg(token);
  p.pointerArg(history);
  p.scalarArg(ElemType::I32, historyLen);
  p.pointerArg(posIn);
  p.pointerArg(posOut);
  setGrid(p, 1);
  p.bytes = 8.0 * nCand + 8.0 * k + 16;
}

std::vector<GpuCase> topkPartialCases() {
  std::vector<GpuCase> cases;
  for (int64_t k : {1, 40})
    cases.push_back({std::to_string(kVocab) + " K=" + std::to_string(k), [k](Problem &p) {
                       p.constants = {{"BLOCK", 1024}, {"K", k}};
                       topkPartial(p, kVocab, 1024, k);
                     }});
  return cases;
}

std::vector<GpuCase> topkFinalCases() {
  std::vector<GpuCase> cases;
  const int64_t blocks = ceilDiv(kVocab, 1024);
  for (int64_t k : {1, 40}) {
    int64_t maxCand = 1;
    while (maxCand < blocks * k)
      maxCand *= 2;
    cases.push_back({std::to_string(blocks) + "x" + std::to_string(k) + " candidates",
                     [=](Problem &p) {
                       p.constants = {{"K", k}, {"MAX_CAND", maxCand}};
                       topkFinal(p, blocks * k, k, 4096, 100);
                     }});
  }
  return cases;
}

//===----------------------------------------------------------------------===//
// The decode step's fused kernels (q8_0 weights)
//===----------------------------------------------------------------------===//

/// sum_b d0 d1 sum_j q0 q1 of row r: mul_mat_vec_q's exact sum.
/// Row r of the q8_0 matrix `w` (a PackedView or SplitQ8_0) times the q8_1 x.
template <typename Weights>
double dotQ8_0Q8_1(const Weights &w, const PackedView &x, int64_t r, int64_t k) {
  double sum = 0;
  for (int64_t b = 0; b < k / kQK; ++b) {
    int64_t dot = 0;
    for (int64_t j = 0; j < kQK; ++j)
      dot += w.q(r, b, j) * x.q(0, b, j);
    sum += w.d(r, b) * x.d(0, b) * dot;
  }
  return sum;
}

/// rms_norm_q8_1: `rows` rows of `cols` (stride `stride`) normalized, times
/// gamma, quantized to q8_1; the reference is the bytes of the float64
/// result quantized (a quant may differ by one where y/d is within f32
/// rounding of a half).
void rmsNormQ8_1(Problem &p, int64_t rows, int64_t cols, int64_t stride) {
  const double eps = static_cast<float>(1e-5);
  HostBuffer &x = p.randn("x", ElemType::F32, {rows, stride});
  HostBuffer &gamma = p.uniform("gamma", ElemType::F32, {cols}, 0.5, 1.5);
  std::vector<double> y(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    double squares = 0;
    for (int64_t c = 0; c < cols; ++c)
      squares += x[r * stride + c] * x[r * stride + c];
    double scale = 1 / std::sqrt(squares / cols + eps);
    for (int64_t c = 0; c < cols; ++c)
      y[r * cols + c] = x[r * stride + c] * scale * gamma[c];
  }
  std::vector<uint8_t> want = packRows(y, rows, cols, kQ8_1Bytes, writeQ8_1);
  HostBuffer &xq = p.output("xq", ElemType::I8, {static_cast<int64_t>(want.size())});
  for (size_t i = 0; i < want.size(); ++i)
    xq.reference[i] = static_cast<int8_t>(want[i]);
  p.pointerArg(xq);
  p.pointerArg(x);
  p.pointerArg(gamma);
  p.scalarArg(ElemType::I32, stride);
  p.scalarArg(ElemType::I32, cols);
  p.scalarArg(ElemType::F32, eps);
  setGrid(p, rows);
  p.bytes = 4.0 * rows * cols + 4.0 * cols + want.size();
}

/// mul_mat_vec_q_qkv: [Wq; Wk; Wv] (rows n_q, n_kv, n_kv) times xq, rope of
/// the q and k rows at `pos`, k and v into slot pos of the caches; the
/// matrix in the split layout.
void mulMatVecQKV(Problem &p, const RopeShape &s, int64_t k, int64_t rowsPerProgram) {
  const int64_t nq = s.nh * s.d, nkv = s.nhKv * s.d, n = nq + 2 * nkv;
  HostBuffer &qOut = p.output("q_out", ElemType::F32, {nq});
  HostBuffer &kCache = p.output("k_cache", ElemType::F16, {s.cap, nkv});
  HostBuffer &vCache = p.output("v_cache", ElemType::F16, {nkv, s.cap});
  SplitQ8_0 wv = randomSplitQ8_0(p, "w", n, k);
  HostBuffer &xq = randomQ8_1(p, "xq", k);
  HostBuffer &pos = intInput(p, "pos", {s.pos});
  PackedView xv = viewQ8_1(xq, k);
  std::vector<double> y(n);
  parallelRows(n, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r)
      y[r] = dotQ8_0Q8_1(wv, xv, r, k);
  });
  auto rope = [&](int64_t first, int64_t count) {
    std::vector<double> out(count);
    for (int64_t c = 0; c < count; c += 2) {
      double theta = s.pos * std::pow(10000.0, -2.0 * double((c % s.d) / 2) / s.d);
      double a = y[first + c], b = y[first + c + 1];
      out[c] = a * std::cos(theta) - b * std::sin(theta);
      out[c + 1] = a * std::sin(theta) + b * std::cos(theta);
    }
    return out;
  };
  std::vector<double> qr = rope(0, nq), kr = rope(nq, nkv);
  for (int64_t c = 0; c < nq; ++c)
    qOut.reference[c] = qr[c];
  if (s.pos >= 0 && s.pos < s.cap)
    for (int64_t c = 0; c < nkv; ++c) {
      kCache.reference[s.pos * nkv + c] = kr[c];
      vCache.reference[c * s.cap + s.pos] = y[nq + nkv + c];
    }
  p.pointerArg(qOut);
  p.pointerArg(kCache);
  p.pointerArg(vCache);
  p.pointerArg(wv.quants);
  p.pointerArg(wv.scales);
  p.pointerArg(xq);
  p.pointerArg(pos);
  p.scalarArg(ElemType::I32, nq);
  p.scalarArg(ElemType::I32, nkv);
  p.scalarArg(ElemType::I32, k);
  p.scalarArg(ElemType::I32, s.cap);
  HostBuffer &freq = p.zeros("rope_freq", ElemType::F64, {s.d / 2});
  for (int64_t i = 0; i < s.d / 2; ++i)
    freq.set(i, std::exp2(double(i) * (-2.0 / double(s.d)) * std::log2(10000.0)));
  p.pointerArg(freq);
  setGrid(p, ceilDiv(n, rowsPerProgram));
  p.bytes = n * k / kQK * kQ8_0Bytes + k / kQK * kQ8_1Bytes + 4.0 * nq + 4.0 * nkv;
}

/// mul_mat_vec_q_swiglu: silu(Wg xq) * (Wu xq), Wg and Wu split.
void mulMatVecQSwiglu(Problem &p, int64_t n, int64_t k, int64_t rowsPerProgram) {
  HostBuffer &y = p.output("y", ElemType::F32, {n});
  SplitQ8_0 gv = randomSplitQ8_0(p, "wg", n, k), uv = randomSplitQ8_0(p, "wu", n, k);
  HostBuffer &xq = randomQ8_1(p, "xq", k);
  PackedView xv = viewQ8_1(xq, k);
  parallelRows(n, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      double g = dotQ8_0Q8_1(gv, xv, r, k), u = dotQ8_0Q8_1(uv, xv, r, k);
      y.reference[r] = g / (1 + std::exp(-g)) * u;
    }
  });
  p.pointerArg(y);
  p.pointerArg(gv.quants);
  p.pointerArg(gv.scales);
  p.pointerArg(uv.quants);
  p.pointerArg(uv.scales);
  p.pointerArg(xq);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  setGrid(p, ceilDiv(n, rowsPerProgram));
  p.bytes = 2.0 * n * k / kQK * kQ8_0Bytes + k / kQK * kQ8_1Bytes + 4.0 * n;
}

/// linear_q8_0_res_norm: y = res + W x (W q8_0 split, x f32), and y's RMS norm
/// times gamma quantized to q8_1 (block by block, the scale by the last).
void linearQ8_0ResNorm(Problem &p, int64_t n, int64_t k, int64_t rowsPerProgram) {
  const double eps = static_cast<float>(1e-5);
  HostBuffer &y = p.output("y", ElemType::F32, {n});
  HostBuffer &res = p.randn("res", ElemType::F32, {n});
  SplitQ8_0 wv = randomSplitQ8_0(p, "w", n, k);
  HostBuffer &x = p.randn("x", ElemType::F32, {k});
  HostBuffer &gamma = p.uniform("gamma", ElemType::F32, {n}, 0.5, 1.5);
  const int64_t xqBytes = n / kQK * kQ8_1Bytes;
  HostBuffer &xq = p.output("xq", ElemType::I8, {xqBytes});
  HostBuffer &count = p.zeros("count", ElemType::I32, {1});
  HostBuffer &partials = p.zeros("partials", ElemType::F32, {ceilDiv(n, rowsPerProgram)});
  HostBuffer &blockCount = p.zeros("block_count", ElemType::I32, {n / kQK});
  HostBuffer &blockScratch = p.zeros("block_scratch", ElemType::F32, {2 * n / kQK});
  parallelRows(n, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      double sum = 0;
      for (int64_t b = 0; b < k / kQK; ++b) {
        double dot = 0;
        for (int64_t j = 0; j < kQK; ++j)
          dot += wv.q(r, b, j) * x[b * kQK + j];
        sum += wv.d(r, b) * dot;
      }
      y.reference[r] = res[r] + sum;
    }
  });
  double squares = 0;
  for (int64_t r = 0; r < n; ++r)
    squares += y.reference[r] * y.reference[r];
  const double scale = 1 / std::sqrt(squares / n + eps);
  std::vector<double> normed(n);
  for (int64_t r = 0; r < n; ++r)
    normed[r] = y.reference[r] * scale * gamma[r];
  std::vector<uint8_t> want = packRows(normed, 1, n, kQ8_1Bytes, writeQ8_1);
  for (int64_t i = 0; i < xqBytes; ++i)
    xq.reference[i] = static_cast<int8_t>(want[i]);
  p.pointerArg(y);
  p.pointerArg(res);
  p.pointerArg(wv.quants);
  p.pointerArg(wv.scales);
  p.pointerArg(x);
  p.scalarArg(ElemType::I32, n);
  p.scalarArg(ElemType::I32, k);
  p.pointerArg(gamma);
  p.pointerArg(xq);
  p.pointerArg(count);
  p.pointerArg(partials);
  p.pointerArg(blockCount);
  p.pointerArg(blockScratch);
  p.scalarArg(ElemType::F32, eps);
  setGrid(p, ceilDiv(n, rowsPerProgram));
  p.bytes = n * k / kQK * kQ8_0Bytes + 4.0 * k + 8.0 * n + 4.0 * n + xqBytes;
}

} // namespace

std::vector<KernelCheck> llk::checks::llamaModelChecks() {
  std::vector<KernelCheck> checks = {
      getRowsCheck("get_rows_f32", "llama/get_rows.mlir", "get_rows_f32", TableType::F32,
                   {{"BLOCKS", 2}}),
      getRowsCheck("get_rows_q8_0", "llama/get_rows.mlir", "get_rows_q8_0",
                   TableType::Q8_0, {{"BLOCK", 64}}),
      getRowsCheck("get_rows_f16", "llama/get_rows_half.mlir", "get_rows_half",
                   TableType::F16, {{"T", llk::ElementType::F16}}),
      getRowsCheck("get_rows_bf16", "llama/get_rows_half.mlir", "get_rows_half",
                   TableType::BF16, {{"T", llk::ElementType::BF16}}),
      linearFloatCheck("linear_f32", "llama/linear_f32.mlir", "linear_f32", ElemType::F32,
                       {}),
      linearFloatCheck("linear_f16", "llama/linear_half.mlir", "linear_half", ElemType::F16,
                       {{"T", llk::ElementType::F16}}),
      linearFloatCheck("linear_bf16", "llama/linear_half.mlir", "linear_half",
                       ElemType::BF16, {{"T", llk::ElementType::BF16}}),
      // rope_kv: q f32 (sin/cos in f32: 1e-6), the cache slots f16 roundings
      // (~2.4e-4). Interpreter: 4 heads of 32 over 2 KV heads, slot 37 of 48,
      // 64 columns a program (the second program has no K or V columns).
      {"rope_kv", "llama/rope_kv.mlir", "rope_kv", {{"BLOCK", 64}, {"D", 32}}, 1e-3,
       [](Problem &p) { ropeKv(p, {4, 2, 32, 48, 37}, 64); }, ropeKvCases()},
      // ... and at a position past the cache: q rotated, no cache entry written.
      {"rope_kv_past_cache", "llama/rope_kv.mlir", "rope_kv", {{"BLOCK", 64}, {"D", 32}},
       1e-3, [](Problem &p) { ropeKv(p, {4, 2, 32, 48, 48}, 64); }},
      // Interpreter: 1000 tied logits in blocks of 256 (the last partial), K = 5.
      {"topk_partial", "llama/topk.mlir", "topk_partial",
       {{"BLOCK", 256}, {"K", 5}, {"MAX_CAND", 32}}, kExact,
       [](Problem &p) { topkPartial(p, 1000, 256, 5); }, topkPartialCases()},
      // 20 tied candidates, K = 5; the history's slot 3 of 8.
      {"topk_final", "llama/topk.mlir", "topk_final",
       {{"BLOCK", 256}, {"K", 5}, {"MAX_CAND", 32}}, kExact,
       [](Problem &p) { topkFinal(p, 20, 5, 8, 3); }, topkFinalCases()},
      // The fused kernels of q8_0 layers. rms_norm_q8_1: bytes, exact but for
      // rare +-1 quants (quantize_q8_1's tolerance); 2 rows of 160 (5
      // blocks of 8), stride 176.
      {"rms_norm_q8_1", "llama/rms_norm_q8_1.mlir", "rms_norm_q8_1", {{"BLOCKS", 8}}, 2e-3,
       [](Problem &p) { rmsNormQ8_1(p, 2, 160, 176); },
       {{"1x4096", [](Problem &p) { p.constants = {{"BLOCKS", 128}}; rmsNormQ8_1(p, 1, kH, kH); }},
        {"1x5120", [](Problem &p) { p.constants = {{"BLOCKS", 256}}; rmsNormQ8_1(p, 1, 5120, 5120); }},
        {"1x11008", [](Problem &p) { p.constants = {{"BLOCKS", 512}}; rmsNormQ8_1(p, 1, kF, kF); }}}},
      // mul_mat_vec_q_qkv: 4 heads of 32 over 2 KV heads, K = 13 blocks
      // (the second iteration of 8 partial), slot 37 of 48.
      {"mul_mat_vec_q_qkv", "llama/mul_mat_vec_q_qkv.mlir", "mul_mat_vec_q_qkv",
       {{"ROWS", 4}, {"BLOCKS", 8}, {"D", 32}}, 1e-3,
       [](Problem &p) { mulMatVecQKV(p, {4, 2, 32, 48, 37}, 13 * kQK, 4); },
       {{"7b pos 511 C=4096", [](Problem &p) {
          p.constants = {{"ROWS", 4}, {"BLOCKS", 32}, {"D", 128}};
          mulMatVecQKV(p, {32, 32, 128, 4096, 511}, kH, 4); }},
        {"tinyllama pos 1000 C=2048", [](Problem &p) {
          p.constants = {{"ROWS", 4}, {"BLOCKS", 32}, {"D", 64}};
          mulMatVecQKV(p, {32, 4, 64, 2048, 1000}, 2048, 4); }},
        {"7b pos 511 C=4096 ROWS=8", [](Problem &p) {
          p.constants = {{"ROWS", 8}, {"BLOCKS", 32}, {"D", 128}};
          mulMatVecQKV(p, {32, 32, 128, 4096, 511}, kH, 8); }}}},
      {"mul_mat_vec_q_swiglu", "llama/mul_mat_vec_q_swiglu.mlir", "mul_mat_vec_q_swiglu",
       {{"ROWS", 4}, {"BLOCKS", 8}}, 1e-5,
       [](Problem &p) { mulMatVecQSwiglu(p, 37, 13 * kQK, 4); },
       {{"11008x4096", [](Problem &p) {
          p.constants = {{"ROWS", 4}, {"BLOCKS", 32}};
          mulMatVecQSwiglu(p, kF, kH, 4); }},
        {"11008x4096 ROWS=8", [](Problem &p) {
          p.constants = {{"ROWS", 8}, {"BLOCKS", 32}};
          mulMatVecQSwiglu(p, kF, kH, 8); }}}},
      // linear_q8_0_res_norm: y in f32 and the q8_1 bytes of the norm
      // (rms_norm_q8_1's tolerance: a rare quant one off); N = 64 in 16
      // programs of 4 rows (8 a q8_1 block), K = 13 blocks, the scale
      // written a q8_1 block a step.
      {"linear_q8_0_res_norm", "llama/linear_q8_0_res_norm.mlir", "linear_q8_0_res_norm",
       {{"ROWS", 4}, {"BLOCKS", 8}, {"NORM_CHUNK", 1}}, 2e-3,
       [](Problem &p) { linearQ8_0ResNorm(p, 64, 13 * kQK, 4); },
       {{"4096x4096", [](Problem &p) {
          p.constants = {{"ROWS", 8}, {"BLOCKS", 32}, {"NORM_CHUNK", 64}};
          linearQ8_0ResNorm(p, kH, kH, 8); }},
        {"4096x11008", [](Problem &p) {
          p.constants = {{"ROWS", 8}, {"BLOCKS", 32}, {"NORM_CHUNK", 64}};
          linearQ8_0ResNorm(p, kH, kF, 8); }},
        {"4096x11008 ROWS=4 NORM_CHUNK=32", [](Problem &p) {
          p.constants = {{"ROWS", 4}, {"BLOCKS", 32}, {"NORM_CHUNK", 32}};
          linearQ8_0ResNorm(p, kH, kF, 4); }},
        {"5120x13824", [](Problem &p) {
          p.constants = {{"ROWS", 8}, {"BLOCKS", 32}, {"NORM_CHUNK", 64}};
          linearQ8_0ResNorm(p, 5120, 13824, 8); }}}},
      // 32 rows a program: each program the last of its q8_1 block; 3
      // blocks, the scale written two blocks a step.
      {"linear_q8_0_res_norm_rows32", "llama/linear_q8_0_res_norm.mlir", "linear_q8_0_res_norm",
       {{"ROWS", 32}, {"BLOCKS", 4}, {"NORM_CHUNK", 2}}, 2e-3,
       [](Problem &p) { linearQ8_0ResNorm(p, 96, 5 * kQK, 32); }},
      // A block with fewer logits than K: its missing ones at -inf.
      {"topk_partial_short", "llama/topk.mlir", "topk_partial",
       {{"BLOCK", 256}, {"K", 5}, {"MAX_CAND", 32}}, kExact,
       [](Problem &p) { topkPartial(p, 259, 256, 5); }},
  };
  return checks;
}
