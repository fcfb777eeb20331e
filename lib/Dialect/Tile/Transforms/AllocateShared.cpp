//===- AllocateShared.cpp - place a kernel's shared-memory buffers --------===//
//
// The tile-allocate-shared pass: the buffers that warpgroup MMA reads get
// its swizzle (placeWarpgroupMmaOperands; A may instead come from
// registers, in the register-A layout); then every tile.local_alloc gets
// its `offset` in the kernel's shared memory, and the buffers TMA fills the
// `barrier_offset` of their slots' mbarriers; buffers that are never live
// at once share bytes. The lowering reads both; its own scratch goes after
// them (where their live range overlaps it).
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
    // Then the buffers, first fit: each at the lowest offset clear of the
    // buffers live at the same time (the same block, overlapping ranges
    // from the allocation to the last use). Others may share its bytes, as
    // the rings of attention's two key loops do: the later allocation's
    // lowering waits for the thread's cp.async copies and then for every
    // thread (a barrier), after every use of the earlier one; wgmma reads
    // of an asynchronous dot end at the tile.dot_wait that follows its loop
    // (tile-software-pipeline puts it there, before anything after the
    // loop).
    struct Placed {
      LocalAllocOp alloc;
      Operation *last;
      int64_t begin, end;
    };
    SmallVector<Placed> placed;
    int64_t buffersBegin = end;
    func.walk([&](LocalAllocOp alloc) {
      if (!withBarriers.contains(alloc))
        alloc.removeBarrierOffsetAttr();
      SharedType type = alloc.getType();
      int64_t bytes = type.getSizeInBytes(), align = type.getAlignment();
      Operation *last = alloc.getLastUse();
      SmallVector<std::pair<int64_t, int64_t>> busy;
      // (Allocations come in program order: p.alloc is before alloc.)
      for (const Placed &p : placed)
        if (p.alloc->getBlock() != alloc->getBlock() ||
            !p.last->isBeforeInBlock(alloc))
          busy.push_back({p.begin, p.end});
      llvm::sort(busy);
      int64_t offset = llvm::alignTo(buffersBegin, align);
      for (auto [busyBegin, busyEnd] : busy)
        if (offset + bytes > busyBegin && offset < busyEnd)
          offset = llvm::alignTo(busyEnd, align);
      bool reuses = llvm::any_of(placed, [&](const Placed &p) {
        return offset < p.end && p.begin < offset + bytes;
      });
      LLVM_DEBUG(DBGS() << "@" << func.getSymName() << ": " << type << " at "
                        << alloc.getLoc() << " at byte " << offset
                        << (reuses ? ", on the bytes of a buffer no longer "
                                     "live"
                                   : "")
                        << "\n");
      alloc.setOffsetAttr(builder.getI64IntegerAttr(offset));
      alloc.setReusesBytes(reuses);
      placed.push_back({alloc, last, offset, offset + bytes});
    });
  }
};

} // namespace
