//===- HintOps.cpp - the compiler hints, checked --------------------------===//
//
// tile.multiple_of, tile.max_contiguous and tile.max_constancy give their
// operand. The compiler trusts them to size vector accesses and cp.async
// copies, so a value that breaks one would make the GPU read or write the
// wrong bytes without a word; here each is checked, and a broken one stops
// the program at the op's location (TileOps.td says what each promises).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;

namespace {

/// Row-major strides of `shape`.
llvm::SmallVector<int64_t, 4> stridesOf(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

/// " (bytes of the address)" for pointers, for messages.
const char *unitOf(Type type) {
  return isa<tile::PtrType>(elementTypeOf(type)) ? " (of the address, in bytes)"
                                                  : "";
}

/// An element for messages: an address in hex, an integer in decimal.
std::string valueText(Type type, int64_t value) {
  if (isa<tile::PtrType>(elementTypeOf(type)))
    return hex(static_cast<uint64_t>(value));
  return std::to_string(value);
}

/// Every element that starts a run of the tile.max_contiguous on its operand
/// (every element when there is none) is a multiple of the hint's value
/// along that dimension.
bool multipleOf(Executor &ex, tile::MultipleOfOp op) {
  const Tile &x = ex.get(op.getSrc());
  ArrayRef<int64_t> values = op.getValues();
  llvm::SmallVector<int64_t, 4> runs(x.shape.size(), 1);
  if (auto contiguous = op.getSrc().getDefiningOp<tile::MaxContiguousOp>())
    runs.assign(contiguous.getValues().begin(), contiguous.getValues().end());
  llvm::SmallVector<int64_t, 4> strides = stridesOf(x.shape);
  for (size_t i = 0; i < x.size(); ++i) {
    uint64_t bits = static_cast<uint64_t>(x.data[i].i);
    for (size_t d = 0; d < values.size(); ++d) {
      if (!x.shape.empty() && (int64_t(i) / strides[d] % x.shape[d]) % runs[d])
        continue;
      if (bits & uint64_t(values[d] - 1))
        return ex.fail(op, "'tile.multiple_of' promises a multiple of " +
                               std::to_string(values[d]) +
                               (x.shape.empty() ? std::string()
                                                : " along dimension " +
                                                      std::to_string(d)) +
                               unitOf(op.getType()) + ", but the value is " +
                               valueText(op.getType(), x.data[i].i) + " in " +
                               ex.program() + Executor::atElement(x.shape, i));
    }
  }
  ex.set(op.getResult(), x);
  return true;
}

/// Along each dimension d, the element at index k (k not a multiple of the
/// hint's value) relates to the one at k - 1 as `follows` says.
template <typename Follows>
bool checkRuns(Executor &ex, Operation *op, ArrayRef<int64_t> values,
               const char *what, Follows follows) {
  const Tile &x = ex.get(op->getOperand(0));
  llvm::SmallVector<int64_t, 4> strides = stridesOf(x.shape);
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t d = 0; d < values.size(); ++d) {
      int64_t k = int64_t(i) / strides[d] % x.shape[d];
      if (k % values[d] == 0)
        continue;
      size_t previous = i - strides[d];
      if (!follows(x.data[previous].i, x.data[i].i))
        return ex.fail(op, "'" + op->getName().getStringRef() +
                               "' promises aligned runs of " +
                               std::to_string(values[d]) + " " + what +
                               " values along dimension " + std::to_string(d) +
                               ", but the element after " +
                               valueText(op->getResult(0).getType(),
                                         x.data[previous].i) +
                               " is " +
                               valueText(op->getResult(0).getType(),
                                         x.data[i].i) +
                               " in " +
                               ex.program() + Executor::atElement(x.shape, i));
    }
  ex.set(op->getResult(0), x);
  return true;
}

bool maxContiguous(Executor &ex, tile::MaxContiguousOp op) {
  // Consecutive integers, or addresses of consecutive elements.
  ElemInfo info = infoOf(elementTypeOf(op.getType()));
  int64_t step = info.kind == ElemInfo::Ptr ? info.pointeeBytes : 1;
  unsigned bits = info.bits;
  return checkRuns(ex, op, op.getValues(), "consecutive",
                   [=](int64_t prev, int64_t x) {
                     return x == wrapInt(static_cast<uint64_t>(prev) + step, bits);
                   });
}

bool maxConstancy(Executor &ex, tile::MaxConstancyOp op) {
  return checkRuns(ex, op, op.getValues(), "equal",
                   [](int64_t prev, int64_t x) { return x == prev; });
}

} // namespace

void llk::interp::detail::registerHintOps(OpHandlerTable &table) {
  table.add<multipleOf>();
  table.add<maxContiguous>();
  table.add<maxConstancy>();
}
