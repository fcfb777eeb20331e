//===- TileOps.cpp - tile dialect operations ------------------------------===//
//
// Verifiers say what is wrong in the user's terms: which operand, which
// dimension, what was expected.
//
//===----------------------------------------------------------------------===//

#include "TileOpsHelpers.h"
#include "llk/Dialect/Tile/IR/Layout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace llk::tile;

#define GET_OP_CLASSES
#include "llk/Dialect/Tile/IR/TileOps.cpp.inc"

LogicalResult llk::tile::verifyTiles(Operation *op) {
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(verifyTileType(op, type, "operand #" + std::to_string(i))))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(verifyTileType(op, type, "result #" + std::to_string(i))))
      return failure();
  return success();
}

LogicalResult llk::tile::verifySameLayout(Operation *op, Type a, Type b,
                                      StringRef what) {
  Attribute ea = encodingOf(a), eb = encodingOf(b);
  if (ea && eb && ea != eb)
    return op->emitOpError() << what << " layouts differ";
  return success();
}

static LogicalResult verifySameElementType(Operation *op, Type src, Type res) {
  if (elementTypeOf(src) != elementTypeOf(res))
    return op->emitOpError() << "result element type " << elementTypeOf(res)
                             << " differs from operand element type "
                             << elementTypeOf(src);
  return success();
}

LogicalResult MakeRangeOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  auto type = getType();
  if (type.getRank() != 1 || !type.getElementType().isInteger(32))
    return emitOpError() << "result must be a 1-D tile of i32, got " << type;
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  if (start < 0 || end <= start)
    return emitOpError() << "needs 0 <= start < end, got " << start << " to "
                         << end;
  if (end - start != type.getDimSize(0))
    return emitOpError() << "range " << start << " to " << end << " has "
                         << end - start << " elements but the result has "
                         << type.getDimSize(0);
  return success();
}

LogicalResult SplatOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  return verifySameElementType(*this, getSrc().getType(), getType());
}

LogicalResult BroadcastOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  auto src = getSrc().getType(), res = getType();
  if (failed(verifySameLayout(*this, src, res, "operand and result")))
    return failure();
  if (src.getRank() != res.getRank())
    return emitOpError() << "operand rank " << src.getRank()
                         << " differs from result rank " << res.getRank()
                         << "; use tile.expand_dims to add dimensions";
  for (unsigned d = 0; d < src.getRank(); ++d)
    if (src.getDimSize(d) != res.getDimSize(d) && src.getDimSize(d) != 1)
      return emitOpError() << "can only broadcast dimensions of size 1, but "
                           << "dimension " << d << " goes from "
                           << src.getDimSize(d) << " to " << res.getDimSize(d);
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  auto src = getSrc().getType(), res = getType();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis > src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a tile "
                         << "of rank " << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape must be the operand's with 1 "
                         << "inserted at " << axis;
  if (src.getEncoding() && res.getEncoding()) {
    auto slice = dyn_cast<SliceLayoutAttr>(src.getEncoding());
    if (!slice || slice.getDim() != axis ||
        slice.getParent() != res.getEncoding())
      return emitOpError() << "operand layout must be the result layout "
                           << "sliced at the expanded axis";
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  if (getSrc().getType().getNumElements() != getType().getNumElements())
    return emitOpError() << "cannot reshape " << getSrc().getType() << " ("
                         << getSrc().getType().getNumElements()
                         << " elements) to " << getType() << " ("
                         << getType().getNumElements() << " elements)";
  return success();
}

LogicalResult TransOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  auto src = getSrc().getType(), res = getType();
  if (src.getRank() != 2 || res.getRank() != 2)
    return emitOpError() << "transposes 2-D tiles only";
  if (src.getDimSize(0) != res.getDimSize(1) ||
      src.getDimSize(1) != res.getDimSize(0))
    return emitOpError() << "transposes " << src.getDimSize(0) << "x"
                         << src.getDimSize(1) << " into " << src.getDimSize(1)
                         << "x" << src.getDimSize(0) << ", but the result is "
                         << res.getDimSize(0) << "x" << res.getDimSize(1);
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  if (failed(verifyTiles(*this)) ||
      failed(verifySameElementType(*this, getSrc().getType(), getType())))
    return failure();
  if (getSrc().getType().getShape() != getType().getShape())
    return emitOpError() << "changes the layout only, not the shape";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // convert(convert(x)) -> convert(x): the middle layout is never observed.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

namespace {
/// A tile that is cheap to build in any layout is rebuilt in the converted
/// one rather than moved through shared memory: constants, splats, ranges;
/// a broadcast is rebuilt from its converted source.
struct RematerializeConvertedSource : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *src = op.getSrc().getDefiningOp();
    if (!src)
      return failure();
    if (auto constant = dyn_cast<arith::ConstantOp>(src)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense || !dense.isSplat())
        return failure();
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, op.getType(), DenseElementsAttr::get(op.getType(),
                                                   dense.getSplatValue<Attribute>()));
      return success();
    }
    if (auto splat = dyn_cast<SplatOp>(src)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast<MakeRangeOp>(src)) {
      rewriter.replaceOpWithNewOp<MakeRangeOp>(op, op.getType(), range.getStart(),
                                               range.getEnd());
      return success();
    }
    // A broadcast converts its source instead, which holds fewer elements
    // (and, built from ranges, is recomputed where it is converted).
    if (auto broadcast = dyn_cast<BroadcastOp>(src)) {
      RankedTensorType srcType = broadcast.getSrc().getType();
      Attribute layout = op.getType().getEncoding();
      if (!layout || !layoutFits(srcType, layout))
        return failure();
      auto converted = ConvertLayoutOp::create(
          rewriter, op.getLoc(), withLayout(srcType, layout), broadcast.getSrc());
      rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), converted);
      return success();
    }
    return failure();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<RematerializeConvertedSource>(context);
}

/// The shared checks of memory operations: tiles are valid and the pointee
/// type is one that global memory can hold.
static LogicalResult verifyMemoryOp(Operation *op, Type ptrType) {
  if (failed(verifyTiles(op)))
    return failure();
  Type pointee = elementTypeOf(getPointeeValueType(ptrType));
  if (pointee.isInteger(1))
    return op->emitOpError() << "cannot access memory of i1; use i8";
  return success();
}

/// PTX spells a cache operator, an L1 eviction priority or `.volatile`, but
/// no combination of them.
static LogicalResult verifyHints(Operation *op, bool cache, bool evict,
                                 bool isVolatile) {
  if (int(cache) + int(evict) + int(isVolatile) > 1)
    return op->emitOpError() << "takes one of cache, evict and volatile: PTX "
                                "has no instruction that combines them";
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())) ||
      failed(verifyHints(*this, bool(getCache()), bool(getEvict()),
                         getIsVolatile())))
    return failure();
  if (getOther() && !getMask())
    return emitOpError() << "'other' gives the masked-off elements and needs "
                            "a mask";
  if (getCache() && (*getCache() == CacheModifier::WB ||
                     *getCache() == CacheModifier::WT))
    return emitOpError() << "cache modifier '"
                         << stringifyCacheModifier(*getCache())
                         << "' applies to stores only";
  return success();
}

LogicalResult StoreOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())) ||
      failed(verifyHints(*this, bool(getCache()), bool(getEvict()), false)))
    return failure();
  if (getCache() && (*getCache() == CacheModifier::CA ||
                     *getCache() == CacheModifier::CV))
    return emitOpError() << "cache modifier '"
                         << stringifyCacheModifier(*getCache())
                         << "' applies to loads only";
  return success();
}

static LogicalResult verifyAtomicElement(Operation *op, Type ptrType) {
  Type elem = elementTypeOf(getPointeeValueType(ptrType));
  if (!elem.isF32() && !elem.isInteger(32))
    return op->emitOpError() << "atomics support f32 and i32 elements, got "
                             << elem;
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())))
    return failure();
  return verifyAtomicElement(*this, getPtr().getType());
}

LogicalResult AtomicCASOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())))
    return failure();
  return verifyAtomicElement(*this, getPtr().getType());
}

/// Checks that `resultType` is `src` reduced along `axis` with elements of
/// `elem`: a scalar for a 1-D operand.
static LogicalResult verifyReduceShape(Operation *op, RankedTensorType src,
                                       int64_t axis, Type resultType,
                                       Type elem) {
  if (axis < 0 || axis >= src.getRank())
    return op->emitOpError() << "axis " << axis << " is out of range for a "
                             << "tile of rank " << src.getRank();
  if (src.getRank() == 1) {
    if (resultType != elem)
      return op->emitOpError() << "reducing a 1-D tile gives a scalar of type "
                               << elem << ", not " << resultType;
    return success();
  }
  auto res = dyn_cast<RankedTensorType>(resultType);
  SmallVector<int64_t> expected(src.getShape());
  expected.erase(expected.begin() + axis);
  if (!res || res.getShape() != ArrayRef<int64_t>(expected) ||
      res.getElementType() != elem)
    return op->emitOpError() << "result must be a tile of " << elem
                             << " with the operand's shape less axis " << axis
                             << ", got " << resultType;
  if (src.getEncoding() && res.getEncoding()) {
    auto slice = dyn_cast<SliceLayoutAttr>(res.getEncoding());
    if (!slice || slice.getDim() != axis ||
        slice.getParent() != src.getEncoding())
      return op->emitOpError() << "result layout must be the operand layout "
                               << "sliced at the reduced axis";
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type elem = getSrc().getType().getElementType();
  if (isa<PtrType>(elem))
    return emitOpError() << "cannot reduce a tile of pointers";
  bool isArg = getKind() == ReduceKind::ArgMax || getKind() == ReduceKind::ArgMin;
  if (getKind() == ReduceKind::Sum && elem.isInteger(1))
    return emitOpError() << "cannot sum i1; cast to an integer type first";
  Type resultElem = isArg ? IntegerType::get(getContext(), 32) : elem;
  return verifyReduceShape(*this, getSrc().getType(), getAxisAttr().getInt(),
                           getResult().getType(), resultElem);
}

/// A combiner region of `op` (named `name` in messages) over elements of
/// `elem`: two scalar arguments, one result, and a pure function of them.
static LogicalResult verifyCombiner(Operation *op, Region &combiner, Type elem,
                                    StringRef name) {
  Block &body = combiner.front();
  if (body.getNumArguments() != 2 ||
      body.getArgument(0).getType() != elem ||
      body.getArgument(1).getType() != elem)
    return op->emitOpError() << "combiner must take two arguments of type " << elem;
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != elem)
    return op->emitOpError() << "combiner must yield one value of type " << elem;
  // The lowering combines in an order that follows the layout, the
  // interpreter in sequence: only a pure function of two scalars gives the
  // same result both ways.
  WalkResult impure = body.walk([&](Operation *inner) {
    if (inner == yield.getOperation())
      return WalkResult::advance();
    auto isTile = [](Type t) { return isa<ShapedType>(t); };
    // Scalar conversions are pure functions like arith's; every other tile
    // op works on the program's tiles or memory.
    if (isa_and_nonnull<TileDialect>(inner->getDialect()) &&
        !isa<CastOp, BitcastOp>(inner)) {
      inner->emitOpError() << "cannot be in a " << name
                           << " combiner, which combines two scalars with "
                              "arith, math, scf ops and tile.cast/tile.bitcast";
      return WalkResult::interrupt();
    }
    if (llvm::any_of(inner->getOperandTypes(), isTile) ||
        llvm::any_of(inner->getResultTypes(), isTile)) {
      inner->emitOpError() << "works on a tile, but a " << name
                           << " combiner combines two scalars";
      return WalkResult::interrupt();
    }
    if (!isMemoryEffectFree(inner)) {
      inner->emitOpError() << "has side effects, which a " << name
                           << " combiner must not have: the order it runs in "
                              "is the lowering's";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(impure.wasInterrupted());
}

LogicalResult GenericReduceOp::verifyRegions() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type elem = getSrc().getType().getElementType();
  if (failed(verifyCombiner(*this, getCombiner(), elem, "tile.generic_reduce")))
    return failure();
  return verifyReduceShape(*this, getSrc().getType(), getAxisAttr().getInt(),
                           getResult().getType(), elem);
}

/// The scan axis of a tile of `type`.
static LogicalResult verifyScanAxis(Operation *op, RankedTensorType type,
                                    int64_t axis) {
  if (axis < 0 || axis >= type.getRank())
    return op->emitOpError() << "axis " << axis << " is out of range for a tile of rank "
                             << type.getRank();
  return success();
}

LogicalResult ScanOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type elem = getSrc().getType().getElementType();
  if (isa<PtrType>(elem))
    return emitOpError() << "cannot scan a tile of pointers";
  if ((getKind() == ScanKind::Sum || getKind() == ScanKind::Prod) &&
      elem.isInteger(1))
    return emitOpError() << "cannot " << stringifyScanKind(getKind())
                         << " i1; cast to an integer type first";
  return verifyScanAxis(*this, getSrc().getType(), getAxis());
}

LogicalResult GenericScanOp::verifyRegions() {
  if (failed(verifyTiles(*this)))
    return failure();
  if (failed(verifyCombiner(*this, getCombiner(),
                            getSrc().getType().getElementType(),
                            "tile.generic_scan")))
    return failure();
  return verifyScanAxis(*this, getSrc().getType(), getAxis());
}

/// Whether `tile.sort` and `tile.topk` order elements of type `elem`: the
/// numbers, but not i1 or pointers.

static LogicalResult verifySortable(Operation *op, Type elem, StringRef what) {
  if (isa<PtrType>(elem) || elem.isInteger(1))
    return op->emitOpError() << "cannot sort " << what << " of " << elem
                             << (elem.isInteger(1) ? "; cast to i8 first" : "");
  // fp8 lives as bytes on the GPU: comparing them as numbers is not done.
  if (what != "values" && isFp8(elem))
    return op->emitOpError() << "cannot sort " << what << " of " << elem
                             << "; tile.cast them to f16 or f32 first";
  return success();
}

LogicalResult SortOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       ValueRange operands, DictionaryAttr,
                                       OpaqueProperties, RegionRange,
                                       SmallVectorImpl<Type> &results) {
  for (Value operand : operands)
    results.push_back(operand.getType());
  return success();
}

LogicalResult SortOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  RankedTensorType keys = getKeys().getType();
  if (failed(verifySortable(*this, keys.getElementType(), "keys")) ||
      failed(verifyScanAxis(*this, keys, getAxis())))
    return failure();
  if (Value values = getValues()) {
    auto type = cast<RankedTensorType>(values.getType());
    if (type.getShape() != keys.getShape())
      return emitOpError() << "values must have the keys' shape: expected "
                           << RankedTensorType::get(keys.getShape(),
                                                    type.getElementType());
    if (failed(verifySortable(*this, type.getElementType(), "values")))
      return failure();
    return verifySameLayout(*this, keys, type, "keys and values");
  }
  return success();
}

LogicalResult TopKOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  RankedTensorType src = getSrc().getType();
  auto values = cast<RankedTensorType>(getValues().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  if (failed(verifySortable(*this, src.getElementType(), "a tile")))
    return failure();
  int64_t rank = src.getRank(), n = src.getShape().back();
  if (values.getRank() != rank || values.getElementType() != src.getElementType())
    return emitOpError() << "values must have the source's rank and element type, got "
                         << values;
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (values.getDimSize(d) != src.getDimSize(d))
      return emitOpError() << "values must match the source in dimension " << d
                           << ": " << values.getDimSize(d) << " vs "
                           << src.getDimSize(d);
  int64_t k = values.getShape().back();
  if (k > n)
    return emitOpError() << "k = " << k << " (the results' last dimension) is "
                         << "larger than the row, " << n;
  if (indices.getShape() != values.getShape() ||
      !indices.getElementType().isInteger(32))
    return emitOpError() << "indices must be i32 of the values' shape: expected "
                         << RankedTensorType::get(values.getShape(),
                                                  IntegerType::get(getContext(), 32));
  return verifySameLayout(*this, values, indices, "values and indices");
}

LogicalResult GatherOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  RankedTensorType src = getSrc().getType(), indices = getIndices().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  if (isa<PtrType>(src.getElementType()))
    return emitOpError() << "cannot gather from a tile of pointers";
  if (failed(verifyScanAxis(*this, src, getAxis())))
    return failure();
  if (indices.getRank() != src.getRank())
    return emitOpError() << "indices must have the source's rank " << src.getRank()
                         << ", got " << indices.getRank();
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != int64_t(getAxis()) && indices.getDimSize(d) != src.getDimSize(d))
      return emitOpError() << "indices must match the source in dimension " << d
                           << " (not the axis): " << indices.getDimSize(d)
                           << " vs " << src.getDimSize(d);
  if (result.getShape() != indices.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError() << "result must have the indices' shape and the source's "
                            "element type: expected "
                         << RankedTensorType::get(indices.getShape(),
                                                  src.getElementType());
  return verifySameLayout(*this, indices, result, "indices and result");
}

LogicalResult HistogramOp::verify() {
  return verifyTiles(*this);
}


/// Element types `tile.cast` converts among.
static bool isCastable(Type t) {
  return t.isF32() || t.isF16() || t.isBF16() || t.isF64() || isFp8(t) ||
         t.isInteger(1) || t.isInteger(8) || t.isInteger(16) ||
         t.isInteger(32) || t.isInteger(64);
}

LogicalResult CastOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type srcType = getSrc().getType(), resType = getType();
  if (shapeOf(srcType) != shapeOf(resType) ||
      isa<RankedTensorType>(srcType) != isa<RankedTensorType>(resType))
    return emitOpError() << "changes element types only: " << srcType
                         << " and " << resType << " have different shapes";
  if (failed(verifySameLayout(*this, srcType, resType, "operand and result")))
    return failure();
  Type src = elementTypeOf(srcType), dst = elementTypeOf(resType);
  if (!isCastable(src) || !isCastable(dst))
    return emitOpError() << "cannot cast " << src << " to " << dst
                         << "; supported: f64, f32, f16, bf16, f8E4M3FN, "
                            "f8E5M2, i64, i32, i16, i8, i1";
  // A cast to the same type is the identity, whatever its rounding: one
  // source serves `-D T=f32` and `-D T=f16` (the folder removes it).
  if (src == dst)
    return success();
  if (isFp8(src) || isFp8(dst)) {
    Type other = isFp8(src) ? dst : src;
    if (!other.isF32() && !other.isF16() && !other.isBF16())
      return emitOpError() << "casts " << src << " to " << dst
                           << "; fp8 converts to and from f32, f16 and bf16 "
                              "only";
    if (getRounding() && *getRounding() != RoundingMode::RNE)
      return emitOpError() << "fp8 conversions round to nearest even "
                              "(with saturation) only";
    if (getRounding() && isFp8(src))
      return emitOpError() << "rounding applies to casts that can be "
                              "inexact, not "
                           << src << " to " << dst;
    return success();
  }
  if (!getRounding())
    return success();
  bool floatNarrowing = isa<FloatType>(src) && isa<FloatType>(dst) &&
                        dst.getIntOrFloatBitWidth() < src.getIntOrFloatBitWidth();
  // bf16 <-> f16 narrows in range or precision either way.
  floatNarrowing |= (src.isF16() && dst.isBF16()) || (src.isBF16() && dst.isF16());
  bool floatToInt = isa<FloatType>(src) && dst.isInteger() && !dst.isInteger(1);
  bool intToFloat = src.isInteger() && isa<FloatType>(dst);
  if (intToFloat && *getRounding() != RoundingMode::RNE)
    return emitOpError() << "int to float casts round to nearest even only";
  if (!floatNarrowing && !floatToInt && !intToFloat)
    return emitOpError() << "rounding applies to casts that can be inexact, "
                         << "not " << src << " to " << dst;
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult BitcastOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  Type srcType = getSrc().getType(), resType = getType();
  if (shapeOf(srcType) != shapeOf(resType) ||
      isa<RankedTensorType>(srcType) != isa<RankedTensorType>(resType))
    return emitOpError() << "operand and result shapes differ";
  if (failed(verifySameLayout(*this, srcType, resType, "operand and result")))
    return failure();
  Type src = elementTypeOf(srcType), dst = elementTypeOf(resType);
  // Pointers reinterpret as pointers to another type, or as i64 addresses.
  if (isa<PtrType>(src) || isa<PtrType>(dst)) {
    Type other = isa<PtrType>(src) ? dst : src;
    if (!isa<PtrType>(other) && !other.isInteger(64))
      return emitOpError() << "a pointer bitcasts to a pointer or to i64, not "
                           << other;
    return success();
  }
  if (!src.isIntOrFloat() || !dst.isIntOrFloat() ||
      src.getIntOrFloatBitWidth() != dst.getIntOrFloatBitWidth())
    return emitOpError() << "bitcast needs numbers of equal width, got "
                         << src << " and " << dst;
  return success();
}

LogicalResult DotOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  auto a = getA().getType(), b = getB().getType(), c = getType();
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError() << "operands and result must be 2-D tiles";
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError() << "a is " << a.getDimSize(0) << "x"
                         << a.getDimSize(1) << " (M x K) but b is "
                         << b.getDimSize(0) << "x" << b.getDimSize(1)
                         << " (K x N): K is " << a.getDimSize(1)
                         << " in a and " << b.getDimSize(0) << " in b";
  if (c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return emitOpError() << "accumulator must be " << a.getDimSize(0) << "x"
                         << b.getDimSize(1);
  for (auto [name, t] : {std::pair<StringRef, RankedTensorType>{"a", a},
                         {"b", b}, {"result", c}})
    if (t.getDimSize(0) < 16 || t.getDimSize(1) < 16)
      return emitOpError() << name << " must be at least 16x16, got " << t;
  Type ea = a.getElementType(), eb = b.getElementType(),
       ec = c.getElementType();
  bool ok = (ea.isF16() && eb.isF16() && ec.isF32()) ||
            (isFp8(ea) && isFp8(eb) && ec.isF32()) ||
            (ea.isBF16() && eb.isBF16() && ec.isF32()) ||
            (ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32)) ||
            (ea.isF32() && eb.isF32() && ec.isF32());
  if (!ok)
    return emitOpError() << "unsupported element types " << ea << " x " << eb
                         << " -> " << ec << "; supported: f16 x f16 -> f32, "
                         << "bf16 x bf16 -> f32, i8 x i8 -> i32, "
                            "fp8 (f8E4M3FN, f8E5M2) x fp8 -> f32, "
                            "f32 x f32 -> f32";
  if (getPrecision() && !ea.isF32())
    return emitOpError() << "precision applies to f32 operands only";
  // The instruction must be the one the accumulator's layout gives (the
  // layout pass chose both); warpgroup MMA may drop to mma.sync.
  if (MmaEncodingAttr mma = getMmaAttr()) {
    MmaEncodingAttr expected = getMmaEncoding(*this, mma.isWarpgroup());
    if (mma != expected) {
      InFlightDiagnostic diag = emitOpError() << "mma " << mma;
      if (!expected)
        return diag << " does not fit: its types or accumulator layout take "
                       "no tensor-core instruction";
      return diag << " does not match its types and accumulator layout, "
                     "which take "
                  << expected;
    }
  }
  if (getAsync() && (!getMmaAttr() || !getMmaAttr().isWarpgroup() ||
                     !loopCarriedAccumulator(*this)))
    return emitOpError() << "async needs warpgroup MMA (#tile.mma version 3) "
                            "and an accumulator carried by its scf.for";
  return success();
}

//===----------------------------------------------------------------------===//
// Shared-memory buffers
//===----------------------------------------------------------------------===//

Operation *LocalAllocOp::getLastUse() {
  Block *block = getOperation()->getBlock();
  Operation *last = getOperation();
  for (Operation *user : getOperation()->getUsers()) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    // A use outside the block (past a branch): live to the block's end.
    if (!inBlock)
      return &block->back();
    if (last->isBeforeInBlock(inBlock))
      last = inBlock;
  }
  return last;
}

LogicalResult LocalAllocOp::verify() {
  SharedType type = getType();
  int64_t bytes = type.getSizeInBytes();
  if (bytes > TileDialect::kMaxSharedBytes)
    return emitOpError() << "needs " << bytes
                         << " bytes of shared memory, more than the "
                         << TileDialect::kMaxSharedBytes
                         << " a program can have";
  if (IntegerAttr attr = getOffsetAttr()) {
    int64_t offset = attr.getInt();
    if (offset % type.getAlignment() != 0)
      return emitOpError() << "offset " << offset << " is not a multiple of "
                           << type.getAlignment()
                           << ", the alignment its swizzle needs";
    if (offset + bytes > TileDialect::kMaxSharedBytes)
      return emitOpError() << "ends at byte " << offset + bytes
                           << ", past the " << TileDialect::kMaxSharedBytes
                           << " bytes of shared memory a program can have";
  }
  if (IntegerAttr attr = getBarrierOffsetAttr())
    if (attr.getInt() % 8 != 0)
      return emitOpError() << "barrier_offset " << attr.getInt()
                           << " is not a multiple of 8 (mbarriers are 8 bytes)";
  return success();
}

/// A slot of `buffer` holds a tile of `tile`'s shape.
static LogicalResult verifySlotTile(Operation *op, SharedType buffer,
                                    RankedTensorType tile, StringRef what) {
  if (tile.getShape() != buffer.getSlotShape()) {
    auto diag = op->emitOpError() << what << " has shape ";
    llvm::interleave(tile.getShape(), diag, "x");
    diag << " but a slot of the buffer holds ";
    llvm::interleave(buffer.getSlotShape(), diag, "x");
    return diag;
  }
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  if (failed(verifyMemoryOp(*this, getPtr().getType())))
    return failure();
  auto ptr = getPtr().getType();
  SharedType buffer = getBuffer().getType();
  if (failed(verifySlotTile(*this, buffer, ptr, "the pointer tile")))
    return failure();
  Type pointee = cast<PtrType>(ptr.getElementType()).getPointeeType();
  if (pointee != buffer.getElementType())
    return emitOpError() << "copies " << pointee << " elements into a buffer of "
                         << buffer.getElementType();
  return success();
}

/// A block of `desc` has `tile`'s shape and element type.
static LogicalResult verifyDescriptorBlock(Operation *op, TensorDescType desc,
                                          ArrayRef<int64_t> shape, Type elem,
                                          StringRef what) {
  if (shape != desc.getBlockShape()) {
    auto diag = op->emitOpError() << what << " has shape ";
    llvm::interleave(shape, diag, "x");
    diag << " but the descriptor's blocks are ";
    llvm::interleave(desc.getBlockShape(), diag, "x");
    return diag;
  }
  if (elem != desc.getElementType())
    return op->emitOpError() << what << " holds " << elem
                             << " but the descriptor's elements are "
                             << desc.getElementType();
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  if (getDesc().getDefiningOp<MakeTensorDescOp>() && getType().getEncoding())
    return emitOpError() << "reads a descriptor made in the kernel, a short "
                            "form that tile-desugar writes out before layouts";
  RankedTensorType type = getType();
  return verifyDescriptorBlock(*this, getDesc().getType(), type.getShape(),
                               type.getElementType(), "the result");
}

LogicalResult AsyncTmaCopyOp::verify() {
  SharedType buffer = getBuffer().getType();
  // The block lands row-major: a slot stored with dimension 1 innermost
  // holds it as it is, one with dimension 0 innermost holds its transpose
  // (the same bytes, read as the block's tile.trans).
  SmallVector<int64_t> block(buffer.getSlotShape());
  if (buffer.getContiguousDim() == 0)
    std::swap(block[0], block[1]);
  return verifyDescriptorBlock(*this, getDesc().getType(), block,
                               buffer.getElementType(),
                               buffer.getContiguousDim() == 0
                                   ? "the transposed slot of the buffer"
                                   : "a slot of the buffer");
}

LogicalResult AsyncWaitOp::verify() {
  if (getPendingAttr().getInt() < 0)
    return emitOpError() << "pending must be a count of copy groups (0 or "
                            "more), got "
                         << getPendingAttr().getInt();
  return success();
}

LogicalResult LocalLoadOp::verify() {
  if (failed(verifyTiles(*this)))
    return failure();
  SharedType buffer = getBuffer().getType();
  if (failed(verifySlotTile(*this, buffer, getType(), "the result")))
    return failure();
  return verifySameElementType(
      *this, RankedTensorType::get(buffer.getSlotShape(), buffer.getElementType()),
      getType());
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

LogicalResult RandIntOp::verify() { return verifyTiles(*this); }
LogicalResult RandIntX4Op::verify() { return verifyTiles(*this); }
LogicalResult RandOp::verify() { return verifyTiles(*this); }
LogicalResult RandNOp::verify() { return verifyTiles(*this); }

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() { return verifyTiles(*this); }
LogicalResult AssertOp::verify() { return verifyTiles(*this); }

/// The value of `v` when arith ops on constants compute it: its definition
/// folded, operands first. Only arith ops are folded, and only on constant
/// operands, whose folds return attributes (or one of the operands) without
/// changing the IR, as a verifier must not.
static Attribute foldToConstant(Value v, unsigned depth = 0) {
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 64 || !isa<arith::ArithDialect>(def->getDialect()))
    return {};
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    operands.push_back(foldToConstant(operand, depth + 1));
    if (!operands.back())
      return {};
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) || results.empty())
    return {};
  OpFoldResult result = results[cast<OpResult>(v).getResultNumber()];
  if (auto value = dyn_cast<Value>(result))
    return value == v ? Attribute() : foldToConstant(value, depth + 1);
  return cast<Attribute>(result);
}

LogicalResult StaticAssertOp::verify() {
  auto value = dyn_cast_or_null<IntegerAttr>(foldToConstant(getCond()));
  if (!value)
    return emitOpError() << "needs a condition known at compile time: an "
                            "arith.constant, or arith ops on constants (such "
                            "as ${NAME} values)";
  if (value.getValue().isZero())
    return emitOpError() << "failed: " << getMessage();
  return success();
}

LogicalResult StaticAssertOp::canonicalize(StaticAssertOp op,
                                           PatternRewriter &rewriter) {
  // The verifier has folded the condition to true.
  rewriter.eraseOp(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Compiler hints
//===----------------------------------------------------------------------===//

/// The shared checks of tile.multiple_of, max_contiguous and max_constancy:
/// one value per dimension (one for a scalar), each a positive power of two,
/// and for runs (`isRun`) a tile no longer than its dimension.
static LogicalResult verifyHint(Operation *op, ArrayRef<int64_t> values,
                                bool isRun) {
  if (failed(verifyTiles(op)))
    return failure();
  Type type = op->getOperand(0).getType();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (isRun && !tensor)
    return op->emitOpError() << "speaks of runs along the dimensions of a "
                                "tile, not of the scalar "
                             << type;
  if (!isRun && elementTypeOf(type).isInteger(1))
    return op->emitOpError() << "needs integers or pointers, not i1";
  size_t rank = tensor ? tensor.getRank() : 1;
  if (values.size() != rank)
    return op->emitOpError()
           << "needs " << rank << (rank == 1 ? " value" : " values")
           << (tensor ? ", one per dimension of " : " for the scalar ") << type
           << ", got " << values.size();
  for (auto [d, v] : llvm::enumerate(values)) {
    if (v <= 0 || !llvm::isPowerOf2_64(v))
      return op->emitOpError() << "value " << v << (tensor ? " of dimension " : "")
                               << (tensor ? std::to_string(d) : std::string())
                               << " is not a positive power of two";
    if (isRun && v > tensor.getDimSize(d))
      return op->emitOpError() << "run of " << v << " along dimension " << d
                               << " is longer than the dimension ("
                               << tensor.getDimSize(d) << ")";
  }
  return success();
}

LogicalResult MultipleOfOp::verify() {
  return verifyHint(*this, getValues(), /*isRun=*/false);
}

LogicalResult MaxContiguousOp::verify() {
  if (elementTypeOf(getSrc().getType()).isInteger(1))
    return emitOpError() << "needs integers or pointers, not i1";
  return verifyHint(*this, getValues(), /*isRun=*/true);
}

LogicalResult MaxConstancyOp::verify() {
  return verifyHint(*this, getValues(), /*isRun=*/true);
}
