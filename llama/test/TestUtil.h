//===- TestUtil.h - GGUF files for the LLKLlama tests ---------------*- C++ -*-===//
//
// Files in memory: the tiny random model, and ModelBuilder, a Llama file
// whose metadata and tensor table a test edits before building it (a key
// removed, a shape changed, a tensor of another type), written with zeroed
// tensor data. The keys are spelled out here rather than taken from the
// library, so that the tests also check the names the reader expects.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LLAMA_TEST_TESTUTIL_H
#define LLK_LLAMA_TEST_TESTUTIL_H

#include "llk/llama/GGUF.h"
#include "llk/llama/ModelConfig.h"
#include "llk/llama/RandomModel.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace llk::llama::test {

inline GGUFFile parseGGUF(const std::string &bytes) {
  return GGUFFile::fromBuffer(llvm::MemoryBuffer::getMemBufferCopy(bytes, "test.gguf"),
                              "test.gguf");
}

inline std::string tinyModelBytes(uint64_t seed = 1, WeightFormat format = WeightFormat::Mixed) {
  RandomModelOptions options = randomModelOptions(ModelShape::Tiny, seed);
  options.format = format;
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  writeRandomModel(os, options);
  os.flush();
  return bytes;
}

using MetaValue = std::variant<uint32_t, float, bool, std::string, std::vector<std::string>,
                               std::vector<float>, std::vector<int32_t>>;

struct ModelBuilder {
  LlamaConfig config = configFor(ModelShape::Tiny);
  std::vector<std::pair<std::string, MetaValue>> metadata;
  std::vector<LlamaTensorSpec> tensors;
  std::function<GGMLType(const LlamaTensorSpec &)> typeOf = [](const LlamaTensorSpec &spec) {
    return spec.isNorm() ? GGMLType::F32 : GGMLType::Q8_0;
  };
  /// A tensor's data (`bytes` of them); zeros unless set.
  std::function<std::vector<uint8_t>(const LlamaTensorSpec &, uint64_t bytes)> dataOf =
      [](const LlamaTensorSpec &, uint64_t bytes) { return std::vector<uint8_t>(bytes, 0); };

  ModelBuilder() {
    const LlamaConfig &c = config;
    Vocabulary vocab = syntheticVocabulary(c.vocabSize);
    std::vector<int32_t> types;
    for (TokenType type : vocab.types)
      types.push_back(static_cast<int32_t>(type));
    metadata = {
        {"general.architecture", std::string("llama")},
        {"llama.context_length", c.contextLength},
        {"llama.embedding_length", c.embeddingLength},
        {"llama.block_count", c.blockCount},
        {"llama.feed_forward_length", c.feedForwardLength},
        {"llama.rope.dimension_count", c.ropeDimensionCount},
        {"llama.attention.head_count", c.headCount},
        {"llama.attention.head_count_kv", c.headCountKV},
        {"llama.attention.layer_norm_rms_epsilon", c.rmsEpsilon},
        {"llama.rope.freq_base", c.ropeFreqBase},
        {"tokenizer.ggml.model", std::string("llama")},
        {"tokenizer.ggml.tokens", vocab.pieces},
        {"tokenizer.ggml.scores", vocab.scores},
        {"tokenizer.ggml.token_type", types},
        {"tokenizer.ggml.bos_token_id", uint32_t(1)},
        {"tokenizer.ggml.eos_token_id", uint32_t(2)},
        {"tokenizer.ggml.unknown_token_id", uint32_t(0)},
    };
    tensors = llamaTensorSpecs(c);
  }

  void set(const std::string &key, MetaValue value) {
    for (auto &entry : metadata)
      if (entry.first == key) {
        entry.second = std::move(value);
        return;
      }
    metadata.emplace_back(key, std::move(value));
  }
  MetaValue &value(const std::string &key) {
    for (auto &entry : metadata)
      if (entry.first == key)
        return entry.second;
    throw Error("ModelBuilder: no key " + key);
  }
  void erase(const std::string &key) {
    metadata.erase(std::remove_if(metadata.begin(), metadata.end(),
                                  [&](const auto &entry) { return entry.first == key; }),
                   metadata.end());
  }
  LlamaTensorSpec *tensor(const std::string &name) {
    for (LlamaTensorSpec &spec : tensors)
      if (spec.name == name)
        return &spec;
    return nullptr;
  }

  std::string build() const {
    GGUFWriter writer;
    for (const auto &[key, value] : metadata) {
      if (auto *v = std::get_if<uint32_t>(&value)) writer.addUInt32(key, *v);
      else if (auto *v = std::get_if<float>(&value)) writer.addFloat32(key, *v);
      else if (auto *v = std::get_if<bool>(&value)) writer.addBool(key, *v);
      else if (auto *v = std::get_if<std::string>(&value)) writer.addString(key, *v);
      else if (auto *v = std::get_if<std::vector<std::string>>(&value)) writer.addStringArray(key, *v);
      else if (auto *v = std::get_if<std::vector<float>>(&value)) writer.addFloat32Array(key, *v);
      else writer.addInt32Array(key, std::get<std::vector<int32_t>>(value));
    }
    std::vector<uint64_t> sizes;
    for (const LlamaTensorSpec &spec : tensors)
      sizes.push_back(writer.addTensor(spec.name, spec.dims, typeOf(spec)));
    std::string bytes;
    llvm::raw_string_ostream os(bytes);
    writer.writeHeader(os);
    for (size_t i = 0; i < tensors.size(); ++i)
      writer.writeTensorData(dataOf(tensors[i], sizes[i]));
    writer.finish();
    return bytes;
  }
};

} // namespace llk::llama::test

#endif // LLK_LLAMA_TEST_TESTUTIL_H
