//===- SoftwarePipeline.cpp - software pipelining of loads for tile.dot --===//
//
// A K loop loads the operands of a dot and multiplies them in the same
// iteration, so the tensor cores wait for memory every step. This pass
// starts the loads `numStages - 1` iterations ahead instead, as cp.async
// copies into a ring of `numStages` shared-memory slots:
//
//   prologue:  copy the operands of iterations 0 .. S-2 into slots 0 .. S-2
//   iteration k:
//     wait until the copies of iteration k are done (and synchronize)
//     copy the operands of iteration k+S-1 into slot (k+S-1) % S
//     dot on slot k % S (ldmatrix straight from shared memory)
//   epilogue:  wait for every copy
//
// The loop-carried values that the load addresses depend on (the pointer
// tiles advanced every step) are shifted S-1 iterations ahead: the loop
// starts from their value at iteration S-1, computed in the prologue. That
// is only valid if nothing else in the loop or after it uses them, which the
// pass checks; loops it cannot transform keep their synchronous loads.
//
//===----------------------------------------------------------------------===//

#include "llk/Analysis/AxisInfo.h"
#include "llk/Dialect/Tile/IR/Layout.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tile-software-pipeline"
#define DBGS() (llvm::dbgs() << "[" DEBUG_TYPE "] ")

namespace llk::tile {
#define GEN_PASS_DEF_TILESOFTWAREPIPELINE
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

using namespace mlir;
using namespace llk::tile;

namespace {

/// Whether `other` leaves masked-off elements at zero, as a cp.async with a
/// short source size does.
bool isZeroOrAbsent(Value other) {
  if (!other)
    return true;
  DenseElementsAttr dense;
  if (!matchPattern(other, m_Constant(&dense)) || !dense.isSplat())
    return false;
  Attribute value = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(value))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(value))
    return i.getValue().isZero();
  return false;
}

/// Element types whose dot reads its operands straight from shared memory
/// (tf32 rounds its operands in registers first, so f32 is left alone; an
/// fp8 dot is left fp8 for warpgroup MMA only, which reads its slots).
bool isPipelinedDotType(Type elem) {
  return elem.isF16() || elem.isBF16() || elem.isInteger(8) || isFp8(elem);
}

/// A load the pass turns into async copies: a tile.load (cp.async) or a
/// tile.descriptor_load (TMA).
struct PipelinedLoad {
  Operation *load;
  /// The tile dimension along which the load's addresses are contiguous:
  /// the slot stores it innermost, so 16-byte copies stay 16 bytes.
  unsigned contiguousDim;
  LocalAllocOp buffer;
  /// The tile.trans of a descriptor block that the dot reads (K-major B as
  /// Triton's `desc.load(...).T`): the slot holds the block as TMA writes it,
  /// read as its transpose (contiguous dimension 0).
  Operation *trans = nullptr;

  bool isTma() const { return isa<DescriptorLoadOp>(load); }
  /// The tile the dot reads: the load's, or its transpose.
  Operation *dotOperand() const { return trans ? trans : load; }
  RankedTensorType type() const {
    return cast<RankedTensorType>(dotOperand()->getResult(0).getType());
  }
};

class LoopPipeliner {
public:
  LoopPipeliner(scf::ForOp loop, unsigned numStages, bool wgmma,
                const llk::AxisInfoAnalysis &axisInfo, bool lateCopies = false)
      : loop(loop), numStages(numStages), wgmma(wgmma), lateCopies(lateCopies),
        body(loop.getBody()), axisInfo(axisInfo) {}

  /// Finds the loads to pipeline and checks the loop can be shifted.
  bool analyze();
  /// Pipelines the loop; returns the loop that replaces the enclosing one
  /// when it gains an iteration count (blockLoop), else null.
  scf::ForOp transform();

private:
  /// Adds the in-loop computation of `value` to `slice` (and the iter args
  /// it reads to `carried`); false if an op there has side effects.
  bool addBackwardSlice(Value value);
  /// Computes `slice` and `carried` for `loads`; false if the carried values
  /// cannot be shifted.
  bool computeSlice();

  /// A dot that warpgroup MMA can run asynchronously, one K step in
  /// flight (see transform), and the index of its loop-carried accumulator.
  std::optional<std::pair<DotOp, unsigned>> asyncDot() const;
  /// The loop around this one whose next iteration's copies may start as
  /// soon as this loop is done (see transform), if any.
  scf::ForOp blockLoop();

  scf::ForOp loop;
  unsigned numStages;
  bool wgmma;
  /// Issue the loop's copies at the end of the body (after the dot) rather
  /// than right after the wait.
  bool lateCopies;
  Block *body;
  const llk::AxisInfoAnalysis &axisInfo;
  SmallVector<PipelinedLoad> loads;
  /// Ops of the body that compute the loads' addresses and masks and the
  /// next values of the iter args those read, in body order once sorted.
  llvm::SetVector<Operation *> slice;
  /// Iter args (by index) the addresses depend on.
  llvm::SetVector<unsigned> carried;
};

bool LoopPipeliner::addBackwardSlice(Value root) {
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == body && arg.getArgNumber() > 0)
        carried.insert(arg.getArgNumber() - 1);
      continue;
    }
    Operation *op = value.getDefiningOp();
    if (op->getBlock() != body || slice.contains(op))
      continue;
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0) {
      LLVM_DEBUG(DBGS() << "  the addresses depend on " << op->getName()
                        << " at " << op->getLoc()
                        << ", which has effects or regions\n");
      return false;
    }
    slice.insert(op);
    llvm::append_range(worklist, op->getOperands());
  }
  return true;
}

bool LoopPipeliner::analyze() {
  LLVM_DEBUG(DBGS() << "loop at " << loop.getLoc() << ":\n");
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0) {
    LLVM_DEBUG(DBGS() << "  not pipelined: its step is no positive "
                         "constant\n");
    return false;
  }

  SmallVector<PipelinedLoad> kept;
  for (Operation &op : body->without_terminator()) {
    auto dot = dyn_cast<DotOp>(&op);
    if (!dot)
      continue;
    if (!isPipelinedDotType(dot.getA().getType().getElementType())) {
      LLVM_DEBUG(DBGS() << "  dot at " << dot.getLoc() << ": its "
                        << dot.getA().getType().getElementType()
                        << " operands are not read from shared memory (f16, "
                           "bf16, i8 and fp8 are)\n");
      continue;
    }
    for (Value operand : {dot.getA(), dot.getB()}) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != body ||
          llvm::any_of(loads, [&](auto &l) { return l.dotOperand() == def; }))
        continue;
      auto skip = [&](const char *why) {
        LLVM_DEBUG(DBGS() << "  " << def->getName() << " at " << def->getLoc()
                          << ": not pipelined, " << why << "\n");
      };
      // Descriptor blocks: TMA, which only sm_90a has (and only warpgroup
      // MMA reads its layout).
      if (isa<DescriptorLoadOp>(def)) {
        if (wgmma)
          loads.push_back({def, 1, nullptr});
        else
          skip("TMA copies need sm_90a (wgmma)");
        continue;
      }
      if (auto trans = dyn_cast<TransOp>(def)) {
        auto tma = trans.getSrc().getDefiningOp<DescriptorLoadOp>();
        if (!tma || tma->getBlock() != body) {
          skip("it transposes a tile in registers, not a descriptor block "
               "of this loop");
          continue;
        }
        if (!wgmma)
          skip("TMA copies need sm_90a (wgmma)");
        else if (operand == dot.getA())
          skip("a transposed block as A is M-major, which warpgroup MMA "
               "does not read from shared memory");
        else if (!trans->hasOneUse() || !tma->hasOneUse())
          skip("the transposed descriptor block has other users");
        else
          loads.push_back({tma, 0, nullptr, trans});
        continue;
      }
      auto load = dyn_cast<LoadOp>(def);
      if (!load)
        continue;
      if (!isZeroOrAbsent(load.getOther())) {
        skip("its other is not zero (copies fill zeros)");
        continue;
      }
      if (load.getIsVolatile()) {
        skip("it is volatile");
        continue;
      }
      auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
      auto view = ptrType && ptrType.getRank() == 2
                      ? getDistributedView(ptrType)
                      : FailureOr<DistributedView>(failure());
      if (failed(view)) {
        skip("not a laid-out 2-D tile");
        continue;
      }
      // cp.async moves 4, 8 or 16 contiguous bytes under one predicate.
      int64_t width = axisInfo.getAccessWidth(load.getPtr(), load.getMask(), *view);
      unsigned bits = cast<RankedTensorType>(load.getType())
                          .getElementType()
                          .getIntOrFloatBitWidth();
      if (width * bits < 32) {
        skip("its accesses move less than the 4 bytes a cp.async does");
        continue;
      }
      loads.push_back({load, view->order[0], nullptr});
    }
  }
  // Each load on its own, then all that qualify together (one may read an
  // iter arg that another's shift would move).
  SmallVector<PipelinedLoad> candidates = std::move(loads);
  for (PipelinedLoad &candidate : candidates) {
    loads = {candidate};
    if (computeSlice())
      kept.push_back(candidate);
    else
      LLVM_DEBUG(DBGS() << "  " << candidate.load->getName() << " at "
                        << candidate.load->getLoc()
                        << ": not pipelined, its addresses cannot be computed "
                           "ahead\n");
  }
  loads = std::move(kept);
  if (loads.empty()) {
    LLVM_DEBUG(DBGS() << "  not pipelined: no load feeds a dot that can be "
                         "pipelined\n");
    return false;
  }
  if (!computeSlice()) {
    LLVM_DEBUG(DBGS() << "  not pipelined: its loads' addresses cannot all be "
                         "computed ahead together\n");
    return false;
  }
  return true;
}

bool LoopPipeliner::computeSlice() {
  slice.clear();
  carried.clear();
  for (PipelinedLoad &l : loads) {
    if (auto tma = dyn_cast<DescriptorLoadOp>(l.load)) {
      if (!addBackwardSlice(tma.getRow()) || !addBackwardSlice(tma.getCol()))
        return false;
      continue;
    }
    auto load = cast<LoadOp>(l.load);
    if (!addBackwardSlice(load.getPtr()) ||
        (load.getMask() && !addBackwardSlice(load.getMask())))
      return false;
  }
  // The next values of the carried iter args, until no new one appears.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (size_t i = 0; i < carried.size(); ++i)
    if (!addBackwardSlice(yield.getOperand(carried[i])))
      return false;

  // Shifting the carried values is invisible only if they feed nothing but
  // the slice, the pipelined loads and their own next values.
  llvm::SmallPtrSet<Operation *, 8> pipelinedLoads;
  for (PipelinedLoad &l : loads)
    pipelinedLoads.insert(l.load);
  llvm::DenseSet<Value> dependsOnCarried;
  for (unsigned i : carried) {
    if (!loop.getResult(i).use_empty()) {
      LLVM_DEBUG(DBGS() << "  the addresses depend on iteration value #" << i
                        << ", which is used after the loop\n");
      return false;
    }
    dependsOnCarried.insert(body->getArgument(i + 1));
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    if (llvm::any_of(op->getOperands(),
                     [&](Value v) { return dependsOnCarried.contains(v); }))
      for (Value r : op->getResults())
        dependsOnCarried.insert(r);
  for (Value v : dependsOnCarried)
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (slice.contains(user) || pipelinedLoads.contains(user))
        continue;
      if (user == yield && carried.contains(use.getOperandNumber()))
        continue;
      LLVM_DEBUG(DBGS() << "  the addresses depend on an iteration value "
                           "that "
                        << user->getName() << " at " << user->getLoc()
                        << " also uses\n");
      return false;
    }
  slice = llvm::SetVector<Operation *>(ordered.begin(), ordered.end());
  return true;
}

std::optional<std::pair<DotOp, unsigned>> LoopPipeliner::asyncDot() const {
  if (!wgmma)
    return std::nullopt;
  auto contiguousDim = [&](Value operand) -> std::optional<unsigned> {
    for (const PipelinedLoad &l : loads)
      if (operand.getDefiningOp() == l.dotOperand())
        return l.contiguousDim;
    return std::nullopt;
  };
  for (Operation &op : body->without_terminator()) {
    auto dot = dyn_cast<DotOp>(&op);
    if (!dot)
      continue;
    std::optional<unsigned> aDim = contiguousDim(dot.getA()),
                            bDim = contiguousDim(dot.getB());
    if (!aDim || !bDim || !suitsWarpgroupMma(dot, *aDim, *bDim))
      continue;
    if (std::optional<unsigned> index = loopCarriedAccumulator(dot))
      return std::make_pair(dot, *index);
  }
  return std::nullopt;
}

scf::ForOp LoopPipeliner::blockLoop() {
  // TMA copies only (they complete on barriers, whose phases can run on
  // across blocks; cp.async groups would need their counts reworked), no
  // carried addresses, directly in an scf.for whose body before this loop
  // only computes values (the next block's coordinates are recomputed
  // early), and bounds known there.
  auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!outer || !carried.empty() ||
      !llvm::all_of(loads, [](const PipelinedLoad &l) { return l.isTma(); }))
    return nullptr;
  for (Operation &op : *outer.getBody()) {
    if (&op == loop.getOperation())
      break;
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return nullptr;
  }
  for (Value bound : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (!outer.isDefinedOutsideOfLoop(bound) &&
        bound.getParentBlock() != outer.getBody())
      return nullptr;
  return outer;
}

scf::ForOp LoopPipeliner::transform() {
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  // Copies run S - 1 iterations ahead of the dot, into slot (k - 1) % S,
  // which the dot of iteration k - 1 read. A synchronous dot is done with it
  // when iteration k starts. An asynchronous one (wgmma) may still be
  // reading it until the dot of iteration k waits for it; the copies then
  // follow the dot, behind a barrier (every warpgroup done with k - 1).
  // With cp.async and 4 or more stages they skip that barrier: the group
  // wait at the top of iteration k synchronizes the program, and by then
  // every warpgroup has waited for step k - 2, so they refill slot
  // (k - 2) % S, S - 2 iterations ahead. (With 3 stages that would leave
  // one step to hide the copies' latency; the barrier costs less.)
  std::optional<std::pair<DotOp, unsigned>> async = asyncDot();
  bool anyCpAsync = llvm::any_of(loads, [](auto &l) { return !l.isTma(); });
  bool anyTma = llvm::any_of(loads, [](auto &l) { return l.isTma(); });
  bool refillTwoBack = async && anyCpAsync && numStages >= 4;
  unsigned distance = refillTwoBack ? numStages - 2 : numStages - 1;
  LLVM_DEBUG({
    DBGS() << "  pipelined: " << loads.size() << " load(s) (";
    llvm::interleaveComma(loads, llvm::dbgs(), [](const PipelinedLoad &l) {
      llvm::dbgs() << (l.isTma() ? "TMA" : "cp.async") << " at "
                   << l.load->getLoc();
    });
    llvm::dbgs() << "), " << numStages << " stages, copies " << distance
                 << " iterations ahead";
    if (async)
      llvm::dbgs() << ", the dot at " << async->first.getLoc()
                   << " asynchronous (wgmma, one step in flight)"
                   << (refillTwoBack ? ", refilling the slot read two steps "
                                       "back"
                                     : ", copies after the dot");
    if (lateCopies)
      llvm::dbgs() << ", late copies";
    llvm::dbgs() << "\n";
  });
  Value iv = loop.getInductionVar();
  Type ivType = iv.getType();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  auto constant = [&](int64_t v) -> Value {
    if (ivType.isIndex())
      return arith::ConstantIndexOp::create(b, loc, v);
    return arith::ConstantIntOp::create(b, loc, ivType, v);
  };
  auto toI32 = [&](Value v) -> Value {
    if (ivType.isIndex())
      return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
    unsigned width = ivType.getIntOrFloatBitWidth();
    if (width > 32)
      return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
    if (width < 32)
      return arith::ExtSIOp::create(b, loc, b.getI32Type(), v);
    return v;
  };

  auto toI64 = [&](Value v) -> Value {
    if (ivType.isIndex())
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
    if (ivType.getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
    return v;
  };

  // Carried pointer tiles advanced by a uniform step (`p = addptr p, s` with
  // s a splat defined outside the loop) need not be carried at all: at
  // iteration j they are p0 + j * s. Carrying them would cost every thread
  // one 64-bit add per element and step, although the copies only read one
  // address per 16 bytes. j is clamped into the loop's range, so that the
  // copies past the end (masked off, reading nothing) still hold addresses
  // of the last step.
  llvm::DenseMap<unsigned, Value> uniformStep; // iter arg -> i64 step
  for (unsigned i : carried) {
    auto add = yield.getOperand(i).getDefiningOp<AddPtrOp>();
    if (!add || add.getPtr() != body->getArgument(i + 1) ||
        !isa<RankedTensorType>(add.getType()) ||
        !loop.isDefinedOutsideOfLoop(add.getOffset()))
      continue;
    Value scalar;
    DenseIntElementsAttr dense;
    if (auto splat = add.getOffset().getDefiningOp<SplatOp>())
      scalar = splat.getSrc();
    else if (matchPattern(add.getOffset(), m_Constant(&dense)) && dense.isSplat())
      scalar = arith::ConstantIntOp::create(
          b, loc, b.getI64Type(), dense.getSplatValue<APInt>().getSExtValue());
    if (!scalar)
      continue;
    if (!scalar.getType().isInteger(64))
      scalar = arith::ExtSIOp::create(b, loc, b.getI64Type(), scalar);
    uniformStep[i] = scalar;
  }
  // The index of the last iteration, max(ceil((ub - lb) / step) - 1, 0).
  Value lastIndex;
  if (!uniformStep.empty()) {
    Value span = arith::SubIOp::create(b, loc, ub, lb);
    Value trips = arith::CeilDivSIOp::create(b, loc, span, step);
    lastIndex = arith::MaxSIOp::create(
        b, loc, toI64(arith::SubIOp::create(b, loc, trips, constant(1))),
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0));
  }
  auto pointerAt = [&](unsigned i, Value index) -> Value {
    Value j = arith::MinSIOp::create(b, loc, toI64(index), lastIndex);
    Value init = loop.getInitArgs()[i];
    auto ptrType = cast<RankedTensorType>(init.getType());
    auto offsetType = RankedTensorType::get(ptrType.getShape(), b.getI64Type(),
                                            ptrType.getEncoding());
    Value offset = SplatOp::create(
        b, loc, offsetType, arith::MulIOp::create(b, loc, j, uniformStep[i]));
    return AddPtrOp::create(b, loc, ptrType, init, offset);
  };

  // In a loop over blocks (a persistent program), the next block's first
  // copies start when this block's K loop is done, before its epilogue: the
  // buffers live across the outer loop, and the steps are counted across
  // blocks (`done`, the steps of the blocks before) for slots and phases.
  scf::ForOp outer = blockLoop();
  Value done;
  LLVM_DEBUG({
    if (outer)
      DBGS() << "  in the loop over blocks at " << outer.getLoc()
             << ": the next block's first copies start under this one's "
                "epilogue\n";
  });
  if (outer) {
    // (The outer loop's body block is replaced: no insertion point in it
    // survives.)
    b.setInsertionPoint(outer);
    IRRewriter rewriter(b);
    // Yields the count unchanged for now; the count after this block is
    // computed once the K loop is done (below).
    auto replaced = outer.replaceWithAdditionalYields(
        rewriter, ValueRange{constant(0)}, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
          return SmallVector<Value>(args.begin(), args.end());
        });
    outer = cast<scf::ForOp>(replaced->getOperation());
    done = outer.getRegionIterArgs().back();
    b.setInsertionPoint(outer);
  }
  for (PipelinedLoad &l : loads) {
    RankedTensorType type = l.type();
    SmallVector<int64_t> shape{numStages};
    llvm::append_range(shape, type.getShape());
    l.buffer = LocalAllocOp::create(
        b, loc,
        SharedType::get(ctx, shape, type.getElementType(), l.contiguousDim),
        /*offset=*/nullptr, /*barrier_offset=*/nullptr);
  }
  if (outer)
    b.setInsertionPoint(loop);

  // Starts the copies of the iteration whose induction variable is `stepIv`
  // (values of the slice already mapped), into `slot`; off past the end.
  // cp.async copies are waited for by groups (tile.async_wait, which also
  // synchronizes the program); TMA copies by their slot's barrier.
  auto issueCopies = [&](Value stepIv, Value slot, IRMapping &map,
                         Value extra = Value()) {
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          stepIv, map.lookupOrDefault(ub));
    if (extra)
      inRange = arith::AndIOp::create(b, loc, inRange, extra);
    for (PipelinedLoad &l : loads) {
      if (auto tma = dyn_cast<DescriptorLoadOp>(l.load)) {
        AsyncTmaCopyOp::create(b, tma.getLoc(), tma.getDesc(),
                               map.lookupOrDefault(tma.getRow()),
                               map.lookupOrDefault(tma.getCol()), l.buffer,
                               slot, inRange);
        continue;
      }
      auto load = cast<LoadOp>(l.load);
      Type maskType = getMaskType(load.getPtr().getType());
      Value mask = SplatOp::create(b, loc, maskType, inRange);
      if (Value m = load.getMask())
        mask = arith::AndIOp::create(b, loc, map.lookupOrDefault(m), mask);
      AsyncCopyOp::create(b, loc, map.lookupOrDefault(load.getPtr()), l.buffer,
                          slot, mask);
    }
    if (anyCpAsync)
      AsyncCommitOp::create(b, loc);
  };

  // Prologue: iterations 0 .. distance-1, advancing the carried values,
  // into slots (first + s) % S; `blockMap` gives the values of the block
  // (the bounds, the slice's inputs), `extra` a further condition.
  auto prologue = [&](IRMapping &blockMap, Value first, Value extra) {
    SmallVector<Value> state;
    for (unsigned i : carried)
      state.push_back(loop.getInitArgs()[i]);
    Value blockLb = blockMap.lookupOrDefault(lb);
    Value blockStep = blockMap.lookupOrDefault(step);
    for (unsigned s = 0; s < distance; ++s) {
      Value stepIv = arith::AddIOp::create(
          b, loc, blockLb, arith::MulIOp::create(b, loc, blockStep, constant(s)));
      IRMapping map = blockMap;
      map.map(iv, stepIv);
      for (auto [k, i] : llvm::enumerate(carried))
        map.map(body->getArgument(i + 1),
                uniformStep.count(i) ? pointerAt(i, constant(s)) : state[k]);
      for (Operation *op : slice)
        b.clone(*op, map);
      Value slot = constant(s);
      if (first)
        slot = arith::RemUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, first, slot),
            constant(numStages));
      issueCopies(stepIv, toI32(slot), map, extra);
      for (auto [k, i] : llvm::enumerate(carried))
        state[k] = map.lookupOrDefault(yield.getOperand(i));
    }
    for (auto [k, i] : llvm::enumerate(carried))
      if (!uniformStep.count(i))
        loop.getTiedLoopInit(body->getArgument(i + 1))->set(state[k]);
  };
  // The values of the block an outer iteration `blockIv` computes: the
  // outer body's ops before this loop, cloned.
  auto cloneBlockValues = [&](Value blockIv, IRMapping &map) {
    map.map(outer.getInductionVar(), blockIv);
    for (Operation &op : *outer.getBody()) {
      if (&op == loop.getOperation())
        break;
      b.clone(op, map);
    }
  };
  if (outer) {
    // The first block's copies, before the outer loop (if it runs at all).
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(outer);
    IRMapping map;
    cloneBlockValues(outer.getLowerBound(), map);
    Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       outer.getLowerBound(),
                                       outer.getUpperBound());
    prologue(map, constant(0), runs);
  } else {
    IRMapping none;
    prologue(none, Value(), Value());
  }

  // The loop: wait for this iteration's slot, copy iteration k+distance's.
  b.setInsertionPointToStart(body);
  Value index = arith::SubIOp::create(b, loc, iv, lb);
  if (*getConstantIntValue(step) != 1)
    index = arith::DivUIOp::create(b, loc, index, step);
  // Steps of earlier blocks count for slots and phases (blockLoop).
  Value stepNumber = done ? arith::AddIOp::create(b, loc, done, index).getResult()
                          : index;
  Value stages = constant(numStages);
  Value readSlot = toI32(arith::RemUIOp::create(b, loc, stepNumber, stages));
  Value writeSlot = toI32(arith::RemUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, stepNumber, constant(distance)),
      stages));
  Value aheadIv = arith::AddIOp::create(
      b, loc, iv, arith::MulIOp::create(b, loc, step, constant(distance)));
  if (anyCpAsync)
    AsyncWaitOp::create(b, loc, distance - 1);
  if (anyTma) {
    // A slot's n-th fill completes its barrier's phase n.
    Value phase = toI32(arith::AndIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, stepNumber, stages), constant(1)));
    for (PipelinedLoad &l : loads)
      if (l.isTma())
        AsyncTmaWaitOp::create(b, loc, l.buffer, readSlot, phase);
  }
  if (async) {
    b.setInsertionPointAfter(async->first);
    if (!refillTwoBack)
      BarrierOp::create(b, loc);
  } else if (!anyCpAsync) {
    // Nothing synchronized the program yet: every thread must be done with
    // the slot of iteration k-1 before it is refilled.
    BarrierOp::create(b, loc);
  }
  IRMapping map;
  map.map(iv, aheadIv);
  Value aheadIndex = arith::AddIOp::create(b, loc, index, constant(distance));
  for (unsigned i : carried)
    if (uniformStep.count(i))
      map.map(body->getArgument(i + 1), pointerAt(i, aheadIndex));
  // Late copies go just before the yield: the slot they refill is as free
  // there as right after the wait (nothing in this iteration reads it), and
  // the next wait still finds as many groups newer than its own.
  OpBuilder::InsertPoint top = b.saveInsertionPoint();
  if (lateCopies)
    b.setInsertionPoint(yield);
  for (Operation *op : slice)
    b.clone(*op, map);
  issueCopies(aheadIv, writeSlot, map);
  b.restoreInsertionPoint(top);
  // A recomputed pointer tile is no longer advanced (canonicalization then
  // drops it from the loop); the others are, `distance` iterations ahead.
  for (unsigned i : carried)
    yield->setOperand(i, uniformStep.count(i)
                             ? Value(body->getArgument(i + 1))
                             : map.lookupOrDefault(yield.getOperand(i)));
  for (PipelinedLoad &l : loads) {
    Operation *operand = l.dotOperand();
    b.setInsertionPoint(operand);
    Value tile = LocalLoadOp::create(b, operand->getLoc(), l.type(), l.buffer,
                                     readSlot);
    operand->getResult(0).replaceAllUsesWith(tile);
  }

  // Epilogue: the copies past the end wrote zeros into unused slots; let
  // them finish before the kernel goes on.
  b.setInsertionPointAfter(loop);
  if (anyCpAsync)
    AsyncWaitOp::create(b, loc, 0);
  // An asynchronous dot's last step is still running after the loop.
  if (async) {
    Value result = loop.getResult(async->second);
    auto wait = DotWaitOp::create(b, loc, result.getType(), result);
    result.replaceAllUsesExcept(wait, wait);
  }
  // In a loop (08's scf.while over tiles), the next outer iteration's
  // prologue refills the slots: every warpgroup must be done with its last
  // asynchronous dot first (the wait above is this warpgroup's only, and the
  // barrier of the copies' wait came before it).
  if (async && !outer && loop->getParentOfType<LoopLikeOpInterface>()) {
    LLVM_DEBUG(DBGS() << "  in a loop: a barrier after the dot's wait, before "
                         "the next iteration's copies refill the slots\n");
    BarrierOp::create(b, loc);
  }
  if (outer) {
    // Every warpgroup is done with the slots; the next block's first copies
    // start now, under this block's epilogue.
    BarrierOp::create(b, loc);
    Value nextIv =
        arith::AddIOp::create(b, loc, outer.getInductionVar(), outer.getStep());
    Value next = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       nextIv, outer.getUpperBound());
    Value trips = arith::MaxSIOp::create(
        b, loc,
        arith::CeilDivSIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb),
                                   step),
        constant(0));
    Value nextDone = arith::AddIOp::create(b, loc, done, trips);
    auto outerYield = cast<scf::YieldOp>(outer.getBody()->getTerminator());
    outerYield->setOperand(outerYield.getNumOperands() - 1, nextDone);
    IRMapping map;
    cloneBlockValues(nextIv, map);
    prologue(map, nextDone, next);
  }
  // The loads go only now: the next block's prologue above still reads
  // their operands to issue its copies.
  for (PipelinedLoad &l : loads) {
    if (l.trans)
      l.trans->erase();
    l.load->erase();
  }
  // The original address computation is dead now (the shifted copy feeds the
  // yield); erase it in reverse order.
  for (Operation *op : llvm::reverse(slice))
    if (op->use_empty())
      op->erase();
  return outer;
}

struct TileSoftwarePipelinePass
    : llk::tile::impl::TileSoftwarePipelineBase<TileSoftwarePipelinePass> {
  using TileSoftwarePipelineBase::TileSoftwarePipelineBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    unsigned stages = numStages;
    if (auto attr = func->getAttrOfType<IntegerAttr>(TileDialect::kNumStagesAttr))
      stages = attr.getInt();
    LLVM_DEBUG(DBGS() << "kernel @" << func.getSymName() << ": " << stages
                      << (stages == 1 ? " stage, no pipelining" : " stages")
                      << (wgmma ? ", warpgroup MMA" : "") << "\n");
    if (stages < 2)
      return;
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    llk::AxisInfoAnalysis axisInfo(func);
    for (size_t i = 0; i < loops.size(); ++i) {
      LoopPipeliner pipeliner(loops[i], stages, wgmma, axisInfo, lateCopies);
      if (!pipeliner.analyze())
        continue;
      // An enclosing loop that was replaced comes later in the post-order
      // walk: visit its replacement instead.
      Operation *parent = loops[i]->getParentOp();
      if (scf::ForOp replaced = pipeliner.transform())
        for (scf::ForOp &later : llvm::drop_begin(loops, i + 1))
          if (later.getOperation() == parent)
            later = replaced;
    }
  }
};

} // namespace
