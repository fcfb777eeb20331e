//===- ModelConfig.h - Llama hyper-parameters and tensor table ----*- C++ -*-===//
//
// A Llama GGUF file, checked: the hyper-parameters of its `llama.*` keys,
// every tensor of the architecture present with the shape those keys imply
// and a type llk reads, and its SentencePiece vocabulary.
//
//   LlamaModelFile model = LlamaModelFile::open("llama-2-7b.Q8_0.gguf");
//   const LlamaConfig &c = model.config();       // c.headDim(), c.headCountKV
//   const GGUFTensorInfo *wq = model.tensors().layers[0].attnQ;  // wq->data
//   std::vector<int32_t> ids = model.tokenizer().encode("Hello");
//
// Shapes are in ggml's ne order (ne[0] fastest), each matrix one row of
// ne[0] = n_in elements per output:
//
//   token_embd.weight        [n_embd, n_vocab]   (row t: the embedding of t)
//   blk.N.attn_norm.weight   [n_embd]            (f32)
//   blk.N.attn_q.weight      [n_embd, n_embd]
//   blk.N.attn_k.weight      [n_embd, n_embd_kv] n_embd_kv = head_dim * n_head_kv
//   blk.N.attn_v.weight      [n_embd, n_embd_kv]
//   blk.N.attn_output.weight [n_embd, n_embd]
//   blk.N.ffn_norm.weight    [n_embd]            (f32)
//   blk.N.ffn_gate.weight    [n_embd, n_ff]      (w1)
//   blk.N.ffn_up.weight      [n_embd, n_ff]      (w3)
//   blk.N.ffn_down.weight    [n_ff, n_embd]      (w2)
//   output_norm.weight       [n_embd]            (f32)
//   output.weight            [n_embd, n_vocab]   (absent: tied to token_embd)
//
// llama.cpp's converter permutes the rows of attn_q and attn_k so that RoPE
// rotates adjacent pairs (x[2i], x[2i+1]) of each head (its "normal" rope
// mode), not the halves as Hugging Face's checkpoints do.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LLAMA_MODELCONFIG_H
#define LLK_LLAMA_MODELCONFIG_H

#include "llk/llama/GGUF.h"
#include "llk/llama/Tokenizer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llk::llama {

struct LlamaConfig {
  uint32_t blockCount = 0;        // llama.block_count
  uint32_t embeddingLength = 0;   // llama.embedding_length (n_embd)
  uint32_t feedForwardLength = 0; // llama.feed_forward_length (n_ff)
  uint32_t headCount = 0;         // llama.attention.head_count
  uint32_t headCountKV = 0;       // llama.attention.head_count_kv (GQA; default head_count)
  uint32_t contextLength = 0;     // llama.context_length
  uint32_t ropeDimensionCount = 0; // llama.rope.dimension_count (default head_dim)
  uint32_t vocabSize = 0;         // the tokenizer's token count
  float ropeFreqBase = 10000.0f;  // llama.rope.freq_base
  float rmsEpsilon = 1e-5f;       // llama.attention.layer_norm_rms_epsilon

  uint32_t headDim() const { return embeddingLength / headCount; }
  uint32_t kvEmbeddingLength() const { return headDim() * headCountKV; }

  /// What is wrong with these numbers (a head count that does not divide
  /// the embedding length, ...), or nullopt if they describe a model llk
  /// can run.
  std::optional<std::string> problem() const;

  /// Reads the llama.* keys of `file` (general.architecture must be
  /// "llama") and checks them; vocabSize is the length of
  /// tokenizer.ggml.tokens. Throws Error naming the key at fault.
  static LlamaConfig fromGGUF(const GGUFFile &file);
};

/// The role of each tensor of the architecture.
enum class LlamaTensorKind {
  TokenEmbedding,
  AttnNorm,
  AttnQ,
  AttnK,
  AttnV,
  AttnOutput,
  FfnNorm,
  FfnGate,
  FfnUp,
  FfnDown,
  OutputNorm,
  Output,
};

/// One tensor the architecture has, with the shape the config implies.
struct LlamaTensorSpec {
  std::string name; // "blk.3.attn_k.weight"
  LlamaTensorKind kind;
  int layer; // -1 outside the blocks
  llvm::SmallVector<uint64_t, 2> dims;
  bool isNorm() const;
};

/// Every tensor of a model of this config, in the order llama.cpp writes
/// them: token_embd, the blocks, output_norm, output.
std::vector<LlamaTensorSpec> llamaTensorSpecs(const LlamaConfig &config);

struct LlamaLayerTensors {
  const GGUFTensorInfo *attnNorm = nullptr, *attnQ = nullptr, *attnK = nullptr,
                       *attnV = nullptr, *attnOutput = nullptr, *ffnNorm = nullptr,
                       *ffnGate = nullptr, *ffnUp = nullptr, *ffnDown = nullptr;
};

struct LlamaTensors {
  const GGUFTensorInfo *tokenEmbedding = nullptr;
  const GGUFTensorInfo *outputNorm = nullptr;
  const GGUFTensorInfo *output = nullptr; // == tokenEmbedding when tied
  std::vector<LlamaLayerTensors> layers;

  /// Finds every tensor of llamaTensorSpecs(config) in `file` and checks its
  /// shape and type (norms f32, matrices f32, f16, bf16 or q8_0); any other
  /// tensor in the file is an error too. Throws Error naming the tensor.
  static LlamaTensors fromGGUF(const GGUFFile &file, const LlamaConfig &config);
};

/// A GGUF file checked as a Llama model llk can run.
class LlamaModelFile {
public:
  static LlamaModelFile open(llvm::StringRef path);
  static LlamaModelFile fromGGUF(GGUFFile file);

  const GGUFFile &gguf() const { return *file_; }
  const LlamaConfig &config() const { return config_; }
  const LlamaTensors &tensors() const { return tensors_; }
  const Tokenizer &tokenizer() const { return *tokenizer_; }

private:
  LlamaModelFile() = default;
  std::unique_ptr<GGUFFile> file_; // tensors_ points into it
  LlamaConfig config_;
  LlamaTensors tensors_;
  std::unique_ptr<Tokenizer> tokenizer_;
};

} // namespace llk::llama

#endif // LLK_LLAMA_MODELCONFIG_H
