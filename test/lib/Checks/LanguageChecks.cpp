//===- LanguageChecks.cpp - random numbers, scans, sorts, ... ------------===//
//
// The ops a Triton user reaches for (issue 24), each in an example kernel:
// the references are exact where the op is (Philox words, uniforms, scans
// of integers, sorts, gathers, histograms) and float64 where it is not.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

#include "llk/Dialect/Tile/IR/Philox.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>

using namespace llk::checks;
using llk::interp::ElemType;
namespace philox = llk::tile::philox;

/// The outputs of examples/random.mlir for `n` offsets from `base`: the
/// words and uniforms exactly (Philox.h defines them), the normals as the
/// float64 Box-Muller transform of the same uniforms.
static void random(Problem &p, bool is64Bit, int64_t n, int64_t block) {
  // Scalars travel as doubles: i64 seeds within 2^53. i64 offsets start past
  // 2^32, so that their high words count.
  int64_t seed = is64Bit ? p.randomInt(-(int64_t(1) << 53), int64_t(1) << 53)
                         : p.randomInt(INT32_MIN, INT32_MAX);
  int64_t base = is64Bit ? p.randomInt(int64_t(1) << 32, int64_t(1) << 40)
                         : p.randomInt(0, INT32_MAX - n);
  HostBuffer &ints = p.output("ints", ElemType::I32, {n});
  HostBuffer &words = p.output("words", ElemType::I32, {4, n});
  HostBuffer &uniform = p.output("uniform", ElemType::F32, {n});
  HostBuffer &normal = p.output("normal", ElemType::F32, {n});
  ints.exact = words.exact = uniform.exact = true;
  std::array<uint32_t, 2> key = philox::key(seed);
  for (int64_t i = 0; i < n; ++i) {
    std::array<uint32_t, 4> w =
        philox::philox(philox::counter(uint64_t(base + i), is64Bit), key);
    ints.reference[i] = int32_t(w[0]);
    for (int k = 0; k < 4; ++k)
      words.reference[k * n + i] = int32_t(w[k]);
    float u1 = philox::uniform(w[0]), u2 = philox::uniform(w[1]);
    uniform.reference[i] = u1;
    double r = std::sqrt(-2 * std::log(std::max<double>(philox::kMinUniform, u1)));
    normal.reference[i] = r * std::cos(2 * M_PI * double(u2));
  }
  for (HostBuffer *out : {&ints, &words, &uniform, &normal})
    p.pointerArg(*out);
  ElemType scalar = is64Bit ? ElemType::I64 : ElemType::I32;
  p.scalarArg(scalar, double(seed));
  p.scalarArg(scalar, double(base));
  p.scalarArg(ElemType::I32, double(n));
  setGrid(p, ceilDiv(n, block));
  p.bytes = double(n) * 4 * 7;
}

/// The outputs of examples/scan.mlir for `rows` x `cols` inputs, blocks of
/// `block` rows: float scans against float64, integer ones exactly.
static void scans(Problem &p, int64_t rows, int64_t cols, int64_t block) {
  HostBuffer &x = p.randn("x", ElemType::F32, {rows, cols});
  HostBuffer &y = p.uniform("y", ElemType::F32, {rows, cols}, 0.8, 1.25);
  HostBuffer &k = p.zeros("k", ElemType::I32, {rows, cols});
  // A third of k zero, for the fills; the rest of both signs.
  for (size_t i = 0; i < k.size(); ++i)
    k.set(i, p.randomInt(0, 2) == 0 ? 0 : p.randomInt(-1000, 1000));
  const char *names[] = {"cumsum", "rcumsum", "cumprod", "cummax",
                         "rcummin", "ffill", "bfill"};
  std::vector<HostBuffer *> out;
  for (const char *name : names) {
    bool isInt = out.size() >= 3;
    out.push_back(&p.output(name, isInt ? ElemType::I32 : ElemType::F32, {rows, cols}));
    out.back()->exact = isInt;
  }
  auto at = [cols](int64_t r, int64_t c) { return r * cols + c; };
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0, rsum = 0;
    double fill = 0, rmin = 0;
    for (int64_t c = 0; c < cols; ++c) {
      sum += x[at(r, c)];
      out[0]->reference[at(r, c)] = sum;
      fill = k[at(r, c)] != 0 || c == 0 ? k[at(r, c)] : fill;
      out[5]->reference[at(r, c)] = fill;
      int64_t rc = cols - 1 - c;
      rsum += x[at(r, rc)];
      out[1]->reference[at(r, rc)] = rsum;
      rmin = c == 0 ? k[at(r, rc)] : std::min(rmin, k[at(r, rc)]);
      out[4]->reference[at(r, rc)] = rmin;
    }
  }
  for (int64_t b = 0; b < rows; b += block)
    for (int64_t c = 0; c < cols; ++c) {
      double prod = 1, max = 0, fill = 0;
      for (int64_t r = b; r < b + block; ++r) {
        prod *= y[at(r, c)];
        out[2]->reference[at(r, c)] = prod;
        max = r == b ? k[at(r, c)] : std::max(max, k[at(r, c)]);
        out[3]->reference[at(r, c)] = max;
        int64_t rr = 2 * b + block - 1 - r;
        fill = k[at(rr, c)] != 0 || r == b ? k[at(rr, c)] : fill;
        out[6]->reference[at(rr, c)] = fill;
      }
    }
  for (HostBuffer *in : {&x, &y, &k})
    p.pointerArg(*in);
  for (HostBuffer *o : out)
    p.pointerArg(*o);
  setGrid(p, rows / block);
  p.bytes = double(rows * cols) * 4 * 10;
}

/// examples/gather.mlir: rows x k picks of a rows x cols table.
static void gathers(Problem &p, int64_t rows, int64_t cols, int64_t k, int64_t block) {
  HostBuffer &table = p.randn("table", ElemType::F32, {rows, cols});
  HostBuffer &idx = p.zeros("idx", ElemType::I32, {rows, k});
  HostBuffer &out = p.output("out", ElemType::F32, {rows, k});
  out.exact = true;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < k; ++j) {
      idx.set(r * k + j, double(p.randomInt(0, cols - 1)));
      out.reference[r * k + j] = table[r * cols + int64_t(idx[r * k + j])];
    }
  for (HostBuffer *b : {&table, &idx, &out})
    p.pointerArg(*b);
  setGrid(p, rows / block);
  p.bytes = double(rows) * (cols + 2 * k) * 4;
}

/// examples/histogram.mlir: each block's counts, values from -4
/// to bins + 3 (those outside [0, bins) not counted).
static void histograms(Problem &p, int64_t n, int64_t block, int64_t bins) {
  HostBuffer &x = p.zeros("x", ElemType::I32, {n});
  HostBuffer &counts = p.output("counts", ElemType::I32, {n / block, bins});
  counts.exact = true;
  std::fill(counts.reference.begin(), counts.reference.end(), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = p.randomInt(-4, bins + 3);
    x.set(i, double(v));
    if (v >= 0 && v < bins)
      counts.reference[(i / block) * bins + v] += 1;
  }
  p.pointerArg(x);
  p.pointerArg(counts);
  setGrid(p, n / block);
  p.bytes = double(n) * 4 + double(n / block) * bins * 4;
}

/// The position of f32 bits `b` in tile.sort's ascending order, as an
/// integer: every NaN the largest, -0.0 as +0.0, else the numbers' order.
static int64_t sortRank(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  if (std::isnan(f))
    return int64_t(1) << 40;
  if (f == 0)
    return 0;
  return b & 0x80000000u ? -int64_t(b & 0x7fffffffu) : int64_t(b);
}

/// examples/sort.mlir for `rows` x `cols` inputs, blocks of `block` rows,
/// the top `k`: every output exactly (float keys by their bits). x is drawn
/// with many ties: quarters in [-3, 3], +-0.0, +-inf and NaNs of
/// either sign and several payloads; k from [-8, 8].
static void sorts(Problem &p, int64_t rows, int64_t cols, int64_t block, int64_t k) {
  HostBuffer &x = p.zeros("x", ElemType::I32, {rows, cols});
  HostBuffer &keys = p.zeros("k", ElemType::I32, {rows, cols});
  std::vector<uint32_t> xb(rows * cols);
  for (size_t i = 0; i < xb.size(); ++i) {
    int64_t kind = p.randomInt(0, 15);
    float f = float(p.randomInt(-12, 12)) / 4;
    std::memcpy(&xb[i], &f, 4);
    if (kind == 0)
      xb[i] = 0x7fc00000u | uint32_t(p.randomInt(0, 3)) | uint32_t(p.randomInt(0, 1)) << 31;
    else if (kind == 1)
      xb[i] = p.randomInt(0, 1) ? 0x80000000u : 0;
    else if (kind == 2)
      xb[i] = p.randomInt(0, 1) ? 0xff800000u : 0x7f800000u;
    x.set(i, double(int32_t(xb[i])));
    keys.set(i, double(p.randomInt(-8, 8)));
  }
  const char *names[] = {"asc", "desc", "perm", "colk", "colx"};
  std::vector<HostBuffer *> out;
  for (const char *name : names)
    out.push_back(&p.output(name, ElemType::I32, {rows, cols}));
  for (const char *name : {"topv", "topi", "lowv", "lowi"})
    out.push_back(&p.output(name, ElemType::I32, {rows, k}));
  for (HostBuffer *o : out)
    o->exact = true;
  // Stable sorts of positions by a rank (the reference's own order).
  auto sorted = [](int64_t n, const std::function<int64_t(int64_t)> &rank) {
    std::vector<int64_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return rank(a) < rank(b); });
    return order;
  };
  for (int64_t r = 0; r < rows; ++r) {
    auto at = [&](int64_t c) { return r * cols + c; };
    auto up = sorted(cols, [&](int64_t c) { return sortRank(xb[at(c)]); });
    auto down = sorted(cols, [&](int64_t c) { return -sortRank(xb[at(c)]); });
    auto low = sorted(cols, [&](int64_t c) { return int64_t(keys[at(c)]); });
    for (int64_t c = 0; c < cols; ++c) {
      out[0]->reference[at(c)] = int32_t(xb[at(up[c])]);
      out[1]->reference[at(c)] = int32_t(xb[at(down[c])]);
      out[2]->reference[at(c)] = double(down[c]);
    }
    for (int64_t j = 0; j < k; ++j) {
      out[5]->reference[r * k + j] = int32_t(xb[at(down[j])]);
      out[6]->reference[r * k + j] = double(down[j]);
      out[7]->reference[r * k + j] = keys[at(low[j])];
      out[8]->reference[r * k + j] = double(low[j]);
    }
  }
  for (int64_t b = 0; b < rows; b += block)
    for (int64_t c = 0; c < cols; ++c) {
      auto at = [&](int64_t i) { return (b + i) * cols + c; };
      auto order = sorted(block, [&](int64_t i) { return int64_t(keys[at(i)]); });
      for (int64_t i = 0; i < block; ++i) {
        out[3]->reference[at(i)] = keys[at(order[i])];
        out[4]->reference[at(i)] = int32_t(xb[at(order[i])]);
      }
    }
  p.pointerArg(x);
  p.pointerArg(keys);
  for (HostBuffer *o : out)
    p.pointerArg(*o);
  setGrid(p, rows / block);
  p.bytes = double(rows * cols) * 4 * 7 + double(rows * k) * 4 * 4;
}

/// examples/fp8_cast.mlir: n f32 values, every fp8 value's neighbourhood
/// (ties, overflow, subnormals, zeros, infinities) and random bits over the
/// whole range but NaNs, to `type` and back, every bit the interpreter's.
static void fp8Casts(Problem &p, ElemType type, int64_t n, int64_t block) {
  HostBuffer &x = p.zeros("x", ElemType::F32, {n});
  HostBuffer &q = p.output("q", type, {n});
  HostBuffer &w = p.output("w", ElemType::F32, {n});
  HostBuffer &h = p.output("h", ElemType::F16, {n});
  for (int64_t i = 0; i < n; ++i) {
    double v;
    if (i < 256 * 4) { // around every code: the value, then the midpoints
      uint8_t code = uint8_t(i / 4), next = uint8_t(code + 1);
      double a = llk::interp::decodeElement(type, &code), b = llk::interp::decodeElement(type, &next);
      v = std::isfinite(a) && std::isfinite(b) && (code & 0x7f) != 0x7f
              ? (i % 4 == 0 ? a : i % 4 == 1 ? (a + b) / 2 : a + (b - a) * (i % 4 - 1) / 2.5)
              : 1e30 * (code & 0x80 ? -1 : 1);
      if (std::isnan(v))
        v = 0.0;
    } else {
      uint32_t bits = uint32_t(p.randomInt(0, 0xffffffffll));
      float f;
      std::memcpy(&f, &bits, 4);
      v = std::isnan(f) ? -0.0 : f;
    }
    x.set(i, v);
    uint8_t byte;
    llk::interp::encodeElement(type, x[i], &byte);
    double value = llk::interp::decodeElement(type, &byte);
    q.reference[i] = w.reference[i] = h.reference[i] = value;
  }
  q.exact = w.exact = h.exact = true;
  for (HostBuffer *b : {&x, &q, &w, &h})
    p.pointerArg(*b);
  setGrid(p, n / block);
  p.bytes = double(n) * 11;
}

std::vector<KernelCheck> llk::checks::languageChecks() {
  // Normals: within the f32 rounding of 2*pi*u2 and of the transform's
  // steps (about 1e-7); words and uniforms bit for bit.
  auto rng = [](bool is64Bit) {
    return [is64Bit](Problem &p) { random(p, is64Bit, 304, 128); };
  };
  auto gpuRng = [](bool is64Bit) {
    return std::vector<GpuCase>{
        {"2^20 offsets", [is64Bit](Problem &p) {
           p.constants["BLOCK"] = 1024;
           random(p, is64Bit, 1 << 20, 1024);
         }}};
  };
  // Two layouts of the scanned axes: 8 rows of 64 (rows across warps) and
  // 4 of 256 (a row across the warps); f32 sums against float64 within
  // their rounding, products of 8 terms near 1.
  auto scanCheck = [](const char *name, int64_t rows, int64_t cols) {
    return KernelCheck{
        name, "scan.mlir", "scan", {{"ROWS", rows}, {"COLS", cols}}, 1e-5,
        [rows, cols](Problem &p) { scans(p, 4 * rows, cols, rows); },
        {{"2^20 elements", [rows, cols](Problem &p) {
            scans(p, (1 << 20) / cols, cols, rows);
          }}}};
  };
  // Rows across lanes and warps (4 x 256, 1 x 1024), rows across warps
  // and the columns across lanes (8 x 64).
  auto sortCheck = [](const char *name, int64_t rows, int64_t cols, int64_t k) {
    return KernelCheck{
        name, "sort.mlir", "sort", {{"ROWS", rows}, {"COLS", cols}, {"K", k}}, 1e-12,
        [rows, cols, k](Problem &p) { sorts(p, 4 * rows, cols, rows, k); },
        {{"2^20 elements", [rows, cols, k](Problem &p) {
            sorts(p, (1 << 20) / cols, cols, rows, k);
          }}}};
  };
  auto fp8CastCheck = [](ElemType type) {
    std::string name = "fp8_cast_" + llk::interp::elemTypeName(type).str();
    return KernelCheck{
        name, "fp8_cast.mlir", "fp8_cast",
        {{"T", *llk::ConstantValue::fromTypeName(llk::interp::elemTypeName(type))}, {"BLOCK", 256}}, 1e-12,
        [type](Problem &p) { fp8Casts(p, type, 4096, 256); },
        {{"2^20 values, sm_90 (cvt)", [type](Problem &p) { fp8Casts(p, type, 1 << 20, 256); }},
         {"2^20 values, sm_80 (integer ops)", [type](Problem &p) {
            fp8Casts(p, type, 1 << 20, 256);
            p.arch = "sm_80";
          }}}};
  };
  return {
      fp8CastCheck(ElemType::F8E4M3FN),
      fp8CastCheck(ElemType::F8E5M2),
      scanCheck("scan_8x64", 8, 64),
      scanCheck("scan_4x256", 4, 256),
      {"gather", "gather.mlir", "gather", {{"ROWS", 8}, {"COLS", 64}, {"K", 16}}, 1e-12,
       [](Problem &p) { gathers(p, 32, 64, 16, 8); },
       {{"2^20 picks", [](Problem &p) { gathers(p, 1 << 16, 64, 16, 8); }}}},
      {"histogram", "histogram.mlir", "histogram", {{"BLOCK", 1024}, {"BINS", 64}}, 1e-12,
       [](Problem &p) { histograms(p, 4096, 1024, 64); },
       {{"2^22 values", [](Problem &p) { histograms(p, 1 << 22, 1024, 64); }}}},
      sortCheck("sort_4x256", 4, 256, 16),
      sortCheck("sort_8x64", 8, 64, 8),
      sortCheck("sort_1x1024", 1, 1024, 32),
      {"random_i32", "random.mlir", "random_i32", {{"BLOCK", 128}}, 1e-6, rng(false),
       gpuRng(false)},
      {"random_i64", "random.mlir", "random_i64", {{"BLOCK", 128}}, 1e-6, rng(true),
       gpuRng(true)},
  };
}
