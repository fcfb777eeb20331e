//===- Engine.cpp - run a Llama model on an llk device --------------------===//

#include "llk/llama/Engine.h"
#include "llk/llama/Error.h"

#include "llk/Environment.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

using namespace llk::llama;
namespace rt = llk::rt;

std::string llk::llama::defaultKernelDir() {
  if (auto dir = llk::env::get(llk::env::Knob::KernelDir))
    return *dir;
#ifdef LLK_SOURCE_DIR
  return std::string(LLK_SOURCE_DIR) + "/examples";
#else
  return "examples";
#endif
}

std::optional<std::string> DecodeShape::problem() const {
  const struct {
    const char *what;
    uint32_t value, least, most;
  } fields[] = {{"the Q/K/V rows a program", qkvRows, 2, 32},
                {"the gate/up rows a program", swigluRows, 1, 64},
                {"the residual kernels' rows a program", residualRows, 1, 32},
                {"the norm's scaled blocks a pass", normChunk, 1, 1024},
                {"the attention's chunks", attnChunks, 1, 64},
                {"the mat-vecs' blocks an iteration", matVecBlocks, 8, 256}};
  for (const auto &f : fields)
    if (f.value < f.least || f.value > f.most || (f.value & (f.value - 1)))
      return std::string(f.what) + " must be a power of two from " + std::to_string(f.least) +
             " to " + std::to_string(f.most) + ", not " + std::to_string(f.value);
  return std::nullopt;
}

std::string DecodeShape::str() const {
  return std::to_string(qkvRows) + "," + std::to_string(swigluRows) + "," +
         std::to_string(residualRows) + "," + std::to_string(normChunk) + "," +
         std::to_string(attnChunks) + "," + std::to_string(matVecBlocks);
}

namespace {

uint32_t pow2Ceil(uint64_t v) {
  uint32_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

uint32_t ceilDiv(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

rt::Arg f32(uint64_t address) { return rt::Arg::pointer(address, rt::ScalarType::F32); }
rt::Arg f16(uint64_t address) { return rt::Arg::pointer(address, rt::ScalarType::F16); }
rt::Arg i32(uint64_t address) { return rt::Arg::pointer(address, rt::ScalarType::I32); }
rt::Arg i8(uint64_t address) { return rt::Arg::pointer(address, rt::ScalarType::I8); }
rt::Arg intArg(uint32_t value) { return rt::Arg(static_cast<int32_t>(value)); }

/// A weight matrix on the device, in its stored type: `rows` outputs of
/// `cols` inputs each. q8_0 matrices of fused layers are also (or only) in
/// the split layout the decode kernels read: the quants as i8 [rows][cols]
/// (16-byte aligned words of 16 quants), then the blocks' f16 scales as
/// [rows][cols / 32]: block_q8_0's bytes rearranged, as many.
struct Matrix {
  GGMLType type = GGMLType::F32;
  uint32_t rows = 0, cols = 0;
  /// The file's layout (null when only the split one is needed).
  std::shared_ptr<rt::DeviceMemory> memory; // shared by a tied LM head and embedding
  std::shared_ptr<rt::DeviceMemory> split;
  uint64_t address() const { return memory->address(); }
  uint64_t quants() const { return split->address(); }
  uint64_t scales() const { return split->address() + uint64_t(rows) * cols; }
  double bytes() const { return static_cast<double>((memory ? memory : split)->bytes()); }
};

/// q8_0 rows (block_q8_0: f16 d, 32 i8 quants) in the split layout (Matrix).
std::vector<uint8_t> splitQ8_0(const uint8_t *blocks, uint64_t rows, uint64_t cols) {
  const uint64_t n = rows * cols / 32;
  std::vector<uint8_t> out(rows * cols + 2 * n);
  for (uint64_t i = 0; i < n; ++i) {
    std::memcpy(&out[32 * i], blocks + 34 * i + 2, 32);
    std::memcpy(&out[rows * cols + 2 * i], blocks + 34 * i, 2);
  }
  return out;
}

/// One kernel launch of the decode step.
struct Launch {
  std::string what; // "layer 3 q" (errors, the profile's families)
  rt::Kernel kernel;
  rt::Grid grid;
  rt::ArgList args;
  /// What it must read at the least, for the profile: its weights, and
  /// whether the K and V of the cached tokens too (the attention).
  double weightBytes = 0;
  bool readsCache = false;
};

template <typename T> using Buffer = std::unique_ptr<rt::DeviceBuffer<T>>;

} // namespace

struct Engine::Impl {
  Impl(const LlamaModelFile &model, const rt::Device &device, rt::JIT &jit,
       EngineOptions options);

  // Setup.
  void checkShapes() const;
  std::unique_ptr<rt::DeviceMemory> upload(const GGUFTensorInfo &tensor);
  Matrix uploadMatrix(const GGUFTensorInfo &tensor);
  /// A fused layer's q8_0 matrix (several stacked: their rows one after the
  /// other) in the split layout, and in the file's when `keepFileLayout`.
  Matrix uploadFused(llvm::ArrayRef<const GGUFTensorInfo *> tensors, bool keepFileLayout);
  rt::Kernel kernel(const std::string &file, const std::string &function,
                    const llk::Constants &constants, unsigned numWarps,
                    const std::string &arch = "", unsigned numStages = 0);
  void buildStep();
  Launch embedding();
  Launch matVec(std::string what, const Matrix &w, uint64_t y, uint64_t x);
  Launch rmsNorm(std::string what, uint64_t y, uint64_t x, const rt::DeviceMemory &gamma);
  Launch add(std::string what, uint64_t x, uint64_t y, uint32_t n);
  Launch rmsNormQ8_1(std::string what, uint64_t xq, uint64_t x, const rt::DeviceMemory &gamma);

  // Running.
  void run();
  void checkRoom() const;

  const std::string modelName; // for errors; the weights are copied at construction
  const LlamaConfig config;
  EngineOptions options;
  rt::Device device;
  rt::JIT &jit;
  rt::Stream stream;
  uint32_t ctx;
  uint32_t pos = 0;
  int32_t hostToken = 0; // the source of step()'s copy
  int32_t hostPos = 0;   // and of reset()'s

  Matrix tokenEmbedding, output;
  std::unique_ptr<rt::DeviceMemory> outputNorm;
  struct Layer {
    std::unique_ptr<rt::DeviceMemory> attnNorm, ffnNorm;
    Matrix q, k, v, o, gate, up, down;
    /// q8_0 layers with options.fuse: [Wq; Wk; Wv] in one allocation, for
    /// the fused mat-vec (q, k and v then stay empty).
    Matrix qkv;
    bool fused = false;
    Buffer<rt::Half> kCache, vCache;
  };
  std::vector<Layer> layers;
  void addAttention(const std::string &at, const Layer &layer);
  void addGenericLayer(const std::string &at, const Layer &layer);
  void addFusedLayer(const std::string &at, const Layer &layer,
                     const rt::DeviceMemory &nextNorm);

  // The step's state in device memory and its activations.
  Buffer<int32_t> token, position, history, candidateIds, topIds;
  Buffer<float> x, xn, q, k, v, qr, o, t, g, u, a, logits, partO, partM, partL,
      candidateValues, topValues;
  Buffer<int8_t> xq; // q8_1 activations of the fused mat-vecs
  /// The fused kernels' "last program" counters: [0] the residual kernels'
  /// norm, [1 + h] the attention's head h. Zero between launches.
  Buffer<int32_t> counters;
  /// The residual kernels' programs' sums of squares (one a program).
  Buffer<float> squares;
  /// The residual kernels' q8_1 blocks: their programs' counts (0 between
  /// launches), and each block's amax / 127 and sum before the norm's scale.
  Buffer<int32_t> blockCounters;
  Buffer<float> blockScratch;
  /// rope's base^(-2i/D), i < D / 2, in f64 (the fused Q/K/V mat-vec's).
  Buffer<double> ropeFreq;
  uint32_t attnChunks = 1, topkBlocks = 1;

  // Batched prefill (all layers fused: q8_0): the batch's activations, rows
  // of prefillBatch tokens.
  bool batchedPrefill = false;
  Buffer<int32_t> pIds;
  Buffer<float> pX, pXn, pQkv, pT, pG, pU;
  Buffer<rt::Half> pXn16, pO16, pA16;
  // With prefillTma: the matrix being multiplied, dequantized to f16 and
  // transposed (K x N), and the GEMMs' tensor maps (encoded once: the A maps
  // over the buffers' prefillBatch rows, the B maps over pW16 at each shape).
  bool prefillTma = false;
  Buffer<rt::Half> pW16;
  std::optional<rt::TensorMap> mapXn16, mapO16, mapA16, mapQkv, mapO, mapGateUp, mapDown;
  uint32_t prefillGemmBlock() const; // BLOCK_M = BLOCK_N
  uint32_t prefillAttentionKeys() const;
  rt::Kernel prefillGemm(bool accumulate);
  void setUpPrefillTma();
  std::vector<Launch> prefillLaunches(uint32_t tokens, uint32_t first);
  void prefillBatch(llvm::ArrayRef<int32_t> tokens);

  std::vector<Launch> launches;
  std::optional<rt::Graph> graph;
};

Engine::Impl::Impl(const LlamaModelFile &model, const rt::Device &device, rt::JIT &jit,
                   EngineOptions opts)
    : modelName(model.gguf().name().str()), config(model.config()), options(std::move(opts)),
      device(device),
      jit(jit), stream(device) {
  if (options.kernelDir.empty())
    options.kernelDir = defaultKernelDir();
  if (options.candidates < 1 || options.candidates > kMaxDeviceCandidates)
    throw Error("the device's top-k takes 1 to " + std::to_string(kMaxDeviceCandidates) +
                " candidates, not " + std::to_string(options.candidates));
  checkShapes();
  if (auto why = options.decodeShape.problem())
    throw Error("decode shape: " + *why);
  uint32_t wanted = options.contextLength ? options.contextLength
                                          : std::min<uint32_t>(config.contextLength, 4096);
  // The attention kernels want a capacity that is a multiple of 16.
  ctx = std::max<uint32_t>(16, (wanted + 15) / 16 * 16);
  if (ctx > (1u << 20))
    throw Error("a context of " + std::to_string(wanted) + " tokens is more than llk-llama allows (2^20)");

  const LlamaTensors &tensors = model.tensors();
  tokenEmbedding = uploadMatrix(*tensors.tokenEmbedding);
  if (tensors.output == tensors.tokenEmbedding) // tied: one copy
    output = Matrix{tokenEmbedding.type, tokenEmbedding.rows, tokenEmbedding.cols,
                    tokenEmbedding.memory};
  else
    output = uploadMatrix(*tensors.output);
  outputNorm = upload(*tensors.outputNorm);
  const uint32_t nkv = config.kvEmbeddingLength();
  // A layer whose matrices are all q8_0 runs the fused kernels; the prompt
  // goes in batches when all do.
  auto fusable = [&](const LlamaLayerTensors &lt) {
    bool q8 = options.fuse;
    for (const GGUFTensorInfo *t : {lt.attnQ, lt.attnK, lt.attnV, lt.attnOutput, lt.ffnGate,
                                    lt.ffnUp, lt.ffnDown})
      q8 &= t->type == GGMLType::Q8_0;
    return q8;
  };
  batchedPrefill = options.prefillBatch > 1 &&
                   std::all_of(tensors.layers.begin(), tensors.layers.end(), fusable);
  // sm_90a code runs on sm_90 only.
  prefillTma = batchedPrefill && options.prefillTma &&
               (device.backend() == rt::Backend::Interpreter || device.arch() == "sm_90");
  // The batch's q8_0 GEMM without TMA reads the file's layout; the TMA
  // path's dequantization reads the split one.
  const bool keepFileLayout = batchedPrefill && !prefillTma;
  for (const LlamaLayerTensors &lt : tensors.layers) {
    Layer layer;
    layer.attnNorm = upload(*lt.attnNorm);
    layer.ffnNorm = upload(*lt.ffnNorm);
    layer.fused = fusable(lt);
    if (layer.fused) {
      layer.qkv = uploadFused({lt.attnQ, lt.attnK, lt.attnV}, keepFileLayout);
      layer.o = uploadFused({lt.attnOutput}, keepFileLayout);
      layer.gate = uploadFused({lt.ffnGate}, keepFileLayout);
      layer.up = uploadFused({lt.ffnUp}, keepFileLayout);
      layer.down = uploadFused({lt.ffnDown}, keepFileLayout);
    } else {
      layer.q = uploadMatrix(*lt.attnQ);
      layer.k = uploadMatrix(*lt.attnK);
      layer.v = uploadMatrix(*lt.attnV);
      layer.o = uploadMatrix(*lt.attnOutput);
      layer.gate = uploadMatrix(*lt.ffnGate);
      layer.up = uploadMatrix(*lt.ffnUp);
      layer.down = uploadMatrix(*lt.ffnDown);
    }
    layer.kCache = std::make_unique<rt::DeviceBuffer<rt::Half>>(device, size_t(ctx) * nkv);
    layer.vCache = std::make_unique<rt::DeviceBuffer<rt::Half>>(device, size_t(ctx) * nkv);
    layers.push_back(std::move(layer));
  }

  const uint32_t H = config.embeddingLength, F = config.feedForwardLength,
                 NH = config.headCount, D = config.headDim(), V = config.vocabSize;
  attnChunks = std::clamp<uint32_t>(ctx / 64, 1, options.decodeShape.attnChunks);
  topkBlocks = ceilDiv(V, std::min<uint32_t>(1024, pow2Ceil(V)));
  auto f32Buffer = [&](size_t n) { return std::make_unique<rt::DeviceBuffer<float>>(device, n); };
  auto i32Buffer = [&](size_t n) { return std::make_unique<rt::DeviceBuffer<int32_t>>(device, n); };
  token = i32Buffer(1);
  position = i32Buffer(1);
  history = i32Buffer(ctx);
  x = f32Buffer(H), xn = f32Buffer(H), q = f32Buffer(H), qr = f32Buffer(H), o = f32Buffer(H);
  k = f32Buffer(nkv), v = f32Buffer(nkv);
  t = f32Buffer(H), g = f32Buffer(F), u = f32Buffer(F), a = f32Buffer(F);
  logits = f32Buffer(V);
  xq = std::make_unique<rt::DeviceBuffer<int8_t>>(device, size_t(H) / 32 * 36);
  counters = i32Buffer(1 + NH);
  counters->fillBytes(0);
  squares = f32Buffer(H);
  blockCounters = i32Buffer(H / 32);
  blockCounters->fillBytes(0);
  blockScratch = f32Buffer(2 * H / 32);
  {
    const uint32_t D = config.headDim();
    std::vector<double> freq(D / 2);
    for (uint32_t i = 0; i < D / 2; ++i)
      freq[i] = std::exp2(double(i) * (-2.0 / double(D)) *
                          std::log2(static_cast<double>(config.ropeFreqBase)));
    ropeFreq = std::make_unique<rt::DeviceBuffer<double>>(device, freq.size());
    ropeFreq->copyFrom(freq.data(), freq.size());
  }
  device.synchronize();
  partO = f32Buffer(size_t(NH) * attnChunks * D);
  partM = f32Buffer(size_t(NH) * attnChunks);
  partL = f32Buffer(size_t(NH) * attnChunks);
  candidateValues = f32Buffer(size_t(topkBlocks) * options.candidates);
  candidateIds = i32Buffer(size_t(topkBlocks) * options.candidates);
  topValues = f32Buffer(options.candidates);
  topIds = i32Buffer(options.candidates);

  buildStep();
  if (batchedPrefill) {
    const size_t B = options.prefillBatch, W = size_t(H) + 2 * nkv;
    pIds = i32Buffer(B);
    pX = f32Buffer(B * H), pXn = f32Buffer(B * H), pQkv = f32Buffer(B * W);
    pT = f32Buffer(B * H), pG = f32Buffer(B * F), pU = f32Buffer(B * F);
    auto halves = [&](size_t n) { return std::make_unique<rt::DeviceBuffer<rt::Half>>(device, n); };
    pXn16 = halves(B * H), pO16 = halves(B * H), pA16 = halves(B * F);
    if (prefillTma)
      setUpPrefillTma();
  }
  hostPos = 0;
  position->copyFrom(&hostPos, 1, &stream);
  stream.synchronize();
  if (options.graph)
    graph = rt::Graph::capture(stream, [&] { run(); });
}

void Engine::Impl::checkShapes() const {
  auto fail = [&](const std::string &why) {
    throw Error(modelName + ": llk-llama cannot run this model: " + why);
  };
  if (config.ropeDimensionCount != config.headDim())
    fail("RoPE over " + std::to_string(config.ropeDimensionCount) +
         " dimensions of heads of " + std::to_string(config.headDim()) +
         " (the kernels rotate whole heads)");
  if (config.headDim() % 2 || config.headDim() > 256)
    fail("a head dimension of " + std::to_string(config.headDim()) +
         " (even, at most 256)");
  if (config.embeddingLength % 32 || config.feedForwardLength % 32 ||
      config.kvEmbeddingLength() % 32)
    fail("n_embd, n_ff and the KV width must be multiples of 32");
  if (config.headDim() & (config.headDim() - 1))
    fail("a head dimension of " + std::to_string(config.headDim()) +
         " (the attention kernels' tiles want a power of two)");
  if (config.embeddingLength > (1u << 16) || config.feedForwardLength > (1u << 18) ||
      config.vocabSize > (1u << 20))
    fail("shapes past the kernels' 32-bit offsets");
}

std::unique_ptr<rt::DeviceMemory> Engine::Impl::upload(const GGUFTensorInfo &tensor) {
  auto memory = std::make_unique<rt::DeviceMemory>(device, tensor.numBytes);
  memory->copyFromHost(tensor.data, tensor.numBytes);
  return memory;
}

Matrix Engine::Impl::uploadMatrix(const GGUFTensorInfo &tensor) {
  Matrix m;
  m.type = tensor.type;
  m.cols = static_cast<uint32_t>(tensor.dims[0]);
  m.rows = static_cast<uint32_t>(tensor.numRows());
  m.memory = upload(tensor);
  return m;
}

Matrix Engine::Impl::uploadFused(llvm::ArrayRef<const GGUFTensorInfo *> tensors,
                                 bool keepFileLayout) {
  Matrix m;
  m.type = tensors.front()->type;
  m.cols = static_cast<uint32_t>(tensors.front()->dims[0]);
  std::vector<uint8_t> bytes;
  for (const GGUFTensorInfo *t : tensors) {
    bytes.insert(bytes.end(), t->data, t->data + t->numBytes);
    m.rows += static_cast<uint32_t>(t->numRows());
  }
  if (keepFileLayout) {
    m.memory = std::make_unique<rt::DeviceMemory>(device, bytes.size());
    m.memory->copyFromHost(bytes.data(), bytes.size());
  }
  std::vector<uint8_t> split = splitQ8_0(bytes.data(), m.rows, m.cols);
  m.split = std::make_unique<rt::DeviceMemory>(device, split.size());
  m.split->copyFromHost(split.data(), split.size());
  return m;
}

rt::Kernel Engine::Impl::kernel(const std::string &file, const std::string &function,
                                const llk::Constants &constants, unsigned numWarps,
                                const std::string &arch, unsigned numStages) {
  rt::JITOptions o;
  o.constants = constants;
  o.numWarps = numWarps;
  o.arch = arch;
  if (numStages)
    o.numStages = numStages;
  return jit.compile(rt::Source::fromFile(options.kernelDir + "/" + file), o, function);
}

//===----------------------------------------------------------------------===//
// The decode step
//===----------------------------------------------------------------------===//

Launch Engine::Impl::embedding() {
  const Matrix &e = tokenEmbedding;
  const uint32_t H = config.embeddingLength;
  const int64_t block = std::min<uint32_t>(1024, pow2Ceil(H));
  const int64_t blocks = std::min<uint32_t>(32, pow2Ceil(H / 32));
  rt::ArgList args = {f32(x->address()), rt::Arg::pointer(e.address(), std::nullopt),
                      i32(token->address()), intArg(e.rows), intArg(H)};
  switch (e.type) {
  case GGMLType::F32:
    args[1] = f32(e.address());
    return {"token embedding", kernel("llama/get_rows.mlir", "get_rows_f32",
                                      {{"BLOCK", block}, {"BLOCKS", blocks}}, 4),
            rt::Grid(ceilDiv(H, block)), args};
  case GGMLType::Q8_0:
    args[1] = i8(e.address());
    return {"token embedding", kernel("llama/get_rows.mlir", "get_rows_q8_0",
                                      {{"BLOCK", block}, {"BLOCKS", blocks}}, 4),
            rt::Grid(ceilDiv(H, 32 * blocks)), args};
  case GGMLType::F16:
  case GGMLType::BF16: {
    bool half = e.type == GGMLType::F16;
    args[1] = rt::Arg::pointer(e.address(), half ? rt::ScalarType::F16 : rt::ScalarType::BF16);
    return {"token embedding",
            kernel("llama/get_rows_half.mlir", "get_rows_half",
                   {{"BLOCK", block},
                    {"T", half ? llk::ElementType::F16 : llk::ElementType::BF16}},
                   4),
            rt::Grid(ceilDiv(H, block)), args};
  }
  default:
    throw Error("token_embd.weight: no embedding kernel for " + std::string(toString(e.type)));
  }
}

Launch Engine::Impl::matVec(std::string what, const Matrix &w, uint64_t y, uint64_t xIn) {
  const uint32_t n = w.rows, kk = w.cols;
  switch (w.type) {
  case GGMLType::Q8_0: {
    // examples/kernels.list's ROWS = 8, BLOCKS = 32 (fewer for short rows).
    const int64_t rows = 8, blocks = std::min<uint32_t>(32, pow2Ceil(kk / 32));
    return {std::move(what),
            kernel("llama/linear_q8_0.mlir", "linear_q8_0",
                   {{"ROWS", rows}, {"BLOCKS", blocks}}, 4),
            rt::Grid(ceilDiv(n, rows)), {f32(y), i8(w.address()), f32(xIn), intArg(n), intArg(kk)},
            w.bytes()};
  }
  case GGMLType::F32:
  case GGMLType::F16:
  case GGMLType::BF16: {
    const int64_t rows = 4, blockK = std::min<uint32_t>(256, pow2Ceil(kk));
    llk::Constants c = {{"ROWS", rows}, {"BLOCK_K", blockK}};
    rt::Arg weights = f32(w.address());
    std::string file = "llama/linear_f32.mlir", function = "linear_f32";
    if (w.type != GGMLType::F32) {
      bool half = w.type == GGMLType::F16;
      c["T"] = half ? llk::ElementType::F16 : llk::ElementType::BF16;
      weights = rt::Arg::pointer(w.address(), half ? rt::ScalarType::F16 : rt::ScalarType::BF16);
      file = "llama/linear_half.mlir", function = "linear_half";
    }
    return {std::move(what), kernel(file, function, c, 4), rt::Grid(ceilDiv(n, rows)),
            {f32(y), weights, f32(xIn), intArg(n), intArg(kk)}, w.bytes()};
  }
  default:
    throw Error(what + ": no mat-vec kernel for " + toString(w.type));
  }
}

Launch Engine::Impl::rmsNorm(std::string what, uint64_t y, uint64_t xIn,
                             const rt::DeviceMemory &gamma) {
  const uint32_t H = config.embeddingLength;
  const int64_t block = std::max<uint32_t>(16, pow2Ceil(H));
  const unsigned warps = static_cast<unsigned>(std::clamp<int64_t>(block / 512, 1, 8));
  return {std::move(what), kernel("llama/rms_norm.mlir", "rms_norm_f32", {{"BLOCK", block}}, warps),
          rt::Grid(1),
          {f32(y), f32(xIn), f32(gamma.address()), intArg(H), intArg(H), intArg(H),
           rt::Arg(config.rmsEpsilon)}};
}

Launch Engine::Impl::add(std::string what, uint64_t xInOut, uint64_t y, uint32_t n) {
  const int64_t block = std::min<uint32_t>(1024, pow2Ceil(n));
  return {std::move(what),
          kernel("llama/binary.mlir", "binary_f32", {{"BLOCK", block}, {"OP", 0}}, 4),
          rt::Grid(ceilDiv(n, block), 1), {f32(xInOut), f32(y), f32(xInOut), intArg(n)}};
}

Launch Engine::Impl::rmsNormQ8_1(std::string what, uint64_t xqOut, uint64_t xIn,
                                 const rt::DeviceMemory &gamma) {
  const uint32_t H = config.embeddingLength;
  const int64_t blocks = pow2Ceil(H / 32);
  const unsigned warps = static_cast<unsigned>(std::clamp<int64_t>(blocks / 16, 1, 8));
  return {std::move(what),
          kernel("llama/rms_norm_q8_1.mlir", "rms_norm_q8_1", {{"BLOCKS", blocks}}, warps),
          rt::Grid(1),
          {i8(xqOut), f32(xIn), f32(gamma.address()), intArg(H), intArg(H),
           rt::Arg(config.rmsEpsilon)}};
}

void Engine::Impl::buildStep() {
  const uint32_t H = config.embeddingLength, V = config.vocabSize, K = options.candidates;
  const int64_t topkBlock = std::min<uint32_t>(1024, pow2Ceil(V));
  const llk::Constants topk = {{"BLOCK", topkBlock}, {"K", K},
                               {"MAX_CAND", pow2Ceil(uint64_t(topkBlocks) * K)}};

  launches.push_back(embedding());
  // Whether xq holds the q8_1 of the next norm's output: a fused layer's last
  // kernel leaves it there for the next layer or the LM head.
  bool xqReady = false;
  for (size_t l = 0; l < layers.size(); ++l) {
    std::string at = "layer " + std::to_string(l) + " ";
    if (layers[l].fused) {
      if (!xqReady)
        launches.push_back(rmsNormQ8_1(at + "attn_norm", xq->address(), x->address(),
                                       *layers[l].attnNorm));
      const rt::DeviceMemory &next =
          l + 1 < layers.size() ? *layers[l + 1].attnNorm : *outputNorm;
      addFusedLayer(at, layers[l], next);
      xqReady = true;
    } else {
      addGenericLayer(at, layers[l]);
      xqReady = false;
    }
  }
  if (options.fuse && output.type == GGMLType::Q8_0) {
    const int64_t rows = 4, blocks = std::min<uint32_t>(32, pow2Ceil(H / 32));
    if (!xqReady)
      launches.push_back(rmsNormQ8_1("output_norm", xq->address(), x->address(), *outputNorm));
    launches.push_back({"output", kernel("llama/mul_mat_vec_q.mlir", "mul_mat_vec_q",
                                         {{"ROWS", rows}, {"BLOCKS", blocks}}, 4),
                        rt::Grid(ceilDiv(V, rows)),
                        {f32(logits->address()), i8(output.address()), i8(xq->address()),
                         intArg(V), intArg(H)},
                        output.bytes()});
  } else {
    launches.push_back(rmsNorm("output_norm", xn->address(), x->address(), *outputNorm));
    launches.push_back(matVec("output", output, logits->address(), xn->address()));
  }
  launches.push_back({"top-k", kernel("llama/topk.mlir", "topk_partial", topk, 4),
                      rt::Grid(topkBlocks),
                      {f32(candidateValues->address()), i32(candidateIds->address()),
                       f32(logits->address()), intArg(V)}});
  launches.push_back({"top-k merge", kernel("llama/topk.mlir", "topk_final", topk, 4), rt::Grid(1),
                      {f32(topValues->address()), i32(topIds->address()),
                       f32(candidateValues->address()), i32(candidateIds->address()),
                       intArg(topkBlocks * K), i32(token->address()), i32(history->address()),
                       intArg(ctx), i32(position->address()), i32(position->address())}});
}

void Engine::Impl::addAttention(const std::string &at, const Layer &L) {
  const uint32_t NH = config.headCount, D = config.headDim(), nkv = config.kvEmbeddingLength();
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(D)));
  // Tokens an attention step takes: 64 on long caches, 16 on short ones.
  const int64_t blockT = ctx >= 256 ? 64 : 16;
  const llk::Constants attn = {{"BLOCK_T", blockT}, {"D", D}};
  llk::Constants combine = attn;
  combine["MAX_CHUNKS"] = pow2Ceil(attnChunks);
  launches.push_back({at + "attention",
                      kernel("llama/attn_decode_pos.mlir", "attn_decode_partial_pos_kernel",
                             attn, 8),
                      rt::Grid(attnChunks, NH),
                      {f32(partO->address()), f32(partM->address()), f32(partL->address()),
                       f32(qr->address()), f16(L.kCache->address()), f16(L.vCache->address()),
                       i32(position->address()), intArg(nkv), intArg(ctx),
                       intArg(config.headCount / config.headCountKV), rt::Arg(scale)},
                      0, true});
  launches.push_back({at + "attention combine",
                      kernel("llama/attn_decode.mlir", "attn_decode_combine_kernel", combine, 4),
                      rt::Grid(NH),
                      {f32(o->address()), f32(partO->address()), f32(partM->address()),
                       f32(partL->address()), intArg(attnChunks)}});
}

/// A layer of any weight types, one kernel an op (15 launches).
void Engine::Impl::addGenericLayer(const std::string &at, const Layer &L) {
  const uint32_t H = config.embeddingLength, F = config.feedForwardLength,
                 D = config.headDim(), nkv = config.kvEmbeddingLength();
  const int64_t ropeBlock = std::min<uint32_t>(1024, pow2Ceil(H));
  const int64_t swigluBlock = std::min<uint32_t>(1024, pow2Ceil(F));
  launches.push_back(rmsNorm(at + "attn_norm", xn->address(), x->address(), *L.attnNorm));
  launches.push_back(matVec(at + "q", L.q, q->address(), xn->address()));
  launches.push_back(matVec(at + "k", L.k, k->address(), xn->address()));
  launches.push_back(matVec(at + "v", L.v, v->address(), xn->address()));
  launches.push_back({at + "rope + KV append",
                      kernel("llama/rope_kv.mlir", "rope_kv", {{"BLOCK", ropeBlock}, {"D", D}}, 4),
                      rt::Grid(ceilDiv(H, ropeBlock)),
                      {f32(qr->address()), f32(q->address()), f32(k->address()),
                       f32(v->address()), f16(L.kCache->address()), f16(L.vCache->address()),
                       i32(position->address()), intArg(H), intArg(nkv), intArg(ctx),
                       rt::Arg(config.ropeFreqBase)}});
  addAttention(at, L);
  launches.push_back(matVec(at + "o", L.o, t->address(), o->address()));
  launches.push_back(add(at + "attention residual", x->address(), t->address(), H));
  launches.push_back(rmsNorm(at + "ffn_norm", xn->address(), x->address(), *L.ffnNorm));
  launches.push_back(matVec(at + "gate", L.gate, g->address(), xn->address()));
  launches.push_back(matVec(at + "up", L.up, u->address(), xn->address()));
  launches.push_back({at + "swiglu",
                      kernel("llama/silu.mlir", "swiglu_f32", {{"BLOCK", swigluBlock}}, 4),
                      rt::Grid(ceilDiv(F, swigluBlock)),
                      {f32(g->address()), f32(u->address()), f32(a->address()), intArg(F)}});
  launches.push_back(matVec(at + "down", L.down, t->address(), a->address()));
  launches.push_back(add(at + "ffn residual", x->address(), t->address(), H));
}

/// A q8_0 layer, fused (5 launches; its input norm comes from the layer
/// before, or a launch of rms_norm_q8_1 for the first): Q, K and V in one
/// integer mat-vec on the q8_1 of the norm, rope and the KV append in its
/// epilogue; the attention and its combine in one launch; the o and down
/// projections with the residual add in their epilogues and the next norm
/// quantized to q8_1 (the FFN's, then the next layer's or the output's,
/// `nextNorm`), block by block, the scale by the last block's program;
/// gate, up and SiLU * mul in one.
void Engine::Impl::addFusedLayer(const std::string &at, const Layer &L,
                                 const rt::DeviceMemory &nextNorm) {
  const uint32_t H = config.embeddingLength, F = config.feedForwardLength,
                 NH = config.headCount, D = config.headDim(),
                 nkv = config.kvEmbeddingLength();
  const DecodeShape &shape = options.decodeShape;
  auto blocks = [&](uint32_t cols) {
    return int64_t(std::min<uint32_t>(shape.matVecBlocks, pow2Ceil(cols / 32)));
  };
  launches.push_back({at + "qkv + rope + KV append",
                      kernel("llama/mul_mat_vec_q_qkv.mlir", "mul_mat_vec_q_qkv",
                             {{"ROWS", shape.qkvRows}, {"BLOCKS", blocks(H)}, {"D", D}}, 4),
                      rt::Grid(ceilDiv(L.qkv.rows, shape.qkvRows)),
                      {f32(qr->address()), f16(L.kCache->address()), f16(L.vCache->address()),
                       i8(L.qkv.quants()), f16(L.qkv.scales()), i8(xq->address()),
                       i32(position->address()),
                       intArg(H), intArg(nkv), intArg(H), intArg(ctx),
                       rt::Arg::pointer(ropeFreq->address(), rt::ScalarType::F64)},
                      L.qkv.bytes()});
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(D)));
  launches.push_back({at + "attention",
                      kernel("llama/attn_decode_fused.mlir", "attn_decode_fused_kernel",
                             {{"BLOCK_T", ctx >= 256 ? 64 : 16}, {"D", D},
                              {"MAX_CHUNKS", pow2Ceil(attnChunks)}},
                             8),
                      rt::Grid(attnChunks, NH),
                      {f32(o->address()), f32(partO->address()), f32(partM->address()),
                       f32(partL->address()), f32(qr->address()), f16(L.kCache->address()),
                       f16(L.vCache->address()), i32(position->address()), intArg(nkv),
                       intArg(ctx), intArg(config.headCount / config.headCountKV),
                       rt::Arg(scale), i32(counters->address() + 4)},
                      0, true});
  // The residual kernels' last program scales the d and s of
  // shape.normChunk q8_1 blocks a pass (at most the whole vector's).
  const int64_t normChunk = std::min<uint32_t>(shape.normChunk, pow2Ceil(H / 32));
  auto residual = [&](const char *what, const Matrix &w, uint64_t in,
                      const rt::DeviceMemory &gamma) {
    return Launch{at + what,
                  kernel("llama/linear_q8_0_res_norm.mlir", "linear_q8_0_res_norm",
                         {{"ROWS", shape.residualRows}, {"BLOCKS", blocks(w.cols)},
                          {"NORM_CHUNK", normChunk}},
                         4),
                  rt::Grid(ceilDiv(w.rows, shape.residualRows)),
                  {f32(x->address()), f32(x->address()), i8(w.quants()), f16(w.scales()), f32(in),
                   intArg(w.rows), intArg(w.cols), f32(gamma.address()), i8(xq->address()),
                   i32(counters->address()), f32(squares->address()),
                   i32(blockCounters->address()), f32(blockScratch->address()),
                   rt::Arg(config.rmsEpsilon)},
                  w.bytes()};
  };
  launches.push_back(residual("o + residual + ffn_norm", L.o, o->address(), *L.ffnNorm));
  launches.push_back({at + "gate, up + swiglu",
                      kernel("llama/mul_mat_vec_q_swiglu.mlir", "mul_mat_vec_q_swiglu",
                             {{"ROWS", shape.swigluRows}, {"BLOCKS", blocks(H)}}, 4),
                      rt::Grid(ceilDiv(F, shape.swigluRows)),
                      {f32(a->address()), i8(L.gate.quants()), f16(L.gate.scales()),
                       i8(L.up.quants()), f16(L.up.scales()),
                       i8(xq->address()), intArg(F), intArg(H)},
                      L.gate.bytes() + L.up.bytes()});
  launches.push_back(residual("down + residual + next norm", L.down, a->address(), nextNorm));
}

/// 32 keys a step on the GPU (at 64 ptxas spills for D = 128).
uint32_t Engine::Impl::prefillAttentionKeys() const {
  return device.backend() == rt::Backend::Cuda ? 32 : 16;
}

/// The GEMMs' BLOCK_M = BLOCK_N.
uint32_t Engine::Impl::prefillGemmBlock() const {
  return device.backend() == rt::Backend::Cuda ? 128 : 64;
}

/// examples/llama/prefill_gemm.mlir (sm_90a; C = A B, or C += A B with
/// `accumulate`): 128 x 128 x 64 blocks, 4 stages on the GPU (bench/
/// RESULTS.md's fastest TMA GEMM at 512 x 4096 x 4096 and 512 x 11008 x 4096),
/// the smallest warpgroup MMA takes for the interpreter's tiny models. 4
/// warps, but 8 where the residual is added: its tile in the accumulator's
/// layout beside the accumulator would not fit 4 warps' registers (ptxas
/// spills).
rt::Kernel Engine::Impl::prefillGemm(bool accumulate) {
  const int64_t block = prefillGemmBlock();
  return kernel("llama/prefill_gemm.mlir", "prefill_gemm",
                {{"BLOCK_M", block}, {"BLOCK_N", block}, {"BLOCK_K", 64},
                 {"ACCUMULATE", accumulate ? 1 : 0}},
                accumulate ? 8 : 4, "sm_90a", 4);
}

void Engine::Impl::setUpPrefillTma() {
  const uint64_t H = config.embeddingLength, F = config.feedForwardLength,
                 W = H + 2 * config.kvEmbeddingLength(), B = options.prefillBatch;
  pW16 = std::make_unique<rt::DeviceBuffer<rt::Half>>(device, std::max(W, F) * H);
  // Both GEMMs' descriptors have the same boxes.
  const rt::Kernel gemm = prefillGemm(false);
  const std::vector<rt::ParamInfo> &params = gemm.info().params;
  auto map = [&](std::optional<rt::TensorMap> &m, const rt::ParamInfo &param, uint64_t address,
                 uint64_t rows, uint64_t cols) { m.emplace(device, param, address, rows, cols, cols * 2); };
  map(mapXn16, params[0], pXn16->address(), B, H);
  map(mapO16, params[0], pO16->address(), B, H);
  map(mapA16, params[0], pA16->address(), B, F);
  map(mapQkv, params[1], pW16->address(), H, W);
  map(mapO, params[1], pW16->address(), H, H);
  map(mapGateUp, params[1], pW16->address(), H, F);
  map(mapDown, params[1], pW16->address(), F, H);
}

/// The prefill of `tokens` tokens at positions [first, first + tokens): a
/// GEMM for every matrix (prefillTma: the matrix dequantized to f16 into
/// pW16, then examples/llama/prefill_gemm.mlir, the o and down projections
/// adding into the residual stream; otherwise examples/gemm_q8_0.mlir, which
/// rounds the weights to f16 in registers, and a residual add: the same
/// arithmetic), rope and the KV append of the whole batch, and the causal
/// attention of examples/llama/attn_prefill.mlir on the tensor cores. No
/// logits: the last prompt token goes through the decode step.
std::vector<Launch> Engine::Impl::prefillLaunches(uint32_t T, uint32_t first) {
  const uint32_t H = config.embeddingLength, F = config.feedForwardLength, NH = config.headCount,
                 D = config.headDim(), nkv = config.kvEmbeddingLength(), W = H + 2 * nkv;
  const bool gpu = device.backend() == rt::Backend::Cuda;
  auto halfPtr = [](uint64_t a) { return rt::Arg::pointer(a, rt::ScalarType::F16); };

  // prefillTma: the dequantization in 128 x 64 tiles on the GPU (each
  // program reads 64 rows of 4 blocks), small ones for the interpreter; the
  // GEMMs' blocks (prefillGemm). Otherwise examples/kernels.list's q8_0 GEMM
  // blocks on the GPU, small ones for the interpreter's tiny models.
  const int64_t dqK = gpu ? 128 : 32, dqN = gpu ? 64 : 32;
  const uint32_t bm = prefillTma ? prefillGemmBlock() : (gpu ? 128 : 32),
                 bn = prefillTma ? prefillGemmBlock() : (gpu ? 64 : 32);
  std::optional<rt::Kernel> dequant, gemm, gemmAdd;
  if (prefillTma) {
    dequant.emplace(kernel("llama/dequant_q8_0.mlir", "dequant_q8_0_trans",
                           {{"BLOCK_K", dqK}, {"BLOCK_N", dqN}, {"BLOCK_Q", dqK * dqN / 32}},
                           4));
    gemm.emplace(prefillGemm(false));
    gemmAdd.emplace(prefillGemm(true));
  } else {
    gemm.emplace(kernel("gemm_q8_0.mlir", "gemm_q8_0_kernel",
                        {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", gpu ? 64 : 32},
                         {"GROUP_SIZE_M", gpu ? 8 : 2}},
                        4));
  }
  // C = A W^T (f32) for the q8_0 matrix W, A the batch's f16 rows (`aMap`
  // its tensor map, `wtMap` that of W^T in pW16); with `residual`, C += A W^T.
  auto linear = [&](std::vector<Launch> &out, std::string what, const Matrix &w, uint64_t a,
                    const std::optional<rt::TensorMap> &aMap,
                    const std::optional<rt::TensorMap> &wtMap, uint64_t c, bool residual) {
    if (prefillTma) {
      out.push_back({what + " dequantize", *dequant,
                     rt::Grid(ceilDiv(w.cols, dqK), ceilDiv(w.rows, dqN)),
                     {halfPtr(pW16->address()), i8(w.quants()), halfPtr(w.scales()),
                      intArg(w.rows), intArg(w.cols),
                      intArg(w.rows)}});
      out.push_back({std::move(what), residual ? *gemmAdd : *gemm,
                     rt::Grid(ceilDiv(T, bm), ceilDiv(w.rows, bn)),
                     {rt::Arg(*aMap), rt::Arg(*wtMap), f32(c), f32(c), intArg(T),
                      intArg(w.rows), intArg(w.cols), intArg(w.rows)}});
      return;
    }
    const uint64_t target = residual ? pT->address() : c;
    out.push_back({what, *gemm, rt::Grid(ceilDiv(T, bm) * ceilDiv(w.rows, bn)),
                   {halfPtr(a), i8(w.address()), f32(target), intArg(T), intArg(w.rows),
                    intArg(w.cols), intArg(w.cols), intArg(w.rows)}});
    if (residual)
      out.push_back(add(what + " residual", c, target, T * H));
  };

  const int64_t rowBlock = std::min<uint32_t>(1024, pow2Ceil(std::max(H, F)));
  const rt::Kernel toHalf = kernel("llama/cpy_rows.mlir", "cpy_f32_f16_rows", {{"BLOCK", rowBlock}}, 4);
  auto rowsToHalf = [&](std::string what, uint64_t src, uint64_t dst, uint32_t cols) {
    return Launch{std::move(what), toHalf, rt::Grid(ceilDiv(cols, rowBlock), T),
                  {f32(src), halfPtr(dst), intArg(cols), intArg(cols), intArg(cols), intArg(0)}};
  };
  auto norm = [&](std::string what, const rt::DeviceMemory &gamma) {
    Launch l = rmsNorm(std::move(what), pXn->address(), pX->address(), gamma);
    l.grid = rt::Grid(T);
    return l;
  };
  const int64_t ropeBlock = std::min<uint32_t>(1024, pow2Ceil(H));
  const rt::Kernel rope = kernel("llama/rope.mlir", "rope_f32", {{"BLOCK", ropeBlock}, {"D", D}}, 4);
  const int64_t be = std::min<uint32_t>(128, pow2Ceil(nkv));
  const rt::Kernel vAppend = kernel("llama/cpy_trans.mlir", "cpy_f32_f16_trans", {{"BT", 16}, {"BE", be}}, 4);
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(D)));
  // The attention: 128 tokens a program on the GPU, small blocks for the
  // interpreter's tiny models.
  const uint32_t attnM = gpu ? 128 : 16;
  const rt::Kernel attention =
      kernel("llama/attn_prefill.mlir", "attn_prefill_kernel",
             {{"BLOCK_M", attnM}, {"BLOCK_N", prefillAttentionKeys()}, {"D", D}}, gpu ? 8 : 4);
  const rt::Kernel swiglu =
      kernel("llama/silu.mlir", "swiglu_f32", {{"BLOCK", 1024}}, 4);
  const uint64_t q = pQkv->address(), k = q + 4ull * H, v = k + 4ull * nkv;

  std::vector<Launch> out;
  Launch embed = embedding();
  embed.args[0] = f32(pX->address());
  embed.args[2] = i32(pIds->address());
  embed.grid.y = T;
  out.push_back(embed);
  for (size_t l = 0; l < layers.size(); ++l) {
    const Layer &L = layers[l];
    std::string at = "prefill layer " + std::to_string(l) + " ";
    out.push_back(norm(at + "attn_norm", *L.attnNorm));
    out.push_back(rowsToHalf(at + "attn_norm f16", pXn->address(), pXn16->address(), H));
    linear(out, at + "qkv", L.qkv, pXn16->address(), mapXn16, mapQkv, q, false);
    out.push_back({at + "rope q", rope, rt::Grid(ceilDiv(H, ropeBlock), T),
                   {f32(q), f32(q), intArg(W), intArg(W), intArg(H), intArg(first),
                    rt::Arg(config.ropeFreqBase)}});
    out.push_back({at + "rope k", rope, rt::Grid(ceilDiv(nkv, ropeBlock), T),
                   {f32(k), f32(k), intArg(W), intArg(W), intArg(nkv), intArg(first),
                    rt::Arg(config.ropeFreqBase)}});
    out.push_back({at + "K append", toHalf, rt::Grid(ceilDiv(nkv, rowBlock), T),
                   {f32(k), halfPtr(L.kCache->address()), intArg(W), intArg(nkv), intArg(nkv),
                    intArg(first * nkv)}});
    out.push_back({at + "V append", vAppend, rt::Grid(ceilDiv(first % 8 + T, 16), ceilDiv(nkv, be)),
                   {f32(v), halfPtr(L.vCache->address()), intArg(W), intArg(nkv), intArg(T),
                    intArg(ctx), intArg(first)}});
    out.push_back({at + "attention", attention, rt::Grid(ceilDiv(T, attnM), NH),
                   {halfPtr(pO16->address()), f32(q), halfPtr(L.kCache->address()),
                    halfPtr(L.vCache->address()), intArg(first), intArg(T), intArg(W), intArg(H),
                    intArg(nkv), intArg(ctx), intArg(config.headCount / config.headCountKV),
                    rt::Arg(scale)}});
    linear(out, at + "o", L.o, pO16->address(), mapO16, mapO, pX->address(), true);
    out.push_back(norm(at + "ffn_norm", *L.ffnNorm));
    out.push_back(rowsToHalf(at + "ffn_norm f16", pXn->address(), pXn16->address(), H));
    linear(out, at + "gate", L.gate, pXn16->address(), mapXn16, mapGateUp, pG->address(), false);
    linear(out, at + "up", L.up, pXn16->address(), mapXn16, mapGateUp, pU->address(), false);
    out.push_back({at + "swiglu", swiglu, rt::Grid(ceilDiv(uint64_t(T) * F, 1024)),
                   {f32(pG->address()), f32(pU->address()), f32(pG->address()), intArg(T * F)}});
    out.push_back(rowsToHalf(at + "swiglu f16", pG->address(), pA16->address(), F));
    linear(out, at + "down", L.down, pA16->address(), mapA16, mapDown, pX->address(), true);
  }
  return out;
}

void Engine::Impl::prefillBatch(llvm::ArrayRef<int32_t> tokens) {
  const uint32_t T = static_cast<uint32_t>(tokens.size());
  stream.synchronize(); // pIds' last copy has left
  pIds->copyFrom(tokens.data(), T, &stream);
  rt::LaunchOptions on;
  on.stream = &stream;
  for (const Launch &launch : prefillLaunches(T, pos)) {
    try {
      launch.kernel.launch(launch.grid, launch.args, on);
    } catch (const rt::Error &e) {
      throw rt::Error(e.code(), launch.what + ": " + e.what(), e.cudaName(), e.cudaResult(),
                      e.kernel());
    }
  }
  pos += T;
  hostPos = static_cast<int32_t>(pos);
  position->copyFrom(&hostPos, 1, &stream);
  stream.synchronize(); // hostPos is the copy's source
}

void Engine::Impl::run() {
  const bool dependent = options.dependentLaunch && device.backend() == rt::Backend::Cuda &&
                         device.computeCapabilityMajor() >= 9;
  rt::LaunchOptions on;
  on.stream = &stream;
  for (const Launch &launch : launches) {
    on.dependentLaunch = dependent && launch.kernel.info().gridDependencyWait;
    try {
      launch.kernel.launch(launch.grid, launch.args, on);
    } catch (const rt::Error &e) {
      throw rt::Error(e.code(), launch.what + ": " + e.what(), e.cudaName(), e.cudaResult(),
                      e.kernel());
    }
  }
}

void Engine::Impl::checkRoom() const {
  if (pos >= ctx)
    throw Error("the context is full: " + std::to_string(ctx) + " tokens (--ctx)");
}

//===----------------------------------------------------------------------===//
// Engine
//===----------------------------------------------------------------------===//

Engine::Engine(const LlamaModelFile &model, const rt::Device &device, rt::JIT &jit,
               EngineOptions options)
    : impl_(std::make_unique<Impl>(model, device, jit, std::move(options))) {}
Engine::~Engine() = default;

const LlamaConfig &Engine::config() const { return impl_->config; }
const EngineOptions &Engine::options() const { return impl_->options; }
uint32_t Engine::contextLength() const { return impl_->ctx; }
uint32_t Engine::position() const { return impl_->pos; }
const rt::Stream &Engine::stream() const { return impl_->stream; }
void Engine::synchronize() const { impl_->stream.synchronize(); }

void Engine::reset() {
  impl_->stream.synchronize();
  impl_->hostPos = 0;
  impl_->position->copyFrom(&impl_->hostPos, 1, &impl_->stream);
  impl_->stream.synchronize();
  impl_->pos = 0;
}

void Engine::step(int32_t token) {
  Impl &m = *impl_;
  m.checkRoom();
  if (token < 0 || static_cast<uint32_t>(token) >= m.config.vocabSize)
    throw Error("token " + std::to_string(token) + " is outside the vocabulary (" +
                std::to_string(m.config.vocabSize) + " tokens)");
  // The copy leaves from hostToken; the one before it has left by now.
  m.stream.synchronize();
  m.hostToken = token;
  m.token->copyFrom(&m.hostToken, 1, &m.stream);
  stepOnGreedy();
}

void Engine::prefill(llvm::ArrayRef<int32_t> tokens) {
  Impl &m = *impl_;
  if (tokens.empty())
    return;
  if (m.pos + tokens.size() > m.ctx)
    throw Error("the context is full: " + std::to_string(m.ctx) + " tokens (--ctx)");
  for (int32_t token : tokens)
    if (token < 0 || static_cast<uint32_t>(token) >= m.config.vocabSize)
      throw Error("token " + std::to_string(token) + " is outside the vocabulary (" +
                  std::to_string(m.config.vocabSize) + " tokens)");
  size_t done = 0;
  if (m.batchedPrefill)
    for (; tokens.size() - done > 1; done += std::min<size_t>(m.options.prefillBatch, tokens.size() - 1 - done))
      m.prefillBatch(tokens.slice(done, std::min<size_t>(m.options.prefillBatch, tokens.size() - 1 - done)));
  for (; done < tokens.size(); ++done)
    step(tokens[done]);
}

bool Engine::batchedPrefill() const { return impl_->batchedPrefill; }
uint32_t Engine::prefillAttentionKeys() const { return impl_->prefillAttentionKeys(); }

void Engine::stepOnGreedy() {
  Impl &m = *impl_;
  m.checkRoom();
  if (m.graph)
    m.graph->launch(m.stream);
  else
    m.run();
  ++m.pos;
}

int32_t Engine::greedyToken() const {
  int32_t id = 0;
  impl_->token->copyTo(&id, 1, &impl_->stream);
  impl_->stream.synchronize();
  return id;
}

std::vector<TokenCandidate> Engine::candidates() const {
  const uint32_t K = impl_->options.candidates;
  std::vector<float> values(K);
  std::vector<int32_t> ids(K);
  impl_->topValues->copyTo(values.data(), K, &impl_->stream);
  impl_->topIds->copyTo(ids.data(), K, &impl_->stream);
  impl_->stream.synchronize();
  std::vector<TokenCandidate> result;
  for (uint32_t i = 0; i < K; ++i)
    if (values[i] != -INFINITY) // fewer logits than K
      result.push_back({ids[i], values[i]});
  return result;
}

std::vector<float> Engine::logits() const {
  std::vector<float> values(impl_->config.vocabSize);
  impl_->logits->copyTo(values.data(), values.size(), &impl_->stream);
  impl_->stream.synchronize();
  return values;
}

std::vector<int32_t> Engine::chosenTokens(uint32_t from, uint32_t count) const {
  if (uint64_t(from) + count > impl_->ctx)
    throw Error("chosenTokens: positions past the context");
  std::vector<int32_t> all(impl_->ctx);
  impl_->history->copyTo(all.data(), all.size(), &impl_->stream);
  impl_->stream.synchronize();
  return std::vector<int32_t>(all.begin() + from, all.begin() + from + count);
}

double Engine::weightBytesPerStep() const {
  const Impl &m = *impl_;
  double bytes = m.output.bytes() + m.outputNorm->bytes() +
                 m.tokenEmbedding.bytes() / m.tokenEmbedding.rows;
  for (const Impl::Layer &l : m.layers)
    bytes += (l.fused ? l.qkv.bytes() : l.q.bytes() + l.k.bytes() + l.v.bytes()) + l.o.bytes() +
             l.gate.bytes() + l.up.bytes() + l.down.bytes() + l.attnNorm->bytes() +
             l.ffnNorm->bytes();
  return bytes;
}

double Engine::kvBytesPerStep(uint32_t tokens) const {
  const LlamaConfig &c = impl_->config;
  return 2.0 * 2.0 * c.blockCount * double(tokens) * c.kvEmbeddingLength();
}

size_t Engine::launchesPerStep() const { return impl_->launches.size(); }
size_t Engine::graphNodes() const { return impl_->graph ? impl_->graph->nodeCount() : 0; }

std::vector<KernelProfile> Engine::profileStep(unsigned repeats) {
  Impl &m = *impl_;
  m.checkRoom();
  if (repeats < 1)
    throw Error("profileStep: at least one repeat");
  // The families: the step's launches by what they do, the layer dropped
  // ("layer 3 attention" -> "attention"), and their kernel (a generic and a
  // fused layer's norm differ), in the order they first come.
  std::vector<KernelProfile> families;
  std::vector<std::vector<const Launch *>> members;
  for (const Launch &launch : m.launches) {
    std::string what = launch.what;
    if (what.rfind("layer ", 0) == 0)
      what = what.substr(what.find(' ', 6) + 1);
    auto it = std::find_if(families.begin(), families.end(),
                           [&](const KernelProfile &f) {
                             return f.what == what && f.kernel == launch.kernel.info().name;
                           });
    if (it == families.end()) {
      families.push_back({what, launch.kernel.info().name, 0, 0, 0});
      members.emplace_back();
      it = families.end() - 1;
    }
    members[it - families.begin()].push_back(&launch);
    it->launches += 1;
  }
  // Out of order, the launches leave garbage in the activations (the next
  // step recomputes them), the K and V cache slot at the position, and the
  // token, the history and the position, which topk_final writes: the token
  // and the position are put back.
  int32_t token = 0, position = 0;
  m.token->copyTo(&token, 1, &m.stream);
  m.position->copyTo(&position, 1, &m.stream);
  m.stream.synchronize();
  const double kvBytes = kvBytesPerStep(m.pos + 1) / m.config.blockCount;
  const bool dependent = m.options.dependentLaunch && m.device.backend() == rt::Backend::Cuda &&
                         m.device.computeCapabilityMajor() >= 9;
  auto restore = [&] {
    m.token->copyFrom(&token, 1, &m.stream);
    m.position->copyFrom(&position, 1, &m.stream);
    m.stream.synchronize(); // the copies' sources
  };
  try {
    for (size_t f = 0; f < families.size(); ++f) {
      // A graph of the family's launches `repeats` times over (every layer's
      // before the first again: a layer's weights are not in L2 when its turn
      // comes), replayed once to warm up, then timed.
      rt::Graph graph = rt::Graph::capture(m.stream, [&] {
        rt::LaunchOptions on;
        on.stream = &m.stream;
        for (unsigned r = 0; r < repeats; ++r)
          for (const Launch *launch : members[f]) {
            on.dependentLaunch = dependent && launch->kernel.info().gridDependencyWait;
            launch->kernel.launch(launch->grid, launch->args, on);
          }
      });
      graph.launch(m.stream);
      rt::Event start(m.device), end(m.device);
      start.record(&m.stream);
      graph.launch(m.stream);
      end.record(&m.stream);
      end.synchronize();
      families[f].usPerLaunch =
          rt::Event::elapsedMs(start, end) * 1e3 / (double(repeats) * members[f].size());
      for (const Launch *launch : members[f])
        families[f].bytesPerLaunch += launch->weightBytes + (launch->readsCache ? kvBytes : 0);
      families[f].bytesPerLaunch /= members[f].size();
    }
  } catch (...) {
    // The next step must not run from a profiling launch's token and
    // position: put them back if the device still can, then report.
    try {
      restore();
    } catch (...) {
    }
    throw;
  }
  restore();
  return families;
}
