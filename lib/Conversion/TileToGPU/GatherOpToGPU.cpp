//===- GatherOpToGPU.cpp - tile.gather and tile.histogram -----------------===//
//
// Both go through shared memory, as their elements move by value. A gather
// stores its source row-major, then each thread loads its result elements
// at the addresses its indices give (wrapped into the axis, so that a bad
// index reads another element of the tile, never past it). A histogram
// zeroes its bins, adds each element once (its owner, with a shared-memory
// atomic) to its bin when it has one, and reads the bins into the result's
// layout.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

struct GatherLowering : TilePattern<GatherOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexEmitter e(rewriter, loc);
    RankedTensorType srcType = op.getSrc().getType();
    DistributedView src = viewOf(srcType), dst = viewOf(op.getType());
    unsigned axis = op.getAxis();
    Type elem = srcType.getElementType(), stored = storageType(elem);
    int64_t bytes = byteWidth(stored);
    SmallVector<int64_t> strides = rowMajorStrides(srcType.getShape());
    Value base = state.scratch.base(rewriter, loc, op, srcType.getNumElements() * bytes);

    Value values = adaptor.getSrc();
    int64_t numSrc = src.totalElemsPerThread();
    if (elem != stored)
      values = arith::ExtUIOp::create(rewriter, loc,
                                      VectorType::get({numSrc}, stored), values);
    Value srcOffsets = registerOffsets(e, src, strides, bytes);
    gpu::BarrierOp::create(rewriter, loc);
    // Replicas store the same values.
    storeRuns(e, values, sharedRunLength(src, strides[src.order[0]] == 1, bytes), bytes,
              [&](int64_t r) { return byteAddress(e, base, e.extract(srcOffsets, r)); });
    gpu::BarrierOp::create(rewriter, loc);

    int64_t numDst = dst.totalElemsPerThread();
    auto indexType = VectorType::get({numDst}, rewriter.getI32Type());
    Value wrapped = arith::AndIOp::create(
        rewriter, loc, adaptor.getIndices(),
        arith::ConstantOp::create(
            rewriter, loc,
            DenseIntElementsAttr::get(indexType, int32_t(srcType.getDimSize(axis) - 1))));
    Value dstOffsets = registerOffsets(e, dst, strides, bytes, [&](unsigned d) {
      return d == axis ? wrapped : Value();
    });
    SmallVector<Value> results;
    for (int64_t r = 0; r < numDst; ++r) {
      Value v = LLVM::LoadOp::create(rewriter, loc, stored,
                                     byteAddress(e, base, e.extract(dstOffsets, r)), bytes);
      if (elem != stored)
        v = arith::TruncIOp::create(rewriter, loc, elem, v);
      results.push_back(v);
    }
    rewriter.replaceOp(op, e.fromElements(elem, results));
    return success();
  }
};

struct HistogramLowering : TilePattern<HistogramOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexEmitter e(rewriter, loc);
    DistributedView src = viewOf(op.getSrc().getType()), dst = viewOf(op.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t bins = resultType.getDimSize(0);
    Value base = state.scratch.base(rewriter, loc, op, bins * 4);
    auto binAddress = [&](Value bin) {
      return byteAddress(e, base, arith::MulIOp::create(rewriter, loc, bin, e.i32(4)));
    };

    // Zero the bins: thread t those at t, t + threads, ...
    int64_t threads = 32 * int64_t(src.numWarps);
    gpu::BarrierOp::create(rewriter, loc);
    Value tid = e.threadId();
    for (int64_t start = 0; start < bins; start += threads) {
      Value bin = arith::AddIOp::create(rewriter, loc, tid, e.i32(start));
      auto zero = [&] { LLVM::StoreOp::create(rewriter, loc, e.i32(0), binAddress(bin), 4); };
      if (bins - start >= threads) {
        zero();
        continue;
      }
      auto inRange = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                           bin, e.i32(bins));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(
          scf::IfOp::create(rewriter, loc, inRange, /*withElseRegion=*/false).thenBlock());
      zero();
    }
    gpu::BarrierOp::create(rewriter, loc);

    // Each element once: its owner adds it to its bin, if it has one.
    Value owner = e.ownerPredicate(src);
    for (int64_t r = 0; r < src.totalElemsPerThread(); ++r) {
      Value v = e.extract(adaptor.getSrc(), r);
      Value counted = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, v,
                                            e.i32(bins));
      counted = andPredicates(e, owner, counted);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(
          scf::IfOp::create(rewriter, loc, counted, /*withElseRegion=*/false).thenBlock());
      LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::add, binAddress(v),
                                e.i32(1), LLVM::AtomicOrdering::monotonic);
    }
    gpu::BarrierOp::create(rewriter, loc);

    Value coords = e.coordinates(dst, 0);
    SmallVector<Value> counts;
    for (int64_t r = 0; r < dst.totalElemsPerThread(); ++r)
      counts.push_back(LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(),
                                            binAddress(e.extract(coords, r)), 4));
    rewriter.replaceOp(op, e.fromElements(rewriter.getI32Type(), counts));
    return success();
  }
};

} // namespace

void llk::togpu::populateGatherOpToGPUPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               LoweringState &state) {
  patterns.add<GatherLowering, HistogramLowering>(converter, patterns.getContext(),
                                                  state);
}
