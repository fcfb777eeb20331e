//===- ModelConfigTest.cpp - Llama files read as models -------------------===//

#include "TestUtil.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace llk::llama;
using namespace llk::llama::test;

TEST(LlamaModel, TinyModel) {
  LlamaModelFile model = LlamaModelFile::fromGGUF(parseGGUF(tinyModelBytes()));
  const LlamaConfig &c = model.config();
  EXPECT_EQ(c.blockCount, 2u);
  EXPECT_EQ(c.embeddingLength, 64u);
  EXPECT_EQ(c.headCount, 4u);
  EXPECT_EQ(c.headCountKV, 2u);
  EXPECT_EQ(c.headDim(), 16u);
  EXPECT_EQ(c.kvEmbeddingLength(), 32u);
  EXPECT_EQ(c.feedForwardLength, 160u);
  EXPECT_EQ(c.contextLength, 256u);
  EXPECT_EQ(c.vocabSize, 384u);
  EXPECT_EQ(c.ropeDimensionCount, 16u);
  EXPECT_FLOAT_EQ(c.rmsEpsilon, 1e-5f);
  EXPECT_FLOAT_EQ(c.ropeFreqBase, 10000.0f);

  const LlamaTensors &t = model.tensors();
  ASSERT_EQ(t.layers.size(), 2u);
  EXPECT_EQ(t.tokenEmbedding->name, "token_embd.weight");
  EXPECT_EQ(t.tokenEmbedding->type, GGMLType::F32);
  EXPECT_EQ(t.output->type, GGMLType::Q8_0);
  EXPECT_EQ(t.layers[0].attnK->shapeString(), "[64, 32]");
  EXPECT_EQ(t.layers[0].attnK->type, GGMLType::Q8_0);
  EXPECT_EQ(t.layers[1].attnK->type, GGMLType::F32);
  EXPECT_EQ(t.layers[1].ffnDown->shapeString(), "[160, 64]");
  EXPECT_EQ(t.layers[1].ffnNorm->type, GGMLType::F32);
  EXPECT_EQ(model.tokenizer().size(), 384u);
  EXPECT_TRUE(model.tokenizer().hasByteFallback());

  // The weights are what the generator promised: norms in 1 +- 0.1,
  // matrices in +- 1/sqrt(n_in) (q8_0 rounding adds at most half a step).
  std::vector<float> norm(64);
  dequantize(GGMLType::F32, t.layers[0].attnNorm->data, 64, norm.data());
  for (float v : norm)
    EXPECT_TRUE(v >= 0.9f && v <= 1.1f) << v;
  const GGUFTensorInfo *wq = t.layers[0].attnQ;
  std::vector<float> q(wq->numElements);
  dequantize(wq->type, wq->data, wq->numElements, q.data());
  float bound = 1.0f / std::sqrt(64.0f), amax = 0;
  for (float v : q)
    amax = std::max(amax, std::fabs(v));
  EXPECT_LE(amax, bound * 1.01f);
  EXPECT_GT(amax, bound * 0.9f);
}

TEST(LlamaModel, WeightFormats) {
  for (auto [format, type] : {std::pair{WeightFormat::F32, GGMLType::F32},
                              std::pair{WeightFormat::F16, GGMLType::F16},
                              std::pair{WeightFormat::BF16, GGMLType::BF16},
                              std::pair{WeightFormat::Q8_0, GGMLType::Q8_0}}) {
    LlamaModelFile model = LlamaModelFile::fromGGUF(parseGGUF(tinyModelBytes(1, format)));
    EXPECT_EQ(model.tensors().tokenEmbedding->type, type);
    EXPECT_EQ(model.tensors().layers[1].ffnUp->type, type);
    EXPECT_EQ(model.tensors().outputNorm->type, GGMLType::F32);
  }
}

TEST(LlamaModel, TiedOutputAndDefaults) {
  ModelBuilder builder;
  builder.tensors.pop_back(); // output.weight
  builder.erase("llama.attention.head_count_kv");
  builder.erase("llama.rope.dimension_count");
  builder.erase("llama.rope.freq_base");
  builder.set("llama.attention.head_count_kv", uint32_t(4));
  builder.tensor("blk.0.attn_k.weight")->dims = {64, 64};
  builder.tensor("blk.0.attn_v.weight")->dims = {64, 64};
  builder.tensor("blk.1.attn_k.weight")->dims = {64, 64};
  builder.tensor("blk.1.attn_v.weight")->dims = {64, 64};
  LlamaModelFile model = LlamaModelFile::fromGGUF(parseGGUF(builder.build()));
  EXPECT_EQ(model.tensors().output, model.tensors().tokenEmbedding);
  EXPECT_EQ(model.config().ropeDimensionCount, 16u);
  EXPECT_FLOAT_EQ(model.config().ropeFreqBase, 10000.0f);

  // head_count_kv defaults to head_count (no GQA).
  builder.erase("llama.attention.head_count_kv");
  EXPECT_EQ(LlamaModelFile::fromGGUF(parseGGUF(builder.build())).config().headCountKV, 4u);
}

TEST(LlamaModel, ShapesOfTheLargeModels) {
  auto parameters = [](ModelShape shape) {
    uint64_t total = 0;
    for (const LlamaTensorSpec &spec : llamaTensorSpecs(configFor(shape))) {
      uint64_t n = 1;
      for (uint64_t d : spec.dims)
        n *= d;
      total += n;
    }
    return total;
  };
  // The published parameter counts.
  EXPECT_EQ(parameters(ModelShape::Llama2_7B), 6738415616ull);
  EXPECT_EQ(parameters(ModelShape::Llama2_13B), 13015864320ull);
  EXPECT_EQ(parameters(ModelShape::TinyLlama), 1100048384ull);
  EXPECT_EQ(llamaTensorSpecs(configFor(ModelShape::Llama2_7B)).size(), 32u * 9 + 3);
  for (ModelShape shape : {ModelShape::Tiny, ModelShape::TinyLlama, ModelShape::Llama2_7B,
                           ModelShape::Llama2_13B})
    EXPECT_EQ(configFor(shape).problem(), std::nullopt);
  EXPECT_EQ(configFor(ModelShape::TinyLlama).headDim(), 64u);
  EXPECT_EQ(configFor(ModelShape::Llama2_13B).headDim(), 128u);
  EXPECT_EQ(parseModelShape("7B"), ModelShape::Llama2_7B);
  EXPECT_EQ(parseModelShape("30b"), std::nullopt);
}
