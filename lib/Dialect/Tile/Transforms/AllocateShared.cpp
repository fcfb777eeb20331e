//===- AllocateShared.cpp - place a kernel's shared-memory buffers --------===//
//
// The tile-allocate-shared pass: the buffers that warpgroup MMA reads get
// its swizzle (placeWarpgroupMmaOperands; A may instead come from
// registers, in the register-A layout); then every tile.local_alloc gets
// its `offset` in the kernel's shared memory, and the buffers TMA fills the
// `barrier_offset` of their slots' mbarriers. The lowering reads both; its
// own scratch goes after them (where their live range overlaps it).
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tile-allocate-shared"
#define DBGS() (llvm::dbgs() << "[" DEBUG_TYPE "] ")

namespace llk::tile {
#define GEN_PASS_DEF_TILEALLOCATESHARED
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

using namespace mlir;
using namespace llk::tile;

namespace {

struct TileAllocateSharedPass
    : llk::tile::impl::TileAllocateSharedBase<TileAllocateSharedPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // The buffers' byte layouts first: they set their alignments.
    placeWarpgroupMmaOperands(func);
    Builder builder(&getContext());
    int64_t end = 0;
    auto reserve = [&](int64_t bytes, int64_t align) {
      int64_t offset = llvm::alignTo(end, align);
      end = offset + bytes;
      return offset;
    };
    // The barriers first, in the order of the copies that use them.
    llvm::SmallPtrSet<Operation *, 4> withBarriers;
    func.walk([&](AsyncTmaCopyOp copy) {
      auto alloc = copy.getBuffer().getDefiningOp<LocalAllocOp>();
      if (!alloc || !withBarriers.insert(alloc).second)
        return;
      int64_t offset = reserve(alloc.getType().getNumSlots() * 8, 8);
      LLVM_DEBUG(DBGS() << "@" << func.getSymName() << ": barriers of the "
                        << "buffer at " << alloc.getLoc() << " at byte "
                        << offset << "\n");
      alloc.setBarrierOffsetAttr(builder.getI64IntegerAttr(offset));
    });
    func.walk([&](LocalAllocOp alloc) {
      if (!withBarriers.contains(alloc))
        alloc.removeBarrierOffsetAttr();
      SharedType type = alloc.getType();
      int64_t offset = reserve(type.getSizeInBytes(), type.getAlignment());
      LLVM_DEBUG(DBGS() << "@" << func.getSymName() << ": " << type << " at "
                        << alloc.getLoc() << " at byte " << offset << "\n");
      alloc.setOffsetAttr(builder.getI64IntegerAttr(offset));
    });
  }
};

} // namespace
