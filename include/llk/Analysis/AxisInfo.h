//===- AxisInfo.h - pointer contiguity and divisibility ---------*- C++ -*-===//
//
// For every integer or pointer value of a kernel, per tile dimension:
//  - contiguity: the values form runs of this many consecutive integers
//    (consecutive elements for pointers), each run starting at an index that
//    is a multiple of the run length;
//  - divisibility: the largest power of two known to divide the first value
//    of each run (bytes for pointers, the value itself for integers);
//  - constancy: runs of this many equal values, aligned likewise.
// These say how wide a vector access may be and whether a mask is uniform
// across it. Seeds: make_range, constants, splats, the kernel argument
// hints `tile.divisibility` / `tile.alignment`, and the hint ops
// tile.multiple_of, tile.max_contiguous and tile.max_constancy.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_ANALYSIS_AXISINFO_H
#define LLK_ANALYSIS_AXISINFO_H

#include "llk/Export.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace llk {
namespace tile {
struct DistributedView;
} // namespace tile

struct LLK_API AxisInfo {
  /// Largest divisibility tracked: "divisible by anything" (e.g. zero).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  /// Per dimension; empty for scalars.
  llvm::SmallVector<int64_t> contiguity, divisibility, constancy;
  /// Divisibility of a scalar.
  int64_t scalarDivisibility = 1;
  /// Set when every element is this integer.
  std::optional<int64_t> constant;

  unsigned getRank() const { return contiguity.size(); }
  int64_t getDivisibility(unsigned d) const {
    return contiguity.empty() ? scalarDivisibility : divisibility[d];
  }
  /// The most pessimistic facts for a value of `shape`.
  static AxisInfo unknown(llvm::ArrayRef<int64_t> shape);
  /// Facts for a value whose elements all equal `value`.
  static AxisInfo ofConstant(llvm::ArrayRef<int64_t> shape, int64_t value);
  /// Facts for a value equal across `shape` with divisibility `div`.
  static AxisInfo uniform(llvm::ArrayRef<int64_t> shape, int64_t div);
  /// What holds of both `a` and `b` (same shape): a value that may be either.
  static AxisInfo join(const AxisInfo &a, const AxisInfo &b);
  bool operator==(const AxisInfo &other) const;
};

/// Runs the analysis over every op nested in `root` (a kernel function).
class LLK_API AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(mlir::Operation *root);

  /// Facts for `value`; pessimistic for values the analysis does not model.
  AxisInfo get(mlir::Value value) const;

  /// Elements one thread may move in a single access through pointer tile
  /// `ptr` along dimension `dim`: limited by contiguity, alignment and a
  /// 16-byte access, and by the constancy of `mask` if there is one.
  unsigned getVectorWidth(mlir::Value ptr, mlir::Value mask,
                          unsigned dim) const;

  /// Elements one thread moves in a single access through pointer tile
  /// `ptr` laid out as `view`: getVectorWidth along the layout's fastest
  /// dimension, at most the registers a thread holds contiguously there.
  unsigned getAccessWidth(mlir::Value ptr, mlir::Value mask,
                          const tile::DistributedView &view) const;

  /// Elements one thread may read in a single 16-byte load through `ptr`
  /// along `dim` when the load need not be aligned: the lowering then reads
  /// the aligned windows that cover the run and realigns it in registers.
  /// Only for elements narrower than 4 bytes, whose aligned accesses would
  /// move 1 or 2 bytes a thread (wider ones already move whole words, fully
  /// coalesced across the warp); otherwise, and where realigning would not
  /// widen the access, it is getVectorWidth. Limited by contiguity, 16 bytes
  /// and the constancy of `mask`, and a power of two.
  unsigned getUnalignedLoadWidth(mlir::Value ptr, mlir::Value mask,
                                 unsigned dim) const;

  /// The dimension along which `ptr`'s addresses are most contiguous (the
  /// last one on ties).
  unsigned getMostContiguousDim(mlir::Value ptr) const;

private:
  void visit(mlir::Operation *op);
  llvm::DenseMap<mlir::Value, AxisInfo> facts;
};

} // namespace llk

#endif // LLK_ANALYSIS_AXISINFO_H
