//===- TileDialect.h - the tile dialect -------------------------*- C++ -*-===//

#ifndef LLK_DIALECT_TILE_IR_TILEDIALECT_H
#define LLK_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llk/Export.h"

// The dialect's classes are part of the compiler's C++ API (LLK_API), and
// so are their TypeIDs, which code outside libllk.so looks up
// (isa<tile::PtrType>): MLIR's macro, with the specialization exported.
LLK_API_BEGIN
#pragma push_macro("MLIR_DECLARE_EXPLICIT_TYPE_ID")
#undef MLIR_DECLARE_EXPLICIT_TYPE_ID
#define MLIR_DECLARE_EXPLICIT_TYPE_ID(CLASS_NAME)                              \
  namespace mlir {                                                             \
  namespace detail {                                                           \
  template <> class LLK_API TypeIDResolver<CLASS_NAME> {                       \
  public:                                                                      \
    static TypeID resolveTypeID() { return id; }                               \
                                                                               \
  private:                                                                     \
    static SelfOwningTypeID id;                                                \
  };                                                                           \
  } /* namespace detail */                                                     \
  } /* namespace mlir */
#include "llk/Dialect/Tile/IR/TileDialect.h.inc"
#include "llk/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "llk/Dialect/Tile/IR/TileTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "llk/Dialect/Tile/IR/TileAttrs.h.inc"

namespace llk::tile {

/// The value a load of `ptrLike` produces: `T` for `!tile.ptr<T>`, and a tile
/// of `T` with the same shape and layout for a tile of pointers.
mlir::Type getPointeeValueType(mlir::Type ptrLike);

/// The mask type that goes with `type`: i1, or a tile of i1 of its shape and
/// layout.
mlir::Type getMaskType(mlir::Type type);

/// `type` (a scalar, or a tile) with elements of `elem`: a tile of `type`'s
/// shape and layout, or `elem` itself for a scalar.
mlir::Type withElementType(mlir::Type type, mlir::Type elem);

/// Checks that `type`, if it is a tensor, is a valid tile (static shape, every
/// dimension a power of two), reporting on `op` as `what` otherwise.
mlir::LogicalResult verifyTileType(mlir::Operation *op, mlir::Type type,
                                   llvm::StringRef what);

/// The tile one load or store of `desc` (a !tile.tensordesc) moves: its
/// block shape and element type, without a layout.
mlir::Type getDescriptorBlockType(mlir::Type desc);

/// Whether `op` is a short form (TileShortForms.td, or a tile.addptr whose
/// operands broadcast, or a load of a descriptor made in the kernel), which
/// tile-desugar writes out before anything else sees the kernel.
bool isShortForm(mlir::Operation *op);

/// Whether `type`, or a tile's elements, is an fp8 format (f8E4M3FN,
/// f8E5M2): bytes on the GPU, moved, cast and multiplied but not computed on.
inline bool isFp8(mlir::Type type) {
  return mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(
      mlir::getElementTypeOrSelf(type));
}

/// Number of warps of the kernel enclosing `op`: its `tile.num_warps`
/// attribute, or `defaultNumWarps`.
unsigned getNumWarps(mlir::Operation *op, unsigned defaultNumWarps = 4);

} // namespace llk::tile

#define GET_OP_CLASSES
#include "llk/Dialect/Tile/IR/TileOps.h.inc"
#pragma pop_macro("MLIR_DECLARE_EXPLICIT_TYPE_ID")
LLK_API_END

#endif // LLK_DIALECT_TILE_IR_TILEDIALECT_H
