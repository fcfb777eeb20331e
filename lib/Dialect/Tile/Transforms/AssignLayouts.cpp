//===- AssignLayouts.cpp - give every tile a distributed layout -----------===//
//
// Memory accesses anchor the layouts: each load, store and atomic on a tile of
// pointers asks for the blocked layout that makes its accesses coalesced and
// as wide as the contiguity analysis allows. Layouts then spread through the
// ops that relate their operands' and results' layouts (elementwise ops,
// broadcasts, expand_dims/reduce via slices, transposes, loops, branches), in
// program order of the anchors. A value reached twice with different layouts
// keeps the first; the op that needs the other gets a tile.convert_layout.
//
// Dots anchor first: each dot's accumulator and result take the mma.sync
// accumulator layout, which spreads (before any memory access's) through a
// loop-carried accumulator and the epilogue, so that the K loop never
// converts — but not into the addresses of the loads of dot operands
// (their pointer tiles, masks and the index tiles those are computed from),
// which the loads lay out: an accumulator layout would move 4 bytes a
// thread at a time where 16 coalesce (cp.async into the operand's slot),
// and warpgroup MMA's cannot lay out tiles of fewer rows than its warps take
// (a [1 x N] row of head-dimension indices), both of which index arithmetic
// shared with the accumulator (a causal mask) would reach. An access reads
// in its addresses' layout; a result that another layout reached is
// converted. A dot's operands relate to nothing: they keep the layouts of
// their loads, and the dot lowering stages them through shared memory.
//
// In kernels with dots, index tiles (ranges, constants, splats of scalars,
// and the shape and integer ops on them: offsets and masks) are recomputed
// for each use first. CSE merges equal ones (the key indices of a K tile and
// of the score mask, the rows of Q and of the accumulator), and the
// accumulator's layout, which spreads before any access anchors, would reach
// an access through one of them and take the access's place. (Two accesses
// sharing an index tile need no copies: the second anchor converts the index
// tile, which is cheaper than converting data.) Copies that end up with the
// same layout are merged again by the CSE that follows in the pipeline.
//
//===----------------------------------------------------------------------===//

#include "IndexTiles.h"

#include "llk/Analysis/AxisInfo.h"
#include "llk/Dialect/Tile/IR/Layout.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Debug.h"
#include <deque>

#define DEBUG_TYPE "tile-assign-layouts"
#define DBGS() (llvm::dbgs() << "[" DEBUG_TYPE "] ")

namespace llk::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

using namespace mlir;
using namespace llk;
using namespace llk::tile;

namespace {

RankedTensorType tileType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// Ops whose tile operands and results all share one layout.
bool isSameLayoutOp(Operation *op) {
  if (isa<SplatOp, BroadcastOp, AddPtrOp, LoadOp, StoreOp, PrefetchOp,
          AtomicRMWOp, AtomicCASOp, CastOp, BitcastOp, ScanOp, GenericScanOp, SortOp,
          MultipleOfOp, MaxContiguousOp, MaxConstancyOp>(op))
    return true;
  Dialect *dialect = op->getDialect();
  return dialect && isa<arith::ArithDialect, math::MathDialect>(dialect);
}

BlockedLayoutAttr transposed(BlockedLayoutAttr layout) {
  auto swap = [](ArrayRef<unsigned> v) {
    return SmallVector<unsigned>{v[1], v[0]};
  };
  SmallVector<unsigned> order;
  for (unsigned d : layout.getOrder())
    order.push_back(1 - d);
  ArrayRef<unsigned> repeat = layout.getWarpRepeat();
  return BlockedLayoutAttr::get(
      layout.getContext(), swap(layout.getSizePerThread()),
      swap(layout.getThreadsPerWarp()), swap(layout.getWarpsPerCTA()), order,
      repeat.empty() ? SmallVector<unsigned>() : swap(repeat));
}

/// The operands of a memory access that say where it goes: its pointers and
/// its mask.
SmallVector<Value, 2> addressOperands(Operation *op) {
  SmallVector<Value, 2> operands;
  if (!isa<LoadOp, StoreOp, PrefetchOp, AtomicRMWOp, AtomicCASOp>(op) ||
      !tileType(op->getOperand(0)))
    return operands;
  operands.push_back(op->getOperand(0));
  Value mask;
  if (auto load = dyn_cast<LoadOp>(op))
    mask = load.getMask();
  else if (auto store = dyn_cast<StoreOp>(op))
    mask = store.getMask();
  else if (auto prefetch = dyn_cast<PrefetchOp>(op))
    mask = prefetch.getMask();
  else if (auto atomic = dyn_cast<AtomicRMWOp>(op))
    mask = atomic.getMask();
  if (mask)
    operands.push_back(mask);
  return operands;
}

/// Where `v` comes from, for the debug output: "result #0 of tile.load at
/// loc(...)" or "block argument #1 of scf.for at loc(...)".
[[maybe_unused]] std::string describe(Value v) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto result = dyn_cast<OpResult>(v))
    os << "result #" << result.getResultNumber() << " of "
       << result.getOwner()->getName() << " at " << result.getOwner()->getLoc();
  else if (Operation *parent = v.getParentRegion()->getParentOp())
    os << "block argument #" << cast<BlockArgument>(v).getArgNumber()
       << " of " << parent->getName() << " at " << parent->getLoc();
  return text;
}

unsigned reduceAxis(Operation *op) {
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.getAxis();
  return cast<GenericReduceOp>(op).getAxis();
}

class LayoutAssigner {
public:
  LayoutAssigner(func::FuncOp func, unsigned numWarps, bool wgmma)
      : func(func), numWarps(numWarps), wgmma(wgmma), axisInfo(func) {}

  void run() {
    unsigned minPrograms = 1;
    if (auto attr = func->getAttrOfType<IntegerAttr>(
            TileDialect::kMinProgramsPerSMAttr))
      minPrograms = attr.getInt();
    collectAddressValues();
    sparingAddresses = true;
    func.walk([&](DotOp dot) {
      auto type = tileType(dot.getResult());
      // Warpgroup MMA only where ptxas can give its instructions registers.
      bool warpgroupRows =
          wgmma && warpgroupMmaFitsRegisters(type.getShape()[1], numWarps,
                                             minPrograms);
      Attribute mma = getMmaAccumulatorLayout(
          func.getContext(), type.getShape(), numWarps, warpgroupRows);
      LLVM_DEBUG(DBGS() << "dot at " << dot.getLoc() << ": accumulator "
                        << mma << (wgmma ? warpgroupRows
                                               ? " (warpgroup MMA's rows)"
                                               : " (mma.sync's: warpgroup "
                                                 "MMA's instruction would not "
                                                 "fit a thread's registers)"
                                         : "")
                        << "\n");
      assign(dot.getResult(), mma);
      assign(dot.getAcc(), mma);
    });
    drain();
    sparingAddresses = false;
    // Anchors: every memory access takes its coalesced layout before any
    // spreads, so that one access's choice cannot override another's.
    // Loads whose value is only broadcast (a vector shared by a tile's rows)
    // anchor last, and only where nothing reached them: their data is read
    // once per thread and reused from registers, so they follow the layout
    // of the tile they are combined with rather than force a conversion of
    // it (or of themselves) every iteration.
    SmallVector<Operation *> deferred;
    func.walk([&](Operation *op) {
      if (!isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op) ||
          !tileType(op->getOperand(0)))
        return;
      if (!benefitsFromCoalescing(op)) {
        LLVM_DEBUG(DBGS() << op->getName() << " at " << op->getLoc()
                          << ": no anchor, its addresses are nowhere "
                             "contiguous\n");
      } else if (isBroadcastOnly(op)) {
        LLVM_DEBUG(DBGS() << op->getName() << " at " << op->getLoc()
                          << ": anchors last, its value is only broadcast\n");
        deferred.push_back(op);
      } else {
        anchor(op);
      }
    });
    drain();
    for (Operation *op : deferred) {
      if (Attribute reached = layouts.lookup(op->getOperand(0))) {
        LLVM_DEBUG(DBGS() << op->getName() << " at " << op->getLoc()
                          << ": keeps " << reached
                          << ", which its neighbours gave it\n");
        continue;
      }
      anchor(op);
      drain();
    }
    // Whatever no anchor reached gets a plain row-major layout.
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            seedDefault(arg);
      for (Value result : op->getResults())
        seedDefault(result);
    });
    materialize();
    // Each dot's instruction, as its accumulator's layout allows.
    func.walk([&](DotOp dot) {
      MmaEncodingAttr mma = getMmaEncoding(dot, wgmma);
      // An fp8 dot kept for warpgroup MMA whose accumulator did not get its
      // layout runs as an f16 dot (tile-upcast-fp8-dots).
      if (!mma && isFp8(dot.getA().getType())) {
        LLVM_DEBUG(DBGS() << "fp8 dot at " << dot.getLoc()
                          << ": no warpgroup MMA, runs as an f16 dot\n");
        upcastFp8Operands(dot);
        mma = getMmaEncoding(dot, wgmma);
      }
      LLVM_DEBUG({
        DBGS() << "dot at " << dot.getLoc() << ": ";
        if (mma)
          llvm::dbgs() << mma << "\n";
        else
          llvm::dbgs() << "no tensor-core instruction, the FMA loop\n";
      });
      if (mma)
        dot.setMmaAttr(mma);
      else
        dot.removeMmaAttr();
    });
  }

private:
  /// An access whose addresses are nowhere contiguous gains nothing from a
  /// layout of its own: it takes its neighbours' rather than forcing a
  /// conversion on them (e.g. the per-block scales beside a quant tile).
  bool benefitsFromCoalescing(Operation *op) {
    Value ptr = op->getOperand(0);
    unsigned fastest = axisInfo.getMostContiguousDim(ptr);
    return axisInfo.get(ptr).contiguity[fastest] > 1;
  }

  /// Fills addressValues: the address operands of every load that feeds a
  /// dot operand and the tiles they are computed from (through loop-carried
  /// values too), up to dots and other accesses (a loaded index tile keeps
  /// its load's).
  void collectAddressValues() {
    SmallVector<Value> worklist;
    func.walk([&](LoadOp load) {
      if (llvm::any_of(load->getUses(), [](OpOperand &use) {
            auto dot = dyn_cast<DotOp>(use.getOwner());
            return dot && use.get() != dot.getAcc();
          }))
        llvm::append_range(worklist, addressOperands(load));
    });
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (!tileType(v) || !addressValues.insert(v).second)
        continue;
      if (Operation *def = v.getDefiningOp()) {
        if (!isa<DotOp>(def) && addressOperands(def).empty())
          llvm::append_range(worklist, def->getOperands());
        continue;
      }
      auto arg = cast<BlockArgument>(v);
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
        if (arg.getArgNumber() > 0) {
          worklist.push_back(loop.getInitArgs()[arg.getArgNumber() - 1]);
          worklist.push_back(loop.getYieldedValues()[arg.getArgNumber() - 1]);
        }
    }
  }

  static bool isBroadcastOnly(Operation *op) {
    auto load = dyn_cast<LoadOp>(op);
    return load && !load->use_empty() &&
           llvm::all_of(load->getUsers(),
                        [](Operation *user) { return isa<BroadcastOp>(user); });
  }

  /// Gives the addresses of memory access `op` their coalesced layout,
  /// unless they already have one.
  void anchor(Operation *op) {
    Value ptr = op->getOperand(0);
    BlockedLayoutAttr layout = coalescedLayout(op);
    LLVM_DEBUG({
      if (Attribute earlier = layouts.lookup(ptr))
        DBGS() << op->getName() << " at " << op->getLoc() << ": keeps "
               << earlier << " of an earlier anchor, not its own " << layout
               << "\n";
    });
    assign(ptr, layout);
  }

  BlockedLayoutAttr coalescedLayout(Operation *op) {
    Value ptr = op->getOperand(0);
    auto type = tileType(ptr);
    unsigned rank = type.getRank();
    unsigned fastest = axisInfo.getMostContiguousDim(ptr);
    SmallVector<unsigned> order{fastest};
    for (int d = rank - 1; d >= 0; --d)
      if (unsigned(d) != fastest)
        order.push_back(d);
    // Loads may be realigned in registers (see getUnalignedLoadWidth);
    // stores write exactly their bytes, so they stay aligned.
    unsigned vector = isa<LoadOp>(op)
                          ? axisInfo.getUnalignedLoadWidth(ptr, Value(), fastest)
                          : axisInfo.getVectorWidth(ptr, Value(), fastest);
    auto layout = getDefaultBlockedLayout(func.getContext(), type.getShape(),
                                          numWarps, vector, order);
    LLVM_DEBUG({
      AxisInfo info = axisInfo.get(ptr);
      DBGS() << op->getName() << " at " << op->getLoc()
             << ": addresses contiguous along dimension " << fastest << " ("
             << info.contiguity[fastest] << " elements, the first of each "
             << info.divisibility[fastest] << "-byte aligned): " << vector
             << " per access, " << layout << "\n";
    });
    return layout;
  }

  void seedDefault(Value v) {
    auto type = tileType(v);
    if (!type || layouts.count(v))
      return;
    SmallVector<unsigned> order;
    for (int d = type.getRank() - 1; d >= 0; --d)
      order.push_back(d);
    auto layout = getDefaultBlockedLayout(func.getContext(), type.getShape(),
                                          numWarps, 1, order);
    LLVM_DEBUG(DBGS() << "no anchor reaches " << describe(v) << ": row-major "
                      << layout << "\n");
    seed(v, layout);
  }

  void seed(Value v, Attribute layout) {
    assign(v, layout);
    drain();
  }

  void drain() {
    while (!worklist.empty()) {
      Value next = worklist.front();
      worklist.pop_front();
      spread(next, layouts[next]);
    }
  }

  /// Values that must hold a blocked (not a slice) layout.
  static bool needsBlocked(Value v) {
    if (isa_and_nonnull<ExpandDimsOp, TransOp>(v.getDefiningOp()))
      return true;
    // A reduction to a tile returns the slice of its operand's layout, which
    // must be blocked; one to a scalar takes any layout.
    return llvm::any_of(v.getUsers(), [](Operation *user) {
      if (isa<ReduceOp, GenericReduceOp>(user))
        return isa<RankedTensorType>(user->getResult(0).getType());
      return isa<TransOp>(user);
    });
  }

  /// Gives `v` `layout` and spreads it, unless `v` has one, `layout` cannot
  /// lay out its shape (warpgroup MMA's accumulator layout, or a slice of it,
  /// reaches tiles of other shapes: a [1 x N] row of column indices), or it
  /// is an address value while the dots' layouts spread.
  void assign(Value v, Attribute layout) {
    if (!tileType(v) || !layout || layouts.count(v) || !layoutFits(tileType(v), layout))
      return;
    if (sparingAddresses && addressValues.contains(v)) {
      LLVM_DEBUG(DBGS() << "the accumulator's " << layout
                        << " stops at " << describe(v)
                        << ": a dot operand's load lays it out\n");
      return;
    }
    if (isa<SliceLayoutAttr>(layout) && needsBlocked(v))
      return;
    layouts[v] = layout;
    worklist.push_back(v);
  }

  /// Layout relations of `op` once its value `v` has `layout`.
  void relate(Operation *op, Value v, Attribute layout) {
    // A stored value does not choose the store's addresses: the store's own
    // anchor does, and a conversion joins a value that arrives otherwise.
    if (isa<StoreOp, AtomicRMWOp, AtomicCASOp>(op) && v != op->getOperand(0) &&
        !(isa<StoreOp>(op) && v == cast<StoreOp>(op).getMask()))
      return;
    if (isSameLayoutOp(op)) {
      for (Value operand : op->getOperands())
        assign(operand, layout);
      for (Value result : op->getResults())
        assign(result, layout);
    } else if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
      if (v == expand.getResult()) {
        if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
          assign(expand.getSrc(),
                 SliceLayoutAttr::get(op->getContext(), expand.getAxis(),
                                      blocked));
      } else if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
        if (slice.getDim() == expand.getAxis())
          assign(expand.getResult(), slice.getParent());
      }
    } else if (isa<ReduceOp, GenericReduceOp>(op)) {
      unsigned axis = reduceAxis(op);
      Value src = op->getOperand(0), result = op->getResult(0);
      if (v == src) {
        if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
          assign(result, SliceLayoutAttr::get(op->getContext(), axis, blocked));
      } else if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
        if (slice.getDim() == axis)
          assign(src, slice.getParent());
      }
    } else if (auto topk = dyn_cast<TopKOp>(op)) {
      // The two results share a layout; the source has its own.
      if (v == topk.getValues())
        assign(topk.getIndices(), layout);
      else if (v == topk.getIndices())
        assign(topk.getValues(), layout);
    } else if (auto gather = dyn_cast<GatherOp>(op)) {
      // The result is laid out as its indices; the source on its own.
      if (v == gather.getIndices())
        assign(gather.getResult(), layout);
      else if (v == gather.getResult())
        assign(gather.getIndices(), layout);
    } else if (auto trans = dyn_cast<TransOp>(op)) {
      if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
        assign(v == trans.getSrc() ? trans.getResult() : trans.getSrc(),
               transposed(blocked));
    } else if (auto dot = dyn_cast<DotOp>(op)) {
      if (v == dot.getAcc())
        assign(dot.getResult(), layout);
      else if (v == dot.getResult())
        assign(dot.getAcc(), layout);
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // v is an init operand or a result: tie it to its iteration value.
      for (unsigned i = 0; i < loop.getNumResults(); ++i)
        if (v == loop.getInitArgs()[i] || v == loop.getResult(i)) {
          assign(loop.getInitArgs()[i], layout);
          assign(loop.getRegionIterArgs()[i], layout);
          assign(loop.getResult(i), layout);
          assign(loop.getYieldedValues()[i], layout);
        }
    } else if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = yield->getParentOp();
      for (unsigned i = 0; i < yield.getNumOperands(); ++i)
        if (yield.getOperand(i) == v) {
          if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
            // The after region yields the next iteration's arguments.
            assign(loop.getBeforeArguments()[i], layout);
            continue;
          }
          assign(parent->getResult(i), layout);
          if (auto loop = dyn_cast<scf::ForOp>(parent))
            assign(loop.getRegionIterArgs()[i], layout);
        }
    } else if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
      // v is a result: every region's yield gives it.
      for (unsigned i = 0; i < op->getNumResults(); ++i)
        if (op->getResult(i) == v)
          for (Region &region : op->getRegions())
            if (!region.empty())
              assign(region.front().getTerminator()->getOperand(i), layout);
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      // v is an init operand (tied to the before region's arguments) or a
      // result (tied to what scf.condition forwards).
      for (unsigned i = 0; i < loop.getInits().size(); ++i)
        if (v == loop.getInits()[i])
          assign(loop.getBeforeArguments()[i], layout);
      for (unsigned i = 0; i < loop.getNumResults(); ++i)
        if (v == loop.getResult(i))
          assign(loop.getConditionOp().getArgs()[i], layout);
    } else if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
      auto loop = cast<scf::WhileOp>(condition->getParentOp());
      for (unsigned i = 0; i < condition.getArgs().size(); ++i)
        if (v == condition.getArgs()[i]) {
          assign(loop.getAfterArguments()[i], layout);
          assign(loop.getResult(i), layout);
        }
    } else if (auto branch = dyn_cast<BranchOpInterface>(op)) {
      // v is passed to a successor block: its argument shares the layout.
      for (unsigned s = 0; s < op->getNumSuccessors(); ++s) {
        SuccessorOperands operands = branch.getSuccessorOperands(s);
        for (auto [i, operand] : llvm::enumerate(operands.getForwardedOperands()))
          if (operand == v)
            assign(op->getSuccessor(s)->getArgument(
                       operands.getProducedOperandCount() + i),
                   layout);
      }
    }
  }

  void spread(Value v, Attribute layout) {
    if (Operation *def = v.getDefiningOp()) {
      relate(def, v, layout);
    } else {
      auto arg = cast<BlockArgument>(v);
      Block *block = arg.getOwner();
      Operation *parent = block->getParentOp();
      unsigned n = arg.getArgNumber();
      if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        if (n > 0)
          relate(loop, loop.getResult(n - 1), layout);
      } else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
        if (block == &loop.getBefore().front()) {
          assign(loop.getInits()[n], layout);
          assign(loop.getYieldOp().getOperand(n), layout);
        } else {
          assign(loop.getConditionOp().getArgs()[n], layout);
        }
      }
      // The values the block's predecessors pass to it.
      for (BlockOperand &use : block->getUses())
        if (auto branch = dyn_cast<BranchOpInterface>(use.getOwner())) {
          SuccessorOperands operands =
              branch.getSuccessorOperands(use.getOperandNumber());
          if (n >= operands.getProducedOperandCount())
            assign(operands.getForwardedOperands()[n - operands.getProducedOperandCount()],
                   layout);
        }
    }
    for (Operation *user : v.getUsers())
      relate(user, v, layout);
  }

  /// Writes the chosen layouts into the types and joins mismatches with
  /// tile.convert_layout.
  void materialize() {
    for (auto &[value, layout] : layouts)
      value.setType(withLayout(tileType(value), layout));

    func.walk([&](Operation *op) {
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          if (auto type = tileType(constant.getResult()))
            constant.setValueAttr(dense.reshape(type));
      if (auto loop = dyn_cast<scf::ForOp>(op))
        for (unsigned i = 0; i < loop.getNumResults(); ++i)
          loop.getRegionIterArgs()[i].setType(loop.getResult(i).getType());
      // What scf.condition forwards arrives in the after region's arguments
      // and the results: one type (the results').
      if (auto loop = dyn_cast<scf::WhileOp>(op))
        for (unsigned i = 0; i < loop.getNumResults(); ++i)
          loop.getAfterArguments()[i].setType(loop.getResult(i).getType());
    });

    func.walk([&](Operation *op) { joinLayouts(op); });
  }

  void convertOperand(Operation *op, OpOperand &operand, Type required) {
    if (operand.get().getType() == required)
      return;
    LLVM_DEBUG(DBGS() << "convert operand #" << operand.getOperandNumber()
                      << " of " << op->getName() << " at " << op->getLoc()
                      << ": " << operand.get().getType() << " to " << required
                      << "\n");
    OpBuilder builder(op);
    auto convert = ConvertLayoutOp::create(builder, op->getLoc(), required,
                                           operand.get());
    operand.set(convert);
  }

  void convertResult(Operation *op, Value result, Type natural) {
    Type assigned = result.getType();
    if (assigned == natural)
      return;
    LLVM_DEBUG(DBGS() << "convert the result of " << op->getName() << " at "
                      << op->getLoc() << ": " << natural << " to " << assigned
                      << "\n");
    result.setType(natural);
    OpBuilder builder(op->getContext());
    builder.setInsertionPointAfter(op);
    auto convert = ConvertLayoutOp::create(builder, op->getLoc(), assigned, result);
    result.replaceAllUsesExcept(convert, convert);
  }

  void joinLayouts(Operation *op) {
    auto requireLayout = [&](OpOperand &operand, Attribute layout) {
      if (auto type = tileType(operand.get()))
        convertOperand(op, operand, withLayout(type, layout));
    };
    if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
      // A layout that does not fit the source: broadcast in the source's
      // layout, then convert the result.
      Attribute layout = tileType(broadcast.getResult()).getEncoding();
      Attribute source = tileType(broadcast.getSrc()).getEncoding();
      if (!layoutFits(tileType(broadcast.getSrc()), layout)) {
        convertResult(op, broadcast.getResult(),
                      withLayout(tileType(broadcast.getResult()), source));
        return;
      }
    }
    if (!addressOperands(op).empty()) {
      // An access happens in its pointers' layout: its mask and values
      // follow them, and a result (loaded or old values) that spreading gave
      // another layout is converted after it.
      Attribute layout = tileType(op->getOperand(0)).getEncoding();
      for (Value result : op->getResults())
        if (auto type = tileType(result))
          convertResult(op, result, withLayout(type, layout));
      for (OpOperand &operand : op->getOpOperands())
        requireLayout(operand, layout);
      return;
    }
    if (isSameLayoutOp(op)) {
      Value primary;
      for (Value result : op->getResults())
        if (tileType(result))
          primary = result;
      for (Value operand : op->getOperands())
        if (!primary && tileType(operand))
          primary = operand;
      if (!primary)
        return;
      Attribute layout = tileType(primary).getEncoding();
      for (OpOperand &operand : op->getOpOperands())
        requireLayout(operand, layout);
      // The other results of a multi-result op (arith.mului_extended's low
      // and high words) may have been reached first with other layouts.
      for (Value result : op->getResults())
        if (auto type = tileType(result); type && type.getEncoding() != layout)
          convertResult(op, result, withLayout(type, layout));
    } else if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
      auto result = tileType(expand.getResult());
      auto blocked = cast<BlockedLayoutAttr>(result.getEncoding());
      requireLayout(expand.getSrcMutable(),
                    SliceLayoutAttr::get(op->getContext(), expand.getAxis(),
                                         blocked));
    } else if (isa<ReduceOp, GenericReduceOp>(op)) {
      auto src = tileType(op->getOperand(0));
      if (auto result = tileType(op->getResult(0))) {
        auto blocked = cast<BlockedLayoutAttr>(src.getEncoding());
        convertResult(op, op->getResult(0),
                      withLayout(result, SliceLayoutAttr::get(
                                             op->getContext(), reduceAxis(op),
                                             blocked)));
      }
    } else if (auto topk = dyn_cast<TopKOp>(op)) {
      convertResult(op, topk.getIndices(),
                    withLayout(tileType(topk.getIndices()),
                               tileType(topk.getValues()).getEncoding()));
    } else if (auto gather = dyn_cast<GatherOp>(op)) {
      requireLayout(gather.getIndicesMutable(),
                    tileType(gather.getResult()).getEncoding());
    } else if (auto trans = dyn_cast<TransOp>(op)) {
      auto src = tileType(trans.getSrc());
      convertResult(op, trans.getResult(),
                    withLayout(tileType(trans.getResult()),
                               transposed(cast<BlockedLayoutAttr>(
                                   src.getEncoding()))));
    } else if (auto dot = dyn_cast<DotOp>(op)) {
      requireLayout(dot.getAccMutable(),
                    tileType(dot.getResult()).getEncoding());
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (unsigned i = 0; i < loop.getNumResults(); ++i) {
        convertOperand(op, loop.getInitArgsMutable()[i],
                       loop.getResult(i).getType());
      }
    } else if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = yield->getParentOp();
      if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
        for (OpOperand &operand : yield->getOpOperands())
          convertOperand(op, operand,
                         loop.getBeforeArguments()[operand.getOperandNumber()]
                             .getType());
      } else if (isa<scf::ForOp, scf::IfOp, scf::IndexSwitchOp>(parent)) {
        for (OpOperand &operand : yield->getOpOperands())
          convertOperand(op, operand,
                         parent->getResult(operand.getOperandNumber())
                             .getType());
      }
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      for (OpOperand &operand : loop.getInitsMutable())
        convertOperand(op, operand,
                       loop.getBeforeArguments()[operand.getOperandNumber()]
                           .getType());
    } else if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
      auto loop = cast<scf::WhileOp>(condition->getParentOp());
      for (auto [i, operand] : llvm::enumerate(condition.getArgsMutable()))
        convertOperand(op, operand, loop.getResult(i).getType());
    } else if (auto branch = dyn_cast<BranchOpInterface>(op)) {
      // Each block argument keeps its layout; what arrives otherwise is
      // converted before the branch.
      for (unsigned s = 0; s < op->getNumSuccessors(); ++s) {
        SuccessorOperands operands = branch.getSuccessorOperands(s);
        unsigned produced = operands.getProducedOperandCount();
        MutableOperandRange forwarded = operands.getMutableForwardedOperands();
        for (unsigned i = 0; i < forwarded.size(); ++i)
          convertOperand(op, forwarded[i],
                         op->getSuccessor(s)->getArgument(produced + i).getType());
      }
    }
  }

  func::FuncOp func;
  unsigned numWarps;
  bool wgmma;
  AxisInfoAnalysis axisInfo;
  llvm::MapVector<Value, Attribute> layouts;
  std::deque<Value> worklist;
  /// The address operands of dot operands' loads and what computes them,
  /// and whether assign() leaves them alone (while the dots' layouts spread).
  llvm::DenseSet<Value> addressValues;
  bool sparingAddresses = false;
};

struct TileAssignLayoutsPass
    : llk::tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using TileAssignLayoutsBase::TileAssignLayoutsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Tiles must be valid before we can spread them over threads.
    if (failed(checkValues(func, [](Operation *op, Value v, StringRef what) {
          return verifyTileType(op, v.getType(), what);
        })))
      return signalPassFailure();
    unsigned warps = getNumWarps(func, numWarps);
    LLVM_DEBUG(DBGS() << "kernel @" << func.getSymName() << ": " << warps
                      << " warps ("
                      << (func->hasAttr(TileDialect::kNumWarpsAttr)
                              ? "its tile.num_warps"
                              : "the pass's num-warps")
                      << ")" << (wgmma ? ", warpgroup MMA" : "") << "\n");
    // Record the choice: the lowering sizes the thread block from it.
    func->setAttr(TileDialect::kNumWarpsAttr,
                  IntegerAttr::get(IntegerType::get(&getContext(), 32), warps));
    if (func.walk([](DotOp) { return WalkResult::interrupt(); }).wasInterrupted())
      rematerializeIndexTiles(func);
    LayoutAssigner(func, warps, wgmma).run();
    if (failed(checkLaidOut(func)) || failed(checkElemsPerThread(func, warps)))
      return signalPassFailure();
  }

  /// Every tile's layout lays out its shape (assign() gives no other; what
  /// slips through is an llk bug): said in the user's terms, before the
  /// verifier names the compiler's layout.
  static LogicalResult checkLaidOut(func::FuncOp func) {
    return checkValues(func, [](Operation *op, Value value,
                                StringRef) -> LogicalResult {
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type || !getUnfitDimension(type))
        return success();
      auto shown = RankedTensorType::get(type.getShape(), type.getElementType());
      return op->emitOpError("makes a ")
             << shown
             << " tile that llk gave warpgroup MMA's accumulator layout, "
                "which cannot lay it out (an llk bug: please report it); "
                "without --arch sm_90a, or with fewer warps or another "
                "block shape, its dots use mma.sync's layout";
    });
  }

  /// Applies `check` to every op result and block argument of `func` (with
  /// "result" or "block argument"), stopping at the first failure.
  static LogicalResult
  checkValues(func::FuncOp func,
              function_ref<LogicalResult(Operation *, Value, StringRef)> check) {
    WalkResult result = func.walk([&](Operation *op) {
      for (Value v : op->getResults())
        if (failed(check(op, v, "result")))
          return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (failed(check(op, arg, "block argument")))
              return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  /// A tile far larger than its program's threads can hold would be lowered
  /// element by element into millions of instructions (minutes in LLVM, then
  /// spills): say so instead, at the op that makes it.
  static LogicalResult checkElemsPerThread(func::FuncOp func, unsigned warps) {
    return checkValues(func, [&](Operation *op, Value value,
                                 StringRef) -> LogicalResult {
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type)
        return success();
      FailureOr<DistributedView> view = getDistributedView(type);
      if (failed(view) || view->totalElemsPerThread() <= kMaxElemsPerThread)
        return success();
      auto shown = RankedTensorType::get(type.getShape(), type.getElementType());
      return op->emitOpError("makes a tile of which each thread holds ")
             << view->totalElemsPerThread() << " elements (" << shown << " over "
             << warps << (warps == 1 ? " warp" : " warps")
             << "); at most " << kMaxElemsPerThread
             << " fit in a thread's registers: use more warps or a smaller "
                "tile";
    });
  }

  /// 255 registers of 32 bits hold at most 1020 8-bit elements.
  static constexpr int64_t kMaxElemsPerThread = 1024;
};

} // namespace
