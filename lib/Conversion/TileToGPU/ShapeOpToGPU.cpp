//===- ShapeOpToGPU.cpp - make_range, splat, broadcast, ... ---------------===//
//
// tile.make_range, splat, broadcast and expand_dims stay in each thread's
// registers; tile.reshape, and tile.trans where the transposed layout does not
// keep every element in its thread, move elements through shared memory.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

struct MakeRangeLowering : TilePattern<MakeRangeOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    DistributedView view = viewOf(op.getType());
    Value coords = e.coordinates(view, 0);
    if (op.getStart() != 0)
      coords = arith::AddIOp::create(
          rewriter, op.getLoc(), coords,
          arith::ConstantOp::create(
              rewriter, op.getLoc(),
              DenseIntElementsAttr::get(cast<VectorType>(coords.getType()),
                                        int32_t(op.getStart()))));
    rewriter.replaceOp(op, coords);
    return success();
  }
};

struct SplatLowering : TilePattern<SplatOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value src = adaptor.getSrc();
    if (isa<LLVM::LLVMPointerType>(src.getType()))
      src = LLVM::PtrToIntOp::create(rewriter, op.getLoc(), rewriter.getI64Type(), src);
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
        op, getTypeConverter()->convertType(op.getType()), src);
    return success();
  }
};

struct BroadcastLowering : TilePattern<BroadcastOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DistributedView src = viewOf(op.getSrc().getType());
    DistributedView dst = viewOf(op.getType());
    // Same layout: each result register reads the source register with the
    // broadcast dimensions' local index at 0.
    SmallVector<int64_t> mask;
    for (auto local : dst.localIndices()) {
      for (unsigned d = 0; d < local.size(); ++d)
        if (src.shape[d] == 1)
          local[d] = 0;
      mask.push_back(src.registerIndex(local));
    }
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getSrc(),
                                                   adaptor.getSrc(), mask);
    return success();
  }
};

struct ExpandDimsLowering : TilePattern<ExpandDimsOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A slice and its parent with a size-1 dimension put the same elements
    // in the same registers.
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct ReshapeLowering : TilePattern<ReshapeOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    rewriter.replaceOp(
        op, exchangeThroughShared(
                e, state.scratch, op, adaptor.getSrc(), op.getSrc().getType(),
                op.getType(), rowMajorStrides(op.getSrc().getType().getShape()),
                rowMajorStrides(op.getType().getShape())));
    return success();
  }
};

struct TransLowering : TilePattern<TransOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DistributedView src = viewOf(op.getSrc().getType());
    DistributedView dst = viewOf(op.getType());
    bool relabel = src.sizePerThread[0] == dst.sizePerThread[1] &&
                   src.sizePerThread[1] == dst.sizePerThread[0] &&
                   src.threadsPerWarp[0] == dst.threadsPerWarp[1] &&
                   src.threadsPerWarp[1] == dst.threadsPerWarp[0] &&
                   src.warpsPerCTA[0] == dst.warpsPerCTA[1] &&
                   src.warpsPerCTA[1] == dst.warpsPerCTA[0] &&
                   src.warpRepeat[0] == dst.warpRepeat[1] &&
                   src.warpRepeat[1] == dst.warpRepeat[0] &&
                   src.laneStride[0] == dst.laneStride[1] &&
                   src.warpStride[0] == dst.warpStride[1];
    if (relabel) {
      // The transposed layout keeps every element in its thread.
      SmallVector<int64_t> mask;
      for (auto local : dst.localIndices())
        mask.push_back(src.registerIndex({local[1], local[0]}));
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getSrc(),
                                                     adaptor.getSrc(), mask);
      return success();
    }
    IndexEmitter e(rewriter, op.getLoc());
    auto srcShape = op.getSrc().getType().getShape();
    rewriter.replaceOp(op, exchangeThroughShared(
                               e, state.scratch, op, adaptor.getSrc(),
                               op.getSrc().getType(), op.getType(),
                               rowMajorStrides(srcShape), {1, srcShape[1]}));
    return success();
  }
};

} // namespace

void llk::togpu::populateShapeOpToGPUPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              LoweringState &state) {
  patterns.add<MakeRangeLowering, SplatLowering, BroadcastLowering, ExpandDimsLowering, ReshapeLowering, TransLowering>(
      converter, patterns.getContext(), state);
}
