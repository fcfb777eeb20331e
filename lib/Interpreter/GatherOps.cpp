//===- GatherOps.cpp - tile.gather and tile.histogram ---------------------===//
//
// Both move elements by value: an index outside the source's axis is the
// run's error (the GPU would read a wrapped element), a histogram skips the
// values outside its bins (as the GPU does).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;

namespace {

bool gather(Executor &ex, tile::GatherOp op) {
  const Tile &src = ex.get(op.getSrc());
  const Tile &indices = ex.get(op.getIndices());
  Tile out = Executor::makeTile(op.getType());
  unsigned axis = op.getAxis(), rank = src.shape.size();
  // Row-major strides of the source.
  llvm::SmallVector<int64_t, 4> strides(rank, 1);
  for (unsigned d = rank - 1; d > 0; --d)
    strides[d - 1] = strides[d] * src.shape[d];
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t index = indices.data[i].i;
    if (index < 0 || index >= src.shape[axis])
      return ex.fail(op, "index " + std::to_string(index) + " of element " +
                             std::to_string(i) + " is outside [0, " +
                             std::to_string(src.shape[axis]) + ") along axis " +
                             std::to_string(axis) + " in " + ex.program());
    int64_t offset = 0;
    for (unsigned d = rank, rest = i; d-- > 0;) {
      int64_t coord = d == axis ? index : int64_t(rest % indices.shape[d]);
      rest /= indices.shape[d];
      offset += coord * strides[d];
    }
    out.data[i] = src.data[offset];
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

bool histogram(Executor &ex, tile::HistogramOp op) {
  const Tile &src = ex.get(op.getSrc());
  Tile out = Executor::makeTile(op.getType());
  for (Elem &e : out.data)
    e.i = 0;
  for (const Elem &e : src.data)
    if (e.i >= 0 && e.i < int64_t(out.size()))
      ++out.data[e.i].i;
  ex.set(op.getResult(), std::move(out));
  return true;
}

} // namespace

void llk::interp::detail::registerGatherOps(OpHandlerTable &table) {
  table.add<gather>();
  table.add<histogram>();
}
