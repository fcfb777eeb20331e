//===- UpcastFp8Dots.cpp - fp8 dots as exact f16 dots ---------------------===//
//
// Every product of two fp8 values is exact in f32, so an fp8 dot is an f16
// dot of its operands cast to f16 (exact too), which mma.sync takes. On
// sm_90a, dots that warpgroup MMA may take in fp8 stay fp8.
//
//===----------------------------------------------------------------------===//

#include "llk/Dialect/Tile/Transforms/Passes.h"

#include "llvm/Support/Debug.h"

namespace llk::tile {
#define GEN_PASS_DEF_TILEUPCASTFP8DOTS
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace llk::tile

#define DEBUG_TYPE "tile-upcast-fp8-dots"

using namespace mlir;
using namespace llk::tile;

void llk::tile::upcastFp8Operands(DotOp dot) {
  OpBuilder b(dot);
  Type f16 = b.getF16Type();
  auto upcast = [&](Value v) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    return CastOp::create(b, dot.getLoc(), type.clone(f16), v,
                          RoundingModeAttr());
  };
  dot.getAMutable().assign(upcast(dot.getA()));
  dot.getBMutable().assign(upcast(dot.getB()));
}

namespace {

/// Whether warpgroup MMA may take `dot` in fp8 (m64nNk32, operands in
/// 128-byte slabs of K or one of 64), as far as its shapes tell before
/// layouts.
bool mayRunOnWarpgroupMma(DotOp dot) {
  RankedTensorType aType = dot.getA().getType(), cType = dot.getType();
  int64_t M = cType.getDimSize(0), N = cType.getDimSize(1),
          K = aType.getDimSize(1);
  return cType.getElementType().isF32() && M % 64 == 0 && N % 8 == 0 &&
         N <= 256 && (K % 128 == 0 || K == 64);
}

struct TileUpcastFp8DotsPass
    : llk::tile::impl::TileUpcastFp8DotsBase<TileUpcastFp8DotsPass> {
  using TileUpcastFp8DotsBase::TileUpcastFp8DotsBase;

  void runOnOperation() override {
    getOperation().walk([&](DotOp dot) {
      if (!isFp8(dot.getA().getType()))
        return; // the verifier makes both fp8 or neither
      if (wgmma && mayRunOnWarpgroupMma(dot)) {
        LLVM_DEBUG(llvm::dbgs() << "fp8 dot at " << dot.getLoc()
                                << " stays fp8, for warpgroup MMA\n");
        return;
      }
      LLVM_DEBUG(llvm::dbgs() << "fp8 dot at " << dot.getLoc()
                              << " runs as an f16 dot\n");
      upcastFp8Operands(dot);
    });
  }
};

} // namespace
