//===- KernelOps.h - the operations a tile kernel may contain ---*- C++ -*-===//
//
// One table of the operations a kernel may hold: those llkc lowers to PTX
// and the interpreter runs with the same semantics. Both consult it before
// doing anything else — the compiler through checkKernelOps, the
// interpreter at launch — so an op outside it is refused at its location by
// both, with what to write instead where there is a replacement, rather than
// compiled by one and misread by the other.
//
// Adding an op here means lowering it and interpreting it (a handler in the
// interpreter's op family, lib/Interpreter/*Ops.cpp); the interpreter's tests
// check that its handlers are exactly this table's ops, run a kernel per
// entry and compile them all to PTX.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_DIALECT_TILE_IR_KERNELOPS_H
#define LLK_DIALECT_TILE_IR_KERNELOPS_H

#include "llk/Export.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llk::tile {

/// The names of the operations a kernel may contain ("arith.addi",
/// "tile.load", ...), sorted.
LLK_API llvm::ArrayRef<llvm::StringLiteral> getKernelOpNames();

/// Whether a kernel may contain the operation named `name`.
LLK_API bool isKernelOp(llvm::StringRef name);

/// The names of the kernel operations that may have fp8 operands and
/// results (moves, selections, tile.bitcast, tile.cast, tile.dot), sorted:
/// an fp8 value anywhere else is refused (whyNotKernelOp).
LLK_API llvm::ArrayRef<llvm::StringLiteral> getFp8OpNames();

/// Whether the kernel operation named `name` may hold fp8 values.
LLK_API bool holdsFp8(llvm::StringRef name);

/// Why a kernel may not contain the operation named `name` (naming what to
/// use instead where there is something), or nothing when it may.
LLK_API std::optional<std::string> whyNotKernelOp(llvm::StringRef name);

/// The same for `op`, whose attributes may also rule it out (arith.truncf
/// with a rounding mode: tile.cast rounds).
LLK_API std::optional<std::string> whyNotKernelOp(mlir::Operation *op);

/// Reports, at its location, every operation in `module` a kernel may not
/// contain, and every top-level operation that is not a func.func; fails if
/// there is any.
LLK_API mlir::LogicalResult checkKernelOps(mlir::ModuleOp module);

} // namespace llk::tile

#endif // LLK_DIALECT_TILE_IR_KERNELOPS_H
