//===- LanguageChecks.cpp - random numbers, scans, sorts, ... ------------===//
//
// The ops a Triton user reaches for (issue 24), each in an example kernel:
// the references are exact where the op is (Philox words, uniforms, scans
// of integers, sorts, gathers, histograms) and float64 where it is not.
//
//===----------------------------------------------------------------------===//

#include "Checks/KernelChecks.h"

#include "llk/Dialect/Tile/IR/Philox.h"

#include <cmath>

using namespace llk::checks;
using llk::interp::ElemType;
namespace philox = llk::tile::philox;

/// The outputs of examples/random.mlir for `n` offsets from `base`: the
/// words and uniforms exactly (Philox.h defines them), the normals as the
/// float64 Box-Muller transform of the same uniforms.
static void random(Problem &p, bool is64Bit, int64_t n, int64_t block) {
  // Scalars travel as doubles: i64 seeds within 2^53. i64 offsets start past
  // 2^32, so that their high words count.
  int64_t seed = is64Bit ? p.randomInt(-(int64_t(1) << 53), int64_t(1) << 53)
                         : p.randomInt(INT32_MIN, INT32_MAX);
  int64_t base = is64Bit ? p.randomInt(int64_t(1) << 32, int64_t(1) << 40)
                         : p.randomInt(0, INT32_MAX - n);
  HostBuffer &ints = p.output("ints", ElemType::I32, {n});
  HostBuffer &words = p.output("words", ElemType::I32, {4, n});
  HostBuffer &uniform = p.output("uniform", ElemType::F32, {n});
  HostBuffer &normal = p.output("normal", ElemType::F32, {n});
  ints.exact = words.exact = uniform.exact = true;
  std::array<uint32_t, 2> key = philox::key(seed);
  for (int64_t i = 0; i < n; ++i) {
    std::array<uint32_t, 4> w =
        philox::philox(philox::counter(uint64_t(base + i), is64Bit), key);
    ints.reference[i] = int32_t(w[0]);
    for (int k = 0; k < 4; ++k)
      words.reference[k * n + i] = int32_t(w[k]);
    float u1 = philox::uniform(w[0]), u2 = philox::uniform(w[1]);
    uniform.reference[i] = u1;
    double r = std::sqrt(-2 * std::log(std::max<double>(philox::kMinUniform, u1)));
    normal.reference[i] = r * std::cos(2 * M_PI * double(u2));
  }
  for (HostBuffer *out : {&ints, &words, &uniform, &normal})
    p.pointerArg(*out);
  ElemType scalar = is64Bit ? ElemType::I64 : ElemType::I32;
  p.scalarArg(scalar, double(seed));
  p.scalarArg(scalar, double(base));
  p.scalarArg(ElemType::I32, double(n));
  setGrid(p, ceilDiv(n, block));
  p.bytes = double(n) * 4 * 7;
}

std::vector<KernelCheck> llk::checks::languageChecks() {
  // Normals: within the f32 rounding of 2*pi*u2 and of the transform's
  // steps (about 1e-7); words and uniforms bit for bit.
  auto rng = [](bool is64Bit) {
    return [is64Bit](Problem &p) { random(p, is64Bit, 304, 128); };
  };
  auto gpuRng = [](bool is64Bit) {
    return std::vector<GpuCase>{
        {"2^20 offsets", [is64Bit](Problem &p) {
           p.constants["BLOCK"] = 1024;
           random(p, is64Bit, 1 << 20, 1024);
         }}};
  };
  return {
      {"random_i32", "random.mlir", "random_i32", {{"BLOCK", 128}}, 1e-6, rng(false),
       gpuRng(false)},
      {"random_i64", "random.mlir", "random_i64", {{"BLOCK", 128}}, 1e-6, rng(true),
       gpuRng(true)},
  };
}
