//===- Philox.h - the generator of tile.rand and its kin --------*- C++ -*-===//
//
// Philox 4x32-10 as Triton 3.6's tl.randint4x runs it, and the maps from its
// words to uniform and normal floats: the constants the compiler's expansion
// (tile-expand-random) builds into arith ops, and the scalar definition the
// interpreter runs and the kernel checks compute their references with.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_DIALECT_TILE_IR_PHILOX_H
#define LLK_DIALECT_TILE_IR_PHILOX_H

#include <array>
#include <cmath>
#include <cstdint>

namespace llk::tile::philox {

constexpr uint32_t kRoundA = 0xD2511F53, kRoundB = 0xCD9E8D57;
constexpr uint32_t kKeyA = 0x9E3779B9, kKeyB = 0xBB67AE85;
constexpr int kRounds = 10;
/// uint_to_uniform_float's scale: the largest f32 s with (2^31 - 1) * s < 1.
constexpr float kUniformScale = 4.6566127342e-10f;
/// pair_uniform_to_normal's constants, as f32.
constexpr float kMinUniform = 1.0e-7f, kTwoPi = 6.283185307179586f;

/// The key of a seed: its low and high words, an i32 seed sign-extended.
constexpr std::array<uint32_t, 2> key(int64_t seed) {
  return {uint32_t(uint64_t(seed)), uint32_t(uint64_t(seed) >> 32)};
}

/// The counter of an offset: its low and high words (an i32 offset's high
/// word is 0, not its sign), then two zeros.
constexpr std::array<uint32_t, 4> counter(uint64_t offset, bool is64Bit) {
  return {uint32_t(offset), is64Bit ? uint32_t(offset >> 32) : 0u, 0u, 0u};
}

/// The four words of Philox 4x32-10 for counter `c` and key `k`.
constexpr std::array<uint32_t, 4> philox(std::array<uint32_t, 4> c,
                                         std::array<uint32_t, 2> k) {
  for (int round = 0; round < kRounds; ++round) {
    uint64_t a = uint64_t(kRoundA) * c[0], b = uint64_t(kRoundB) * c[2];
    c = {uint32_t(b >> 32) ^ c[1] ^ k[0], uint32_t(b),
         uint32_t(a >> 32) ^ c[3] ^ k[1], uint32_t(a)};
    k = {k[0] + kKeyA, k[1] + kKeyB};
  }
  return c;
}

/// A word as a float in [0, 1): read as signed, negatives folded onto the
/// non-negative range, converted to f32 and scaled in f32.
inline float uniform(uint32_t word) {
  int32_t x = int32_t(word);
  return float(x < 0 ? ~x : x) * kUniformScale;
}

/// Box-Muller's first normal of two uniforms, every step in f32.
inline float normal(float u1, float u2) {
  float r = std::sqrt(-2.0f * std::log(std::fmax(kMinUniform, u1)));
  return r * std::cos(kTwoPi * u2);
}

} // namespace llk::tile::philox

#endif // LLK_DIALECT_TILE_IR_PHILOX_H
