//===- Layout.h - how a tile is spread over threads -------------*- C++ -*-===//
//
// Index arithmetic shared by the layout passes and the lowering: which
// elements of a tile each thread holds, in which order they sit in the
// thread's registers, and how many threads hold distinct data along a
// dimension.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_DIALECT_TILE_IR_LAYOUT_H
#define LLK_DIALECT_TILE_IR_LAYOUT_H

#include "llk/Dialect/Tile/IR/TileDialect.h"

namespace llk::tile {

/// The blocked pattern seen from one tensor: for a `#tile.blocked` encoding
/// the layout itself; for a `#tile.slice` encoding the parent with the sliced
/// dimension removed. All vectors are indexed by tensor dimension.
struct DistributedView {
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA;
  /// Tensor dimensions, fastest varying first.
  llvm::SmallVector<unsigned> order;
  /// Stride of each dimension's lane (warp) coordinate inside the lane id
  /// (warp id), from the parent's full order.
  llvm::SmallVector<unsigned> laneStride, warpStride;
  unsigned numWarps = 1;
  /// For a slice: the removed parent dimension's lane and warp strides and
  /// counts. Threads that differ only there hold the same elements.
  unsigned slicedLaneStride = 1, slicedLanes = 1;
  unsigned slicedWarpStride = 1, slicedWarps = 1;

  /// Elements one thread holds along dimension `d`.
  int64_t elemsPerThread(unsigned d) const;
  /// Distinct elements held consecutively by one thread along `d`.
  int64_t contigPerThread(unsigned d) const;
  /// Extent of one repetition of the pattern along `d`.
  int64_t tileExtent(unsigned d) const;
  /// Lanes (warps) along `d` whose elements differ: the rest replicate.
  unsigned distinctLanes(unsigned d) const;
  unsigned distinctWarps(unsigned d) const;
  /// Total elements a thread holds.
  int64_t totalElemsPerThread() const;
  /// Per-dimension local indices of each register, in register order.
  llvm::SmallVector<llvm::SmallVector<int64_t>> localIndices() const;
  /// Register index of the given per-dimension local indices.
  int64_t registerIndex(llvm::ArrayRef<int64_t> local) const;
};

/// Returns the view of a tile type with a distributed encoding, or failure
/// if it has none.
mlir::FailureOr<DistributedView> getDistributedView(mlir::RankedTensorType type);

/// A blocked layout for `shape` with `numWarps` warps: `vector` consecutive
/// elements per thread along the fastest dimension `order[0]`, lanes then
/// warps filling the fastest dimensions first.
BlockedLayoutAttr getDefaultBlockedLayout(mlir::MLIRContext *ctx,
                                          llvm::ArrayRef<int64_t> shape,
                                          unsigned numWarps, unsigned vector,
                                          llvm::ArrayRef<unsigned> order);

/// `type` with its encoding replaced by `layout`.
mlir::RankedTensorType withLayout(mlir::RankedTensorType type,
                                  mlir::Attribute layout);

} // namespace llk::tile

#endif // LLK_DIALECT_TILE_IR_LAYOUT_H
