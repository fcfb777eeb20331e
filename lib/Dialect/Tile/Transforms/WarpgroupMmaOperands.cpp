//===- WarpgroupMmaOperands.cpp - buffers that warpgroup MMA reads --------===//
//
// Warpgroup MMA (#tile.mma version 3) reads both operands of a dot straight
// from shared memory, laid out as it wants (`swizzle = wgmma`). Once software
// pipelining has made the buffers (and canonicalization has cleaned up after
// it), tile-allocate-shared gives each dot that the layout pass gave
// warpgroup MMA its two buffers in that layout, or drops it to mma.sync.
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/Tile/IR/Layout.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

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

void llk::tile::placeWarpgroupMmaOperands(func::FuncOp func) {
  func.walk([&](DotOp dot) {
    MmaEncodingAttr mma = dot.getMmaAttr();
    if (!mma || !mma.isWarpgroup())
      return;
    LocalAllocOp a = exclusiveBuffer(dot, 0), b = exclusiveBuffer(dot, 1);
    bool fits = a && b && a != b &&
                suitsWarpgroupMma(dot, a.getType().getContiguousDim(),
                                  b.getType().getContiguousDim());
    LLVM_DEBUG(DBGS() << "dot at " << dot.getLoc()
                      << (fits ? ": warpgroup MMA, its buffers swizzled for it"
                               : ": mma.sync, its operands are not in buffers "
                                 "of their own that warpgroup MMA can read")
                      << (fits && runsAsynchronously(dot)
                              ? ", its K step left in flight"
                              : "")
                      << "\n");
    if (!fits) {
      dot.setMmaAttr(getMmaEncoding(dot, /*allowWarpgroup=*/false));
      return;
    }
    for (LocalAllocOp alloc : {a, b})
      alloc.getResult().setType(
          alloc.getType().withSwizzle(SharedSwizzle::Wgmma));
    dot.setAsync(runsAsynchronously(dot));
  });
}
