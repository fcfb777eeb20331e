//===- PrefetchMmaFragments.cpp - mma fragments loaded an iteration ahead ===//
//
// A software-pipelined K loop, as the dot lowering leaves it:
//
//   scf.for k {
//     cp.async.wait_group S-2; barrier        (slot k % S is ready)
//     ldmatrix step 0 of slot k % S           (tagged llk.mma_step = 0)
//     ... mma.sync of steps 0 .. n-1, ldmatrix of steps 1 .. n-1,
//         cp.async of iteration k+S-1 ...
//   }
//
// Each iteration starts with the wait, the barrier and the ldmatrix
// latency before its first mma.sync. Here the wait, the barrier and the
// step-0 ldmatrix (with the address arithmetic they need) move to just
// before the last K step's first mma.sync, for slot (k+1) % S, their results
// carried to the next iteration (a copy before the loop loads iteration
// 0's); the last step's mma.sync then cover the latency of those loads, as
// in CUTLASS's multistage main loop and Triton's Ampere prefetch:
//
//   wait; barrier; f0 = ldmatrix step 0 of slot 0
//   scf.for k iter_args(f = f0) {
//     mma.sync of steps 0 .. n-2 (step 0 on f), ldmatrix of steps 1 .. n-1
//     wait; barrier; f' = ldmatrix step 0 of slot (k+1) % S
//     mma.sync of step n-1
//     (late copies: cp.async of iteration k+S-1; commit)
//     yield f'
//   }
//
// The moved wait leaves as many groups pending as the next iteration's did,
// less the commits that now follow it in the body (late copies; with 2
// stages there is none to spare and the loop is left alone). Slot
// (k+S-1) % S, which iteration k's copies overwrite, was last read (by the
// ldmatrix of iteration k-1, and at the end of iteration k-2) before the
// barrier of iteration k-1, so the copies stay safe wherever they are in
// the body. The carried fragments cost registers: configurations that
// were close to 255 may spill.
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/NVVM/Transforms/Passes.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace llk::nvvm {
#define GEN_PASS_DEF_NVVMPREFETCHMMAFRAGMENTS
#include "llk/Dialect/NVVM/Transforms/Passes.h.inc"
} // namespace llk::nvvm

using namespace mlir;
using namespace llk;

namespace {

std::optional<int64_t> mmaStep(Operation *op) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(tile::TileDialect::kMmaStepAttr))
    return attr.getInt();
  return std::nullopt;
}

/// Prefetches the step-0 fragments of `loop`; false (and nothing changed)
/// when the loop does not have the expected shape.
bool prefetchFragments(scf::ForOp loop) {
  Block *body = loop.getBody();
  // The wait and the barrier first (after side-effect-free ops only).
  NVVM::CpAsyncWaitGroupOp wait;
  gpu::BarrierOp barrier;
  auto it = body->begin();
  for (; it != body->end(); ++it) {
    if (auto w = dyn_cast<NVVM::CpAsyncWaitGroupOp>(&*it)) {
      wait = w;
      break;
    }
    if (!isMemoryEffectFree(&*it))
      return false;
  }
  if (!wait || ++it == body->end() || !(barrier = dyn_cast<gpu::BarrierOp>(&*it)))
    return false;

  // The step-0 ldmatrix, with only pure ops, copies into other slots and
  // other ldmatrix between them and the barrier; the last mma step.
  SmallVector<NVVM::LdMatrixOp> loads;
  int64_t lastStep = -1;
  bool seenMma = false;
  for (Operation &op : llvm::make_range(std::next(it), body->end())) {
    if (auto load = dyn_cast<NVVM::LdMatrixOp>(&op)) {
      if (mmaStep(&op) == 0) {
        if (seenMma)
          return false;
        loads.push_back(load);
      }
      continue;
    }
    if (isa<NVVM::MmaOp>(op)) {
      auto s = mmaStep(&op);
      if (!s)
        return false;
      seenMma = true;
      lastStep = std::max(lastStep, *s);
      continue;
    }
    if (seenMma || isMemoryEffectFree(&op) || isa<scf::YieldOp>(op))
      continue;
    // Copies before the first mma write slot (k+S-1) % S, not the one read.
    if (isa<NVVM::CpAsyncOp, NVVM::CpAsyncCommitGroupOp>(op))
      continue;
    return false;
  }
  if (loads.empty() || lastStep < 1)
    return false;
  // Nothing after the barrier but the pipeline's own ops may touch memory,
  // and nothing may wait or synchronize again.
  for (Operation &op : llvm::make_range(std::next(it), body->end()))
    if (isa<gpu::BarrierOp, NVVM::CpAsyncWaitGroupOp>(op) ||
        op.getNumRegions() != 0)
      return false;

  // The address arithmetic of the loads: pure ops of the body on the
  // induction variable and values from outside.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist;
  for (NVVM::LdMatrixOp load : loads)
    worklist.push_back(load->getOperand(0));
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body && arg != loop.getInductionVar())
        return false; // depends on a loop-carried value
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != body || slice.contains(def))
      continue;
    if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
      return false;
    slice.insert(def);
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });

  // The prefetch goes before the last step's first mma.sync, so that those
  // mma.sync cover the latency of its loads. Commits between there and the
  // end of the body (late copies) come after its wait now: it leaves that
  // many fewer groups pending.
  Operation *lastMma = nullptr;
  int64_t commitsAfter = 0;
  for (Operation &op : *body) {
    if (!lastMma && isa<NVVM::MmaOp>(op) && mmaStep(&op) == lastStep)
      lastMma = &op;
    else if (lastMma && isa<NVVM::CpAsyncCommitGroupOp>(op))
      ++commitsAfter;
  }
  int64_t pending = int64_t(wait.getN()) - commitsAfter;
  if (pending < 0)
    return false;

  // Emits the wait, the barrier and the loads for induction value `iv`.
  auto emitPrefetch = [&](OpBuilder &b, Value iv, int64_t pendingGroups) {
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
    NVVM::CpAsyncWaitGroupOp::create(b, wait.getLoc(), pendingGroups);
    b.clone(*barrier, map);
    for (Operation *op : ordered)
      b.clone(*op, map);
    SmallVector<Value> results;
    for (NVVM::LdMatrixOp load : loads)
      results.push_back(b.clone(*load, map)->getResult(0));
    return results;
  };

  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> initial =
      emitPrefetch(rewriter, loop.getLowerBound(), wait.getN());
  Value step = loop.getStep();
  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, initial, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument>) {
        Value iv = b.getInsertionBlock()->getArgument(0);
        b.setInsertionPoint(lastMma);
        Value nextIv = arith::AddIOp::create(b, loc, iv, step);
        return emitPrefetch(b, nextIv, pending);
      }));
  Block *newBody = newLoop.getBody();
  unsigned first = newBody->getNumArguments() - loads.size();
  for (auto [i, load] : llvm::enumerate(loads)) {
    rewriter.replaceAllUsesWith(load->getResult(0),
                                newBody->getArgument(first + i));
    rewriter.eraseOp(load);
  }
  rewriter.eraseOp(barrier);
  rewriter.eraseOp(wait);
  return true;
}

struct NVVMPrefetchMmaFragmentsPass
    : llk::nvvm::impl::NVVMPrefetchMmaFragmentsBase<
          NVVMPrefetchMmaFragmentsPass> {
  using NVVMPrefetchMmaFragmentsBase::NVVMPrefetchMmaFragmentsBase;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    if (enabled)
      for (scf::ForOp loop : loops)
        prefetchFragments(loop);
    // The tags are for this pass only.
    getOperation().walk([](Operation *op) {
      op->removeAttr(tile::TileDialect::kMmaStepAttr);
    });
  }
};

} // namespace
