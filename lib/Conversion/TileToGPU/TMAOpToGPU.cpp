//===- TMAOpToGPU.cpp - TMA copies into buffer slots ----------------------===//
//
// tile.async_tma_copy: one thread announces a slot's bytes on its mbarrier
// and starts cp.async.bulk.tensor per box; tile.async_tma_wait: every thread
// waits for the barrier's phase.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// One thread announces the slot's bytes on its barrier and starts one
/// cp.async.bulk.tensor per box (tmaBoxOf) into the slot's wgmma layout:
/// 128-byte slabs of the contiguous dimension (the block's columns, also
/// in a `contiguous = 0` slot, which holds the block transposed), one
/// after the other.
struct AsyncTmaCopyLowering : TilePattern<AsyncTmaCopyOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncTmaCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    auto alloc = op.getBuffer().getDefiningOp<LocalAllocOp>();
    SharedOperand slot = slotOperand(e, op.getBuffer(),
                                     adaptor.getBuffer(), adaptor.getSlot());
    Value barrier = tmaBarrier(e, state, alloc, op, adaptor.getSlot());
    auto [boxRows, boxCols] = tmaBoxOf(op.getDesc().getType());
    int64_t slabs = slot.inner / boxCols;
    ifFirstThread(e, adaptor.getPred(), [&] {
      NVVM::MBarrierArriveExpectTxOp::create(
          rewriter, op.getLoc(), /*res=*/Type(), barrier,
          e.i32(slot.sizeInBytes()), NVVM::MemScopeKind::CTA,
          /*relaxed=*/false, /*predicate=*/Value());
      for (int64_t s = 0; s < slabs; ++s)
        for (int64_t r = 0; r < slot.outer; r += boxRows) {
          Value coords[] = {
              arith::AddIOp::create(e.b, e.loc, adaptor.getCol(),
                                    e.i32(s * boxCols)),
              arith::AddIOp::create(e.b, e.loc, adaptor.getRow(), e.i32(r))};
          // The destination as a shared::cluster address (a program is a
          // cluster of one), the form sm_90 takes.
          Value dst = LLVM::AddrSpaceCastOp::create(
              rewriter, op.getLoc(),
              LLVM::LLVMPointerType::get(rewriter.getContext(),
                                         kSharedClusterAddressSpace),
              slot.address(e, e.i32(r), e.i32(s * boxCols)));
          NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
              rewriter, op.getLoc(), dst,
              adaptor.getDesc(), coords, barrier, /*im2colOffsets=*/ValueRange(),
              /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
              NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
              /*group=*/nullptr, /*predicate=*/Value());
        }
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Every thread spins on the slot's barrier until the phase completes.
struct AsyncTmaWaitLowering : TilePattern<AsyncTmaWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncTmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Value barrier =
        tmaBarrier(e, state, op.getBuffer().getDefiningOp<LocalAllocOp>(), op,
                   adaptor.getSlot());
    // A loop of mbarrier.try_wait.parity (each try may suspend the thread
    // for a while). Inline assembly with side effects: nvvm's op for it has
    // none, so nothing would keep it alive.
    Value address = LLVM::PtrToIntOp::create(rewriter, op.getLoc(),
                                             rewriter.getI32Type(), barrier);
    e.inlineAsm(Type(), ValueRange{address, adaptor.getPhase()},
                "{\n.reg .pred done;\nwait:\n"
                "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
                "@!done bra wait;\n}",
                "r,r");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

std::pair<int64_t, int64_t> llk::togpu::tmaBoxOf(TensorDescType desc) {
  return {std::min<int64_t>(desc.getBlockShape()[0], 256),
          128 / byteWidth(desc.getElementType())};
}

LogicalResult llk::togpu::checkTmaCopies(func::FuncOp func) {
  WalkResult result = func.walk([&](AsyncTmaCopyOp copy) {
    auto alloc = copy.getBuffer().getDefiningOp<LocalAllocOp>();
    if (!alloc || alloc.getType().getSwizzle() != SharedSwizzle::Wgmma) {
      copy.emitOpError("fills a buffer that no warpgroup MMA (wgmma) reads; "
                       "TMA copies feed only wgmma so far (sm_90a, f16/bf16/fp8 "
                       "dots whose accumulator puts every warp along M and "
                       "whose instructions fit a thread's registers: fewer "
                       "columns, warps or programs per SM)");
      return WalkResult::interrupt();
    }
    // The box is 128 bytes wide, encoded with the 128-byte swizzle.
    SharedType type = alloc.getType();
    if (type.getShape()[1 + type.getContiguousDim()] *
            byteWidth(type.getElementType()) % 128 != 0) {
      copy.emitOpError("fills a buffer of 64-byte rows (the 64-byte wgmma "
                       "swizzle); TMA copies fill 128-byte slabs only");
      return WalkResult::interrupt();
    }
    if (!alloc.getBarrierOffsetAttr()) {
      copy.emitOpError("fills a buffer without barriers (barrier_offset); "
                       "run tile-allocate-shared first");
      return WalkResult::interrupt();
    }
    auto arg = dyn_cast<BlockArgument>(copy.getDesc());
    if (!arg || arg.getOwner() != &func.getBody().front()) {
      copy.emitOpError("needs the descriptor to be a kernel argument");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // The host encodes every descriptor with the box of its copies.
  for (BlockArgument arg : func.getArguments())
    if (isa<TensorDescType>(arg.getType()) &&
        llvm::none_of(arg.getUsers(),
                      [](Operation *user) { return isa<AsyncTmaCopyOp>(user); }))
      return func.emitError("kernel argument ")
             << arg.getArgNumber()
             << " is a tensor descriptor that no pipelined tile.dot operand "
                "reads, so it has no TMA box to be encoded with";
  return success();
}

namespace llk::togpu {

Value tmaBarrier(IndexEmitter &e, LoweringState &state, LocalAllocOp alloc,
                 Operation *op, Value slot) {
  Value base = state.scratch.kernelBase(e.b, e.loc, op);
  Value offset = arith::AddIOp::create(
      e.b, e.loc, e.i32(alloc.getBarrierOffsetAttr().getInt()),
      arith::MulIOp::create(e.b, e.loc, slot, e.i32(8)));
  return byteAddress(e, base, offset);
}

void ifFirstThread(IndexEmitter &e, Value extra,
                   llvm::function_ref<void()> body) {
  Value first = andPredicates(e, isFirstThread(e), extra);
  auto branch = scf::IfOp::create(e.b, e.loc, first, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(e.b);
  e.b.setInsertionPointToStart(&branch.getThenRegion().front());
  body();
}

} // namespace llk::togpu

void llk::togpu::populateTMAOpToGPUPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            LoweringState &state) {
  patterns.add<AsyncTmaCopyLowering, AsyncTmaWaitLowering>(
      converter, patterns.getContext(), state);
}
