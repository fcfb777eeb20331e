//===- LocalMemoryOpToGPU.cpp - tile.local_alloc and tile.local_load ------===//
//
// The shared-memory buffers of software pipelining: each tile.local_alloc is
// its place in the kernel's shared memory (and, for TMA, one mbarrier per
// slot); tile.local_load reads a slot into registers, or nothing where every
// user is a dot that reads the slot itself.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

struct LocalAllocLowering : TilePattern<LocalAllocOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    // Scratch users before the buffer's live range, and buffers no longer
    // live (tile-allocate-shared lets them share bytes), end with reads or
    // copies, not a barrier: this thread's cp.async copies must land and
    // every thread be done before the first copy writes here.
    if (op.getReusesBytes())
      NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), 0);
    gpu::BarrierOp::create(rewriter, op.getLoc());
    Value base = state.scratch.kernelBase(rewriter, op.getLoc(), op);
    int64_t offset = op.getOffsetAttr().getInt();
    if (op.getBarrierOffsetAttr()) {
      // One mbarrier per slot, one arrival (the thread that starts the
      // copies) plus the bytes they bring; ready before anyone uses them.
      ifFirstThread(e, nullptr, [&] {
        for (int64_t slot = 0; slot < op.getType().getNumSlots(); ++slot)
          NVVM::MBarrierInitOp::create(
              rewriter, op.getLoc(),
              tmaBarrier(e, state, op, op, e.i32(slot)), e.i32(1),
              /*predicate=*/Value());
        NVVM::FenceMbarrierInitOp::create(rewriter, op.getLoc());
      });
      gpu::BarrierOp::create(rewriter, op.getLoc());
    }
    rewriter.replaceOp(op, byteAddress(e, base, e.i32(offset)));
    return success();
  }
};

/// Reads a slot into registers; nothing when every user is a dot that reads
/// the slot itself.
struct LocalLoadLowering : TilePattern<LocalLoadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    auto resultType =
        cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    bool direct = llvm::all_of(op->getUses(), [](OpOperand &use) {
      auto dot = dyn_cast<DotOp>(use.getOwner());
      return dot && use.getOperandNumber() < 2 &&
             readsOperandFromBuffer(dot, use.getOperandNumber());
    });
    if (direct) {
      rewriter.replaceOp(op, e.poison(resultType));
      return success();
    }
    SharedOperand slot = slotOperand(e, op.getBuffer(),
                                     adaptor.getBuffer(), adaptor.getSlot());
    DistributedView view = viewOf(op.getType());
    Value rows = e.coordinates(view, 0), cols = e.coordinates(view, 1);
    int64_t run = sharedRunLength(view, view.order[0] == slot.innerDim, slot.bytes);
    Value result = loadRuns(e, resultType, run, slot.bytes, [&](int64_t r) {
      return slot.tileAddress(e, e.extract(rows, r), e.extract(cols, r));
    });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

namespace llk::togpu {

RankedTensorType slotTileType(SharedType type) {
  return RankedTensorType::get(type.getSlotShape(), type.getElementType());
}

SharedOperand slotOperand(IndexEmitter &e, Value buffer, Value base,
                          Value slot) {
  auto type = cast<SharedType>(buffer.getType());
  RankedTensorType tile = slotTileType(type);
  int64_t slotBytes = tile.getNumElements() * byteWidth(type.getElementType());
  Value offset = arith::MulIOp::create(e.b, e.loc, slot, e.i32(slotBytes));
  SharedOperand operand(byteAddress(e, base, offset), tile,
                        type.getContiguousDim(), /*swizzled=*/true);
  if (type.getSwizzle() == SharedSwizzle::Wgmma)
    operand.useWgmmaLayout();
  return operand;
}

} // namespace llk::togpu

void llk::togpu::populateLocalMemoryOpToGPUPatterns(const TypeConverter &converter,
                                                    RewritePatternSet &patterns,
                                                    LoweringState &state) {
  patterns.add<LocalAllocLowering, LocalLoadLowering>(
      converter, patterns.getContext(), state);
}
