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
// converts. A dot's operands relate to nothing: they keep the layouts of
// their loads, and the dot lowering stages them through shared memory.
//
//===----------------------------------------------------------------------===//

#include "llk/Analysis/AxisInfo.h"
#include "llk/Dialect/Tile/IR/Layout.h"
#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include <deque>

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
          AtomicRMWOp, AtomicCASOp, CastOp, BitcastOp>(op))
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

/// Whether `layout` can lay out a tile of `type`'s shape. Only a layout with
/// warpRepeat (warpgroup MMA's accumulator, or a slice of it) may not: it
/// needs whole repeated warp blocks along those dimensions, and spreading
/// from the accumulator reaches tiles of other shapes (a [1 x N] row of
/// column indices, the [M x K] offsets of an operand).
bool fits(RankedTensorType type, Attribute layout) {
  auto blocked = dyn_cast<BlockedLayoutAttr>(layout);
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    blocked = slice.getParent();
  if (!blocked || blocked.getWarpRepeat().empty())
    return true;
  FailureOr<DistributedView> view = getDistributedView(withLayout(type, layout));
  if (failed(view))
    return false;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (view->warpRepeat[dim] > 1 &&
        size % (view->tileExtent(dim) * view->warpRepeat[dim]) != 0)
      return false;
  return true;
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
    func.walk([&](DotOp dot) {
      auto type = tileType(dot.getResult());
      // Warpgroup MMA only where ptxas can give its instructions registers.
      bool warpgroupRows =
          wgmma && warpgroupMmaFitsRegisters(type.getShape()[1], numWarps,
                                             minPrograms);
      Attribute mma = getMmaAccumulatorLayout(
          func.getContext(), type.getShape(), numWarps, warpgroupRows);
      assign(dot.getResult(), mma);
      assign(dot.getAcc(), mma);
    });
    drain();
    // Anchors: every memory access takes its coalesced layout before any
    // spreads, so that one access's choice cannot override another's.
    // Loads whose value is only broadcast (a vector shared by a tile's rows)
    // anchor last, and only where nothing reached them: their data is read
    // once per thread and reused from registers, so they follow the layout
    // of the tile they are combined with rather than force a conversion of
    // it (or of themselves) every iteration.
    SmallVector<Operation *> deferred;
    func.walk([&](Operation *op) {
      if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op))
        if (tileType(op->getOperand(0)) && benefitsFromCoalescing(op)) {
          if (isBroadcastOnly(op))
            deferred.push_back(op);
          else
            assign(op->getOperand(0), coalescedLayout(op));
        }
    });
    drain();
    for (Operation *op : deferred)
      if (!layouts.count(op->getOperand(0)))
        seed(op->getOperand(0), coalescedLayout(op));
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

  static bool isBroadcastOnly(Operation *op) {
    auto load = dyn_cast<LoadOp>(op);
    return load && !load->use_empty() &&
           llvm::all_of(load->getUsers(),
                        [](Operation *user) { return isa<BroadcastOp>(user); });
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
    return getDefaultBlockedLayout(func.getContext(), type.getShape(),
                                   numWarps, vector, order);
  }

  void seedDefault(Value v) {
    auto type = tileType(v);
    if (!type || layouts.count(v))
      return;
    SmallVector<unsigned> order;
    for (int d = type.getRank() - 1; d >= 0; --d)
      order.push_back(d);
    seed(v, getDefaultBlockedLayout(func.getContext(), type.getShape(),
                                    numWarps, 1, order));
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

  void assign(Value v, Attribute layout) {
    if (!tileType(v) || !layout || layouts.count(v) || !fits(tileType(v), layout))
      return;
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
    OpBuilder builder(op);
    auto convert = ConvertLayoutOp::create(builder, op->getLoc(), required,
                                           operand.get());
    operand.set(convert);
  }

  void convertResult(Operation *op, Value result, Type natural) {
    Type assigned = result.getType();
    if (assigned == natural)
      return;
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
      if (!fits(tileType(broadcast.getSrc()), layout)) {
        convertResult(op, broadcast.getResult(),
                      withLayout(tileType(broadcast.getResult()), source));
        return;
      }
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
    // Record the choice: the lowering sizes the thread block from it.
    func->setAttr(TileDialect::kNumWarpsAttr,
                  IntegerAttr::get(IntegerType::get(&getContext(), 32), warps));
    LayoutAssigner(func, warps, wgmma).run();
    if (failed(checkElemsPerThread(func, warps)))
      return signalPassFailure();
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
