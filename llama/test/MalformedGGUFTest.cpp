//===- MalformedGGUFTest.cpp - bad files get clear errors -----------------===//
//
// Every file here is broken in one way (truncated, a corrupt count, offset,
// type or dimension, a missing or contradicting key) and must be refused
// with an llk::llama::Error whose message says what is wrong -- never a
// crash, never another exception. The fuzz test flips random bytes of the
// tiny model and demands the same: success or an Error.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "llk/Environment.h"

#include "llvm/Support/Endian.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <random>

using namespace llk::llama;
using namespace llk::llama::test;
namespace endian = llvm::support::endian;

/// Loads `bytes` as a Llama model and tokenizes a little with it; returns
/// the Error's message, or "" if everything was accepted. Any other
/// exception fails the test.
static std::string loadError(const std::string &bytes) {
  try {
    LlamaModelFile model = LlamaModelFile::fromGGUF(parseGGUF(bytes));
    std::vector<int32_t> ids = model.tokenizer().encode("Hello world, \xC3\xA9t\xC3\xA9!");
    model.tokenizer().decode(ids);
    return "";
  } catch (const Error &error) {
    return error.what();
  }
}

#define EXPECT_LOAD_ERROR(bytes, text)                                                        \
  do {                                                                                        \
    std::string message = loadError(bytes);                                                   \
    EXPECT_NE(message, "") << "accepted";                                                     \
    EXPECT_NE(message.find(text), std::string::npos) << "message: " << message;               \
  } while (0)

static void putU32(std::string &bytes, uint64_t at, uint32_t value) {
  endian::write32le(&bytes[at], value);
}
static void putU64(std::string &bytes, uint64_t at, uint64_t value) {
  endian::write64le(&bytes[at], value);
}

class Malformed : public ::testing::Test {
protected:
  void SetUp() override {
    valid = tinyModelBytes();
    ASSERT_EQ(loadError(valid), "");
    parsed.emplace(parseGGUF(valid));
  }
  const GGUFFile &file() const { return *parsed; }
  /// Where metadata entry `key` starts.
  uint64_t entryOffset(llvm::StringRef key) const {
    for (const GGUFMetadataEntry &entry : file().metadata())
      if (entry.key == key)
        return entry.fileOffset;
    ADD_FAILURE() << "no key " << key.str();
    return 0;
  }
  /// Where a scalar entry's value, or an array's element type, starts.
  uint64_t valueOffset(llvm::StringRef key) const {
    return entryOffset(key) + 8 + key.size() + 4;
  }
  /// Where field 0 (n_dims), 1 (ne[0]), 2 (type) or 3 (offset) of tensor
  /// `name`'s entry in the tensor table is.
  uint64_t tensorField(llvm::StringRef name, int field) const {
    const GGUFTensorInfo *tensor = file().findTensor(name);
    uint64_t dims = tensor->infoOffset + 8 + name.size() + 4;
    switch (field) {
    case 0: return tensor->infoOffset + 8 + name.size();
    case 1: return dims;
    case 2: return dims + 8 * tensor->dims.size();
    default: return dims + 8 * tensor->dims.size() + 4;
    }
  }

  std::string valid;
  std::optional<GGUFFile> parsed;
};

TEST_F(Malformed, TruncatedAtEverySectionBoundary) {
  const GGUFFile &f = file();
  std::vector<uint64_t> cuts = {0, 1, 3, 4, 7, 8, 15, 16, 23, 24};
  for (const GGUFMetadataEntry &entry : f.metadata())
    for (uint64_t delta : {0, 1, 8, 9})
      cuts.push_back(entry.fileOffset + delta);
  for (const GGUFTensorInfo &tensor : f.tensors()) {
    cuts.push_back(tensor.infoOffset);
    cuts.push_back(tensor.infoOffset + 5);
    cuts.push_back(f.dataOffset() + tensor.offset);
    cuts.push_back(f.dataOffset() + tensor.offset + tensor.numBytes - 1);
  }
  cuts.push_back(f.dataOffset() - 1);
  cuts.push_back(f.dataOffset());
  for (uint64_t cut : cuts) {
    ASSERT_LT(cut, valid.size());
    std::string message = loadError(valid.substr(0, cut));
    EXPECT_NE(message, "") << "accepted when cut at " << cut;
    bool clear = message.find("truncated") != std::string::npos ||
                 message.find("extends past the end of the file") != std::string::npos ||
                 message.find("not a GGUF file") != std::string::npos;
    EXPECT_TRUE(clear) << "cut at " << cut << ": " << message;
  }
  EXPECT_LOAD_ERROR(valid.substr(0, 30), "truncated or corrupt file: the header's metadata "
                                          "count 20, which needs at least 260 bytes, but 6 "
                                          "remain after offset 24");
  // The last token is "*": 8 bytes of length, 1 of text.
  uint64_t scores = entryOffset("tokenizer.ggml.scores");
  EXPECT_LOAD_ERROR(valid.substr(0, scores - 2),
                    "truncated file: the length of element 383 of key 'tokenizer.ggml.tokens' "
                    "needs 8 bytes at offset " + std::to_string(scores - 9) +
                        ", but the file ends at " + std::to_string(scores - 2));
  EXPECT_LOAD_ERROR(valid.substr(0, f.dataOffset()),
                    "tensor 'token_embd.weight' (98304 bytes at data offset 0");
}

TEST_F(Malformed, TruncatedAtRandomOffsets) {
  std::mt19937_64 rng(1234);
  const GGUFFile &f = file();
  // Cut anywhere before the end of the last tensor's data.
  uint64_t end = 0;
  for (const GGUFTensorInfo &tensor : f.tensors())
    end = std::max(end, f.dataOffset() + tensor.offset + tensor.numBytes);
  for (int i = 0; i < 300; ++i) {
    uint64_t cut = rng() % end;
    EXPECT_NE(loadError(valid.substr(0, cut)), "") << "accepted when cut at " << cut;
  }
  // Only the last tensor's padding may go.
  EXPECT_EQ(loadError(valid.substr(0, end)), "");
}

TEST_F(Malformed, BadMagicAndVersion) {
  EXPECT_LOAD_ERROR("", "test.gguf: not a GGUF file: the magic is [], expected \"GGUF\"");
  std::string bytes = valid;
  bytes[3] = 'L';
  EXPECT_LOAD_ERROR(bytes, "not a GGUF file: the magic is [47 47 55 4C]");
  for (auto [version, text] :
       {std::pair{1u, "unsupported GGUF version 1 (llk reads versions 2 and 3)"},
        std::pair{4u, "unsupported GGUF version 4"},
        std::pair{0x03000000u, "big-endian GGUF files are not supported"}}) {
    bytes = valid;
    putU32(bytes, 4, version);
    EXPECT_LOAD_ERROR(bytes, text);
  }
  bytes = valid;
  putU32(bytes, 4, 2); // version 2 has the same layout
  EXPECT_EQ(loadError(bytes), "");
}

TEST_F(Malformed, HugeCounts) {
  std::string bytes = valid;
  putU64(bytes, 8, 1ull << 60);
  EXPECT_LOAD_ERROR(bytes, "truncated or corrupt file: the header's tensor count "
                           "1152921504606846976, which needs more than 2^64 bytes");
  bytes = valid;
  putU64(bytes, 16, ~0ull);
  EXPECT_LOAD_ERROR(bytes, "the header's metadata count 18446744073709551615, which needs "
                           "more than 2^64 bytes");
  bytes = valid;
  putU64(bytes, valueOffset("tokenizer.ggml.tokens") + 4, 1ull << 62);
  EXPECT_LOAD_ERROR(bytes, "truncated or corrupt file: the string array of key "
                           "'tokenizer.ggml.tokens' has a count of 4611686018427387904, which "
                           "needs more than 2^64 bytes");
  bytes = valid;
  putU64(bytes, valueOffset("tokenizer.ggml.scores") + 4, ~0ull / 2);
  EXPECT_LOAD_ERROR(bytes, "the f32 array of key 'tokenizer.ggml.scores' has a count of");
  // A count the file can hold, but not the vocabulary's.
  bytes = valid;
  putU64(bytes, valueOffset("tokenizer.ggml.scores") + 4, 10);
  EXPECT_LOAD_ERROR(bytes, "");
}

TEST_F(Malformed, StringLengthPastTheEnd) {
  std::string bytes = valid;
  putU64(bytes, 24, 1ull << 40); // the first key's length
  EXPECT_LOAD_ERROR(bytes, "truncated file: the key of metadata entry 0 needs 1099511627776 "
                           "bytes at offset 32");
  bytes = valid;
  putU64(bytes, valueOffset("general.architecture"), ~0ull);
  EXPECT_LOAD_ERROR(bytes, "truncated file: the value of key 'general.architecture' needs "
                           "18446744073709551615 bytes");
  bytes = valid;
  putU64(bytes, file().findTensor("output.weight")->infoOffset, 1ull << 33);
  EXPECT_LOAD_ERROR(bytes, "the name of tensor");
}

TEST_F(Malformed, BadValueTypes) {
  std::string bytes = valid;
  putU32(bytes, valueOffset("llama.block_count") - 4, 13);
  EXPECT_LOAD_ERROR(bytes, "key 'llama.block_count' has unknown value type 13");
  bytes = valid;
  putU32(bytes, valueOffset("tokenizer.ggml.tokens"), 9);
  EXPECT_LOAD_ERROR(bytes, "key 'tokenizer.ggml.tokens' is an array of arrays");
  bytes = valid;
  putU32(bytes, valueOffset("tokenizer.ggml.tokens"), 77);
  EXPECT_LOAD_ERROR(bytes, "key 'tokenizer.ggml.tokens' is an array of unknown value type 77");
  bytes = valid;
  bytes[valueOffset("tokenizer.ggml.add_bos_token")] = 2;
  EXPECT_LOAD_ERROR(bytes, "key 'tokenizer.ggml.add_bos_token' is a bool of value 2");
  // A value of the wrong type for its key: block_count as an f32.
  bytes = valid;
  putU32(bytes, valueOffset("llama.block_count") - 4, 6);
  EXPECT_LOAD_ERROR(bytes, "key 'llama.block_count' has type f32, expected an integer");
}

TEST_F(Malformed, DuplicateKeysAndTensors) {
  // Rename keys and tensors in place to names of the same length.
  std::string bytes = valid;
  ASSERT_EQ(std::string("llama.context_length").size(), std::string("general.architecture").size());
  bytes.replace(entryOffset("llama.context_length") + 8, 20, "general.architecture");
  EXPECT_LOAD_ERROR(bytes, "key 'general.architecture' appears twice");
  bytes = valid;
  bytes.replace(file().findTensor("blk.0.attn_k.weight")->infoOffset + 8, 19,
                "blk.0.attn_q.weight");
  EXPECT_LOAD_ERROR(bytes, "tensor 'blk.0.attn_q.weight' appears twice");
}

TEST_F(Malformed, TensorOffsets) {
  std::string bytes = valid;
  putU64(bytes, tensorField("output.weight", 3), 1ull << 40);
  EXPECT_LOAD_ERROR(bytes, "tensor 'output.weight' (");
  EXPECT_LOAD_ERROR(bytes, ") extends past the end of the file");
  bytes = valid;
  putU64(bytes, tensorField("output.weight", 3), ~0ull & ~31ull);
  EXPECT_LOAD_ERROR(bytes, "extends past the end of the file");
  bytes = valid;
  putU64(bytes, tensorField("blk.1.ffn_up.weight", 3),
         file().findTensor("blk.1.ffn_up.weight")->offset + 4);
  EXPECT_LOAD_ERROR(bytes, "tensor 'blk.1.ffn_up.weight' starts at data offset");
  EXPECT_LOAD_ERROR(bytes, "not a multiple of the alignment 32");
  bytes = valid;
  putU64(bytes, tensorField("blk.1.ffn_up.weight", 3),
         file().findTensor("blk.1.ffn_gate.weight")->offset);
  EXPECT_LOAD_ERROR(bytes, "the data of tensors 'blk.1.ffn_gate.weight' and "
                           "'blk.1.ffn_up.weight' overlap");
}

TEST_F(Malformed, Dimensions) {
  std::string bytes = valid;
  putU64(bytes, tensorField("token_embd.weight", 1), 1ull << 40);
  putU64(bytes, tensorField("token_embd.weight", 1) + 8, 1ull << 40);
  EXPECT_LOAD_ERROR(bytes, "tensor 'token_embd.weight' has dimensions [1099511627776, "
                           "1099511627776] whose element count overflows 64 bits");
  bytes = valid;
  putU64(bytes, tensorField("token_embd.weight", 1), ~0ull);
  EXPECT_LOAD_ERROR(bytes, "overflows 64 bits");
  bytes = valid;
  putU32(bytes, tensorField("token_embd.weight", 0), 5);
  EXPECT_LOAD_ERROR(bytes, "tensor 'token_embd.weight' has 5 dimensions (1 to 4 allowed)");
  bytes = valid;
  putU32(bytes, tensorField("token_embd.weight", 0), 0);
  EXPECT_LOAD_ERROR(bytes, "tensor 'token_embd.weight' has 0 dimensions");
  bytes = valid;
  putU64(bytes, tensorField("output.weight", 1), 48); // q8_0 rows of 48
  EXPECT_LOAD_ERROR(bytes, "tensor 'output.weight' of type q8_0 has rows of 48 elements, not "
                           "a multiple of its block size 32");
  // In-range dimensions that contradict the metadata.
  bytes = valid;
  putU64(bytes, tensorField("blk.0.attn_k.weight", 1) + 8, 16);
  EXPECT_LOAD_ERROR(bytes, "tensor 'blk.0.attn_k.weight' has shape [64, 16], but the llama.* "
                           "keys imply [n_embd, n_embd_kv] = [64, 32]");
}

TEST_F(Malformed, TensorTypes) {
  std::string bytes = valid;
  putU32(bytes, tensorField("blk.0.ffn_down.weight", 2), 99);
  EXPECT_LOAD_ERROR(bytes, "tensor 'blk.0.ffn_down.weight' has unknown ggml type id 99");
  bytes = valid;
  putU32(bytes, tensorField("blk.0.ffn_down.weight", 2), 5); // a removed id
  EXPECT_LOAD_ERROR(bytes, "has unknown ggml type id 5");

  // Types ggml has but llk's kernels do not read.
  for (GGMLType type : {GGMLType::Q4_0, GGMLType::Q5_1, GGMLType::IQ4_NL, GGMLType::I8,
                        GGMLType::F64}) {
    ModelBuilder builder;
    builder.typeOf = [type](const LlamaTensorSpec &spec) {
      if (spec.name == "blk.1.attn_v.weight")
        return type;
      return spec.isNorm() ? GGMLType::F32 : GGMLType::Q8_0;
    };
    EXPECT_LOAD_ERROR(builder.build(), std::string("tensor 'blk.1.attn_v.weight' has type ") +
                                           toString(type) +
                                           ", which llk does not support (f32, f16, bf16 and "
                                           "q8_0 only)");
  }
  // A k-quant's 256-element blocks do not fit the tiny rows of 64.
  bytes = valid;
  putU32(bytes, tensorField("blk.0.ffn_down.weight", 2), static_cast<uint32_t>(GGMLType::Q4_K));
  EXPECT_LOAD_ERROR(bytes, "tensor 'blk.0.ffn_down.weight' of type q4_K has rows of 160 "
                           "elements, not a multiple of its block size 256");
  ModelBuilder builder;
  builder.typeOf = [](const LlamaTensorSpec &spec) {
    return spec.kind == LlamaTensorKind::FfnNorm ? GGMLType::F16 : GGMLType::F32;
  };
  EXPECT_LOAD_ERROR(builder.build(), "tensor 'blk.0.ffn_norm.weight' has type f16: llk reads "
                                     "norm weights in f32 only");
}

//===----------------------------------------------------------------------===//
// Files that are valid GGUF but no Llama model llk can run
//===----------------------------------------------------------------------===//

TEST(MalformedLlama, MissingRequiredKeys) {
  for (const char *key :
       {"general.architecture", "llama.block_count", "llama.embedding_length",
        "llama.feed_forward_length", "llama.attention.head_count", "llama.context_length",
        "llama.attention.layer_norm_rms_epsilon", "tokenizer.ggml.model",
        "tokenizer.ggml.tokens"}) {
    ModelBuilder builder;
    builder.erase(key);
    EXPECT_LOAD_ERROR(builder.build(), std::string("missing required key '") + key + "'");
  }
}

TEST(MalformedLlama, ContradictoryHyperParameters) {
  struct Case {
    const char *key;
    MetaValue value;
    const char *message;
  };
  for (const Case &c : std::vector<Case>{
           {"llama.attention.head_count", uint32_t(5),
            "llama.attention.head_count 5 does not divide llama.embedding_length 64"},
           {"llama.attention.head_count_kv", uint32_t(3),
            "llama.attention.head_count_kv 3 does not divide llama.attention.head_count 4"},
           {"llama.attention.head_count", uint32_t(0), "llama.attention.head_count is 0"},
           {"llama.attention.head_count_kv", uint32_t(0), "llama.attention.head_count_kv is 0"},
           {"llama.block_count", uint32_t(0), "llama.block_count is 0"},
           {"llama.attention.head_count", uint32_t(64),
            "the head dimension 1 is odd: RoPE rotates pairs"},
           {"llama.rope.dimension_count", uint32_t(8),
            "llama.rope.dimension_count 8 differs from the head dimension 16"},
           {"llama.attention.layer_norm_rms_epsilon", -1.0f,
            "llama.attention.layer_norm_rms_epsilon -1.000000 is not a positive number"},
           {"llama.rope.freq_base", NAN, "llama.rope.freq_base nan is not a positive number"},
           {"llama.block_count", uint32_t(1000000),
            "llama.block_count 1000000 needs at least 9000002 tensors, but the file has 21"},
           {"llama.block_count", uint32_t(1), "unexpected tensor 'blk.1.attn_norm.weight'"},
           {"llama.block_count", uint32_t(3),
            "llama.block_count 3 needs at least 29 tensors, but the file has 21"},
           {"llama.feed_forward_length", uint32_t(128),
            "tensor 'blk.0.ffn_gate.weight' has shape [64, 160], but the llama.* keys imply "
            "[n_embd, n_ff] = [64, 128]"},
           {"llama.vocab_size", uint32_t(32000),
            "llama.vocab_size 32000 differs from the 384 tokens"},
           {"llama.expert_count", uint32_t(8), "mixture-of-experts models are not supported"},
           {"llama.rope.scaling.type", std::string("linear"),
            "RoPE scaling 'linear' (llama.rope.scaling.type) is not supported"},
           {"general.architecture", std::string("falcon"),
            "unknown architecture 'falcon' (llk runs 'llama' models)"},
           {"llama.block_count", std::string("2"),
            "key 'llama.block_count' has type string, expected an integer"},
       }) {
    ModelBuilder builder;
    builder.set(c.key, c.value);
    EXPECT_LOAD_ERROR(builder.build(), c.message);
  }
}

TEST(MalformedLlama, TensorTable) {
  ModelBuilder builder;
  builder.tensors.erase(builder.tensors.begin() + 3); // blk.0.attn_k.weight
  EXPECT_LOAD_ERROR(builder.build(), "missing tensor 'blk.0.attn_k.weight'");
  builder = ModelBuilder();
  builder.tensors.push_back({"rope_freqs.weight", LlamaTensorKind::OutputNorm, -1, {8}});
  EXPECT_LOAD_ERROR(builder.build(), "unexpected tensor 'rope_freqs.weight'");
  builder = ModelBuilder();
  builder.tensor("token_embd.weight")->dims = {64, 383};
  EXPECT_LOAD_ERROR(builder.build(), "tensor 'token_embd.weight' has shape [64, 383], but the "
                                     "llama.* keys imply [n_embd, n_vocab] = [64, 384]");
  builder = ModelBuilder();
  builder.tensor("blk.1.ffn_norm.weight")->dims = {64, 1};
  EXPECT_LOAD_ERROR(builder.build(), "tensor 'blk.1.ffn_norm.weight' has shape [64, 1], but "
                                     "the llama.* keys imply [n_embd] = [64]");
}

TEST(MalformedLlama, Tokenizers) {
  ModelBuilder builder;
  builder.set("tokenizer.ggml.model", std::string("gpt2"));
  EXPECT_LOAD_ERROR(builder.build(), "tokenizer model 'gpt2' (byte-level BPE with merges, as "
                                     "Llama 3 uses) is not supported");
  builder.set("tokenizer.ggml.model", std::string("bert"));
  EXPECT_LOAD_ERROR(builder.build(), "unknown tokenizer model 'bert'");

  builder = ModelBuilder();
  builder.set("tokenizer.ggml.scores", std::vector<float>(10));
  EXPECT_LOAD_ERROR(builder.build(), "tokenizer.ggml.scores has 10 scores for 384 tokens");
  builder = ModelBuilder();
  builder.set("tokenizer.ggml.token_type", std::vector<int32_t>(384, 9));
  EXPECT_LOAD_ERROR(builder.build(), "token 0 has unknown token type 9");
  builder = ModelBuilder();
  builder.set("tokenizer.ggml.bos_token_id", uint32_t(384));
  EXPECT_LOAD_ERROR(builder.build(), "key 'tokenizer.ggml.bos_token_id' = 384 is not a token id");
  builder = ModelBuilder();
  auto tokens = std::get<std::vector<std::string>>(builder.value("tokenizer.ggml.tokens"));
  tokens[3 + 0x41] = "<0x4G>";
  builder.set("tokenizer.ggml.tokens", tokens);
  EXPECT_LOAD_ERROR(builder.build(), "test.gguf: byte token 68 is spelled '<0x4G>', not <0xNN>");
}

//===----------------------------------------------------------------------===//
// Fuzzing
//===----------------------------------------------------------------------===//

TEST_F(Malformed, RandomByteFlips) {
  std::mt19937_64 rng(20260201);
  const GGUFFile &f = file();
  uint64_t metadataEnd = f.dataOffset();
  // LLK_FUZZ_ITERATIONS: a longer run (under a sanitizer, say).
  std::optional<std::string> iterations = llk::env::get(llk::env::Knob::FuzzIterations);
  int count = iterations ? std::atoi(iterations->c_str()) : 3000;
  int accepted = 0, refused = 0;
  for (int i = 0; i < count; ++i) {
    std::string bytes = valid;
    int flips = 1 + rng() % 4;
    for (int k = 0; k < flips; ++k) {
      // Mostly the header, metadata and tensor table, where bytes are
      // interpreted; sometimes the data.
      uint64_t at = rng() % 8 ? rng() % metadataEnd : rng() % bytes.size();
      bytes[at] = static_cast<char>(rng() % 4 ? bytes[at] ^ (1 << (rng() % 8)) : rng());
    }
    (loadError(bytes).empty() ? accepted : refused) += 1;
  }
  // Most flips land in the vocabulary's strings and scores, which stay
  // valid; the rest must have been refused cleanly (loadError fails the
  // test on anything but an Error).
  EXPECT_GT(refused, count / 30);
  EXPECT_GT(accepted, count / 30);
  RecordProperty("accepted", accepted);
  RecordProperty("refused", refused);
}
