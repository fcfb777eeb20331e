//===- TileOpsHelpers.h - what the tile ops' C++ files share ----*- C++ -*-===//
//
// Private to lib/Dialect/Tile/IR: the type helpers of the verifiers, and the
// custom assembly directives of TileOps.td (AssemblyTypes.cpp), which the
// generated op classes (TileOps.cpp) call.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LIB_DIALECT_TILE_IR_TILEOPSHELPERS_H
#define LLK_LIB_DIALECT_TILE_IR_TILEOPSHELPERS_H

#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/OpImplementation.h"

namespace llk::tile {

inline mlir::Type elementTypeOf(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

inline llvm::ArrayRef<int64_t> shapeOf(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

inline mlir::Attribute encodingOf(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return tensor.getEncoding();
  return {};
}

/// Checks every tensor operand and result of `op` is a valid tile.
mlir::LogicalResult verifyTiles(mlir::Operation *op);

/// Ops that keep every element where it is need one layout on operand and
/// result (when both have one).
mlir::LogicalResult verifySameLayout(mlir::Operation *op, mlir::Type a,
                                     mlir::Type b, llvm::StringRef what);

// The custom<...> directives of TileOps.td and TileShortForms.td
// (AssemblyTypes.cpp): each result type may be left out where the operands
// determine it.
mlir::ParseResult parseRangeType(mlir::OpAsmParser &parser, mlir::Type &result,
                                 mlir::IntegerAttr start, mlir::IntegerAttr end);
void printRangeType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                    mlir::Type result, mlir::IntegerAttr, mlir::IntegerAttr);
mlir::ParseResult parseExpandedType(mlir::OpAsmParser &parser,
                                    mlir::Type &result, mlir::Type src,
                                    mlir::IntegerAttr axis);
void printExpandedType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                       mlir::Type result, mlir::Type, mlir::IntegerAttr);
mlir::ParseResult parseTransposedType(mlir::OpAsmParser &parser,
                                      mlir::Type &result, mlir::Type src);
void printTransposedType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                         mlir::Type result, mlir::Type);
mlir::ParseResult parseBlockType(mlir::OpAsmParser &parser, mlir::Type &result,
                                 mlir::Type desc);
void printBlockType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                    mlir::Type result, mlir::Type);
mlir::ParseResult parseReducedType(mlir::OpAsmParser &parser,
                                   mlir::Type &result, mlir::Type src,
                                   mlir::IntegerAttr axis);
mlir::ParseResult parseReducedType(mlir::OpAsmParser &parser,
                                   mlir::Type &result, mlir::Type src,
                                   mlir::IntegerAttr axis, ReduceKindAttr kind);
void printReducedType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                      mlir::Type result, mlir::Type, mlir::IntegerAttr,
                      ReduceKindAttr = {});
mlir::ParseResult parseDotType(mlir::OpAsmParser &parser, mlir::Type &result,
                               mlir::Type a, mlir::Type b);
void printDotType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                  mlir::Type result, mlir::Type, mlir::Type);
mlir::ParseResult parseOperandTypes(mlir::OpAsmParser &parser, mlir::Type &a,
                                    mlir::Type &b);
void printOperandTypes(mlir::OpAsmPrinter &printer, mlir::Operation *,
                       mlir::Type a, mlir::Type b);

} // namespace llk::tile

#endif // LLK_LIB_DIALECT_TILE_IR_TILEOPSHELPERS_H
