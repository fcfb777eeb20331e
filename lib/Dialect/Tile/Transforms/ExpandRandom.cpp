//===- ExpandRandom.cpp - random-number ops into arith and math -----------===//
//
// tile.randint, randint4x, rand and randn become the arithmetic they are
// defined by (Philox.h): ten Philox rounds on tiles of the offsets' shape,
// each two arith.mului_extended and four xori, with the key schedule on
// scalars; then the word-to-float maps. What comes out is ordinary tile IR,
// which the layout pass spreads over the threads like any elementwise code
// and which the interpreter runs with the semantics it runs the ops with.
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/Tile/IR/Philox.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tile-expand-random"

namespace llk::tile {
#define GEN_PASS_DEF_TILEEXPANDRANDOM
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

using namespace mlir;
using namespace llk::tile;

namespace {

/// Builds the expansion of one op, on values shaped like its offsets.
class RandomBuilder {
public:
  RandomBuilder(OpBuilder &b, Location loc, Type offsetType)
      : b(b), loc(loc), wordType(withElementType(offsetType, b.getI32Type())),
        floatType(withElementType(offsetType, b.getF32Type())) {}

  /// The four words for `seed` and `offset`.
  std::array<Value, 4> words(Value seed, Value offset) {
    // Key: the seed's words, an i32 seed sign-extended (its high word is
    // its sign, repeated).
    Value k0, k1;
    if (seed.getType().isInteger(32)) {
      k0 = seed;
      k1 = arith::ShRSIOp::create(b, loc, seed, scalarWord(31));
    } else {
      k0 = arith::TruncIOp::create(b, loc, b.getI32Type(), seed);
      k1 = arith::TruncIOp::create(
          b, loc, b.getI32Type(),
          arith::ShRUIOp::create(b, loc, seed,
                                 arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32))));
    }
    // Counter: the offset's words (an i32 offset's high word is 0).
    Value zero = word(0), c0 = offset, c1 = zero;
    if (getElementTypeOrSelf(offset.getType()).isInteger(64)) {
      c0 = arith::TruncIOp::create(b, loc, wordType, offset);
      Value thirtyTwo = arith::ConstantOp::create(
          b, loc, splatAttr(offset.getType(), b.getI64IntegerAttr(32)));
      c1 = arith::TruncIOp::create(b, loc, wordType,
                                   arith::ShRUIOp::create(b, loc, offset, thirtyTwo));
    }
    std::array<Value, 4> c = {c0, c1, zero, zero};
    Value roundA = word(philox::kRoundA), roundB = word(philox::kRoundB);
    for (int round = 0; round < philox::kRounds; ++round) {
      if (round > 0) {
        k0 = arith::AddIOp::create(b, loc, k0, scalarWord(philox::kKeyA));
        k1 = arith::AddIOp::create(b, loc, k1, scalarWord(philox::kKeyB));
      }
      auto a = arith::MulUIExtendedOp::create(b, loc, roundA, c[0]);
      auto m = arith::MulUIExtendedOp::create(b, loc, roundB, c[2]);
      Value key0 = broadcast(k0), key1 = broadcast(k1);
      Value next0 = xor3(m.getHigh(), c[1], key0);
      Value next2 = xor3(a.getHigh(), c[3], key1);
      c = {next0, m.getLow(), next2, a.getLow()};
    }
    LLVM_DEBUG(llvm::dbgs() << "expanded Philox 4x32-10 over " << wordType << "\n");
    return c;
  }

  /// uint_to_uniform_float: (x < 0 ? ~x : x) as f32, times the scale.
  Value uniform(Value w) {
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, w, word(0));
    Value folded = arith::SelectOp::create(
        b, loc, negative, arith::XOrIOp::create(b, loc, w, word(~0u)), w);
    Value asFloat = arith::SIToFPOp::create(b, loc, floatType, folded);
    return arith::MulFOp::create(b, loc, asFloat,
                                 floatConstant(philox::kUniformScale));
  }

  /// pair_uniform_to_normal's first result.
  Value normal(Value u1, Value u2) {
    u1 = arith::MaxNumFOp::create(b, loc, floatConstant(philox::kMinUniform), u1);
    Value theta = arith::MulFOp::create(b, loc, floatConstant(philox::kTwoPi), u2);
    Value radius = math::SqrtOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, floatConstant(-2.0f),
                              math::LogOp::create(b, loc, u1)));
    return arith::MulFOp::create(b, loc, radius, math::CosOp::create(b, loc, theta));
  }

private:
  /// `value` as an attribute of `type`: a splat for a tile.
  TypedAttr splatAttr(Type type, TypedAttr value) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return DenseElementsAttr::get(tensor, cast<Attribute>(value));
    return value;
  }
  Value scalarWord(uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
  }
  Value word(uint32_t v) {
    return arith::ConstantOp::create(
        b, loc, splatAttr(wordType, b.getI32IntegerAttr(int32_t(v))));
  }
  Value floatConstant(float v) {
    return arith::ConstantOp::create(b, loc,
                                     splatAttr(floatType, b.getF32FloatAttr(v)));
  }
  Value broadcast(Value scalar) {
    if (isa<RankedTensorType>(wordType))
      return SplatOp::create(b, loc, wordType, scalar);
    return scalar;
  }
  Value xor3(Value x, Value y, Value z) {
    return arith::XOrIOp::create(b, loc, arith::XOrIOp::create(b, loc, x, y), z);
  }

  OpBuilder &b;
  Location loc;
  Type wordType, floatType;
};

struct TileExpandRandomPass
    : llk::tile::impl::TileExpandRandomBase<TileExpandRandomPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<RandIntOp, RandIntX4Op, RandOp, RandNOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Value seed = op->getOperand(0), offset = op->getOperand(1);
      RandomBuilder random(b, op->getLoc(), offset.getType());
      std::array<Value, 4> w = random.words(seed, offset);
      SmallVector<Value> results;
      if (isa<RandIntOp>(op))
        results = {w[0]};
      else if (isa<RandIntX4Op>(op))
        results.assign(w.begin(), w.end());
      else if (isa<RandOp>(op))
        results = {random.uniform(w[0])};
      else {
        Value u1 = random.uniform(w[0]), u2 = random.uniform(w[1]);
        results = {random.normal(u1, u2)};
      }
      op->replaceAllUsesWith(results);
      op->erase();
    }
  }
};

} // namespace
