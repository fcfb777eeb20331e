//===- Passes.h - tile dialect transformations ------------------*- C++ -*-===//

#ifndef LLK_DIALECT_TILE_TRANSFORMS_PASSES_H
#define LLK_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "llk/Dialect/Tile/IR/TileDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace llk::tile {

#define GEN_PASS_DECL
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"

/// The patterns of tile-desugar.
void populateDesugarPatterns(mlir::RewritePatternSet &patterns);

/// Writes out every short form under `root` (tile-desugar); fails, with a
/// diagnostic, on one it cannot.
mlir::LogicalResult desugar(mlir::Operation *root);

#define GEN_PASS_REGISTRATION
#include "llk/Dialect/Tile/Transforms/Passes.h.inc"

/// Gives the buffers of each dot that the layout pass gave warpgroup MMA
/// (#tile.mma version 3) the wgmma swizzle where both its operands are read
/// from buffer slots of their own that suit it, else drops the dot to
/// mma.sync (the first step of tile-allocate-shared).
void placeWarpgroupMmaOperands(mlir::func::FuncOp func);

/// Makes the fp8 dot `dot` an f16 dot, exactly: a tile.cast of each operand
/// to f16 (in the operand's layout, where it has one) before it
/// (tile-upcast-fp8-dots; also where a dot kept in fp8 for warpgroup MMA
/// does not get it).
void upcastFp8Operands(DotOp dot);

} // namespace llk::tile

#endif // LLK_DIALECT_TILE_TRANSFORMS_PASSES_H
