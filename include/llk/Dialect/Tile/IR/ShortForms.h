//===- ShortForms.h - what the short forms and tile-desugar share -*- C++ -*-===//
//
// The short forms (TileShortForms.td) mix element types as Triton's
// operators do; tile-desugar casts their operands to the type that the
// verifier and the result type agree on.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_DIALECT_TILE_IR_SHORTFORMS_H
#define LLK_DIALECT_TILE_IR_SHORTFORMS_H

#include "mlir/IR/Types.h"

namespace llk::tile {

/// The element type in which a short form computes on operands of element
/// types `a` and `b` (numbers, not pointers), Triton's promotion: `a` if they
/// are equal; a float over an integer; the wider of two floats (f32 for two
/// of one width: f16 and bf16); the wider of two integers (i1 counts as the
/// narrowest).
mlir::Type getPromotedElementType(mlir::Type a, mlir::Type b);

} // namespace llk::tile

#endif // LLK_DIALECT_TILE_IR_SHORTFORMS_H
