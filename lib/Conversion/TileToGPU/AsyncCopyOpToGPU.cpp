//===- AsyncCopyOpToGPU.cpp - cp.async into buffer slots ------------------===//
//
// tile.async_copy is one cp.async per chunk of registers contiguous in
// global memory, into the chunk's swizzled place in the slot;
// tile.async_commit and tile.async_wait are cp.async's groups.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// One cp.async per chunk of registers contiguous in global memory (the
/// access width of the contiguity analysis: 16 bytes for a vectorizable
/// tile), into the chunk's swizzled place in the slot; a masked-off chunk
/// reads nothing (source size 0) and writes zeros.
struct AsyncCopyLowering : TilePattern<AsyncCopyOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    SharedType type = op.getBuffer().getType();
    DistributedView view = viewOf(op.getPtr().getType());
    int64_t bytes = byteWidth(type.getElementType());
    int64_t width = getMemoryAccess(op, state.axisInfoOf(op)).width;
    int64_t chunkBytes = width * bytes;
    if (chunkBytes < 4 ||
        (width > 1 && view.order[0] != type.getContiguousDim()))
      return op.emitOpError()
             << "copies " << chunkBytes
             << " contiguous bytes at a time along dimension " << view.order[0]
             << ", but cp.async moves 4, 8 or 16 bytes into the slot's "
                "contiguous dimension "
             << type.getContiguousDim();
    SharedOperand slot = slotOperand(e, op.getBuffer(),
                                     adaptor.getBuffer(), adaptor.getSlot());
    Value rows = e.coordinates(view, 0), cols = e.coordinates(view, 1);
    auto modifier = chunkBytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                     : NVVM::LoadCacheModifierKind::CA;
    // A chunk whose slot row is the first chunk's plus a multiple of the
    // swizzle period, in the same columns, has the same swizzle: its
    // address is the first one's plus a constant, which spares a register
    // and an add per chunk (the registers' coordinates are the thread's
    // plus constants, unless the tile is smaller than the layout's pattern).
    auto localOffsets = [&](unsigned d) {
      SmallVector<int64_t> offsets;
      for (const auto &local : view.localIndices())
        offsets.push_back(view.localOffset(d, local[d]));
      return offsets;
    };
    bool wraps = view.shape[0] < view.tileExtent(0) ||
                 view.shape[1] < view.tileExtent(1);
    SmallVector<int64_t> outerOffsets = localOffsets(1 - slot.innerDim),
                         innerOffsets = localOffsets(slot.innerDim);
    Value firstDst;
    for (int64_t r = 0; r < view.totalElemsPerThread(); r += width) {
      int64_t dOuter = outerOffsets[r] - outerOffsets[0];
      Value dst;
      if (r > 0 && !wraps && innerOffsets[r] == innerOffsets[0] &&
          dOuter % (slot.perPhase * slot.maxPhase) == 0)
        dst = byteAddress(e, firstDst, e.i32(dOuter * slot.slabBytes));
      else
        dst = slot.tileAddress(e, e.extract(rows, r), e.extract(cols, r));
      if (r == 0)
        firstDst = dst;
      Value src = toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
      Value size;
      if (adaptor.getMask())
        size = arith::SelectOp::create(rewriter, op.getLoc(),
                                       e.extract(adaptor.getMask(), r),
                                       e.i32(chunkBytes), e.i32(0));
      NVVM::CpAsyncOp::create(rewriter, op.getLoc(), dst, src, chunkBytes,
                              modifier, size);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitLowering : TilePattern<AsyncCommitOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncCommitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitLowering : TilePattern<AsyncWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getPending());
    // wgmma reads shared memory through the async proxy: order this
    // thread's copies before it.
    auto kernel = op->getParentOfType<FunctionOpInterface>();
    if (state.wgmmaKernels.contains(kernel.getName()))
      NVVM::FenceProxyOp::create(
          rewriter, op.getLoc(),
          NVVM::ProxyKindAttr::get(rewriter.getContext(),
                                   NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                     NVVM::SharedSpace::shared_cta));
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

} // namespace

void llk::togpu::populateAsyncCopyOpToGPUPatterns(const TypeConverter &converter,
                                                  RewritePatternSet &patterns,
                                                  LoweringState &state) {
  patterns.add<AsyncCopyLowering, AsyncCommitLowering, AsyncWaitLowering>(
      converter, patterns.getContext(), state);
}
