//===- IndexTiles.cpp - copies of index tiles for the layout pass ---------===//
//
// tile-assign-layouts anchors dots first, and CSE merges equal index tiles:
// one index tile used by a dot's operand and by a memory access would carry
// the accumulator's layout to that access. Each use gets its own copy.
//
//===----------------------------------------------------------------------===//

#include "IndexTiles.h"

#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace llk;
using namespace llk::tile;

static RankedTensorType tileType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// Whether `op` makes an index tile from attributes, scalars and other
/// index tiles (`index`): a range, a constant, a splat of a scalar, or a
/// shape or integer op. Such tiles are free to recompute.
static bool isIndexOp(Operation *op, const llvm::DenseSet<Operation *> &index) {
  if (op->getNumResults() != 1 || op->getNumRegions() || !tileType(op->getResult(0)))
    return false;
  if (isa<MakeRangeOp, arith::ConstantOp>(op))
    return true;
  if (auto splat = dyn_cast<SplatOp>(op))
    return !tileType(splat.getSrc());
  // (Hints forward their operand: a copy keeps the promise.)
  bool shapeOp = isa<ExpandDimsOp, BroadcastOp, MultipleOfOp, MaxContiguousOp,
                     MaxConstancyOp>(op);
  bool integerOp = isa<arith::ArithDialect>(op->getDialect()) &&
                   tileType(op->getResult(0)).getElementType().isSignlessInteger();
  if (!shapeOp && !integerOp)
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !tileType(v) || (def && index.contains(def));
  });
}

/// Gives every use of an index tile its own copy of the ops that make it
/// (placed after each original, which dominates all its uses): users first,
/// so that a copy's operands get their own copies in turn.
void llk::tile::rematerializeIndexTiles(func::FuncOp func) {
  llvm::DenseSet<Operation *> index;
  SmallVector<Operation *> order;
  func.walk([&](Operation *op) {
    if (isIndexOp(op, index)) {
      index.insert(op);
      order.push_back(op);
    }
  });
  for (Operation *op : llvm::reverse(order)) {
    SmallVector<OpOperand *> uses = llvm::map_to_vector(
        op->getResult(0).getUses(), [](OpOperand &use) { return &use; });
    if (uses.size() < 2)
      continue;
    OpBuilder b(op->getContext());
    b.setInsertionPointAfter(op);
    for (OpOperand *use : llvm::drop_begin(uses))
      use->set(b.clone(*op)->getResult(0));
  }
}

