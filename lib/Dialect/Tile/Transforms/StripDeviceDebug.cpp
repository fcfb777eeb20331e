//===- StripDeviceDebug.cpp - erase tile.print and tile.assert ------------===//

#include "llk/Dialect/Tile/Transforms/Passes.h"

namespace llk::tile {
#define GEN_PASS_DEF_TILESTRIPDEVICEDEBUG
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

using namespace mlir;
using namespace llk::tile;

namespace {
struct TileStripDeviceDebugPass
    : llk::tile::impl::TileStripDeviceDebugBase<TileStripDeviceDebugPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (isa<PrintOp, AssertOp>(op))
        op->erase();
    });
  }
};
} // namespace
