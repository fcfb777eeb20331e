//===- DeviceDebug.cpp - what tile.print and tile.assert print ------------===//

#include "llk/Dialect/Tile/IR/DeviceDebug.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace llk::tile;

PrintedAs llk::tile::printedAs(Type elem) {
  if (isa<PtrType>(elem))
    return PrintedAs::Address;
  if (isa<FloatType>(elem))
    return PrintedAs::Double;
  return elem.getIntOrFloatBitWidth() > 32 ? PrintedAs::LongLong : PrintedAs::Int;
}

std::string llk::tile::locationText(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
            ":" + llvm::Twine(file.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

/// `text` as it must appear in a printf format to print as itself.
static std::string escaped(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

/// "pid (%d, %d, %d)", then " idx (%d, ...)" for a tile.
static std::string place(unsigned rank) {
  std::string s = "pid (%d, %d, %d)";
  if (rank == 0)
    return s;
  s += " idx (";
  for (unsigned d = 0; d < rank; ++d)
    s += d ? ", %d" : "%d";
  return s + ")";
}

std::string llk::tile::printLineFormat(llvm::StringRef prefix, unsigned rank,
                                       std::optional<Type> elem,
                                       std::optional<unsigned> operand) {
  std::string s = place(rank) + " " + escaped(prefix);
  if (operand)
    s += "(operand " + std::to_string(*operand) + ") ";
  if (elem) {
    switch (printedAs(*elem)) {
    case PrintedAs::Int: s += "%d"; break;
    case PrintedAs::LongLong: s += "%lld"; break;
    case PrintedAs::Address: s += "0x%llx"; break;
    case PrintedAs::Double: s += elem->isF64() ? "%.17g" : "%.8g"; break;
    }
  }
  return s + "\n";
}

std::string llk::tile::assertLineFormat(Location loc, llvm::StringRef message,
                                        unsigned rank) {
  return escaped(locationText(loc)) + ": " + place(rank) +
         ": assertion failed: " + escaped(message) + "\n";
}
