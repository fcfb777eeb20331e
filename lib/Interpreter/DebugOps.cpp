//===- DebugOps.cpp - tile.print, tile.assert, tile.static_assert ---------===//
//
// With device debug (Options::deviceDebug, LLK_DEVICE_DEBUG), tile.print
// writes the lines the GPU's printf would, in the same format
// (DeviceDebug.h), to stdout in row-major order, and a false element of a
// tile.assert stops the run with its line as the error; without it both do
// nothing, as the compiler erases them. tile.static_assert held when the
// kernel was verified.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llk/Dialect/Tile/IR/DeviceDebug.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;

namespace {

/// An element as printf receives it (DeviceDebug.h's PrintedAs).
struct PrintedValue {
  tile::PrintedAs as;
  Elem elem;
};

/// `format` with its `%d`s replaced by `ints` in order and its one other
/// conversion by `value`, as printf would write them.
std::string formatLine(llvm::StringRef format, llvm::ArrayRef<int64_t> ints,
                       std::optional<PrintedValue> value) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    size_t end = format.find_first_of("dgxs%", i + 1);
    llvm::StringRef spec = format.slice(i, end + 1);
    i = end;
    if (spec == "%%") {
      out += '%';
    } else if (spec == "%d" && next < ints.size()) {
      out += std::to_string(ints[next++]);
    } else if (value) {
      char buffer[64];
      std::string conversion = spec.str();
      switch (value->as) {
      case tile::PrintedAs::Int:
        std::snprintf(buffer, sizeof buffer, conversion.c_str(), int(value->elem.i));
        break;
      case tile::PrintedAs::LongLong:
        std::snprintf(buffer, sizeof buffer, conversion.c_str(),
                      static_cast<long long>(value->elem.i));
        break;
      case tile::PrintedAs::Address:
        std::snprintf(buffer, sizeof buffer, conversion.c_str(),
                      static_cast<unsigned long long>(value->elem.i));
        break;
      case tile::PrintedAs::Double:
        std::snprintf(buffer, sizeof buffer, conversion.c_str(), value->elem.f);
        break;
      }
      out += buffer;
    }
  }
  return out;
}

/// The program id, then the index of element `flat` of `shape`.
llvm::SmallVector<int64_t> placeOf(const Executor &ex, llvm::ArrayRef<int64_t> shape,
                                   size_t flat) {
  llvm::SmallVector<int64_t> place = {ex.programId(0), ex.programId(1),
                                      ex.programId(2)};
  llvm::SmallVector<int64_t> index(shape.size());
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    index[d] = int64_t(flat) % shape[d];
    flat /= shape[d];
  }
  place.append(index.begin(), index.end());
  return place;
}

bool print(Executor &ex, tile::PrintOp op) {
  if (!ex.runsDeviceDebug())
    return true;
  llvm::raw_ostream &os = llvm::outs();
  ValueRange values = op.getValues();
  if (values.empty())
    os << formatLine(tile::printLineFormat(op.getPrefix(), 0, std::nullopt,
                                           std::nullopt),
                     placeOf(ex, {}, 0), std::nullopt);
  for (auto [k, value] : llvm::enumerate(values)) {
    const Tile &tile = ex.get(value);
    Type elem = elementTypeOf(value.getType());
    ElemInfo info = infoOf(elem);
    std::string format = tile::printLineFormat(
        op.getPrefix(), tile.shape.size(), elem,
        values.size() > 1 ? std::optional<unsigned>(k) : std::nullopt);
    for (size_t i = 0; i < tile.size(); ++i) {
      Elem e = tile.data[i];
      // i1 prints as 0 or 1, as its zero-extension does on the GPU.
      if (info.kind == ElemInfo::Int && info.bits == 1)
        e.i &= 1;
      os << formatLine(format, placeOf(ex, tile.shape, i),
                       PrintedValue{tile::printedAs(elem), e});
    }
  }
  os.flush();
  return true;
}

bool assertOp(Executor &ex, tile::AssertOp op) {
  if (!ex.runsDeviceDebug())
    return true;
  const Tile &cond = ex.get(op.getCond());
  for (size_t i = 0; i < cond.size(); ++i)
    if (cond.data[i].i == 0) {
      std::string line = formatLine(
          tile::assertLineFormat(op.getLoc(), op.getMessage(), cond.shape.size()),
          placeOf(ex, cond.shape, i), std::nullopt);
      ex.error = llvm::StringRef(line).rtrim('\n').str();
      return false;
    }
  return true;
}

} // namespace

void llk::interp::detail::registerDebugOps(OpHandlerTable &table) {
  table.add<print>();
  table.add<assertOp>();
  // Verified to hold: nothing is left to do.
  table.add<tile::StaticAssertOp>([](Executor &, Operation *) { return true; });
}
