//===- IndexTiles.h - copies of index tiles for the layout pass -*- C++ -*-===//
//
// Private to lib/Dialect/Tile/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LIB_DIALECT_TILE_TRANSFORMS_INDEXTILES_H
#define LLK_LIB_DIALECT_TILE_TRANSFORMS_INDEXTILES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace llk::tile {

/// Gives every use of an index tile (a range, a constant, a splat of a
/// scalar, or a shape or integer op of such tiles: free to recompute) its
/// own copy of the ops that make it, so that one layout need not serve all
/// its uses; copies that end up with one layout are merged by a later CSE.
void rematerializeIndexTiles(mlir::func::FuncOp func);

} // namespace llk::tile

#endif // LLK_LIB_DIALECT_TILE_TRANSFORMS_INDEXTILES_H
