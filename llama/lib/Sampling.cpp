//===- Sampling.cpp - choosing the next token from the logits -------------===//

#include "llk/llama/Sampling.h"
#include "llk/llama/Error.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace llk::llama;

std::optional<std::string> SamplingParams::problem() const {
  if (!(temperature >= 0) || !std::isfinite(temperature))
    return "the temperature must be a finite number >= 0";
  if (!(topP > 0 && topP <= 1))
    return "top_p must be in (0, 1]";
  return std::nullopt;
}

std::vector<TokenCandidate> llk::llama::topCandidates(llvm::ArrayRef<float> logits,
                                                      size_t k) {
  std::vector<TokenCandidate> all;
  all.reserve(logits.size());
  for (size_t i = 0; i < logits.size(); ++i)
    if (!std::isnan(logits[i]))
      all.push_back({static_cast<int32_t>(i), logits[i]});
  if (k == 0 || k > all.size())
    k = all.size();
  auto before = [](const TokenCandidate &a, const TokenCandidate &b) {
    return a.logit != b.logit ? a.logit > b.logit : a.id < b.id;
  };
  std::partial_sort(all.begin(), all.begin() + k, all.end(), before);
  all.resize(k);
  return all;
}

Sampler::Sampler(const SamplingParams &params) : params_(params), state_(params.seed) {
  if (auto why = params.problem())
    throw Error("sampling: " + *why);
}

double Sampler::uniform() {
  // SplitMix64, 53 bits.
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1p-53;
}

int32_t Sampler::sample(llvm::ArrayRef<TokenCandidate> candidates) {
  if (candidates.empty())
    throw Error("sampling: no candidates");
  if (params_.greedy())
    return candidates.front().id;
  const double first = candidates.front().logit, t = params_.temperature;
  std::vector<double> weights;
  double total = 0;
  for (const TokenCandidate &c : candidates) {
    // exp(-inf) = 0: a candidate at -inf is never drawn.
    weights.push_back(std::exp((static_cast<double>(c.logit) - first) / t));
    total += weights.back();
  }
  // Top-p: the shortest prefix holding at least top_p of the mass.
  size_t keep = weights.size();
  if (params_.topP < 1) {
    double mass = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
      mass += weights[i];
      if (mass >= params_.topP * total) {
        keep = i + 1;
        break;
      }
    }
  }
  double kept = std::accumulate(weights.begin(), weights.begin() + keep, 0.0);
  double target = uniform() * kept, cumulative = 0;
  for (size_t i = 0; i < keep; ++i) {
    cumulative += weights[i];
    if (cumulative > target)
      return candidates[i].id;
  }
  return candidates[keep - 1].id; // rounding left target at the total
}
