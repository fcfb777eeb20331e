//===- SortOps.cpp - tile.sort and tile.topk ------------------------------===//
//
// A stable sort of each row under the order tile.sort defines (NaN above
// every number, all NaNs equal, -0.0 equal to +0.0, integers signed): the
// one permutation the GPU's sorting network gives, as the network orders by
// key and then by original position.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;

namespace {

/// Whether key `a` comes strictly before key `b` in ascending order.
bool keyLess(const ElemInfo &info, const Elem &a, const Elem &b) {
  if (info.kind != ElemInfo::Float)
    return a.i < b.i;
  return !std::isnan(a.f) && (std::isnan(b.f) || a.f < b.f);
}

/// The rows along one axis of a row-major tile: each row's first element,
/// the row's length and the axis's stride.
struct Rows {
  int64_t length, stride;
  std::vector<int64_t> starts;
};

Rows rowsOf(llvm::ArrayRef<int64_t> shape, unsigned axis) {
  Rows rows;
  rows.length = shape[axis];
  rows.stride = 1;
  for (unsigned d = axis + 1; d < shape.size(); ++d)
    rows.stride *= shape[d];
  int64_t total = 1;
  for (int64_t size : shape)
    total *= size;
  for (int64_t i = 0; i < total; ++i)
    if ((i / rows.stride) % rows.length == 0)
      rows.starts.push_back(i);
  return rows;
}

/// The permutation sorting one row: order[j] is the row position of the
/// j-th element of the result.
std::vector<int64_t> sortRow(const ElemInfo &info, const Tile &keys, int64_t start,
                             int64_t stride, int64_t length, bool descending) {
  std::vector<int64_t> order(length);
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int64_t j) -> const Elem & { return keys.data[start + j * stride]; };
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return descending ? keyLess(info, key(b), key(a)) : keyLess(info, key(a), key(b));
  });
  return order;
}

bool sort(Executor &ex, tile::SortOp op) {
  const Tile &keys = ex.get(op.getKeys());
  ElemInfo info = infoOf(op.getKeys().getType().getElementType());
  const Tile *values = op.getValues() ? &ex.get(op.getValues()) : nullptr;
  Tile sorted = keys, sortedValues = values ? *values : Tile();
  Rows rows = rowsOf(keys.shape, op.getAxis());
  for (int64_t start : rows.starts) {
    std::vector<int64_t> order =
        sortRow(info, keys, start, rows.stride, rows.length, op.getDescending());
    for (int64_t j = 0; j < rows.length; ++j) {
      int64_t to = start + j * rows.stride, from = start + order[j] * rows.stride;
      sorted.data[to] = keys.data[from];
      if (values)
        sortedValues.data[to] = values->data[from];
    }
  }
  ex.set(op.getSorted(), std::move(sorted));
  if (values)
    ex.set(op.getSortedValues(), std::move(sortedValues));
  return true;
}

bool topk(Executor &ex, tile::TopKOp op) {
  const Tile &src = ex.get(op.getSrc());
  ElemInfo info = infoOf(op.getSrc().getType().getElementType());
  Tile values = Executor::makeTile(op.getValues().getType());
  Tile indices = Executor::makeTile(op.getIndices().getType());
  Rows rows = rowsOf(src.shape, src.shape.size() - 1);
  int64_t k = values.shape.back();
  for (auto [row, start] : llvm::enumerate(rows.starts)) {
    std::vector<int64_t> order =
        sortRow(info, src, start, 1, rows.length, !op.getSmallest());
    for (int64_t j = 0; j < k; ++j) {
      values.data[row * k + j] = src.data[start + order[j]];
      indices.data[row * k + j].i = order[j];
    }
  }
  ex.set(op.getValues(), std::move(values));
  ex.set(op.getIndices(), std::move(indices));
  return true;
}

} // namespace

void llk::interp::detail::registerSortOps(OpHandlerTable &table) {
  table.add<sort>();
  table.add<topk>();
}
