//===- RandomOps.cpp - tile.rand, randn, randint and randint4x ------------===//
//
// Each element is Philox 4x32-10 of its offset (Philox.h), computed with the
// float operations of the interpreter's own arith and math handlers (f32
// rounding, the C library's logf, sqrtf and cosf): the bits a kernel gets
// when tile-expand-random has expanded the op first.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llk/Dialect/Tile/IR/Philox.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;
namespace philox = llk::tile::philox;

namespace {

/// Sets each of `op`'s results to `map(words, result)` per offset, for the
/// four Philox words of that offset.
template <typename Map> bool generate(Executor &ex, Operation *op, Map map) {
  int64_t seed = ex.get(op->getOperand(0)).data[0].i;
  Value offset = op->getOperand(1);
  bool is64Bit = elementTypeOf(offset.getType()).isInteger(64);
  const Tile &offsets = ex.get(offset);
  std::array<uint32_t, 2> key = philox::key(seed);
  llvm::SmallVector<Tile, 4> results;
  for (Value result : op->getResults())
    results.push_back(Executor::makeTile(result.getType()));
  for (size_t i = 0; i < offsets.size(); ++i) {
    std::array<uint32_t, 4> words = philox::philox(
        philox::counter(static_cast<uint64_t>(offsets.data[i].i), is64Bit), key);
    for (auto [r, tile] : llvm::enumerate(results))
      tile.data[i] = map(words, r);
  }
  for (auto [result, tile] : llvm::zip(op->getResults(), results))
    ex.set(result, std::move(tile));
  return true;
}

Elem word(uint32_t w) { return Elem{wrapInt(w, 32)}; }
Elem real(float x) {
  Elem e;
  e.f = x;
  return e;
}

bool randInt(Executor &ex, tile::RandIntOp op) {
  return generate(ex, op, [](const auto &w, size_t) { return word(w[0]); });
}

bool randIntX4(Executor &ex, tile::RandIntX4Op op) {
  return generate(ex, op, [](const auto &w, size_t r) { return word(w[r]); });
}

bool randUniform(Executor &ex, tile::RandOp op) {
  return generate(ex, op, [](const auto &w, size_t) {
    return real(philox::uniform(w[0]));
  });
}

bool randNormal(Executor &ex, tile::RandNOp op) {
  return generate(ex, op, [](const auto &w, size_t) {
    return real(philox::normal(philox::uniform(w[0]), philox::uniform(w[1])));
  });
}

} // namespace

void llk::interp::detail::registerRandomOps(OpHandlerTable &table) {
  table.add<randInt>();
  table.add<randIntX4>();
  table.add<randUniform>();
  table.add<randNormal>();
}
