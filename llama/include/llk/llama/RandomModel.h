//===- RandomModel.h - Llama GGUF files with random weights -------*- C++ -*-===//
//
// Models for tests and benchmarks, written with GGUFWriter: the tiny model
// CI runs (2 layers, n_embd 64, 4 heads of which 2 KV heads, n_ff 160), and
// models shaped like TinyLlama-1.1B, Llama-2-7B and Llama-2-13B. Weights are
// uniform random (a matrix's in [-1/sqrt(n_in), 1/sqrt(n_in)], norms around
// 1), deterministic in the seed, generated and written one chunk at a time:
// a 13B file needs a few megabytes of memory.
//
// The vocabulary is synthetic, laid out as a SentencePiece BPE model lays
// out Llama 2's: <unk>, <s>, </s>, the 256 byte pieces, the merged pieces in
// merge order (scores 0, -1, -2, ...), the single characters last. The
// merges build every string of lower-case letters, with and without a
// leading '▁', shortest first, so that every piece is reachable by merging.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LLAMA_RANDOMMODEL_H
#define LLK_LLAMA_RANDOMMODEL_H

#include "llk/llama/GGUF.h"
#include "llk/llama/ModelConfig.h"
#include "llk/llama/Tokenizer.h"

#include <optional>

namespace llk::llama {

enum class ModelShape { Tiny, TinyLlama, Llama2_7B, Llama2_13B };

/// "tiny", "tinyllama", "7b", "13b".
std::optional<ModelShape> parseModelShape(llvm::StringRef name);
LlamaConfig configFor(ModelShape shape);

/// How the matrices (all but the norms, which are f32) are stored. Mixed:
/// the even layers and output.weight q8_0, token_embd and the odd layers
/// f32, so that a model has both.
enum class WeightFormat { F32, F16, BF16, Q8_0, Mixed };
std::optional<WeightFormat> parseWeightFormat(llvm::StringRef name);

/// The synthetic vocabulary of `size` tokens (at least 259 + the 80 single
/// characters).
Vocabulary syntheticVocabulary(uint32_t size);

struct RandomModelOptions {
  LlamaConfig config;
  WeightFormat format = WeightFormat::Q8_0;
  uint64_t seed = 0;
};

/// The options of a shape: tiny is Mixed, the large shapes Q8_0.
RandomModelOptions randomModelOptions(ModelShape shape, uint64_t seed);

void writeRandomModel(llvm::raw_ostream &os, const RandomModelOptions &options);
/// Writes to `path` (through a temporary file renamed at the end, so that
/// a failed run leaves no partial model). Throws Error.
void writeRandomModelFile(llvm::StringRef path, const RandomModelOptions &options);

} // namespace llk::llama

#endif // LLK_LLAMA_RANDOMMODEL_H
