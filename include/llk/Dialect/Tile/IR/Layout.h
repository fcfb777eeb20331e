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
  /// Repetitions of a warp's lane block along each dimension before the next
  /// warp's (the layout's warpRepeat; 1 by default).
  llvm::SmallVector<unsigned> warpRepeat;
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
  /// Where the thread's `k`-th element along `d` lies from its first one.
  int64_t localOffset(unsigned d, int64_t k) const;
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

/// The first dimension of `type` (a tile with a distributed encoding) that
/// its layout cannot lay out, and the extent it needs there: along a
/// dimension with warpRepeat a warp's repeated lane blocks come whole, so
/// the size must be a multiple of tileExtent * warpRepeat (or 1: every
/// thread holds it). None when every dimension fits (always, for layouts
/// without warpRepeat).
std::optional<std::pair<unsigned, int64_t>>
getUnfitDimension(mlir::RankedTensorType type);

/// Whether `layout` can lay out a tile of `type`'s shape.
bool layoutFits(mlir::RankedTensorType type, mlir::Attribute layout);

/// A blocked layout for `shape` with `numWarps` warps: `vector` consecutive
/// elements per thread along the fastest dimension `order[0]`, lanes then
/// warps filling the fastest dimensions first.
BlockedLayoutAttr getDefaultBlockedLayout(mlir::MLIRContext *ctx,
                                          llvm::ArrayRef<int64_t> shape,
                                          unsigned numWarps, unsigned vector,
                                          llvm::ArrayRef<unsigned> order);

/// The accumulator layout of mma.sync m16n8: lanes 8x4 (lane l at row l/4,
/// columns 2*(l%4) and +1), warps `warpsPerCTA = [wm, wn]` over M and N.
/// It is a blocked layout: sizePerThread = [1, 2], threadsPerWarp = [8, 4],
/// order = [1, 0]. A warp's rows are 8*wm apart from one repetition to the
/// next; the dot lowering pairs repetitions 2i and 2i+1 as the two row halves
/// (g and g+8) of one 16x8 instruction tile, choosing the rows of A to match.
/// Warps go to M while each warp keeps at least 16 rows and its tile is
/// taller than wide, the rest to N (replicating along N when N < 8*wn).
/// With `warpgroupRows` (for wgmma) every warp goes to M when whole
/// warpgroups fit (numWarps a multiple of 4, M a multiple of 16 * numWarps
/// and N a multiple of 8 up to 256), with warpRepeat = [2, 1]: warp w holds
/// rows 16w + g and 16w + 8 + g of each 16 * numWarps, as warpgroup MMA
/// m64 gives them, so that A's rows stay in order in shared memory.
BlockedLayoutAttr getMmaAccumulatorLayout(mlir::MLIRContext *ctx,
                                          llvm::ArrayRef<int64_t> shape,
                                          unsigned numWarps,
                                          bool warpgroupRows = false);

/// Whether ptxas can give a warpgroup MMA instruction of `n` columns
/// (m64nNk16, f32 accumulators) its registers in a program of `numWarps`
/// warps of which `minProgramsPerSM` must fit on one SM: the instruction's
/// n / 2 accumulators a thread and about 30 more registers (ptxas 13 asks
/// for 26) within what a thread gets (the SM's 64K registers over its
/// threads, in multiples of 8, at most 255). ptxas rejects the instruction
/// otherwise; mma.sync dots it can spill around.
bool warpgroupMmaFitsRegisters(int64_t n, unsigned numWarps,
                               unsigned minProgramsPerSM);

/// Whether an accumulator of `shape` in `layout` suits warpgroup MMA
/// (m64nNk16 per warpgroup): the layout getMmaAccumulatorLayout gives with
/// `warpgroupRows`.
bool isWarpgroupAccumulatorLayout(mlir::Attribute layout,
                                  llvm::ArrayRef<int64_t> shape);

/// Whether `layout` is an mma.sync accumulator layout that a dot of result
/// shape `shape` can use: [1, 2] x [8, 4] order [1, 0], warpRepeat along M
/// of 1 or 2 (a warp's 16-row instruction tiles interleaved with the other
/// warps' or whole), at least 16 rows per warp (two repetitions), and no
/// replication along M.
bool isMmaAccumulatorLayout(mlir::Attribute layout,
                            llvm::ArrayRef<int64_t> shape);

/// The K of the mma.sync instruction for `dot`'s operand types: 16 for f16
/// and bf16, 32 for i8, 8 for f32 with tf32 precision; none for exact f32.
std::optional<unsigned> getMmaSyncK(DotOp dot);

/// The tensor-core instruction for `dot` as its accumulator is laid out
/// (#tile.mma): warpgroup MMA (version 3, m64nNk16; m64nNk32 for fp8) when
/// `allowWarpgroup`, its operands are f16, bf16 or fp8 into f32 and its
/// accumulator has a warpgroup layout; else mma.sync (version 2, m16n8k)
/// where the accumulator has an mma.sync layout and K is whole
/// instructions; else none (the FMA loop; fp8 never gets mma.sync: it runs
/// as an f16 dot there, tile-upcast-fp8-dots).
MmaEncodingAttr getMmaEncoding(DotOp dot, bool allowWarpgroup);

/// Whether warpgroup MMA (sm_90a) can compute `dot` with B read from a
/// shared-memory slot whose contiguous dimension is `bContiguousDim` and A
/// from one whose contiguous dimension is `aContiguousDim`, or, where that is
/// none, from registers (laid out by getWarpgroupRegisterOperandLayout): f16
/// or bf16 into f32, a warpgroup accumulator layout, A K-contiguous in its
/// slot (its rows follow the accumulator's), each slot's contiguous extent
/// whole 128-byte slabs (so a slot's K a multiple of 64) and a register A's
/// K whole instructions (16). fp8 (either format, into f32) needs both in
/// slots and both K-contiguous (8-bit wgmma has no transpose), K a multiple
/// of 128 (whole 128-byte slabs) or 64 (one slab, the 64-byte swizzle).
bool suitsWarpgroupMma(DotOp dot, std::optional<unsigned> aContiguousDim,
                       unsigned bContiguousDim);

/// The layout in which warpgroup MMA (m64nNk16) reads an A operand of
/// `shape` [M x K] from registers over `numWarps` warps, or null where
/// warpgroups cannot take it: the warpgroup accumulator layout of that shape
/// (getMmaAccumulatorLayout with `warpgroupRows`). Per 16 of K a thread's
/// registers (rows g and g + 8 of its warp's 16, columns 2t, 2t + 1 and
/// 2t + 8, 2t + 9) are the instruction's four A registers of 16-bit pairs,
/// so the accumulator of one dot, converted to f16 or bf16 elementwise, is
/// the next one's A as it is (Triton's dot operand from MMAv3).
BlockedLayoutAttr getWarpgroupRegisterOperandLayout(mlir::MLIRContext *ctx,
                                                    llvm::ArrayRef<int64_t> shape,
                                                    unsigned numWarps);

/// Whether `dot` (on warpgroup MMA) has its A operand laid out in the
/// register-A layout of getWarpgroupRegisterOperandLayout for its warps.
bool hasWarpgroupRegisterOperandA(DotOp dot);

/// The iter-arg index of `dot`'s accumulator when the dot only carries it
/// around its scf.for (the iter arg feeds nothing else and the result goes
/// only to the yield, at that index): then an asynchronous dot's registers
/// are only ever read by the next step's dot.
std::optional<unsigned> loopCarriedAccumulator(DotOp dot);

/// `type` with its encoding replaced by `layout`.
mlir::RankedTensorType withLayout(mlir::RankedTensorType type,
                                  mlir::Attribute layout);

} // namespace llk::tile

#endif // LLK_DIALECT_TILE_IR_LAYOUT_H
