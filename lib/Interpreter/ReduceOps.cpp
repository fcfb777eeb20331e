//===- ReduceOps.cpp - tile.reduce and tile.generic_reduce ----------------===//
//
// Sums combine as the GPU's shuffles do (a butterfly tree, each partial sum
// rounded to the element type); max and min ignore NaN, as fmaxf does; a
// generic reduction runs its combiner region once per element.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

using namespace mlir;
using namespace llk;
using namespace llk::interp::detail;

namespace {

/// A tile seen as [outer, n, inner] around its reduced axis.
struct ReduceShape {
  int64_t outer, n, inner;
};
ReduceShape reduceShape(const Tile &src, unsigned axis) {
  ReduceShape s{1, src.shape[axis], 1};
  for (unsigned d = 0; d < axis; ++d)
    s.outer *= src.shape[d];
  for (unsigned d = axis + 1; d < src.shape.size(); ++d)
    s.inner *= src.shape[d];
  return s;
}

bool reduce(Executor &ex, tile::ReduceOp op) {
  const Tile &src = ex.get(op.getSrc());
  ElemInfo info = infoOf(op.getSrc().getType().getElementType());
  ReduceShape s = reduceShape(src, op.getAxis());
  Tile out = Executor::makeTile(op.getType());
  bool isFloatElem = info.kind == ElemInfo::Float;
  std::vector<Elem> lane(s.n);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t in = 0; in < s.inner; ++in) {
      for (int64_t j = 0; j < s.n; ++j)
        lane[j] = src.data[(o * s.n + j) * s.inner + in];
      Elem r{};
      switch (op.getKind()) {
      case tile::ReduceKind::Sum:
        // A butterfly tree, as the GPU's shuffles combine (n is a power of
        // two); every partial sum rounded to the element type.
        for (int64_t half = s.n / 2; half >= 1; half /= 2)
          for (int64_t j = 0; j < half; ++j) {
            if (isFloatElem)
              lane[j].f = info.floatKind == FloatKind::F64
                              ? lane[j].f + lane[j + half].f
                              : roundFloat(info.floatKind,
                                           static_cast<float>(lane[j].f) +
                                               static_cast<float>(lane[j + half].f));
            else
              lane[j].i = wrapInt(static_cast<uint64_t>(lane[j].i) + lane[j + half].i,
                                  info.bits);
          }
        r = lane[0];
        break;
      case tile::ReduceKind::Max:
      case tile::ReduceKind::Min: {
        bool isMax = op.getKind() == tile::ReduceKind::Max;
        r = lane[0];
        for (int64_t j = 1; j < s.n; ++j) {
          if (isFloatElem) // NaN is ignored unless all are NaN, as fmaxf
            r.f = isMax ? maxNum(r.f, lane[j].f) : minNum(r.f, lane[j].f);
          else
            r.i = isMax ? std::max(r.i, lane[j].i) : std::min(r.i, lane[j].i);
        }
        break;
      }
      case tile::ReduceKind::ArgMax:
      case tile::ReduceKind::ArgMin: {
        bool isMax = op.getKind() == tile::ReduceKind::ArgMax;
        int64_t best = 0;
        for (int64_t j = 1; j < s.n; ++j) {
          bool better;
          if (isFloatElem) {
            double x = lane[j].f, b = lane[best].f;
            better = (std::isnan(b) && !std::isnan(x)) || (isMax ? x > b : x < b);
          } else {
            better = isMax ? lane[j].i > lane[best].i : lane[j].i < lane[best].i;
          }
          if (better)
            best = j;
        }
        r.i = best;
        break;
      }
      }
      out.data[o * s.inner + in] = r;
    }
  ex.set(op.getResult(), std::move(out));
  return true;
}

/// The combiner region folds the elements in order, left to right.
bool genericReduce(Executor &ex, tile::GenericReduceOp op) {
  const Tile &src = ex.get(op.getSrc());
  ReduceShape s = reduceShape(src, op.getAxis());
  Tile out = Executor::makeTile(op.getType());
  Region &combiner = op.getCombiner();
  llvm::SmallVector<Tile, 1> results;
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t in = 0; in < s.inner; ++in) {
      Tile acc;
      acc.data.push_back(src.data[o * s.n * s.inner + in]);
      for (int64_t j = 1; j < s.n; ++j) {
        Tile next;
        next.data.push_back(src.data[(o * s.n + j) * s.inner + in]);
        std::vector<Tile> args;
        args.push_back(std::move(acc));
        args.push_back(std::move(next));
        if (!ex.runRegion(combiner, std::move(args), results))
          return false;
        acc = std::move(results[0]);
      }
      out.data[o * s.inner + in] = acc.data[0];
    }
  ex.set(op.getResult(), std::move(out));
  return true;
}

} // namespace

void llk::interp::detail::registerReduceOps(OpHandlerTable &table) {
  table.add<reduce>();
  table.add<genericReduce>();
}
