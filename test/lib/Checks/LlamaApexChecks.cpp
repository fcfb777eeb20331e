//===- LlamaApexChecks.cpp - Apex fused LayerNorm/RMSNorm -----------------===//
//
// Forward and backward of Apex's fused LayerNorm and RMSNorm (spec:
// "Normalization (Apex)"), in f32, f16 and bf16, against float64
// references: row statistics by two-pass sums, and the backward as the
// exact analytical gradient of the normalization at the stored input (not
// the kernel's formula evaluated on its own saved statistics), so the
// memory-efficient mode, which rebuilds x_hat from the rounded output, is
// judged against the true gradient too.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

#include <cmath>
#include <string>

using namespace llk::checks;
using llk::interp::ElemType;

namespace {

struct DType {
  ElemType type;
  /// The source's -D T=, whose name is also the kernel's suffix.
  llk::ElementType constant;
  const char *suffix;
  /// ||out - ref|| / ||ref|| accepted: f32 math, f16 storage (spec), and
  /// bf16 storage (8x f16's: its unit roundoff is 8x larger).
  double tolerance;
};
const DType kTypes[] = {{ElemType::F32, llk::ElementType::F32, "f32", 1e-5},
                        {ElemType::F16, llk::ElementType::F16, "f16", 1e-3},
                        {ElemType::BF16, llk::ElementType::BF16, "bf16", 8e-3}};

enum class Norm { Layer, Rms };

/// eps is passed as f32: the references use the same value.
const double kEps = static_cast<float>(1e-5);

double elemBytes(const DType &t) {
  return static_cast<double>(llk::interp::elemTypeSize(t.type));
}

/// gamma: magnitudes in [0.5, 1.5], every third one negative (the
/// memory-efficient mode clamps by magnitude, keeping the sign).
HostBuffer &makeGamma(Problem &p, ElemType type, int64_t n2) {
  HostBuffer &gamma = p.uniform("gamma", type, {n2}, 0.5, 1.5);
  for (int64_t c = 0; c < n2; c += 3)
    gamma.set(c, -gamma[c]);
  return gamma;
}

/// LayerNorm input: uniform in [1, 5], a mean twice the standard deviation
/// off 0, so that sum(x^2) - n mean^2 would lose digits where Welford/Chan
/// do not. RMSNorm: standard normal.
HostBuffer &makeInput(Problem &p, Norm norm, ElemType type, int64_t n1,
                      int64_t n2) {
  return norm == Norm::Layer ? p.uniform("x", type, {n1, n2}, 1, 5)
                             : p.randn("x", type, {n1, n2});
}

struct RowStats {
  double mean = 0; // 0 for RMSNorm
  double invvar = 0;
};

/// float64 statistics of row r: LayerNorm mean and biased variance (two
/// passes), RMSNorm mean of squares.
RowStats rowStats(Norm norm, const HostBuffer &x, int64_t r, int64_t n2) {
  const double *row = &x.values[r * n2];
  RowStats s;
  if (norm == Norm::Layer) {
    for (int64_t c = 0; c < n2; ++c)
      s.mean += row[c];
    s.mean /= n2;
  }
  double m2 = 0;
  for (int64_t c = 0; c < n2; ++c)
    m2 += (row[c] - s.mean) * (row[c] - s.mean);
  s.invvar = 1 / std::sqrt(m2 / n2 + kEps);
  return s;
}

//===----------------------------------------------------------------------===//
// Forward: y (and mean) and invvar per row
//===----------------------------------------------------------------------===//

void forward(Problem &p, Norm norm, const DType &t, int64_t n1, int64_t n2) {
  HostBuffer &x = makeInput(p, norm, t.type, n1, n2);
  HostBuffer &gamma = makeGamma(p, t.type, n2);
  HostBuffer *beta = norm == Norm::Layer
                         ? &p.uniform("beta", t.type, {n2}, -1, 1)
                         : nullptr;
  HostBuffer &y = p.output("y", t.type, {n1, n2});
  HostBuffer *mean =
      norm == Norm::Layer ? &p.output("mean", ElemType::F32, {n1}) : nullptr;
  HostBuffer &invvar = p.output("invvar", ElemType::F32, {n1});
  for (int64_t r = 0; r < n1; ++r) {
    RowStats s = rowStats(norm, x, r, n2);
    if (mean)
      mean->reference[r] = s.mean;
    invvar.reference[r] = s.invvar;
    for (int64_t c = 0; c < n2; ++c)
      y.reference[r * n2 + c] = gamma[c] * (x[r * n2 + c] - s.mean) * s.invvar +
                                (beta ? (*beta)[c] : 0.0);
  }
  p.pointerArg(y);
  if (mean)
    p.pointerArg(*mean);
  p.pointerArg(invvar);
  p.pointerArg(x);
  p.pointerArg(gamma);
  if (beta)
    p.pointerArg(*beta);
  p.scalarArg(ElemType::I32, n2);
  p.scalarArg(ElemType::F32, kEps);
  p.grid = {static_cast<uint32_t>(n1), 1, 1};
  int64_t params = norm == Norm::Layer ? 2 : 1;
  p.bytes = elemBytes(t) * (2.0 * n1 * n2 + params * n2) + 4.0 * params * n1;
}

//===----------------------------------------------------------------------===//
// Backward, stage 1: dx and per-chunk partial weight gradients
//===----------------------------------------------------------------------===//

void backward(Problem &p, Norm norm, bool memoryEfficient, const DType &t,
              int64_t n1, int64_t n2, int64_t rowsPerChunk) {
  const bool layer = norm == Norm::Layer;
  const int64_t nChunks = (n1 + rowsPerChunk - 1) / rowsPerChunk;
  HostBuffer &x = makeInput(p, norm, t.type, n1, n2);
  HostBuffer &gamma = makeGamma(p, t.type, n2);
  HostBuffer *beta = layer ? &p.uniform("beta", t.type, {n2}, -1, 1) : nullptr;
  HostBuffer &dy = p.randn("dy", t.type, {n1, n2});
  // What the forward saved: mean and invvar (f32), and in memory-efficient
  // mode its output y (stored type) in place of x. The uniform fills are
  // overwritten below.
  HostBuffer *mean =
      layer ? &p.uniform("mean", ElemType::F32, {n1}, 0, 1) : nullptr;
  HostBuffer &invvar = p.uniform("invvar", ElemType::F32, {n1}, 0, 1);
  HostBuffer *y =
      memoryEfficient ? &p.uniform("y", t.type, {n1, n2}, 0, 1) : nullptr;

  HostBuffer &dx = p.output("dx", t.type, {n1, n2});
  HostBuffer &partGamma = p.output("part_gamma", ElemType::F32, {nChunks, n2});
  HostBuffer *partBeta =
      layer ? &p.output("part_beta", ElemType::F32, {nChunks, n2}) : nullptr;
  if (partBeta)
    partBeta->reference.assign(partBeta->size(), 0.0);
  partGamma.reference.assign(partGamma.size(), 0.0);

  std::vector<double> xhat(n2), g(n2);
  for (int64_t r = 0; r < n1; ++r) {
    RowStats s = rowStats(norm, x, r, n2);
    if (mean)
      mean->set(r, s.mean);
    invvar.set(r, s.invvar);
    double sumG = 0, sumGX = 0;
    for (int64_t c = 0; c < n2; ++c) {
      xhat[c] = (x[r * n2 + c] - s.mean) * s.invvar;
      g[c] = dy[r * n2 + c] * gamma[c];
      sumG += g[c];
      sumGX += g[c] * xhat[c];
      if (y)
        y->set(r * n2 + c, gamma[c] * xhat[c] + (beta ? (*beta)[c] : 0.0));
    }
    // d x_hat_i / d x_j = invvar (delta_ij - [LayerNorm] 1/n
    //                             - x_hat_i x_hat_j / n)
    int64_t chunk = r / rowsPerChunk;
    for (int64_t c = 0; c < n2; ++c) {
      double centred = n2 * g[c] - (layer ? sumG : 0.0) - xhat[c] * sumGX;
      dx.reference[r * n2 + c] = s.invvar / n2 * centred;
      partGamma.reference[chunk * n2 + c] += dy[r * n2 + c] * xhat[c];
      if (partBeta)
        partBeta->reference[chunk * n2 + c] += dy[r * n2 + c];
    }
  }

  p.pointerArg(dx);
  p.pointerArg(partGamma);
  if (partBeta)
    p.pointerArg(*partBeta);
  p.pointerArg(dy);
  p.pointerArg(y ? *y : x);
  if (mean)
    p.pointerArg(*mean);
  p.pointerArg(invvar);
  p.pointerArg(gamma);
  if (beta)
    p.pointerArg(*beta);
  p.scalarArg(ElemType::I32, n1);
  p.scalarArg(ElemType::I32, n2);
  p.scalarArg(ElemType::I32, rowsPerChunk);
  p.scalarArg(ElemType::F32, kEps);
  p.grid = {static_cast<uint32_t>(nChunks), 1, 1};
  // dy and x (or y) read, dx written; partials written; weights read; the
  // saved statistics read. Not read: mean in memory-efficient mode, beta in
  // the default mode.
  int64_t partials = layer ? 2 : 1;
  int64_t weights = layer && memoryEfficient ? 2 : 1;
  int64_t stats = layer && !memoryEfficient ? 2 : 1;
  p.bytes = elemBytes(t) * (3.0 * n1 * n2 + weights * n2) +
            4.0 * (partials * nChunks * n2 + stats * n1);
}

//===----------------------------------------------------------------------===//
// Backward, stage 2: the sum over chunks of the partials
//===----------------------------------------------------------------------===//

void sumChunks(Problem &p, const DType &t, int64_t nChunks, int64_t n2) {
  HostBuffer &part = p.randn("part", ElemType::F32, {nChunks, n2});
  HostBuffer &out = p.output("out", t.type, {n2});
  for (int64_t c = 0; c < n2; ++c) {
    double sum = 0;
    for (int64_t k = 0; k < nChunks; ++k)
      sum += part[k * n2 + c];
    out.reference[c] = sum;
  }
  p.pointerArg(out);
  p.pointerArg(part);
  p.scalarArg(ElemType::I32, nChunks);
  p.scalarArg(ElemType::I32, n2);
  p.bytes = 4.0 * nChunks * n2 + elemBytes(t) * n2;
}

//===----------------------------------------------------------------------===//
// The checks
//===----------------------------------------------------------------------===//

// Interpreter shapes: rows of 80 columns in a 128-wide tile (mask active),
// 7 rows; backward chunks of 3 rows (the last one short).
constexpr int64_t kRows = 7, kCols = 80, kRowsPerChunk = 3;

/// GPU shapes: Llama-2 7B decode (one row of H = 4096) and prompt
/// (T = 512 rows), and an awkward one (333 rows of 4000: masked tail, a
/// short last chunk). {n1, n2, rows_per_chunk}
struct GpuShape {
  const char *label;
  int64_t n1, n2, rowsPerChunk;
};
const GpuShape kGpuShapes[] = {{"decode 1x4096", 1, 4096, 1},
                               {"prompt 512x4096", 512, 4096, 4},
                               {"333x4000", 333, 4000, 4}};

std::string name(const char *base, const DType &t) {
  return std::string(base) + "_" + t.suffix;
}

KernelCheck forwardCheck(Norm norm, const DType &t) {
  bool layer = norm == Norm::Layer;
  const char *base = layer ? "apex_layer_norm_fwd" : "apex_rms_norm_fwd";
  // LayerNorm tiles the row as G groups of 8 columns; RMSNorm as BLOCK.
  const char *constant = layer ? "G" : "BLOCK";
  int64_t small = layer ? 16 : 128, big = layer ? 512 : 4096;
  KernelCheck check{name(base, t),
                    std::string("llama/") + base + ".mlir",
                    name(base, t),
                    {{"T", t.constant}, {constant, small}},
                    t.tolerance,
                    [=](Problem &p) { forward(p, norm, t, kRows, kCols); }};
  for (const GpuShape &s : kGpuShapes)
    check.gpuCases.push_back({s.label, [=](Problem &p) {
                                forward(p, norm, t, s.n1, s.n2);
                                p.constants = {{constant, big}};
                                p.numWarps = 8;
                              }});
  return check;
}

KernelCheck backwardCheck(Norm norm, bool memoryEfficient, const DType &t) {
  bool layer = norm == Norm::Layer;
  const char *base = layer ? "apex_layer_norm_bwd" : "apex_rms_norm_bwd";
  std::string checkName = std::string(base) + (memoryEfficient ? "_me_" : "_") +
                          t.suffix;
  int64_t me = memoryEfficient ? 1 : 0;
  KernelCheck check{checkName,
                    std::string("llama/") + base + ".mlir",
                    name(base, t),
                    {{"T", t.constant}, {"BLOCK", 128}, {"MEMORY_EFFICIENT", me}},
                    t.tolerance,
                    [=](Problem &p) {
                      backward(p, norm, memoryEfficient, t, kRows, kCols,
                               kRowsPerChunk);
                    }};
  for (const GpuShape &s : kGpuShapes)
    check.gpuCases.push_back({s.label, [=](Problem &p) {
                                backward(p, norm, memoryEfficient, t, s.n1,
                                         s.n2, s.rowsPerChunk);
                                p.constants = {{"BLOCK", 4096}};
                                p.numWarps = 8;
                              }});
  return check;
}

KernelCheck sumChunksCheck(const DType &t) {
  // 11 chunks of 80 columns: BLOCK 32 gives 3 programs (the last one
  // masked), CHUNKS 4 a short last step.
  const int64_t chunks = 11, cols = 80, block = 32;
  KernelCheck check{name("apex_norm_bwd_gamma", t),
                    "llama/apex_norm_bwd_gamma.mlir",
                    name("apex_norm_bwd_gamma", t),
                    {{"T", t.constant}, {"CHUNKS", 4}, {"BLOCK", block}},
                    t.tolerance,
                    [=](Problem &p) {
                      sumChunks(p, t, chunks, cols);
                      p.grid = {static_cast<uint32_t>((cols + block - 1) / block), 1, 1};
                    }};
  // The chunk counts stage 1 gives for the GPU shapes above.
  const struct {
    const char *label;
    int64_t chunks, n2;
  } shapes[] = {{"decode 1x4096", 1, 4096},
                {"prompt 128 chunks x4096", 128, 4096},
                {"84 chunks x4000", 84, 4000}};
  for (const auto &s : shapes)
    check.gpuCases.push_back({s.label, [=](Problem &p) {
                                sumChunks(p, t, s.chunks, s.n2);
                                const int64_t gpuBlock = 256;
                                p.constants = {{"CHUNKS", 8}, {"BLOCK", gpuBlock}};
                                p.numWarps = 4;
                                p.grid = {static_cast<uint32_t>(
                                              (s.n2 + gpuBlock - 1) / gpuBlock),
                                          1, 1};
                              }});
  return check;
}

} // namespace

std::vector<KernelCheck> llk::checks::llamaApexChecks() {
  std::vector<KernelCheck> checks;
  for (Norm norm : {Norm::Layer, Norm::Rms})
    for (const DType &t : kTypes)
      checks.push_back(forwardCheck(norm, t));
  for (Norm norm : {Norm::Layer, Norm::Rms})
    for (bool memoryEfficient : {false, true})
      for (const DType &t : kTypes)
        checks.push_back(backwardCheck(norm, memoryEfficient, t));
  for (const DType &t : kTypes)
    checks.push_back(sumChunksCheck(t));
  return checks;
}
