//===- Sampling.h - choosing the next token from the logits -------*- C++ -*-===//
//
// How llk-llama picks a token, on the host from the device's top-k
// candidates (examples/llama/topk.mlir), until the tile language has the scan
// and sort ops that top-p needs on the device:
//
//   1. candidates: the k largest logits, by logit, ties to the smaller id
//      (topCandidates() is the host reference of the device's top-k);
//   2. greedy (temperature 0): the first candidate;
//   3. otherwise p_i = exp((l_i - l_0) / temperature), in double, over the
//      candidates, normalized;
//   4. top-p: the shortest prefix whose probabilities sum to at least top_p
//      (the first candidate always stays);
//   5. a draw u = uniform[0, 1) from a SplitMix64 stream seeded with `seed`
//      (53 bits), and the first candidate of the prefix whose cumulative
//      weight exceeds u times the prefix's total.
//
// The same seed and candidates give the same tokens on every machine (no
// std:: distribution, whose results the standard leaves to the library).
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LLAMA_SAMPLING_H
#define LLK_LLAMA_SAMPLING_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llk::llama {

struct SamplingParams {
  float temperature = 0.8f; // 0: greedy
  uint32_t topK = 40;       // 0: the whole vocabulary
  float topP = 0.95f;       // 1: off
  uint64_t seed = 0;
  bool greedy() const { return temperature <= 0; }
  /// What is wrong with these values (a negative temperature, top_p outside
  /// (0, 1]), or nullopt.
  std::optional<std::string> problem() const;
};

struct TokenCandidate {
  int32_t id;
  float logit;
  bool operator==(const TokenCandidate &o) const { return id == o.id && logit == o.logit; }
};

/// The `k` largest of `logits` (all of them if k is 0 or larger), by logit
/// then by id. NaN logits are never chosen.
std::vector<TokenCandidate> topCandidates(llvm::ArrayRef<float> logits, size_t k);

class Sampler {
public:
  explicit Sampler(const SamplingParams &params);
  /// The next token from `candidates`, ordered as topCandidates() orders
  /// them (at least one). Draws one random number unless greedy.
  int32_t sample(llvm::ArrayRef<TokenCandidate> candidates);
  const SamplingParams &params() const { return params_; }

private:
  double uniform();
  SamplingParams params_;
  uint64_t state_;
};

} // namespace llk::llama

#endif // LLK_LLAMA_SAMPLING_H
