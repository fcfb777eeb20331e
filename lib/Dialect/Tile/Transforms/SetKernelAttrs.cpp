//===- SetKernelAttrs.cpp - the kernels' launch attributes from options ---===//
//
// llkc's --num-warps, --num-stages and --min-programs-per-sm override what
// the kernels say. This pass writes them into the kernels' attributes, which
// the layout, pipelining and lowering passes read, so that a compile can be
// replayed pass by pass from the IR alone.
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/Tile/Transforms/Passes.h"

namespace llk::tile {
#define GEN_PASS_DEF_TILESETKERNELATTRS
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

using namespace mlir;
using namespace llk::tile;

namespace {

struct TileSetKernelAttrsPass
    : llk::tile::impl::TileSetKernelAttrsBase<TileSetKernelAttrsPass> {
  using TileSetKernelAttrsBase::TileSetKernelAttrsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto set = [&](llvm::StringRef name, unsigned value) {
      if (value)
        func->setAttr(name, IntegerAttr::get(
                                IntegerType::get(&getContext(), 32), value));
    };
    set(TileDialect::kNumWarpsAttr, numWarps);
    set(TileDialect::kNumStagesAttr, numStages);
    set(TileDialect::kMinProgramsPerSMAttr, minProgramsPerSM);
  }
};

} // namespace
