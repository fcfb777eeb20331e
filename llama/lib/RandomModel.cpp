//===- RandomModel.cpp - write Llama GGUF files with random weights --------===//

#include "llk/llama/RandomModel.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

using namespace llk::llama;
using llvm::StringRef;

std::optional<ModelShape> llk::llama::parseModelShape(StringRef name) {
  return llvm::StringSwitch<std::optional<ModelShape>>(name.lower())
      .Case("tiny", ModelShape::Tiny)
      .Case("tinyllama", ModelShape::TinyLlama)
      .Case("7b", ModelShape::Llama2_7B)
      .Case("13b", ModelShape::Llama2_13B)
      .Default(std::nullopt);
}

LlamaConfig llk::llama::configFor(ModelShape shape) {
  LlamaConfig c;
  c.ropeFreqBase = 10000.0f;
  c.rmsEpsilon = 1e-5f;
  c.vocabSize = 32000;
  switch (shape) {
  case ModelShape::Tiny:
    c.blockCount = 2, c.embeddingLength = 64, c.headCount = 4, c.headCountKV = 2;
    c.feedForwardLength = 160, c.contextLength = 256, c.vocabSize = 384;
    break;
  case ModelShape::TinyLlama: // TinyLlama-1.1B
    c.blockCount = 22, c.embeddingLength = 2048, c.headCount = 32, c.headCountKV = 4;
    c.feedForwardLength = 5632, c.contextLength = 2048;
    break;
  case ModelShape::Llama2_7B:
    c.blockCount = 32, c.embeddingLength = 4096, c.headCount = 32, c.headCountKV = 32;
    c.feedForwardLength = 11008, c.contextLength = 4096;
    break;
  case ModelShape::Llama2_13B:
    c.blockCount = 40, c.embeddingLength = 5120, c.headCount = 40, c.headCountKV = 40;
    c.feedForwardLength = 13824, c.contextLength = 4096;
    break;
  }
  c.ropeDimensionCount = c.headDim();
  return c;
}

std::optional<WeightFormat> llk::llama::parseWeightFormat(StringRef name) {
  return llvm::StringSwitch<std::optional<WeightFormat>>(name.lower())
      .Case("f32", WeightFormat::F32)
      .Case("f16", WeightFormat::F16)
      .Case("bf16", WeightFormat::BF16)
      .Case("q8_0", WeightFormat::Q8_0)
      .Case("mixed", WeightFormat::Mixed)
      .Default(std::nullopt);
}

RandomModelOptions llk::llama::randomModelOptions(ModelShape shape, uint64_t seed) {
  RandomModelOptions options;
  options.config = configFor(shape);
  options.format = shape == ModelShape::Tiny ? WeightFormat::Mixed : WeightFormat::Q8_0;
  options.seed = seed;
  return options;
}

//===----------------------------------------------------------------------===//
// The synthetic vocabulary
//===----------------------------------------------------------------------===//

static const char kSpace[] = "\xE2\x96\x81";
static const char kLetters[] = "abcdefghijklmnopqrstuvwxyz";
static const char kOtherCharacters[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?;:'\"-()[]/&%*";

Vocabulary llk::llama::syntheticVocabulary(uint32_t size) {
  std::vector<std::string> characters = {kSpace};
  for (const char *c = kLetters; *c; ++c)
    characters.push_back(std::string(1, *c));
  for (const char *c = kOtherCharacters; *c; ++c)
    characters.push_back(std::string(1, *c));
  uint32_t fixed = 3 + 256 + static_cast<uint32_t>(characters.size());
  if (size < fixed)
    throw Error("a synthetic vocabulary needs at least " + std::to_string(fixed) + " tokens");

  // Merges: the strings of 2, 3, ... letters, each with and without a
  // leading '▁'; the left part of each is a piece of the round before.
  std::vector<std::string> merged;
  std::vector<std::string> round = {""};
  while (merged.size() < size - fixed) {
    std::vector<std::string> next;
    for (const std::string &stem : round)
      for (const char *c = kLetters; *c; ++c)
        next.push_back(stem + *c);
    for (const std::string &piece : next)
      if (merged.size() < size - fixed)
        merged.push_back(kSpace + piece);
    for (const std::string &piece : next) // single letters are characters
      if (piece.size() >= 2 && merged.size() < size - fixed)
        merged.push_back(piece);
    round = std::move(next);
  }

  Vocabulary v;
  auto add = [&](std::string piece, float score, TokenType type) {
    v.pieces.push_back(std::move(piece));
    v.scores.push_back(score);
    v.types.push_back(type);
  };
  add("<unk>", 0, TokenType::Unknown);
  add("<s>", 0, TokenType::Control);
  add("</s>", 0, TokenType::Control);
  for (unsigned byte = 0; byte < 256; ++byte) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", byte);
    add(name, 0, TokenType::Byte);
  }
  for (size_t i = 0; i < merged.size(); ++i)
    add(merged[i], -static_cast<float>(i), TokenType::Normal);
  for (size_t i = 0; i < characters.size(); ++i)
    add(characters[i], -static_cast<float>(merged.size() + i), TokenType::Normal);
  v.unknownId = 0, v.bosId = 1, v.eosId = 2;
  v.addBos = true, v.addEos = false, v.addSpacePrefix = true;
  return v;
}

//===----------------------------------------------------------------------===//
// Weights
//===----------------------------------------------------------------------===//

namespace {
/// SplitMix64: fast, and good enough for random weights.
struct Random {
  static constexpr uint64_t kIncrement = 0x9e3779b97f4a7c15ull;
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += kIncrement);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};
} // namespace

static GGMLType typeFor(const LlamaTensorSpec &spec, WeightFormat format) {
  if (spec.isNorm())
    return GGMLType::F32;
  switch (format) {
  case WeightFormat::F32: return GGMLType::F32;
  case WeightFormat::F16: return GGMLType::F16;
  case WeightFormat::BF16: return GGMLType::BF16;
  case WeightFormat::Q8_0: return GGMLType::Q8_0;
  case WeightFormat::Mixed:
    if (spec.kind == LlamaTensorKind::TokenEmbedding)
      return GGMLType::F32;
    if (spec.kind == LlamaTensorKind::Output)
      return GGMLType::Q8_0;
    return spec.layer % 2 == 0 ? GGMLType::Q8_0 : GGMLType::F32;
  }
  return GGMLType::F32;
}

/// The bytes of values [first, first + n) of a tensor of values uniform in
/// [center - scale, center + scale] as `type`, two values a draw of `random`
/// (the tensor's stream advanced to `first`).
static std::vector<uint8_t> randomChunk(GGMLType type, uint64_t n, float center, float scale,
                                        Random random) {
  std::vector<float> values(n);
  for (uint64_t i = 0; i < n; i += 2) {
    uint64_t bits = random.next();
    values[i] = center + scale * static_cast<int32_t>(bits >> 32) * 0x1p-31f;
    if (i + 1 < n)
      values[i + 1] = center + scale * static_cast<int32_t>(bits) * 0x1p-31f;
  }
  std::vector<uint8_t> bytes;
  switch (type) {
  case GGMLType::Q8_0:
    bytes.resize(n / kQ8_0BlockSize * kQ8_0BlockBytes);
    quantizeQ8_0(values, bytes);
    break;
  case GGMLType::F16:
  case GGMLType::BF16:
    bytes.resize(2 * n);
    for (uint64_t i = 0; i < n; ++i)
      llvm::support::endian::write16le(
          &bytes[2 * i], type == GGMLType::F16 ? floatToHalf(values[i])
                                               : floatToBFloat16(values[i]));
    break;
  default: {
    bytes.resize(4 * n);
    for (uint64_t i = 0; i < n; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &values[i], sizeof bits);
      llvm::support::endian::write32le(&bytes[4 * i], bits);
    }
    break;
  }
  }
  return bytes;
}

/// Writes `count` values uniform in [center - scale, center + scale] as
/// `type`, chunk by chunk: the chunks of a round on the host's cores, each
/// from the stream's state at its first value (SplitMix64 advances by a
/// constant a draw), so the bytes are the same on any number of cores.
static void writeRandomTensor(GGUFWriter &writer, GGMLType type, uint64_t count,
                              float center, float scale, Random random) {
  constexpr uint64_t kChunk = 1 << 16; // a multiple of the q8_0 block, even
  if (type == GGMLType::Q8_0 && count % kQ8_0BlockSize)
    throw Error("random model: " + std::to_string(count) + " values are no whole q8_0 blocks");
  const uint64_t chunks = (count + kChunk - 1) / kChunk;
  const uint64_t workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  const uint64_t perRound = workers * 16;
  std::vector<std::vector<uint8_t>> bytes(std::min(chunks, perRound));
  for (uint64_t first = 0; first < chunks; first += perRound) {
    const uint64_t round = std::min(perRound, chunks - first);
    auto work = [&](uint64_t worker) {
      for (uint64_t c = worker; c < round; c += workers) {
        uint64_t start = (first + c) * kChunk;
        Random at{random.state + start / 2 * Random::kIncrement};
        bytes[c] = randomChunk(type, std::min(kChunk, count - start), center, scale, at);
      }
    };
    if (round == 1) {
      work(0);
    } else {
      std::vector<std::thread> threads;
      for (uint64_t w = 1; w < std::min(workers, round); ++w)
        threads.emplace_back(work, w);
      work(0);
      for (std::thread &t : threads)
        t.join();
    }
    for (uint64_t c = 0; c < round; ++c)
      writer.writeTensorData(bytes[c]);
  }
}

void llk::llama::writeRandomModel(llvm::raw_ostream &os, const RandomModelOptions &options) {
  const LlamaConfig &c = options.config;
  if (std::optional<std::string> problem = c.problem())
    throw Error("random model: " + *problem);
  Vocabulary vocab = syntheticVocabulary(c.vocabSize);

  GGUFWriter writer;
  writer.addString("general.architecture", "llama");
  writer.addString("general.name", "llk random weights");
  writer.addUInt32("llama.context_length", c.contextLength);
  writer.addUInt32("llama.embedding_length", c.embeddingLength);
  writer.addUInt32("llama.block_count", c.blockCount);
  writer.addUInt32("llama.feed_forward_length", c.feedForwardLength);
  writer.addUInt32("llama.rope.dimension_count", c.ropeDimensionCount);
  writer.addUInt32("llama.attention.head_count", c.headCount);
  writer.addUInt32("llama.attention.head_count_kv", c.headCountKV);
  writer.addFloat32("llama.attention.layer_norm_rms_epsilon", c.rmsEpsilon);
  writer.addFloat32("llama.rope.freq_base", c.ropeFreqBase);
  writer.addString("tokenizer.ggml.model", "llama");
  writer.addStringArray("tokenizer.ggml.tokens", vocab.pieces);
  writer.addFloat32Array("tokenizer.ggml.scores", vocab.scores);
  std::vector<int32_t> types;
  for (TokenType type : vocab.types)
    types.push_back(static_cast<int32_t>(type));
  writer.addInt32Array("tokenizer.ggml.token_type", types);
  writer.addUInt32("tokenizer.ggml.unknown_token_id", vocab.unknownId);
  writer.addUInt32("tokenizer.ggml.bos_token_id", vocab.bosId);
  writer.addUInt32("tokenizer.ggml.eos_token_id", vocab.eosId);
  writer.addBool("tokenizer.ggml.add_bos_token", vocab.addBos);
  writer.addBool("tokenizer.ggml.add_eos_token", vocab.addEos);

  std::vector<LlamaTensorSpec> specs = llamaTensorSpecs(c);
  for (const LlamaTensorSpec &spec : specs)
    writer.addTensor(spec.name, spec.dims, typeFor(spec, options.format));
  writer.writeHeader(os);
  Random seeds{options.seed};
  for (const LlamaTensorSpec &spec : specs) {
    uint64_t count = 1;
    for (uint64_t dim : spec.dims)
      count *= dim;
    float center = spec.isNorm() ? 1.0f : 0.0f;
    float scale = spec.isNorm() ? 0.1f : 1.0f / std::sqrt(static_cast<float>(spec.dims[0]));
    writeRandomTensor(writer, typeFor(spec, options.format), count, center, scale,
                      Random{seeds.next()});
  }
  writer.finish();
}

void llk::llama::writeRandomModelFile(StringRef path, const RandomModelOptions &options) {
  std::string partial = (path + ".partial").str();
  std::error_code ec;
  llvm::raw_fd_ostream os(partial, ec);
  if (ec)
    throw Error(partial + ": cannot create: " + ec.message());
  try {
    writeRandomModel(os, options);
  } catch (...) {
    os.close();
    os.clear_error(); // else raw_fd_ostream's destructor aborts
    llvm::sys::fs::remove(partial);
    throw;
  }
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    llvm::sys::fs::remove(partial);
    throw Error(partial + ": write failed: " + message);
  }
  if (std::error_code rename = llvm::sys::fs::rename(partial, path))
    throw Error(path.str() + ": cannot rename " + partial + ": " + rename.message());
}
