//===- ConvertLayoutOpToGPU.cpp - tile.convert_layout ---------------------===//
//
// A layout conversion recomputes index tiles in the new layout from each
// thread's coordinates; other tiles go through shared memory, rows padded so
// that threads holding the same columns of consecutive rows hit different
// banks.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// Recomputes the integer index tile `v` (built from make_range, splats of
/// scalars, splat constants, expand_dims, layout conversions and +, -, *) in
/// the layout of `dst`, from each thread's own coordinates; `dims[d]` is the
/// dimension of the target tile that `v`'s dimension d becomes. Null where
/// `v` is anything else (ops already created for it are then dead).
Value rematerializeIndices(IndexEmitter &e, ConversionPatternRewriter &rewriter,
                           Value v, const DistributedView &dst,
                           ArrayRef<unsigned> dims, int depth = 0) {
  auto tile = dyn_cast<RankedTensorType>(v.getType());
  Operation *def = v.getDefiningOp();
  if (!tile || !tile.getElementType().isInteger(32) || !def || depth > 32)
    return Value();
  auto type = VectorType::get({dst.totalElemsPerThread()}, e.b.getI32Type());
  if (auto range = dyn_cast<MakeRangeOp>(def)) {
    Value coords = e.coordinates(dst, dims[0]);
    if (range.getStart() == 0)
      return coords;
    return arith::AddIOp::create(
        e.b, e.loc, coords,
        arith::ConstantOp::create(
            e.b, e.loc, DenseIntElementsAttr::get(type, int32_t(range.getStart()))));
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    SmallVector<unsigned> srcDims;
    for (unsigned d = 0; d + 1 < dims.size(); ++d)
      srcDims.push_back(dims[d < expand.getAxis() ? d : d + 1]);
    return rematerializeIndices(e, rewriter, expand.getSrc(), dst, srcDims,
                                depth + 1);
  }
  if (auto convert = dyn_cast<ConvertLayoutOp>(def))
    return rematerializeIndices(e, rewriter, convert.getSrc(), dst, dims,
                                depth + 1);
  if (auto splat = dyn_cast<SplatOp>(def)) {
    Value scalar = rewriter.getRemappedValue(splat.getSrc());
    if (!scalar || !scalar.getType().isInteger(32))
      return Value();
    return vector::BroadcastOp::create(e.b, e.loc, type, scalar);
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!dense || !dense.isSplat())
      return Value();
    return arith::ConstantOp::create(
        e.b, e.loc, DenseIntElementsAttr::get(type, dense.getSplatValue<APInt>()));
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    Value a = rematerializeIndices(e, rewriter, def->getOperand(0), dst, dims, depth + 1);
    Value b = a ? rematerializeIndices(e, rewriter, def->getOperand(1), dst, dims,
                                       depth + 1)
                : Value();
    if (!b)
      return Value();
    OperationState state(e.loc, def->getName(), ValueRange{a, b}, TypeRange{type},
                         def->getAttrs());
    return e.b.create(state)->getResult(0);
  }
  return Value();
}

/// Row-major strides for moving a tile between the layouts of `src` and
/// `dst` through shared memory. When a row is a whole number of bank periods
/// (128 bytes), rows get padded by the widest access either side makes (so
/// those stay aligned): then threads that hold the same columns of
/// consecutive rows (an mma accumulator's 8 rows a warp, or a column read)
/// no longer all hit the same banks.
static SmallVector<int64_t> exchangeStrides(RankedTensorType src,
                                            RankedTensorType dst) {
  ArrayRef<int64_t> shape = dst.getShape();
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  int64_t bytes = byteWidth(storageType(dst.getElementType()));
  unsigned last = shape.size() - 1;
  if (shape.size() < 2 || (shape.back() * bytes) % 128 != 0)
    return strides;
  int64_t accessBytes = bytes;
  for (RankedTensorType type : {src, dst}) {
    DistributedView view = viewOf(type);
    accessBytes = std::max(
        accessBytes, sharedRunLength(view, view.order[0] == last, bytes) * bytes);
  }
  strides[last - 1] = shape.back() + accessBytes / bytes;
  for (int d = int(last) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

struct ConvertLayoutLowering : TilePattern<ConvertLayoutOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    // Index tiles are cheaper to recompute in the new layout than to move
    // through shared memory (two barriers). 3-D kernels need this: their
    // index tiles come from chains of expand_dims, whose intermediate tiles
    // must be blocked where the next expand_dims wants a slice.
    SmallVector<unsigned> dims =
        llvm::to_vector(llvm::seq<unsigned>(0, op.getType().getRank()));
    if (Value recomputed = rematerializeIndices(e, rewriter, op.getSrc(),
                                                viewOf(op.getType()), dims)) {
      rewriter.replaceOp(op, recomputed);
      return success();
    }
    auto strides = exchangeStrides(op.getSrc().getType(), op.getType());
    rewriter.replaceOp(op, exchangeThroughShared(e, state.scratch, op,
                                                 adaptor.getSrc(),
                                                 op.getSrc().getType(),
                                                 op.getType(), strides, strides));
    return success();
  }
};

} // namespace

void llk::togpu::populateConvertLayoutOpToGPUPatterns(const TypeConverter &converter,
                                                      RewritePatternSet &patterns,
                                                      LoweringState &state) {
  patterns.add<ConvertLayoutLowering>(
      converter, patterns.getContext(), state);
}
