// decode_block: one Llama Transformer block in generation (one new token),
// chained through the llk runtime in the order of the spec
// (shared/spec/llama-kernels.md, "One Transformer block in generation"),
// with the kernels of examples/llama/ JIT-compiled at the constants of
// examples/kernels.list:
//
//   xn = rms_norm(x) * gamma1                          rms_norm_f32
//   q, k, v = Wq xn, Wk xn, Wv xn                      linear_q8_0 x3
//   qr, kr = rope(q), rope(k) at pos n_past            rope_f32 x2
//   K cache[n_past] = kr, V cache[:, n_past] = v (f16) cpy_f32_f16 x2
//   o = softmax(qr K^T / sqrt(D)) V over n_past + 1    attn_decode partial + combine
//   h1 = x + Wo o                                      linear_q8_0, binary_f32 (add)
//   hn = rms_norm(h1) * gamma2                         rms_norm_f32
//   out = h1 + Wd (silu(Wg hn) * (Wu hn))              linear_q8_0 x2, swiglu_f32,
//                                                      linear_q8_0, binary_f32 (add)
//
// Weights are random block_q8_0 (34 bytes: f16 d, 32 int8), scaled so that
// activations stay O(1); the caches hold n_past random f16 tokens. The chain
// runs once with direct launches and is checked against a float64 host
// reference of the block (every intermediate, the output hidden vector and
// the cache slots written), then captured as a CUDA graph, checked again, and
// replayed for timing. Printed: each kernel's median time launched alone
// (L2 flushed before each), their sum, the graph's step time, and each
// kernel's bandwidth floor (the bytes it must move / the copy bandwidth
// measured in the same run) and their sum.
//
//   llk-decode-block [--small] [--hidden H --heads NH --ffn F] [--n-past N]
//                    [--ctx C] [--reps N] [--no-flush] [--examples DIR]
//                    [--cpu] [--interp] [--seed S]
//
// Default: Llama-2 7B (H = 4096, NH = 32, D = 128, F = 11008), n_past = 300,
// cache capacity 512. --small: H = 512, NH = 4, F = 1376. --cpu: no device;
// compiles every kernel to PTX (sm_90) and computes the reference only.
// --interp: no device; runs the whole chain (same steps and arguments) on the
// CPU interpreter and checks it like the device run (slow: use --small).
// Exit status: 0 PASS, 1 FAIL, 2 error (e.g. "no CUDA driver").

#include "ProgramArgs.h"

#include "llk/runtime/JIT.h"
#include "llk/InitAllDialects.h"
#include "llk/Interpreter/Interpreter.h"

#include "mlir/IR/MLIRContext.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace rt = llk::rt;

namespace {

//===----------------------------------------------------------------------===//
// f16 and block_q8_0
//===----------------------------------------------------------------------===//

double halfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(double(mant), -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(double(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

/// Round to nearest even, as the kernels' f32 -> f16 conversion.
uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, abs = x & 0x7fffffff;
  if (abs >= 0x7f800000)
    return uint16_t(sign | (abs > 0x7f800000 ? 0x7e00 : 0x7c00));
  if (abs >= 0x477ff000) // >= 65520 rounds to infinity
    return uint16_t(sign | 0x7c00);
  if (abs < 0x38800000) { // below 2^-14: subnormal (exact scaling by 2^24)
    float v;
    std::memcpy(&v, &abs, 4);
    return uint16_t(sign | uint32_t(std::nearbyint(v * 16777216.0f)));
  }
  uint32_t mant = abs & 0x7fffff, exp = (abs >> 23) - 127 + 15;
  uint32_t h = (exp << 10) | (mant >> 13), rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return uint16_t(sign | h);
}

constexpr int kQK = 32, kBlockBytes = 34;
constexpr uint16_t kHalfNaN = 0x7e00;

/// An n x k q8_0 matrix: rows of k/32 blocks { f16 d; int8 qs[32]; }.
struct QMatrix {
  int n = 0, k = 0;
  std::vector<int8_t> bytes;
  double d(int r, int b) const {
    const int8_t *p = &bytes[(size_t(r) * (k / kQK) + b) * kBlockBytes];
    return halfToDouble(uint16_t(uint8_t(p[0]) | uint8_t(p[1]) << 8));
  }
  const int8_t *qs(int r, int b) const {
    return &bytes[(size_t(r) * (k / kQK) + b) * kBlockBytes + 2];
  }
  /// y = W x, W dequantized in double.
  std::vector<double> apply(const std::vector<double> &x) const {
    std::vector<double> y(n);
    for (int r = 0; r < n; ++r) {
      double sum = 0;
      for (int b = 0; b < k / kQK; ++b) {
        const int8_t *q = qs(r, b);
        const double *xb = &x[size_t(b) * kQK];
        double dot = 0;
        for (int j = 0; j < kQK; ++j)
          dot += q[j] * xb[j];
        sum += d(r, b) * dot;
      }
      y[r] = sum;
    }
    return y;
  }
};

/// Random quants in [-127, 127] and scales d ~ U(0.5, 1.5) / (73 sqrt(k)):
/// with O(1) inputs, sum_c d q x has a standard deviation near 1
/// (E[q^2] = 127^2 / 3 ~ 73^2).
QMatrix randomQMatrix(std::mt19937_64 &rng, int n, int k) {
  QMatrix w;
  w.n = n;
  w.k = k;
  w.bytes.resize(size_t(n) * (k / kQK) * kBlockBytes);
  std::uniform_real_distribution<float> scale(0.5f, 1.5f);
  std::uniform_int_distribution<int> quant(-127, 127);
  const float unit = 1.0f / (73.0f * std::sqrt(float(k)));
  for (size_t blk = 0; blk < w.bytes.size() / kBlockBytes; ++blk) {
    int8_t *p = &w.bytes[blk * kBlockBytes];
    uint16_t d = floatToHalf(scale(rng) * unit);
    p[0] = int8_t(d & 0xff);
    p[1] = int8_t(d >> 8);
    for (int j = 0; j < kQK; ++j)
      p[2 + j] = int8_t(quant(rng));
  }
  return w;
}

//===----------------------------------------------------------------------===//
// Shapes, inputs and the float64 reference
//===----------------------------------------------------------------------===//

struct Config {
  int H = 4096, NH = 32, D = 128, F = 11008;
  int nPast = 300, cap = 512;
  int reps = 50;
  bool flush = true, cpuOnly = false, interp = false;
  uint64_t seed = 1234;
  std::string examples;
  int nKv() const { return nPast + 1; }
};

/// Tokens per attn_decode partial program (as the attention checks choose it):
/// at least 64, doubled while there would be more than 16 chunks.
int decodeChunk(int nKv) {
  int chunk = 64;
  while (chunk < 1024 && (nKv + chunk - 1) / chunk > 16)
    chunk *= 2;
  return chunk;
}

struct Inputs {
  std::vector<float> x, gamma1, gamma2;
  QMatrix wq, wk, wv, wo, wg, wu, wd;
  std::vector<uint16_t> kCache, vCache; // [cap][NH][D], [NH][D][cap]
};

Inputs makeInputs(const Config &c) {
  std::mt19937_64 rng(c.seed);
  std::normal_distribution<float> normal(0.f, 1.f);
  std::uniform_real_distribution<float> gamma(0.5f, 1.5f);
  Inputs in;
  in.x.resize(c.H);
  for (float &v : in.x)
    v = normal(rng);
  in.gamma1.resize(c.H);
  in.gamma2.resize(c.H);
  for (float &v : in.gamma1)
    v = gamma(rng);
  for (float &v : in.gamma2)
    v = gamma(rng);
  in.wq = randomQMatrix(rng, c.H, c.H);
  in.wk = randomQMatrix(rng, c.H, c.H);
  in.wv = randomQMatrix(rng, c.H, c.H);
  in.wo = randomQMatrix(rng, c.H, c.H);
  in.wg = randomQMatrix(rng, c.F, c.H);
  in.wu = randomQMatrix(rng, c.F, c.H);
  in.wd = randomQMatrix(rng, c.H, c.F);
  // Every cache entry random (stale tokens past n_past too: the kernels must
  // ignore them); the slot of token n_past poisoned (NaN) until written.
  const size_t cacheSize = size_t(c.cap) * c.H;
  in.kCache.resize(cacheSize);
  in.vCache.resize(cacheSize);
  for (uint16_t &v : in.kCache)
    v = floatToHalf(normal(rng));
  for (uint16_t &v : in.vCache)
    v = floatToHalf(normal(rng));
  for (int i = 0; i < c.H; ++i) {
    in.kCache[size_t(c.nPast) * c.H + i] = kHalfNaN;
    in.vCache[size_t(i) * c.cap + c.nPast] = kHalfNaN;
  }
  return in;
}

/// Every intermediate of the block, in double.
struct Reference {
  std::vector<double> xn, q, k, v, qr, kr, o, attn, h1, hn, g, u, a, dn, out;
};

std::vector<double> toDouble(const std::vector<float> &v) {
  return std::vector<double>(v.begin(), v.end());
}

std::vector<double> rmsNorm(const std::vector<double> &x, const std::vector<float> &gamma) {
  const double eps = double(1e-5f); // the kernel gets eps as an f32
  double squares = 0;
  for (double v : x)
    squares += v * v;
  double scale = 1 / std::sqrt(squares / double(x.size()) + eps);
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    y[i] = x[i] * scale * gamma[i];
  return y;
}

std::vector<double> rope(const std::vector<double> &x, int D, int pos) {
  const double base = 10000;
  std::vector<double> y(x.size());
  for (size_t c = 0; c < x.size(); c += 2) {
    double theta = double(pos) * std::pow(base, -2.0 * double((c % D) / 2) / D);
    y[c] = x[c] * std::cos(theta) - x[c + 1] * std::sin(theta);
    y[c + 1] = x[c] * std::sin(theta) + x[c + 1] * std::cos(theta);
  }
  return y;
}

double silu(double x) { return x / (1 + std::exp(-x)); }

/// The block in double from the same inputs. The new token's K and V enter
/// the attention unrounded (the GPU stores them as f16 first).
Reference reference(const Config &c, const Inputs &in) {
  Reference r;
  std::vector<double> x = toDouble(in.x);
  r.xn = rmsNorm(x, in.gamma1);
  r.q = in.wq.apply(r.xn);
  r.k = in.wk.apply(r.xn);
  r.v = in.wv.apply(r.xn);
  r.qr = rope(r.q, c.D, c.nPast);
  r.kr = rope(r.k, c.D, c.nPast);
  const double scale = double(float(1.0 / std::sqrt(double(c.D)))); // an f32 argument
  r.o.assign(c.H, 0);
  std::vector<double> s(c.nKv());
  for (int h = 0; h < c.NH; ++h) {
    double max = -INFINITY;
    for (int t = 0; t < c.nKv(); ++t) {
      double dot = 0;
      for (int i = 0; i < c.D; ++i) {
        int col = h * c.D + i;
        double kv = t == c.nPast ? r.kr[col] : halfToDouble(in.kCache[size_t(t) * c.H + col]);
        dot += r.qr[col] * kv;
      }
      s[t] = scale * dot;
      max = std::max(max, s[t]);
    }
    double sum = 0;
    for (int t = 0; t < c.nKv(); ++t)
      sum += (s[t] = std::exp(s[t] - max));
    for (int i = 0; i < c.D; ++i) {
      int col = h * c.D + i;
      double acc = 0;
      for (int t = 0; t < c.nKv(); ++t) {
        double vv = t == c.nPast ? r.v[col] : halfToDouble(in.vCache[size_t(col) * c.cap + t]);
        acc += s[t] * vv;
      }
      r.o[col] = acc / sum;
    }
  }
  r.attn = in.wo.apply(r.o);
  r.h1.resize(c.H);
  for (int i = 0; i < c.H; ++i)
    r.h1[i] = x[i] + r.attn[i];
  r.hn = rmsNorm(r.h1, in.gamma2);
  r.g = in.wg.apply(r.hn);
  r.u = in.wu.apply(r.hn);
  r.a.resize(c.F);
  for (int i = 0; i < c.F; ++i)
    r.a[i] = silu(r.g[i]) * r.u[i];
  r.dn = in.wd.apply(r.a);
  r.out.resize(c.H);
  for (int i = 0; i < c.H; ++i)
    r.out[i] = r.h1[i] + r.dn[i];
  return r;
}

/// ||got - want|| / ||want||; NaN (a missed write, a poisoned read) fails.
double relError(const std::vector<double> &got, const std::vector<double> &want) {
  double num = 0, den = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (!std::isfinite(got[i]))
      return INFINITY;
    num += (got[i] - want[i]) * (got[i] - want[i]);
    den += want[i] * want[i];
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// A trivial DSL copy, for the copy bandwidth and for flushing L2.
const char *kCopySource = R"mlir(
func.func @copy_f32(%src: !tile.ptr<f32> {tile.divisibility = 16},
                    %dst: !tile.ptr<f32> {tile.divisibility = 16},
                    %n: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %offsets = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<${BLOCK}xi32>
  %ss = tile.splat %src : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %sp = tile.addptr %ss, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %v = tile.load %sp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %ds = tile.splat %dst : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dp = tile.addptr %ds, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %v, %dp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
)mlir";
constexpr int kCopyBlock = 4096;

/// Rows a linear_q8_0 program computes (its ROWS).
constexpr int64_t kLinearRows = 8;

/// A kernel to compile: source (under examples/ or inline), function, the
/// constants and num_warps of examples/kernels.list.
struct KernelSpec {
  const char *id;
  const char *source; // file under examples/, or null: kCopySource
  const char *function;
  llk::Constants constants;
  unsigned numWarps;
};

std::vector<KernelSpec> kernelSpecs(const Config &c) {
  // rms_norm needs BLOCK >= H (4096 in kernels.list).
  int64_t normBlock = 4096;
  while (normBlock < c.H)
    normBlock *= 2;
  const llk::Constants attn = {{"BLOCK_T", 64}, {"D", c.D}, {"MAX_CHUNKS", 32}};
  return {
      {"rms_norm", "llama/rms_norm.mlir", "rms_norm_f32", {{"BLOCK", normBlock}}, 8},
      {"linear", "llama/linear_q8_0.mlir", "linear_q8_0",
       {{"ROWS", kLinearRows}, {"BLOCKS", 32}}, 4},
      {"rope", "llama/rope.mlir", "rope_f32", {{"BLOCK", 1024}, {"D", c.D}}, 4},
      {"cpy", "llama/cpy.mlir", "cpy_f32_f16", {{"BLOCK", 1024}}, 4},
      {"attn_partial", "llama/attn_decode.mlir", "attn_decode_partial_kernel", attn, 8},
      {"attn_combine", "llama/attn_decode.mlir", "attn_decode_combine_kernel", attn, 4},
      {"add", "llama/binary.mlir", "binary_f32", {{"BLOCK", 1024}, {"OP", 0}}, 4},
      {"swiglu", "llama/silu.mlir", "swiglu_f32", {{"BLOCK", 1024}}, 4},
      {"copy", nullptr, "copy_f32", {{"BLOCK", kCopyBlock}}, 4},
  };
}

rt::Source sourceOf(const Config &c, const KernelSpec &k) {
  return k.source ? rt::Source::fromFile(c.examples + "/" + k.source)
                  : rt::Source::fromText(kCopySource, "copy_f32");
}

unsigned ceilDiv(int64_t a, int64_t b) { return unsigned((a + b - 1) / b); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string fmtBytes(double b) {
  char buf[32];
  if (b >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2f MB", b / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.1f KB", b / 1e3);
  return buf;
}

bool parseArgs(int argc, char **argv, Config &c) {
  c.examples = std::string(LLK_SOURCE_DIR) + "/examples";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    // Bounds past any Llama (70B: H = 8192, F = 28672) that keep the
    // host's int products (H * F, ctx * H) from overflowing.
    std::optional<std::string> bad;
    if (a == "--small") {
      c.H = 512;
      c.NH = 4;
      c.F = 1376;
    } else if (a == "--hidden") bad = rt::programs::parseInteger(a, value(), 128, 16384, c.H);
    else if (a == "--heads") bad = rt::programs::parseInteger(a, value(), 1, 128, c.NH);
    else if (a == "--ffn") bad = rt::programs::parseInteger(a, value(), 32, 65536, c.F);
    else if (a == "--n-past") bad = rt::programs::parseInteger(a, value(), 0, 32767, c.nPast);
    else if (a == "--ctx") bad = rt::programs::parseInteger(a, value(), 16, 65536, c.cap);
    else if (a == "--reps") bad = rt::programs::parseInteger(a, value(), 1, 1000000, c.reps);
    else if (a == "--seed")
      bad = rt::programs::parseInteger(a, value(), uint64_t(0), UINT64_MAX, c.seed);
    else if (a == "--examples") c.examples = value();
    else if (a == "--no-flush") c.flush = false;
    else if (a == "--cpu") c.cpuOnly = true;
    else if (a == "--interp") c.interp = true;
    else {
      std::fprintf(stderr, "unknown argument %s (see the header of runtime/examples/decode_block.cpp)\n",
                   a.c_str());
      return false;
    }
    if (bad) {
      std::fprintf(stderr, "%s\n", bad->c_str());
      return false;
    }
  }
  std::string why;
  if (c.H != c.NH * c.D) why = "H must be NH * D (D = 128)";
  else if (c.H % 32 || c.F % 32) why = "H and F must be multiples of 32 (q8_0 blocks)";
  else if (c.nPast < 0 || c.nKv() > c.cap) why = "need 0 <= n_past < ctx";
  else if (c.cap % 16) why = "ctx must be a multiple of 16";
  else if (ceilDiv(c.nKv(), decodeChunk(c.nKv())) > 32) why = "too many attention chunks (n_past too large)";
  else if (c.reps < 1) why = "reps >= 1";
  if (!why.empty()) {
    std::fprintf(stderr, "bad shape: %s\n", why.c_str());
    return false;
  }
  return true;
}

/// One launch of the chain.
struct Step {
  std::string name;
  std::string kernel; // a KernelSpec id
  rt::Grid grid;
  rt::ArgList args;
  double bytes; // what it must move at least
};

/// Where each buffer of the chain lives (device or, for --interp, host).
struct Addresses {
  uint64_t x, gamma1, gamma2, wq, wk, wv, wo, wg, wu, wd, kCache, vCache;
  uint64_t xn, q, k, v, qr, kr, o, attn, h1, hn, g, u, a, dn, out, partO, partM, partL;
};

/// The 18 launches of the block, in the spec's order.
std::vector<Step> chainSteps(const Config &c, const Addresses &at, const Inputs &in) {
  const int nKv = c.nKv(), chunk = decodeChunk(nKv), nChunks = ceilDiv(nKv, chunk);
  const int H = c.H, F = c.F, NH = c.NH, D = c.D;
  const float eps = 1e-5f, base = 10000.f, scale = float(1.0 / std::sqrt(double(D)));
  auto f32 = [](uint64_t p) { return rt::Arg::pointer(p, rt::ScalarType::F32); };
  auto f16 = [](uint64_t p) { return rt::Arg::pointer(p, rt::ScalarType::F16); };
  auto i8 = [](uint64_t p) { return rt::Arg::pointer(p, rt::ScalarType::I8); };
  auto linear = [&](const char *name, uint64_t y, uint64_t w, const QMatrix &wm, uint64_t xin,
                    int n, int kk) {
    return Step{name, "linear", rt::Grid(ceilDiv(n, kLinearRows)),
                {f32(y), i8(w), f32(xin), n, kk},
                double(wm.bytes.size()) + 4.0 * kk + 4.0 * n};
  };
  const double cacheBytes = 2.0 * nKv * H; // one cache's tokens < n_kv (g = 1)
  return {
      {"rms_norm", "rms_norm", rt::Grid(1),
       {f32(at.xn), f32(at.x), f32(at.gamma1), H, H, H, eps}, 4.0 * 3 * H},
      linear("q linear", at.q, at.wq, in.wq, at.xn, H, H),
      linear("k linear", at.k, at.wk, in.wk, at.xn, H, H),
      linear("v linear", at.v, at.wv, in.wv, at.xn, H, H),
      {"rope q", "rope", rt::Grid(ceilDiv(H, 1024), 1),
       {f32(at.qr), f32(at.q), H, H, H, c.nPast, base}, 4.0 * 2 * H},
      {"rope k", "rope", rt::Grid(ceilDiv(H, 1024), 1),
       {f32(at.kr), f32(at.k), H, H, H, c.nPast, base}, 4.0 * 2 * H},
      // K [1][NH][D] f32 -> K cache token n_past (ne00 = D, ne01 = NH).
      {"cpy k", "cpy", rt::Grid(ceilDiv(H, 1024)),
       {i8(at.kr), i8(at.kCache), 0, 2 * c.nPast * H, H, D, NH, 4, 4 * D, 4 * H, D, NH, 2,
        2 * D, 2 * H},
       6.0 * H},
      // V^T (ne00 = 1 token, ne01 = NH*D) -> V cache column n_past.
      {"cpy v", "cpy", rt::Grid(ceilDiv(H, 1024)),
       {i8(at.v), i8(at.vCache), 0, 2 * c.nPast, H, 1, H, 4 * H, 4, 4 * H, 1, H, 2,
        2 * c.cap, 2 * H * c.cap},
       6.0 * H},
      {"attn partial", "attn_partial", rt::Grid(nChunks, NH),
       {f32(at.partO), f32(at.partM), f32(at.partL), f32(at.qr), f16(at.kCache),
        f16(at.vCache), nKv, chunk, NH * D, c.cap, 1, scale},
       2 * cacheBytes + 4.0 * H + 4.0 * NH * nChunks * (D + 2)},
      {"attn combine", "attn_combine", rt::Grid(NH),
       {f32(at.o), f32(at.partO), f32(at.partM), f32(at.partL), nChunks},
       4.0 * NH * nChunks * (D + 2) + 4.0 * H},
      linear("o linear", at.attn, at.wo, in.wo, at.o, H, H),
      {"add (residual)", "add", rt::Grid(ceilDiv(H, 1024), 1),
       {f32(at.x), f32(at.attn), f32(at.h1), H}, 4.0 * 3 * H},
      {"rms_norm", "rms_norm", rt::Grid(1),
       {f32(at.hn), f32(at.h1), f32(at.gamma2), H, H, H, eps}, 4.0 * 3 * H},
      linear("gate linear", at.g, at.wg, in.wg, at.hn, F, H),
      linear("up linear", at.u, at.wu, in.wu, at.hn, F, H),
      {"swiglu", "swiglu", rt::Grid(ceilDiv(F, 1024)),
       {f32(at.g), f32(at.u), f32(at.a), F}, 4.0 * 3 * F},
      linear("down linear", at.dn, at.wd, in.wd, at.a, H, F),
      {"add (residual)", "add", rt::Grid(ceilDiv(H, 1024), 1),
       {f32(at.h1), f32(at.dn), f32(at.out), H}, 4.0 * 3 * H},
  };
}


/// --interp: the whole chain on the CPU interpreter (host buffers, the same
/// steps and arguments), checked as on the device. Slow: use --small.
int runOnInterpreter(const Config &c, const Inputs &in, const Reference &ref,
                     const std::vector<KernelSpec> &specs) {
  const int nKv = c.nKv(), nChunks = ceilDiv(nKv, decodeChunk(nKv));
  mlir::DialectRegistry registry;
  llk::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  rt::JIT jit(std::make_shared<rt::Cache>());
  std::map<std::string, mlir::OwningOpRef<mlir::ModuleOp>> modules;
  std::map<std::string, mlir::func::FuncOp> funcs;
  std::map<std::string, rt::KernelInfo> infos;
  for (const KernelSpec &k : specs) {
    if (!k.source)
      continue;
    std::string error;
    auto module = llk::interp::loadKernelSource(context, c.examples + "/" + k.source,
                                                k.constants, error);
    if (!module) {
      std::fprintf(stderr, "%s: %s\n", k.source, error.c_str());
      return 2;
    }
    funcs[k.id] = llk::interp::findKernel(*module, k.function, error);
    modules[k.id] = std::move(module);
    rt::ModuleInfo info = rt::parseModuleInfo(
        jit.compileModule(sourceOf(c, k), {k.constants, k.numWarps, "sm_90"}).metadataJson);
    infos[k.id] = *info.find(k.function);
  }
  auto vec = [](size_t n) { return std::vector<float>(n, NAN); };
  std::vector<float> x = in.x, gamma1 = in.gamma1, gamma2 = in.gamma2;
  std::vector<float> xn = vec(c.H), q = vec(c.H), k = vec(c.H), v = vec(c.H), qr = vec(c.H),
                     kr = vec(c.H), o = vec(c.H), attn = vec(c.H), h1 = vec(c.H),
                     hn = vec(c.H), g = vec(c.F), u = vec(c.F), a = vec(c.F), dn = vec(c.H),
                     out = vec(c.H), partO = vec(size_t(c.NH) * nChunks * c.D),
                     partM = vec(size_t(c.NH) * nChunks), partL = vec(size_t(c.NH) * nChunks);
  std::vector<uint16_t> kCache = in.kCache, vCache = in.vCache;
  llk::interp::Interpreter interp;
  Addresses at;
  auto reg = [&](auto &buffer, const char *name) {
    interp.addBuffer(buffer.data(), buffer.size() * sizeof(buffer[0]), name);
    return uint64_t(reinterpret_cast<uintptr_t>(buffer.data()));
  };
  at.x = reg(x, "x"); at.gamma1 = reg(gamma1, "gamma1"); at.gamma2 = reg(gamma2, "gamma2");
  at.wq = reg(in.wq.bytes, "wq"); at.wk = reg(in.wk.bytes, "wk"); at.wv = reg(in.wv.bytes, "wv");
  at.wo = reg(in.wo.bytes, "wo"); at.wg = reg(in.wg.bytes, "wg"); at.wu = reg(in.wu.bytes, "wu");
  at.wd = reg(in.wd.bytes, "wd"); at.kCache = reg(kCache, "k_cache"); at.vCache = reg(vCache, "v_cache");
  at.xn = reg(xn, "xn"); at.q = reg(q, "q"); at.k = reg(k, "k"); at.v = reg(v, "v");
  at.qr = reg(qr, "qr"); at.kr = reg(kr, "kr"); at.o = reg(o, "o"); at.attn = reg(attn, "attn");
  at.h1 = reg(h1, "h1"); at.hn = reg(hn, "hn"); at.g = reg(g, "g"); at.u = reg(u, "u");
  at.a = reg(a, "a"); at.dn = reg(dn, "dn"); at.out = reg(out, "out");
  at.partO = reg(partO, "part_o"); at.partM = reg(partM, "part_m"); at.partL = reg(partL, "part_l");
  for (const Step &s : chainSteps(c, at, in)) {
    auto t0 = std::chrono::steady_clock::now();
    rt::PackedArgs packed = rt::packArgs(infos.at(s.kernel), s.args); // type-checks
    std::vector<const void *> args;
    for (uint64_t &slot : packed.slots)
      args.push_back(&slot);
    if (auto error = interp.run(funcs.at(s.kernel), {s.grid.x, s.grid.y, s.grid.z}, args)) {
      std::fprintf(stderr, "%s: %s\n", s.name.c_str(), error->c_str());
      return 1;
    }
    std::printf("  interpreted %-15s %-13s %8.0f ms\n", s.name.c_str(), s.grid.str().c_str(),
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  const double tol = 1e-3;
  bool ok = true;
  struct { const char *name; const std::vector<float> *got; const std::vector<double> *want; } stages[] = {
      {"xn", &xn, &ref.xn}, {"q", &q, &ref.q}, {"k", &k, &ref.k}, {"v", &v, &ref.v},
      {"rope q", &qr, &ref.qr}, {"rope k", &kr, &ref.kr}, {"attention o", &o, &ref.o},
      {"o linear", &attn, &ref.attn}, {"h1", &h1, &ref.h1}, {"hn", &hn, &ref.hn},
      {"gate", &g, &ref.g}, {"up", &u, &ref.u}, {"swiglu", &a, &ref.a},
      {"down", &dn, &ref.dn}, {"out", &out, &ref.out}};
  std::printf("check (interpreter), relative error vs float64, tolerance %.0e:\n ", tol);
  for (auto &st : stages) {
    double e = relError(std::vector<double>(st.got->begin(), st.got->end()), *st.want);
    ok &= e <= tol;
    std::printf(" %s %.1e%s", st.name, e, e <= tol ? "" : " (FAIL)");
  }
  std::vector<double> kSlot(c.H), vSlot(c.H);
  size_t changed = 0;
  for (int i = 0; i < c.H; ++i) {
    kSlot[i] = halfToDouble(kCache[size_t(c.nPast) * c.H + i]);
    vSlot[i] = halfToDouble(vCache[size_t(i) * c.cap + c.nPast]);
  }
  for (size_t i = 0; i < kCache.size(); ++i)
    changed += (i / c.H != size_t(c.nPast) && kCache[i] != in.kCache[i]) +
               (i % c.cap != size_t(c.nPast) && vCache[i] != in.vCache[i]);
  double ek = relError(kSlot, ref.kr), ev = relError(vSlot, ref.v);
  ok &= ek <= tol && ev <= tol && changed == 0;
  std::printf("\n  K cache slot %.1e, V cache slot %.1e, other cache entries changed: %zu\n", ek,
              ev, changed);
  std::printf("\ndecode block (interpreter): %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  Config c;
  if (!parseArgs(argc, argv, c))
    return 2;
  const int nKv = c.nKv(), chunk = decodeChunk(nKv), nChunks = ceilDiv(nKv, chunk);
  std::printf("decode block: H=%d NH=%d D=%d F=%d, n_past=%d (n_kv=%d, cache of %d), "
              "attention chunk %d (%d chunks), seed %llu\n",
              c.H, c.NH, c.D, c.F, c.nPast, nKv, c.cap, chunk, nChunks,
              (unsigned long long)c.seed);
  try {
    auto t0 = std::chrono::steady_clock::now();
    Inputs in = makeInputs(c);
    Reference ref = reference(c, in);
    double refMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    double outNorm = 0;
    for (double v : ref.out)
      outNorm += v * v;
    std::printf("inputs + float64 reference: %.0f ms; |out| / sqrt(H) = %.3f\n", refMs,
                std::sqrt(outNorm / c.H));
    std::vector<KernelSpec> specs = kernelSpecs(c);

    if (c.interp)
      return runOnInterpreter(c, in, ref, specs);
    if (c.cpuOnly) {
      rt::JIT jit(std::make_shared<rt::Cache>());
      for (const KernelSpec &k : specs) {
        rt::CompiledModule m = jit.compileModule(sourceOf(c, k), {k.constants, k.numWarps, "sm_90"});
        std::printf("  compiled %-13s %-28s PTX %zu bytes\n", k.id, k.function, m.ptx.size());
      }
      std::printf("--cpu: kernels compiled for sm_90 and the reference computed; no device used\n");
      return 0;
    }

    rt::Device device = rt::Device::open(0);
    std::printf("device: %s (%s), driver %d\n", device.name().c_str(), device.arch().c_str(),
                device.driverVersion());
    rt::JIT jit(device);
    std::map<std::string, rt::Kernel> kernels;
    t0 = std::chrono::steady_clock::now();
    for (const KernelSpec &k : specs)
      kernels.emplace(k.id, jit.compile(sourceOf(c, k), {k.constants, k.numWarps, ""}, k.function));
    std::printf("JIT: %zu kernels in %.0f ms (%u compiled, the rest from the cache %s)\n",
                specs.size(),
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(),
                jit.compileCount(), jit.cache().directory().c_str());

    // Device buffers.
    using F32 = rt::DeviceBuffer<float>;
    auto upload = [&](const std::vector<float> &v) {
      auto b = std::make_unique<F32>(device, v.size());
      b->copyFrom(v);
      return b;
    };
    // Weights: linear_q8_0 may read to the end of the last block's 16-byte
    // granule, which DeviceBuffer's allocation covers (the buffer contract,
    // docs/runtime.md).
    auto uploadQ = [&](const QMatrix &w) {
      auto b = std::make_unique<rt::DeviceBuffer<int8_t>>(device, w.bytes.size());
      b->copyFrom(w.bytes);
      return b;
    };
    auto x = upload(in.x), gamma1 = upload(in.gamma1), gamma2 = upload(in.gamma2);
    auto wq = uploadQ(in.wq), wk = uploadQ(in.wk), wv = uploadQ(in.wv), wo = uploadQ(in.wo),
         wg = uploadQ(in.wg), wu = uploadQ(in.wu), wd = uploadQ(in.wd);
    rt::DeviceBuffer<rt::Half> kCache(device, in.kCache.size()), vCache(device, in.vCache.size());
    auto uploadCaches = [&] {
      kCache.copyFrom(reinterpret_cast<const rt::Half *>(in.kCache.data()), in.kCache.size());
      vCache.copyFrom(reinterpret_cast<const rt::Half *>(in.vCache.data()), in.vCache.size());
    };
    uploadCaches();
    F32 xn(device, c.H), q(device, c.H), k(device, c.H), v(device, c.H), qr(device, c.H),
        kr(device, c.H), o(device, c.H), attn(device, c.H), h1(device, c.H), hn(device, c.H),
        g(device, c.F), u(device, c.F), a(device, c.F), dn(device, c.H), out(device, c.H),
        partO(device, size_t(c.NH) * nChunks * c.D), partM(device, size_t(c.NH) * nChunks),
        partL(device, size_t(c.NH) * nChunks);
    std::vector<F32 *> outputs = {&xn, &qr, &q, &k, &v, &kr, &o, &attn, &h1, &hn,
                                  &g, &u, &a, &dn, &out, &partO, &partM, &partL};
    auto poison = [&] {
      for (F32 *b : outputs)
        b->fillBytes(0xff); // NaN
      uploadCaches();       // slot n_past: NaN
      // Memsets and copies go to the default stream, which does not order
      // with `stream` (non-blocking): wait for them.
      device.synchronize();
    };

    Addresses at;
    at.x = x->address(); at.gamma1 = gamma1->address(); at.gamma2 = gamma2->address();
    at.wq = wq->address(); at.wk = wk->address(); at.wv = wv->address(); at.wo = wo->address();
    at.wg = wg->address(); at.wu = wu->address(); at.wd = wd->address();
    at.kCache = kCache.address(); at.vCache = vCache.address();
    at.xn = xn.address(); at.q = q.address(); at.k = k.address(); at.v = v.address();
    at.qr = qr.address(); at.kr = kr.address(); at.o = o.address(); at.attn = attn.address();
    at.h1 = h1.address(); at.hn = hn.address(); at.g = g.address(); at.u = u.address();
    at.a = a.address(); at.dn = dn.address(); at.out = out.address();
    at.partO = partO.address(); at.partM = partM.address(); at.partL = partL.address();
    std::vector<Step> steps = chainSteps(c, at, in);
    auto launch = [&](const Step &s, const rt::LaunchOptions &options) {
      kernels.at(s.kernel).launch(s.grid, s.args, options);
    };

    // Checks: every intermediate, the output, and the caches (the slot of
    // n_past against f16(reference); every other entry unchanged).
    const double tol = 1e-3;
    const int H = c.H;
    auto check = [&](const char *what) {
      bool ok = true;
      auto get = [](const F32 &b) {
        std::vector<float> h = b.toVector();
        return std::vector<double>(h.begin(), h.end());
      };
      struct { const char *name; const F32 *buf; const std::vector<double> *want; } stages[] = {
          {"xn", &xn, &ref.xn}, {"q", &q, &ref.q}, {"k", &k, &ref.k}, {"v", &v, &ref.v},
          {"rope q", &qr, &ref.qr}, {"rope k", &kr, &ref.kr}, {"attention o", &o, &ref.o},
          {"o linear", &attn, &ref.attn}, {"h1", &h1, &ref.h1}, {"hn", &hn, &ref.hn},
          {"gate", &g, &ref.g}, {"up", &u, &ref.u}, {"swiglu", &a, &ref.a},
          {"down", &dn, &ref.dn}, {"out", &out, &ref.out}};
      std::printf("check (%s), relative error vs float64, tolerance %.0e:\n ", what, tol);
      for (auto &s : stages) {
        double e = relError(get(*s.buf), *s.want);
        ok &= e <= tol;
        std::printf(" %s %.1e%s", s.name, e, e <= tol ? "" : " (FAIL)");
      }
      std::vector<rt::Half> kc = kCache.toVector(), vc = vCache.toVector();
      std::vector<double> kSlot(H), vSlot(H);
      size_t changed = 0;
      for (int i = 0; i < H; ++i) {
        kSlot[i] = halfToDouble(kc[size_t(c.nPast) * H + i].bits);
        vSlot[i] = halfToDouble(vc[size_t(i) * c.cap + c.nPast].bits);
      }
      for (size_t i = 0; i < kc.size(); ++i) {
        bool kSlotI = i / H == size_t(c.nPast), vSlotI = i % c.cap == size_t(c.nPast);
        changed += (!kSlotI && kc[i].bits != in.kCache[i]) + (!vSlotI && vc[i].bits != in.vCache[i]);
      }
      double ek = relError(kSlot, ref.kr), ev = relError(vSlot, ref.v);
      ok &= ek <= tol && ev <= tol && changed == 0;
      std::printf("\n  K cache slot %.1e, V cache slot %.1e, other cache entries changed: %zu\n",
                  ek, ev, changed);
      std::printf("  => %s\n", ok ? "ok" : "MISMATCH");
      return ok;
    };

    rt::Stream stream(device);
    rt::LaunchOptions on;
    on.stream = &stream;

    // 1. Direct launches, each synchronized (a fault names its kernel).
    poison();
    rt::LaunchOptions sync = on;
    sync.synchronize = true;
    for (const Step &s : steps)
      launch(s, sync);
    bool pass = check("direct launches");

    // 2. The chain as a CUDA graph, replayed once from poisoned buffers.
    rt::Graph graph = rt::Graph::capture(stream, [&] {
      for (const Step &s : steps)
        launch(s, on);
    });
    poison();
    graph.launch(stream);
    stream.synchronize();
    pass &= check("graph replay");

    // 3. The same graph of dependent launches (programmatic dependent launch:
    // each kernel launches while the one before it runs and waits for it in
    // tile.grid_dependency_wait), on devices that have it (sm_90 and later).
    const bool dependentLaunch = device.computeCapabilityMajor() >= 9;
    rt::LaunchOptions onDependent = on;
    onDependent.dependentLaunch = dependentLaunch;
    rt::Graph dependentGraph = rt::Graph::capture(stream, [&] {
      for (const Step &s : steps)
        launch(s, onDependent);
    });
    if (dependentLaunch) {
      poison();
      dependentGraph.launch(stream);
      stream.synchronize();
      pass &= check("graph of dependent launches");
    }

    // Copy bandwidth: the DSL copy kernel and cuMemcpyDtoD over 256 MiB.
    const size_t copyFloats = size_t(64) << 20, flushFloats = size_t(16) << 20;
    rt::DeviceMemory src(device, copyFloats * 4), dst(device, copyFloats * 4);
    src.fill(0);
    device.synchronize();
    const rt::Kernel &copy = kernels.at("copy");
    auto copyArgs = [&](size_t n) {
      return rt::ArgList{rt::Arg::pointer(src.address(), rt::ScalarType::F32),
                         rt::Arg::pointer(dst.address(), rt::ScalarType::F32), int32_t(n)};
    };
    rt::ArgList flushArgs = copyArgs(flushFloats), bigArgs = copyArgs(copyFloats);
    auto flush = [&] { // 128 MB touched: more than L2 (50 MB on H100)
      if (c.flush)
        copy.launch(ceilDiv(flushFloats, kCopyBlock), flushArgs, on);
    };
    rt::Event start(device), end(device);
    auto timeUs = [&](int reps, const std::function<void()> &before,
                      const std::function<void()> &body) {
      for (int w = 0; w < 3; ++w) {
        before();
        body();
      }
      std::vector<double> t;
      for (int r = 0; r < reps; ++r) {
        before();
        start.record(&stream);
        body();
        end.record(&stream);
        end.synchronize();
        t.push_back(rt::Event::elapsedMs(start, end) * 1e3);
      }
      return median(t);
    };
    auto nothing = [] {};
    double copyKernelUs = timeUs(20, nothing, [&] {
      copy.launch(ceilDiv(copyFloats, kCopyBlock), bigArgs, on);
    });
    double memcpyUs = timeUs(20, nothing, [&] { dst.copyFromDevice(src, copyFloats * 4, &stream); });
    const double copyBytes = 2.0 * 4 * copyFloats;
    double bwKernel = copyBytes / copyKernelUs * 1e-3, bwMemcpy = copyBytes / memcpyUs * 1e-3;
    double bw = std::max(bwKernel, bwMemcpy); // GB/s; the faster: the lower floors
    std::printf("\ncopy bandwidth (256 MiB -> 256 MiB, read + write): DSL copy kernel %.0f GB/s, "
                "cuMemcpyDtoD %.0f GB/s; floors use %.0f GB/s\n",
                bwKernel, bwMemcpy, bw);

    // Each kernel alone.
    std::printf("\n%s\n", c.flush ? "each kernel alone, L2 flushed before each launch (median):"
                                  : "each kernel alone, back to back (median):");
    std::printf("  %-15s %-13s %11s %10s %10s %6s\n", "kernel", "grid", "bytes", "time us",
                "floor us", "floor%");
    double sumUs = 0, sumFloor = 0, totalBytes = 0;
    for (const Step &s : steps) {
      double us = timeUs(c.reps, flush, [&] { launch(s, on); });
      double floor = s.bytes / bw * 1e-3;
      sumUs += us;
      sumFloor += floor;
      totalBytes += s.bytes;
      std::printf("  %-15s %-13s %11s %10.2f %10.2f %5.0f%%\n", s.name.c_str(),
                  s.grid.str().c_str(), fmtBytes(s.bytes).c_str(), us, floor, 100 * floor / us);
    }
    std::printf("  %-15s %-13s %11s %10.2f %10.2f %5.0f%%\n", "sum", "",
                fmtBytes(totalBytes).c_str(), sumUs, sumFloor, 100 * sumFloor / sumUs);

    // The whole step: direct launches and the graph.
    double directUs = timeUs(c.reps, flush, [&] {
      for (const Step &s : steps)
        launch(s, on);
    });
    double graphUs = timeUs(c.reps, flush, [&] { graph.launch(stream); });
    double dependentUs =
        dependentLaunch ? timeUs(c.reps, flush, [&] { dependentGraph.launch(stream); }) : 0;
    const int burst = 100;
    auto burstUs = [&](const rt::Graph &g) {
      start.record(&stream);
      for (int r = 0; r < burst; ++r)
        g.launch(stream);
      end.record(&stream);
      end.synchronize();
      return rt::Event::elapsedMs(start, end) * 1e3 / burst;
    };
    double graphBurstUs = burstUs(graph);
    double dependentBurstUs = dependentLaunch ? burstUs(dependentGraph) : 0;
    std::printf("\nwhole step (%zu launches, %zu graph nodes)%s:\n", steps.size(),
                graph.nodeCount(), c.flush ? ", L2 flushed before each" : "");
    std::printf("  direct launches on a stream  %9.2f us (median)\n", directUs);
    std::printf("  CUDA graph replay            %9.2f us (median)\n", graphUs);
    std::printf("  CUDA graph, %d back to back %9.2f us a step (no flush)\n", burst,
                graphBurstUs);
    if (dependentLaunch) {
      std::printf("  graph of dependent launches  %9.2f us (median)\n", dependentUs);
      std::printf("  the same, %d back to back   %9.2f us a step (no flush)\n", burst,
                  dependentBurstUs);
    }
    std::printf("  sum of kernels alone         %9.2f us\n", sumUs);
    std::printf("  sum of bandwidth floors      %9.2f us (%s at %.0f GB/s): graph step at %.0f%% "
                "of the floor's speed\n",
                sumFloor, fmtBytes(totalBytes).c_str(), bw, 100 * sumFloor / graphUs);

    // The replays wrote the same slot again: the result must still hold.
    stream.synchronize();
    pass &= check("after the timed replays");
    std::printf("\ndecode block: %s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "error (%s): %s\n", rt::toString(e.code()), e.what());
    return 2;
  } catch (const std::exception &e) { // out of host memory...
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
