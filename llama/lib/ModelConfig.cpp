//===- ModelConfig.cpp - check a GGUF file as a Llama model ----------------===//

#include "llk/llama/ModelConfig.h"

#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace llk::llama;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// LlamaConfig
//===----------------------------------------------------------------------===//

std::optional<std::string> LlamaConfig::problem() const {
  auto positive = [](uint32_t value, const char *key) -> std::optional<std::string> {
    if (value == 0)
      return std::string(key) + " is 0";
    return std::nullopt;
  };
  for (auto [value, key] : {std::pair{blockCount, "llama.block_count"},
                            std::pair{embeddingLength, "llama.embedding_length"},
                            std::pair{feedForwardLength, "llama.feed_forward_length"},
                            std::pair{headCount, "llama.attention.head_count"},
                            std::pair{headCountKV, "llama.attention.head_count_kv"},
                            std::pair{contextLength, "llama.context_length"},
                            std::pair{vocabSize, "the vocabulary size"}})
    if (auto p = positive(value, key))
      return p;
  if (embeddingLength % headCount != 0)
    return "llama.attention.head_count " + std::to_string(headCount) +
           " does not divide llama.embedding_length " + std::to_string(embeddingLength);
  if (headCount % headCountKV != 0)
    return "llama.attention.head_count_kv " + std::to_string(headCountKV) +
           " does not divide llama.attention.head_count " + std::to_string(headCount);
  if (headDim() % 2 != 0)
    return "the head dimension " + std::to_string(headDim()) +
           " is odd: RoPE rotates pairs of elements";
  if (ropeDimensionCount != headDim())
    return "llama.rope.dimension_count " + std::to_string(ropeDimensionCount) +
           " differs from the head dimension " + std::to_string(headDim()) +
           ": llk rotates whole heads";
  if (!(rmsEpsilon > 0) || !std::isfinite(rmsEpsilon))
    return "llama.attention.layer_norm_rms_epsilon " + std::to_string(rmsEpsilon) +
           " is not a positive number";
  if (!(ropeFreqBase > 0) || !std::isfinite(ropeFreqBase))
    return "llama.rope.freq_base " + std::to_string(ropeFreqBase) +
           " is not a positive number";
  return std::nullopt;
}

LlamaConfig LlamaConfig::fromGGUF(const GGUFFile &file) {
  std::optional<StringRef> architecture = file.getString("general.architecture");
  if (!architecture)
    file.fail("missing required key 'general.architecture'");
  if (*architecture != "llama")
    file.fail("unknown architecture '" + architecture->str() + "' (llk runs 'llama' models)");

  auto required = [&](StringRef key) {
    std::optional<uint32_t> value = file.getUInt32(key);
    if (!value)
      file.fail("missing required key '" + key.str() + "'");
    return *value;
  };
  LlamaConfig config;
  config.blockCount = required("llama.block_count");
  config.embeddingLength = required("llama.embedding_length");
  config.feedForwardLength = required("llama.feed_forward_length");
  config.headCount = required("llama.attention.head_count");
  config.contextLength = required("llama.context_length");
  config.headCountKV = file.getUInt32("llama.attention.head_count_kv").value_or(config.headCount);
  std::optional<double> epsilon = file.getFloat("llama.attention.layer_norm_rms_epsilon");
  if (!epsilon)
    file.fail("missing required key 'llama.attention.layer_norm_rms_epsilon'");
  config.rmsEpsilon = static_cast<float>(*epsilon);
  config.ropeFreqBase = static_cast<float>(file.getFloat("llama.rope.freq_base").value_or(10000.0));

  // Variants of the architecture that compute something else.
  if (std::optional<uint32_t> experts = file.getUInt32("llama.expert_count"); experts && *experts)
    file.fail("llama.expert_count is " + std::to_string(*experts) +
              ": mixture-of-experts models are not supported");
  if (std::optional<StringRef> scaling = file.getString("llama.rope.scaling.type");
      scaling && *scaling != "none")
    file.fail("RoPE scaling '" + scaling->str() + "' (llama.rope.scaling.type) is not supported");

  std::optional<std::vector<StringRef>> tokens = file.getStringArray("tokenizer.ggml.tokens");
  if (!tokens)
    file.fail("missing required key 'tokenizer.ggml.tokens'");
  if (tokens->size() > UINT32_MAX)
    file.fail("tokenizer.ggml.tokens has too many tokens");
  config.vocabSize = static_cast<uint32_t>(tokens->size());
  if (std::optional<uint32_t> vocabSize = file.getUInt32("llama.vocab_size");
      vocabSize && *vocabSize != config.vocabSize)
    file.fail("llama.vocab_size " + std::to_string(*vocabSize) + " differs from the " +
              std::to_string(config.vocabSize) + " tokens of tokenizer.ggml.tokens");

  // The head dimension is only defined once head_count is known non-zero.
  if (config.headCount && config.embeddingLength % config.headCount == 0)
    config.ropeDimensionCount =
        file.getUInt32("llama.rope.dimension_count").value_or(config.headDim());
  else
    config.ropeDimensionCount = file.getUInt32("llama.rope.dimension_count").value_or(0);
  if (std::optional<std::string> problem = config.problem())
    file.fail(*problem);
  return config;
}

//===----------------------------------------------------------------------===//
// The tensor table
//===----------------------------------------------------------------------===//

bool LlamaTensorSpec::isNorm() const {
  return kind == LlamaTensorKind::AttnNorm || kind == LlamaTensorKind::FfnNorm ||
         kind == LlamaTensorKind::OutputNorm;
}

std::vector<LlamaTensorSpec> llk::llama::llamaTensorSpecs(const LlamaConfig &c) {
  uint64_t embd = c.embeddingLength, kv = c.kvEmbeddingLength(), ff = c.feedForwardLength,
           vocab = c.vocabSize;
  std::vector<LlamaTensorSpec> specs;
  specs.push_back({"token_embd.weight", LlamaTensorKind::TokenEmbedding, -1, {embd, vocab}});
  for (uint32_t layer = 0; layer < c.blockCount; ++layer) {
    std::string prefix = "blk." + std::to_string(layer) + ".";
    int l = static_cast<int>(layer);
    specs.push_back({prefix + "attn_norm.weight", LlamaTensorKind::AttnNorm, l, {embd}});
    specs.push_back({prefix + "attn_q.weight", LlamaTensorKind::AttnQ, l, {embd, embd}});
    specs.push_back({prefix + "attn_k.weight", LlamaTensorKind::AttnK, l, {embd, kv}});
    specs.push_back({prefix + "attn_v.weight", LlamaTensorKind::AttnV, l, {embd, kv}});
    specs.push_back({prefix + "attn_output.weight", LlamaTensorKind::AttnOutput, l, {embd, embd}});
    specs.push_back({prefix + "ffn_norm.weight", LlamaTensorKind::FfnNorm, l, {embd}});
    specs.push_back({prefix + "ffn_gate.weight", LlamaTensorKind::FfnGate, l, {embd, ff}});
    specs.push_back({prefix + "ffn_up.weight", LlamaTensorKind::FfnUp, l, {embd, ff}});
    specs.push_back({prefix + "ffn_down.weight", LlamaTensorKind::FfnDown, l, {ff, embd}});
  }
  specs.push_back({"output_norm.weight", LlamaTensorKind::OutputNorm, -1, {embd}});
  specs.push_back({"output.weight", LlamaTensorKind::Output, -1, {embd, vocab}});
  return specs;
}

/// The shape a tensor of `kind` has, in the keys' names, for messages.
static const char *symbolicShape(LlamaTensorKind kind) {
  switch (kind) {
  case LlamaTensorKind::TokenEmbedding:
  case LlamaTensorKind::Output: return "[n_embd, n_vocab]";
  case LlamaTensorKind::AttnNorm:
  case LlamaTensorKind::FfnNorm:
  case LlamaTensorKind::OutputNorm: return "[n_embd]";
  case LlamaTensorKind::AttnQ:
  case LlamaTensorKind::AttnOutput: return "[n_embd, n_embd]";
  case LlamaTensorKind::AttnK:
  case LlamaTensorKind::AttnV: return "[n_embd, n_embd_kv]";
  case LlamaTensorKind::FfnGate:
  case LlamaTensorKind::FfnUp: return "[n_embd, n_ff]";
  case LlamaTensorKind::FfnDown: return "[n_ff, n_embd]";
  }
  return "";
}

LlamaTensors LlamaTensors::fromGGUF(const GGUFFile &file, const LlamaConfig &config) {
  // Bound block_count by the tensors there are before building the table.
  uint64_t minimum = uint64_t(config.blockCount) * 9 + 2; // output.weight may be tied
  if (minimum > file.tensors().size())
    file.fail("llama.block_count " + std::to_string(config.blockCount) + " needs at least " +
              std::to_string(minimum) + " tensors, but the file has " +
              std::to_string(file.tensors().size()));

  LlamaTensors table;
  table.layers.resize(config.blockCount);
  llvm::StringSet<> expected;
  for (const LlamaTensorSpec &spec : llamaTensorSpecs(config)) {
    expected.insert(spec.name);
    const GGUFTensorInfo *tensor = file.findTensor(spec.name);
    if (!tensor && spec.kind == LlamaTensorKind::Output) {
      table.output = table.tokenEmbedding; // tied embeddings
      continue;
    }
    if (!tensor)
      file.fail("missing tensor '" + spec.name + "'");
    if (llvm::ArrayRef<uint64_t>(tensor->dims) != llvm::ArrayRef<uint64_t>(spec.dims)) {
      GGUFTensorInfo expectedShape = *tensor;
      expectedShape.dims.assign(spec.dims.begin(), spec.dims.end());
      file.fail("tensor '" + spec.name + "' has shape " + tensor->shapeString() +
                ", but the llama.* keys imply " + symbolicShape(spec.kind) + " = " +
                expectedShape.shapeString() + " (n_embd " +
                std::to_string(config.embeddingLength) + ", n_embd_kv " +
                std::to_string(config.kvEmbeddingLength()) + ", n_ff " +
                std::to_string(config.feedForwardLength) + ", n_vocab " +
                std::to_string(config.vocabSize) + ")");
    }
    if (spec.isNorm() && tensor->type != GGMLType::F32)
      file.fail("tensor '" + spec.name + "' has type " + toString(tensor->type) +
                ": llk reads norm weights in f32 only");
    if (!isSupportedWeightType(tensor->type))
      file.fail("tensor '" + spec.name + "' has type " + toString(tensor->type) +
                ", which llk does not support (f32, f16, bf16 and q8_0 only)");

    LlamaLayerTensors *layer = spec.layer >= 0 ? &table.layers[spec.layer] : nullptr;
    switch (spec.kind) {
    case LlamaTensorKind::TokenEmbedding: table.tokenEmbedding = tensor; break;
    case LlamaTensorKind::OutputNorm: table.outputNorm = tensor; break;
    case LlamaTensorKind::Output: table.output = tensor; break;
    case LlamaTensorKind::AttnNorm: layer->attnNorm = tensor; break;
    case LlamaTensorKind::AttnQ: layer->attnQ = tensor; break;
    case LlamaTensorKind::AttnK: layer->attnK = tensor; break;
    case LlamaTensorKind::AttnV: layer->attnV = tensor; break;
    case LlamaTensorKind::AttnOutput: layer->attnOutput = tensor; break;
    case LlamaTensorKind::FfnNorm: layer->ffnNorm = tensor; break;
    case LlamaTensorKind::FfnGate: layer->ffnGate = tensor; break;
    case LlamaTensorKind::FfnUp: layer->ffnUp = tensor; break;
    case LlamaTensorKind::FfnDown: layer->ffnDown = tensor; break;
    }
  }
  for (const GGUFTensorInfo &tensor : file.tensors())
    if (!expected.contains(tensor.name))
      file.fail("unexpected tensor '" + tensor.name.str() +
                "': not part of a Llama model of llama.block_count " +
                std::to_string(config.blockCount));
  return table;
}

//===----------------------------------------------------------------------===//
// LlamaModelFile
//===----------------------------------------------------------------------===//

LlamaModelFile LlamaModelFile::open(StringRef path) { return fromGGUF(GGUFFile::open(path)); }

LlamaModelFile LlamaModelFile::fromGGUF(GGUFFile file) {
  LlamaModelFile model;
  model.file_ = std::make_unique<GGUFFile>(std::move(file));
  model.config_ = LlamaConfig::fromGGUF(*model.file_);
  model.tokenizer_ = std::make_unique<Tokenizer>(Tokenizer::fromGGUF(*model.file_));
  model.tensors_ = LlamaTensors::fromGGUF(*model.file_, model.config_);
  return model;
}
