//===- ShapeOps.cpp - making and reshaping tiles --------------------------===//
//
// tile.make_range, splat, broadcast, expand_dims, reshape, trans and
// convert_layout. Values are row-major and layouts are ignored, so
// expand_dims, reshape and convert_layout keep the elements as they are.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;

namespace {

bool makeRange(Executor &ex, tile::MakeRangeOp op) {
  Tile out = Executor::makeTile(op.getType());
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i].i = op.getStart() + static_cast<int64_t>(i);
  ex.set(op.getResult(), std::move(out));
  return true;
}

bool splat(Executor &ex, tile::SplatOp op) {
  Tile out = Executor::makeTile(op.getType());
  std::fill(out.data.begin(), out.data.end(), ex.get(op.getSrc()).data[0]);
  ex.set(op.getResult(), std::move(out));
  return true;
}

bool broadcast(Executor &ex, tile::BroadcastOp op) {
  const Tile &src = ex.get(op.getSrc());
  Tile out = Executor::makeTile(op.getType());
  size_t rank = out.shape.size();
  // Strides of the source, 0 along broadcast dimensions.
  llvm::SmallVector<int64_t, 4> strides(rank);
  int64_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    strides[d] = src.shape[d] == 1 ? 0 : stride;
    stride *= src.shape[d];
  }
  llvm::SmallVector<int64_t, 4> index(rank, 0);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    out.data[i] = src.data[offset];
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < out.shape[d])
        break;
      index[d] = 0;
    }
  }
  ex.set(op.getResult(), std::move(out));
  return true;
}

/// Same elements, new shape (expand_dims, reshape, convert_layout).
bool reshape(Executor &ex, Operation *op) {
  Tile out = ex.get(op->getOperand(0));
  out.shape = Executor::makeTile(op->getResult(0).getType()).shape;
  ex.set(op->getResult(0), std::move(out));
  return true;
}

bool trans(Executor &ex, tile::TransOp op) {
  const Tile &src = ex.get(op.getSrc());
  Tile out = Executor::makeTile(op.getType());
  int64_t rows = src.shape[0], cols = src.shape[1];
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out.data[c * rows + r] = src.data[r * cols + c];
  ex.set(op.getResult(), std::move(out));
  return true;
}

} // namespace

void llk::interp::detail::registerShapeOps(OpHandlerTable &table) {
  table.add<makeRange>();
  table.add<splat>();
  table.add<broadcast>();
  table.add<tile::ExpandDimsOp, tile::ReshapeOp, tile::ConvertLayoutOp>(reshape);
  table.add<trans>();
}
