//===- ReduceOps.cpp - reductions and scans -------------------------------===//
//
// tile.reduce sums combine as the GPU's shuffles do (a butterfly tree, each
// partial sum rounded to the element type); max and min ignore NaN, as
// fmaxf does; a generic reduction runs its combiner region once per element.
// Scans (tile.scan, tile.generic_scan) combine in order along the row, each
// partial rounded to the element type: integer, max and min scans give the
// GPU's bits; float sums and products may round differently from the GPU's
// blocked order (within the element type's rounding per combination).
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

/// `acc op next` for a built-in scan, rounded to the element type.
Elem combineScan(tile::ScanKind kind, const ElemInfo &info, Elem acc, Elem next) {
  Elem r{};
  if (info.kind == ElemInfo::Float) {
    auto rounded = [&](double x) {
      return info.floatKind == FloatKind::F32 ? double(float(x))
                                              : roundFloat(info.floatKind, x);
    };
    switch (kind) {
    case tile::ScanKind::Sum:
      r.f = info.floatKind == FloatKind::F32 ? double(float(acc.f) + float(next.f))
                                             : rounded(acc.f + next.f);
      break;
    case tile::ScanKind::Prod:
      r.f = info.floatKind == FloatKind::F32 ? double(float(acc.f) * float(next.f))
                                             : rounded(acc.f * next.f);
      break;
    case tile::ScanKind::Max: r.f = maxNum(acc.f, next.f); break;
    case tile::ScanKind::Min: r.f = minNum(acc.f, next.f); break;
    }
    return r;
  }
  switch (kind) {
  case tile::ScanKind::Sum:
    r.i = wrapInt(uint64_t(acc.i) + uint64_t(next.i), info.bits);
    break;
  case tile::ScanKind::Prod:
    r.i = wrapInt(uint64_t(acc.i) * uint64_t(next.i), info.bits);
    break;
  case tile::ScanKind::Max: r.i = std::max(acc.i, next.i); break;
  case tile::ScanKind::Min: r.i = std::min(acc.i, next.i); break;
  }
  return r;
}

/// Runs an inclusive scan of `src` along `axis` into `out`, with
/// `combine(acc, next, result)` (false: an error was recorded); reversed,
/// from the row's end.
template <typename Combine>
bool scanRows(const Tile &src, unsigned axis, bool reverse, Tile &out,
              Combine combine) {
  ReduceShape s = reduceShape(src, axis);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t in = 0; in < s.inner; ++in) {
      auto at = [&](int64_t j) {
        return (o * s.n + (reverse ? s.n - 1 - j : j)) * s.inner + in;
      };
      Elem acc = src.data[at(0)];
      out.data[at(0)] = acc;
      for (int64_t j = 1; j < s.n; ++j) {
        if (!combine(acc, src.data[at(j)], acc))
          return false;
        out.data[at(j)] = acc;
      }
    }
  return true;
}

bool scan(Executor &ex, tile::ScanOp op) {
  const Tile &src = ex.get(op.getSrc());
  ElemInfo info = infoOf(op.getSrc().getType().getElementType());
  Tile out = Executor::makeTile(op.getType());
  scanRows(src, op.getAxis(), op.getReverse(), out,
           [&](Elem acc, Elem next, Elem &result) {
             result = combineScan(op.getKind(), info, acc, next);
             return true;
           });
  ex.set(op.getResult(), std::move(out));
  return true;
}

/// The combiner region runs once per element after a row's first, with
/// the scan so far on the left.
bool genericScan(Executor &ex, tile::GenericScanOp op) {
  const Tile &src = ex.get(op.getSrc());
  Tile out = Executor::makeTile(op.getType());
  llvm::SmallVector<Tile, 1> results;
  bool ok = scanRows(src, op.getAxis(), op.getReverse(), out,
                     [&](Elem acc, Elem next, Elem &result) {
                       std::vector<Tile> args(2);
                       args[0].data.push_back(acc);
                       args[1].data.push_back(next);
                       if (!ex.runRegion(op.getCombiner(), std::move(args), results))
                         return false;
                       result = results[0].data[0];
                       return true;
                     });
  if (!ok)
    return false;
  ex.set(op.getResult(), std::move(out));
  return true;
}

} // namespace

void llk::interp::detail::registerReduceOps(OpHandlerTable &table) {
  table.add<reduce>();
  table.add<genericReduce>();
  table.add<scan>();
  table.add<genericScan>();
}
