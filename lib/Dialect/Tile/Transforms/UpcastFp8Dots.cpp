//===- UpcastFp8Dots.cpp - fp8 dots as exact f16 dots ---------------------===//

#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "llvm/Support/Debug.h"

namespace llk::tile {
#define GEN_PASS_DEF_TILEUPCASTFP8DOTS
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

#define DEBUG_TYPE "tile-upcast-fp8-dots"

using namespace mlir;
using namespace llk::tile;

namespace {
struct TileUpcastFp8DotsPass
    : llk::tile::impl::TileUpcastFp8DotsBase<TileUpcastFp8DotsPass> {
  void runOnOperation() override {
    getOperation().walk([](DotOp dot) {
      if (!isFp8(dot.getA().getType()))
        return; // the verifier makes both fp8 or neither
      OpBuilder b(dot);
      Type f16 = b.getF16Type();
      auto upcast = [&](Value v) -> Value {
        auto type = cast<RankedTensorType>(v.getType());
        return CastOp::create(b, dot.getLoc(), type.clone(f16), v,
                              RoundingModeAttr());
      };
      LLVM_DEBUG(llvm::dbgs() << "fp8 dot at " << dot.getLoc()
                              << " runs as an f16 dot\n");
      dot.getAMutable().assign(upcast(dot.getA()));
      dot.getBMutable().assign(upcast(dot.getB()));
    });
  }
};
} // namespace
