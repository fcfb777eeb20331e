//===- WarpgroupMmaOperands.cpp - buffers that warpgroup MMA reads --------===//
//
// Warpgroup MMA (#tile.mma version 3) reads B straight from shared memory,
// laid out as it wants (`swizzle = wgmma`), and A from there too or from
// registers. Once software pipelining has made the buffers (and
// canonicalization has cleaned up after it), tile-allocate-shared gives each
// dot that the layout pass gave warpgroup MMA its buffers in that layout,
// its A in registers where no buffer holds it (the previous dot's
// accumulator, already in the register-A layout, as P in attention; or a
// tile computed outside the dot's loop, converted there once, as Q), or
// drops it to mma.sync.
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/Tile/IR/Layout.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tile-allocate-shared"
#define DBGS() (llvm::dbgs() << "[" DEBUG_TYPE "] ")

using namespace mlir;
using namespace llk::tile;

/// The buffer operand `index` of `dot` is read from, when that buffer holds
/// nothing else: a tile.local_load with no other user, of a tile.local_alloc
/// that only copies fill and no other dot's warpgroup MMA reads.
static LocalAllocOp exclusiveBuffer(DotOp dot, unsigned index) {
  auto load = dot->getOperand(index).getDefiningOp<LocalLoadOp>();
  if (!load || !load->hasOneUse())
    return nullptr;
  auto alloc = load.getBuffer().getDefiningOp<LocalAllocOp>();
  if (!alloc || alloc.getType().getSwizzle() == SharedSwizzle::Wgmma ||
      llvm::any_of(alloc->getUsers(), [&](Operation *user) {
        return !isa<AsyncCopyOp, AsyncTmaCopyOp, AsyncTmaWaitOp>(user) &&
               user != load;
      }))
    return nullptr;
  return alloc;
}

/// Whether `dot` (on warpgroup MMA) may leave its K step in flight: it
/// accumulates into a loop-carried value that nothing else reads, and the
/// loop's result goes straight to a tile.dot_wait (tile-software-pipeline's
/// pattern).
static bool runsAsynchronously(DotOp dot) {
  std::optional<unsigned> index = loopCarriedAccumulator(dot);
  if (!index)
    return false;
  Value result = cast<scf::ForOp>(dot->getParentOp()).getResult(*index);
  return result.hasOneUse() && isa<DotWaitOp>(*result.getUsers().begin());
}

/// Where `dot` can read its A operand from registers: A already in the
/// register-A layout, or computed outside the loop around the dot (or with
/// no loop), where one tile.convert_layout (shared by the dots that read the
/// same tile) gives it that layout once. `converted` holds those conversions.
static bool placeRegisterOperandA(DotOp dot,
                                  llvm::DenseMap<Value, Value> &converted) {
  if (hasWarpgroupRegisterOperandA(dot))
    return true;
  Value a = dot.getA();
  auto cLayout = cast<BlockedLayoutAttr>(dot.getType().getEncoding());
  BlockedLayoutAttr layout = getWarpgroupRegisterOperandLayout(
      dot.getContext(), dot.getA().getType().getShape(),
      cLayout.getNumWarps());
  auto loop = dot->getParentOfType<LoopLikeOpInterface>();
  if (!layout || (loop && !loop.isDefinedOutsideOfLoop(a)))
    return false;
  Value &cvt = converted[a];
  if (!cvt) {
    OpBuilder builder(dot.getContext());
    builder.setInsertionPointAfterValue(a);
    cvt = ConvertLayoutOp::create(builder, dot.getLoc(),
                                  withLayout(dot.getA().getType(), layout), a);
  }
  dot.getAMutable().set(cvt);
  return true;
}

void llk::tile::placeWarpgroupMmaOperands(func::FuncOp func) {
  llvm::DenseMap<Value, Value> converted;
  func.walk([&](DotOp dot) {
    MmaEncodingAttr mma = dot.getMmaAttr();
    if (!mma || !mma.isWarpgroup())
      return;
    LocalAllocOp a = exclusiveBuffer(dot, 0), b = exclusiveBuffer(dot, 1);
    bool buffers = a && b && a != b &&
                   suitsWarpgroupMma(dot, a.getType().getContiguousDim(),
                                     b.getType().getContiguousDim());
    bool registerA = !buffers && b &&
                     suitsWarpgroupMma(dot, std::nullopt,
                                       b.getType().getContiguousDim()) &&
                     placeRegisterOperandA(dot, converted);
    LLVM_DEBUG(DBGS() << "dot at " << dot.getLoc()
                      << (buffers     ? ": warpgroup MMA, its buffers "
                                        "swizzled for it"
                          : registerA ? ": warpgroup MMA, A from registers "
                                        "in the accumulator layout, B's "
                                        "buffer swizzled for it"
                                      : ": mma.sync, its operands are not in "
                                        "buffers of their own (or A in "
                                        "registers) that warpgroup MMA can "
                                        "read")
                      << (buffers && runsAsynchronously(dot)
                              ? ", its K step left in flight"
                              : "")
                      << "\n");
    if (!buffers && !registerA) {
      // fp8 has no mma.sync here: it runs as an exact f16 dot there.
      if (isFp8(dot.getA().getType()))
        upcastFp8Operands(dot);
      dot.setMmaAttr(getMmaEncoding(dot, /*allowWarpgroup=*/false));
      return;
    }
    for (LocalAllocOp alloc : {a, b})
      if (alloc && (buffers || alloc == b))
        alloc.getResult().setType(
            alloc.getType().withSwizzle(SharedSwizzle::Wgmma));
    // In flight across iterations, a dot would still read registers that
    // the next iteration's A overwrites: only buffered operands may.
    dot.setAsync(buffers && runsAsynchronously(dot));
  });
}
