//===- GridOps.cpp - the program's place in the grid, and barriers --------===//
//
// Programs run one after another, each to its end, so the ops that order
// threads or launches (tile.barrier, grid_dependency_wait,
// launch_dependents) have nothing to wait for.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;

namespace {

bool programId(Executor &ex, tile::ProgramIdOp op) {
  ex.set(op.getResult(),
         Executor::scalarInt(ex.programId(static_cast<unsigned>(op.getAxis()))));
  return true;
}

bool numPrograms(Executor &ex, tile::NumProgramsOp op) {
  ex.set(op.getResult(),
         Executor::scalarInt(ex.numPrograms(static_cast<unsigned>(op.getAxis()))));
  return true;
}

} // namespace

void llk::interp::detail::registerGridOps(OpHandlerTable &table) {
  table.add<programId>();
  table.add<numPrograms>();
  table.add<tile::BarrierOp, tile::GridDependencyWaitOp, tile::LaunchDependentsOp>(
      [](Executor &, Operation *) { return true; });
}
