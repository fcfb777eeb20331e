//===- DotOpToGPU.cpp - tile.dot and tile.dot_wait ------------------------===//
//
// tile.dot runs on warpgroup MMA where its `mma` attribute says so, on
// mma.sync where the tensor cores take its types and accumulator layout,
// else as the FMA loop (DotOpToGPU/); its operands come from shared memory:
// staged from registers, or, when software pipelining
// (tile-software-pipeline) put them there, read straight from their buffer
// slot; warpgroup MMA's A also straight from registers.
//
//===----------------------------------------------------------------------===//

#include "DotOpToGPU/DotOpToGPU.h"

#include "llvm/Support/Debug.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

#define DEBUG_TYPE "convert-tile-to-gpu"
#define DBGS() (llvm::dbgs() << "[" DEBUG_TYPE "] ")

namespace {

/// In a kernel with warpgroup MMA, waits for every wgmma group and pins
/// the tile's registers after the wait; elsewhere nothing runs
/// asynchronously and the tile passes through.
struct DotWaitLowering : TilePattern<DotWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(DotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto kernel = op->getParentOfType<FunctionOpInterface>();
    Value acc = adaptor.getAcc();
    if (!state.wgmmaKernels.contains(kernel.getName()) ||
        !cast<VectorType>(acc.getType()).getElementType().isF32()) {
      rewriter.replaceOp(op, acc);
      return success();
    }
    IndexEmitter e(rewriter, op.getLoc());
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, op.getLoc(), 0);
    int64_t n = cast<VectorType>(acc.getType()).getNumElements();
    SmallVector<Value> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(e.extract(acc, i));
    rewriter.replaceOp(op, e.fromElements(rewriter.getF32Type(),
                                          pinAfterWait(e, values)));
    return success();
  }
};

struct DotLowering : TilePattern<DotOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    auto slotOf = [&](unsigned index) {
      auto load = op->getOperand(index).getDefiningOp<LocalLoadOp>();
      return slotOperand(e, load.getBuffer(),
                         rewriter.getRemappedValue(load.getBuffer()),
                         rewriter.getRemappedValue(load.getSlot()));
    };
    auto buffered = [&](unsigned index) -> std::optional<SharedOperand> {
      if (!readsOperandFromBuffer(op, index))
        return std::nullopt;
      return slotOf(index);
    };
    if (MmaEncodingAttr mma = op.getMmaAttr(); mma && mma.isWarpgroup()) {
      // A from its wgmma buffer, else from registers (checkLowerable: in
      // the register-A layout).
      std::optional<SharedOperand> aSlot;
      if (readsWgmmaBuffer(op, 0))
        aSlot = slotOf(0);
      LLVM_DEBUG(DBGS() << "dot at " << op.getLoc() << ": warpgroup MMA"
                        << (aSlot ? "" : ", A from registers")
                        << (op.getAsync() ? ", its K step left in flight" : "")
                        << "\n");
      rewriter.replaceOp(op, lowerWgmmaDot(e, op, adaptor.getAcc(),
                                           adaptor.getA(), aSlot,
                                           slotOf(1), op.getAsync()));
      return success();
    }
    LLVM_DEBUG(DBGS() << "dot at " << op.getLoc() << ": "
                      << (usesTensorCores(op) ? "mma.sync" : "the FMA loop")
                      << (readsOperandFromBuffer(op, 0) ? ", a from its slot" : "")
                      << (readsOperandFromBuffer(op, 1) ? ", b from its slot" : "")
                      << "\n");
    Value result =
        usesTensorCores(op)
            ? lowerMmaDot(e, state.scratch, op, adaptor.getA(), adaptor.getB(),
                          adaptor.getAcc(), buffered(0), buffered(1))
            : lowerFmaDot(e, state.scratch, op, adaptor.getA(), adaptor.getB(),
                          adaptor.getAcc());
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

namespace llk::togpu {

void stageOperand(IndexEmitter &e, Value regs, RankedTensorType type,
                  const SharedOperand &smem) {
  DistributedView view = viewOf(type);
  Value rows = e.coordinates(view, 0), cols = e.coordinates(view, 1);
  int64_t run = sharedRunLength(view, view.order[0] == smem.innerDim, smem.bytes);
  storeRuns(e, regs, run, smem.bytes, [&](int64_t r) {
    return smem.tileAddress(e, e.extract(rows, r), e.extract(cols, r));
  });
}

bool readsOperandFromBuffer(DotOp dot, unsigned index) {
  auto load = dot->getOperand(index).getDefiningOp<LocalLoadOp>();
  if (!load || !usesTensorCores(dot))
    return false;
  SharedType type = load.getBuffer().getType();
  unsigned bytes = byteWidth(type.getElementType());
  if (bytes > 2)
    return false; // tf32 rounds its operands in registers first
  unsigned kDim = index == 0 ? 1 : 0;
  return type.getContiguousDim() == kDim || bytes == 2;
}

bool readsWgmmaBuffer(DotOp dot, unsigned index) {
  auto load = dot->getOperand(index).getDefiningOp<LocalLoadOp>();
  return load &&
         load.getBuffer().getType().getSwizzle() == SharedSwizzle::Wgmma;
}

} // namespace llk::togpu

void llk::togpu::populateDotOpToGPUPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            LoweringState &state) {
  patterns.add<DotLowering, DotWaitLowering>(
      converter, patterns.getContext(), state);
}
