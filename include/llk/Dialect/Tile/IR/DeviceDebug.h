//===- DeviceDebug.h - what tile.print and tile.assert print ----*- C++ -*-===//
//
// The printf formats of tile.print's and tile.assert's lines, which the GPU
// lowering hands to printf and the interpreter to snprintf, so that both
// print the same text:
//
//   pid (0, 0, 0) idx (3, 17) x: 1.5
//   kernel.mlir:12:3: pid (1, 0, 0) idx (37): assertion failed: in range
//
//===----------------------------------------------------------------------===//

#ifndef LLK_DIALECT_TILE_IR_DEVICEDEBUG_H
#define LLK_DIALECT_TILE_IR_DEVICEDEBUG_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llk::tile {

/// How a printed element travels to printf: the C type of its argument.
enum class PrintedAs {
  Int,      // int: integers of 32 bits or fewer (sign-extended; i1 as 0 or 1)
  LongLong, // long long: i64
  Address,  // unsigned long long, in hex: pointers
  Double,   // double: floats, widened exactly
};
PrintedAs printedAs(mlir::Type elem);

/// `loc` as file:line:col where it has one, else as MLIR prints it.
std::string locationText(mlir::Location loc);

/// The format of one line of tile.print for an element of `elem` in a tile
/// of `rank` dimensions (0: a scalar, printed without idx): the arguments
/// are the program id (3 ints), the element's index (`rank` ints) and the
/// value; `operand` numbers it among several. Without `elem`, the line of a
/// print without operands: the program id and the prefix.
std::string printLineFormat(llvm::StringRef prefix, unsigned rank,
                            std::optional<mlir::Type> elem,
                            std::optional<unsigned> operand);

/// The format of tile.assert's line for a failing element of a condition
/// of `rank` dimensions: arguments the program id and the index.
std::string assertLineFormat(mlir::Location loc, llvm::StringRef message,
                             unsigned rank);

} // namespace llk::tile

#endif // LLK_DIALECT_TILE_IR_DEVICEDEBUG_H
