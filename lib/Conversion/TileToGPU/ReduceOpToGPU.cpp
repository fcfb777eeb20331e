//===- ReduceOpToGPU.cpp - tile.reduce and tile.generic_reduce ------------===//
//
// A reduction combines within each thread (dp4a for i8 products), across
// lanes with xor-shuffle butterflies, and across warps through shared memory.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// A partial reduction: the value, and for argmax/argmin its index.
struct Partial {
  Value value, index;
};

/// Combines two partials of a reduction.
class Combiner {
public:
  Combiner(Operation *op) : op(op) {
    // A float sum of products that the kernel marked contractable
    // (`arith.mulf ... fastmath<contract>`) adds with `contract` too, so that
    // LLVM fuses each product into its addition (FFMA): half the FP
    // instructions of a dot product. Without the flag, products round first.
    if (auto reduce = dyn_cast<ReduceOp>(op))
      if (reduce.getKind() == ReduceKind::Sum)
        if (auto mul = reduce.getSrc().getDefiningOp<arith::MulFOp>())
          if (bitEnumContainsAll(mul.getFastmath(), arith::FastMathFlags::contract))
            addFlags = arith::FastMathFlags::contract;
  }

  bool hasIndex() const {
    auto reduce = dyn_cast<ReduceOp>(op);
    return reduce && (reduce.getKind() == ReduceKind::ArgMax ||
                      reduce.getKind() == ReduceKind::ArgMin);
  }

  Partial combine(IndexEmitter &e, Partial a, Partial b) const {
    OpBuilder &builder = e.b;
    Location loc = e.loc;
    if (auto generic = dyn_cast<GenericReduceOp>(op)) {
      return {applyCombiner(builder, generic.getCombiner(), a.value, b.value),
              Value()};
    }
    auto reduce = cast<ReduceOp>(op);
    bool isFloat = isa<FloatType>(a.value.getType());
    switch (reduce.getKind()) {
    case ReduceKind::Sum:
      return {arithCombine(builder, loc, ArithCombiner::Sum, a.value, b.value, addFlags),
              Value()};
    case ReduceKind::Max:
      return {arithCombine(builder, loc, ArithCombiner::Max, a.value, b.value), Value()};
    case ReduceKind::Min:
      return {arithCombine(builder, loc, ArithCombiner::Min, a.value, b.value), Value()};
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin: {
      bool isMax = reduce.getKind() == ReduceKind::ArgMax;
      Value better =
          isFloat ? arith::CmpFOp::create(builder, loc,
                                          isMax ? arith::CmpFPredicate::OGT
                                                : arith::CmpFPredicate::OLT,
                                          b.value, a.value)
                        .getResult()
                  : arith::CmpIOp::create(builder, loc,
                                          isMax ? arith::CmpIPredicate::sgt
                                                : arith::CmpIPredicate::slt,
                                          b.value, a.value)
                        .getResult();
      Value equal =
          isFloat ? arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ,
                                          b.value, a.value)
                        .getResult()
                  : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                          b.value, a.value)
                        .getResult();
      // Ties go to the first index.
      Value earlier = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                            b.index, a.index);
      Value takeB = arith::OrIOp::create(
          builder, loc, better, arith::AndIOp::create(builder, loc, equal, earlier));
      return {arith::SelectOp::create(builder, loc, takeB, b.value, a.value),
              arith::SelectOp::create(builder, loc, takeB, b.index, a.index)};
    }
    }
    llvm_unreachable("unknown reduction");
  }

private:
  Operation *op;
  arith::FastMathFlags addFlags = arith::FastMathFlags::none;
};

/// For an i32 sum of products of sign-extended i8 tiles (tile.cast or
/// arith.extsi), the converted i8 operands: such a reduction runs on dp4a,
/// four products and their sum a instruction. Integer sums wrap, so the
/// order dp4a adds in gives the same result.
std::optional<std::pair<Value, Value>>
byteProductOperands(Operation *op, ConversionPatternRewriter &rewriter) {
  auto reduce = dyn_cast<ReduceOp>(op);
  if (!reduce || reduce.getKind() != ReduceKind::Sum ||
      !getElementTypeOrSelf(reduce.getSrc().getType()).isInteger(32))
    return std::nullopt;
  auto mul = reduce.getSrc().getDefiningOp<arith::MulIOp>();
  if (!mul)
    return std::nullopt;
  auto bytes = [&](Value v) -> Value {
    Value src;
    if (auto cast = v.getDefiningOp<CastOp>())
      src = cast.getSrc();
    else if (auto ext = v.getDefiningOp<arith::ExtSIOp>())
      src = ext.getIn();
    if (!src || !getElementTypeOrSelf(src.getType()).isInteger(8))
      return Value();
    Value converted = rewriter.getRemappedValue(src);
    auto vec = dyn_cast_or_null<VectorType>(converted ? converted.getType() : Type());
    return vec && vec.getElementType().isInteger(8) ? converted : Value();
  };
  Value a = bytes(mul.getLhs()), b = bytes(mul.getRhs());
  if (!a || !b)
    return std::nullopt;
  return std::make_pair(a, b);
}

template <typename OpTy>
struct ReduceLowering : TilePattern<OpTy> {
  using TilePattern<OpTy>::TilePattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Combiner combiner(op);
    unsigned axis = op.getAxis();
    DistributedView src = viewOf(op.getSrc().getType());
    Value input = adaptor.getSrc();
    Value axisCoords = combiner.hasIndex() ? e.coordinates(src, axis) : Value();

    // Registers of each output element, gathered by their local indices on
    // the kept dimensions.
    auto resultTile = dyn_cast<RankedTensorType>(op.getType());
    std::optional<DistributedView> out;
    if (resultTile)
      out = viewOf(resultTile);
    int64_t numOut = out ? out->totalElemsPerThread() : 1;
    SmallVector<Partial> partials(numOut);
    SmallVector<SmallVector<int64_t>> outLocals =
        out ? out->localIndices() : SmallVector<SmallVector<int64_t>>{{}};
    std::optional<std::pair<Value, Value>> bytePairs;
    if (src.elemsPerThread(axis) % 4 == 0)
      bytePairs = byteProductOperands(op, rewriter);
    for (int64_t o = 0; o < numOut; ++o) {
      if (bytePairs) {
        auto signedType = NVVM::DotAccumulateTypeAttr::get(
            rewriter.getContext(), NVVM::DotAccumulateType::SIGNED);
        Value acc = e.i32(0);
        for (int64_t k = 0; k < src.elemsPerThread(axis); k += 4) {
          SmallVector<int64_t> regs;
          for (int64_t j = 0; j < 4; ++j) {
            SmallVector<int64_t> local = outLocals[o];
            local.insert(local.begin() + axis, k + j);
            regs.push_back(src.registerIndex(local));
          }
          auto four = [&](Value v) {
            return vector::ShuffleOp::create(rewriter, op.getLoc(), v, v, regs);
          };
          acc = NVVM::DotAccumulate4WayOp::create(
              rewriter, op.getLoc(), rewriter.getI32Type(),
              four(bytePairs->first), signedType, four(bytePairs->second),
              signedType, acc);
        }
        partials[o] = {acc, Value()};
        continue;
      }
      for (int64_t k = 0; k < src.elemsPerThread(axis); ++k) {
        SmallVector<int64_t> local = outLocals[o];
        local.insert(local.begin() + axis, k);
        int64_t r = src.registerIndex(local);
        Partial p{e.extract(input, r),
                  axisCoords ? e.extract(axisCoords, r) : Value()};
        partials[o] = partials[o].value ? combiner.combine(e, partials[o], p) : p;
      }
    }

    // Across lanes: butterfly over the lanes that hold distinct elements.
    for (unsigned m = 1; m < src.distinctLanes(axis); m *= 2) {
      unsigned offset = m * src.laneStride[axis];
      for (Partial &p : partials) {
        auto exchange = [&](Value v) {
          return shuffle(e, v, e.i32(offset), gpu::ShuffleMode::XOR);
        };
        Partial other{exchange(p.value), p.index ? exchange(p.index) : Value()};
        p = combiner.combine(e, p, other);
      }
    }

    // Across warps: through shared memory, one slot per (element, warp).
    unsigned numWarps = src.distinctWarps(axis);
    if (numWarps > 1) {
      Type valueType = partials[0].value.getType();
      int64_t valueBytes = byteWidth(valueType);
      int64_t outElems = resultTile ? resultTile.getNumElements() : 1;
      // The i32 indices follow the values, 4-byte aligned (values of i8 or
      // i16 may end anywhere).
      int64_t indexBase = llvm::alignTo(outElems * numWarps * valueBytes, 4);
      int64_t bytes = indexBase + (combiner.hasIndex() ? outElems * numWarps * 4 : 0);
      Value base = this->state.scratch.base(rewriter, op.getLoc(), op, bytes);
      SmallVector<Value> slots;
      auto strides = resultTile ? rowMajorStrides(resultTile.getShape())
                                : SmallVector<int64_t>{};
      SmallVector<Value> outCoords;
      for (unsigned d = 0; out && d < out->shape.size(); ++d)
        outCoords.push_back(e.coordinates(*out, d));
      for (int64_t o = 0; o < numOut; ++o) {
        Value linear = e.i32(0);
        for (unsigned d = 0; d < outCoords.size(); ++d)
          linear = arith::AddIOp::create(
              rewriter, op.getLoc(), linear,
              arith::MulIOp::create(rewriter, op.getLoc(),
                                    e.extract(outCoords[d], o), e.i32(strides[d])));
        slots.push_back(arith::MulIOp::create(rewriter, op.getLoc(), linear,
                                              e.i32(numWarps)));
      }
      Value warp = arith::AndIOp::create(rewriter, op.getLoc(),
                                         e.warpCoord(src, axis), e.i32(numWarps - 1));
      auto slotAddr = [&](Value slot, Value w, int64_t scale, int64_t offset) {
        Value index = arith::AddIOp::create(rewriter, op.getLoc(), slot, w);
        Value byteOffset = arith::AddIOp::create(
            rewriter, op.getLoc(),
            arith::MulIOp::create(rewriter, op.getLoc(), index, e.i32(scale)),
            e.i32(offset));
        return byteAddress(e, base, byteOffset);
      };
      gpu::BarrierOp::create(rewriter, op.getLoc());
      for (int64_t o = 0; o < numOut; ++o) {
        LLVM::StoreOp::create(rewriter, op.getLoc(), partials[o].value,
                              slotAddr(slots[o], warp, valueBytes, 0), valueBytes);
        if (partials[o].index)
          LLVM::StoreOp::create(rewriter, op.getLoc(), partials[o].index,
                                slotAddr(slots[o], warp, 4, indexBase), 4);
      }
      gpu::BarrierOp::create(rewriter, op.getLoc());
      for (int64_t o = 0; o < numOut; ++o) {
        Partial acc;
        for (unsigned w = 0; w < numWarps; ++w) {
          Partial p{LLVM::LoadOp::create(rewriter, op.getLoc(), valueType,
                                         slotAddr(slots[o], e.i32(w), valueBytes, 0),
                                         valueBytes),
                    Value()};
          if (combiner.hasIndex())
            p.index = LLVM::LoadOp::create(rewriter, op.getLoc(), rewriter.getI32Type(),
                                           slotAddr(slots[o], e.i32(w), 4, indexBase), 4);
          acc = acc.value ? combiner.combine(e, acc, p) : p;
        }
        partials[o] = acc;
      }
    }

    SmallVector<Value> results;
    for (const Partial &p : partials)
      results.push_back(combiner.hasIndex() ? p.index : p.value);
    if (!resultTile) {
      rewriter.replaceOp(op, results[0]);
      return success();
    }
    rewriter.replaceOp(op, e.fromElements(results[0].getType(), results));
    return success();
  }
};

} // namespace

void llk::togpu::populateReduceOpToGPUPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               LoweringState &state) {
  patterns.add<ReduceLowering<ReduceOp>, ReduceLowering<GenericReduceOp>>(
      converter, patterns.getContext(), state);
}
