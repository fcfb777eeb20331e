//===- PatternTileOpToGPU.h - the patterns of convert-tile-to-gpu -*- C++ -*-===//
//
// The state the patterns of one conversion share, their base class, and one
// populate function per op family, each defined in the file of its name
// (ElementwiseOpToGPU.cpp: populateElementwiseOpToGPUPatterns, ...).
// TileToGPU.cpp holds the pass: the type converter and the list of these
// calls.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LIB_CONVERSION_TILETOGPU_PATTERNTILEOPTOGPU_H
#define LLK_LIB_CONVERSION_TILETOGPU_PATTERNTILEOPTOGPU_H

#include "Utility.h"

#include "llk/Analysis/AxisInfo.h"

namespace llk::togpu {

/// The arith and math ops (scalars or tiles) that lower to an NVVM
/// intrinsic an element (ElementwiseOpToGPU.cpp) rather than through
/// arith-to-llvm or libdevice: f32 math.exp2 (ex2.approx.ftz.f32) and i32
/// arith.mului_extended (mul.hi.u32 beside a 32-bit multiply).
inline bool lowersToNvvmIntrinsic(Operation *op) {
  if (auto exp2 = dyn_cast<math::Exp2Op>(op))
    return getElementTypeOrSelf(exp2.getType()).isF32();
  if (auto mul = dyn_cast<arith::MulUIExtendedOp>(op))
    return getElementTypeOrSelf(mul.getLhs().getType()).isInteger(32);
  return false;
}

/// State shared by the patterns of one conversion: caches of what the tile
/// IR says (the decisions are its attributes and types) and the scratch
/// allocator.
struct LoweringState {
  /// The contiguity analysis of each kernel (by name: a kernel's ops move
  /// from its func.func to its gpu.func), run on the tile IR before
  /// conversion; the memory patterns derive their accesses from it.
  llvm::StringMap<std::unique_ptr<AxisInfoAnalysis>> axisInfo;
  const AxisInfoAnalysis &axisInfoOf(Operation *op) const {
    auto kernel = isa<FunctionOpInterface>(op)
                      ? cast<FunctionOpInterface>(op)
                      : op->getParentOfType<FunctionOpInterface>();
    return *axisInfo.find(kernel.getName())->second;
  }
  /// Shared memory: the buffers where tile-allocate-shared placed them, and
  /// the scratch of the patterns that stage data (convert_layout, dots,
  /// reductions) after them.
  SharedScratch scratch;
  /// The kernels with a warpgroup MMA dot (#tile.mma version 3), by name:
  /// their cp.async waits fence the async proxy and their tile.dot_wait
  /// waits for wgmma groups.
  llvm::StringSet<> wgmmaKernels;
  /// The target has griddepcontrol (sm_90 and later).
  bool gridDependencyControl = true;
  /// The target takes PTX's fp8 conversions (cvt ...e4m3x2: sm_90 here).
  bool fp8Conversions = true;
};

/// The TMA box (rows, columns) that copies of `desc`'s blocks use: the
/// block's rows (at most 256, TMA's limit) by 128 bytes of columns, the
/// swizzle's width; a block is as many boxes as its 128-byte slabs (and
/// 256-row bands).
std::pair<int64_t, int64_t> tmaBoxOf(TensorDescType desc);

/// Checks the TMA copies of `func`: each fills a buffer with the wgmma
/// swizzle, placed with its barriers (tile-allocate-shared), from a
/// descriptor argument; every descriptor argument has copies (whose box,
/// tmaBoxOf, the host encodes).
LogicalResult checkTmaCopies(func::FuncOp func);

/// Whether operand `index` (0: a, 1: b) of `dot` is a tile.local_load of a
/// buffer with the wgmma swizzle: what warpgroup MMA reads.
bool readsWgmmaBuffer(DotOp dot, unsigned index);

template <typename OpTy>
struct TilePattern : OpConversionPattern<OpTy> {
  TilePattern(const TypeConverter &converter, MLIRContext *ctx,
              LoweringState &state)
      : OpConversionPattern<OpTy>(converter, ctx), state(state) {}
  LoweringState &state;
};

/// The tile type of one slot of `type`.
RankedTensorType slotTileType(SharedType type);

/// Slot `slot` of the buffer `buffer` (tile IR) whose first slot is at
/// `base`, in the byte layout of its type's swizzle.
SharedOperand slotOperand(IndexEmitter &e, Value buffer, Value base,
                          Value slot);

/// Whether operand `index` (0: a, 1: b) of `dot` is a tile.local_load that
/// ldmatrix can read in place: a tensor-core dot of 16-bit or 8-bit
/// elements, with the slot K-contiguous, or M/N-contiguous for 16-bit
/// elements (ldmatrix.trans).
bool readsOperandFromBuffer(DotOp dot, unsigned index);

/// The barriers of TMA buffer `alloc` (tile IR), as seen from `op`; slot
/// `slot`'s is 8 bytes at `slot * 8` from its barrier_offset.
Value tmaBarrier(IndexEmitter &e, LoweringState &state, LocalAllocOp alloc,
                 Operation *op, Value slot);

/// Builds `body` under `if (threadIdx.x == 0 && extra)`: the one thread that
/// issues bulk copies and initializes barriers.
void ifFirstThread(IndexEmitter &e, Value extra, llvm::function_ref<void()> body);

/// How a tile load, store or cp.async moves memory, as the contiguity
/// analysis allows: `width` registers an access. A load whose contiguous run
/// is not aligned to its size reads the aligned windows around it and
/// realigns it in registers (`realignFrom`: the alignment known for the run,
/// in bytes, a power of two below its size), reading up to `overrunBytes`
/// past the run's last byte.
struct MemoryAccess {
  unsigned width = 1;
  std::optional<int64_t> realignFrom;
  int64_t overrunBytes = 0;
};
MemoryAccess getMemoryAccess(Operation *op, const AxisInfoAnalysis &axisInfo);

/// Per argument of `func`, how many bytes past the last byte it accesses
/// through that pointer its realigned loads may read (empty when none
/// does): the kernel metadata's read_overrun_bytes.
SmallVector<int64_t> getReadOverruns(func::FuncOp func,
                                     const AxisInfoAnalysis &axisInfo);

//===----------------------------------------------------------------------===//
// The op families
//===----------------------------------------------------------------------===//

/// func.func kernels to gpu.func, func.return to gpu.return.
void populateFuncOpToGPUPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringState &state);

/// The program's place in the grid (tile.program_id, tile.num_programs), its
/// barrier, and programmatic dependent launch (tile.grid_dependency_wait,
/// tile.launch_dependents).
void populateProgramOpToGPUPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    LoweringState &state);

/// arith and math ops on tiles, and tile.addptr.
void populateElementwiseOpToGPUPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        LoweringState &state);

/// tile.cast and tile.bitcast.
void populateCastOpToGPUPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringState &state);

/// tile.make_range, splat, broadcast, expand_dims, reshape and trans.
void populateShapeOpToGPUPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  LoweringState &state);

/// tile.convert_layout.
void populateConvertLayoutOpToGPUPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          LoweringState &state);

/// tile.load, tile.store and tile.prefetch on global memory.
void populateLoadStoreOpToGPUPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state);

/// tile.atomic_rmw and tile.atomic_cas.
void populateAtomicOpToGPUPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state);

/// tile.reduce and tile.generic_reduce.
void populateReduceOpToGPUPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state);

/// tile.scan and tile.generic_scan.
void populateScanOpToGPUPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringState &state);

/// tile.gather and tile.histogram.
void populateGatherOpToGPUPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   LoweringState &state);

/// tile.sort and tile.topk.
void populateSortOpToGPUPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringState &state);

/// tile.dot (mma.sync, warpgroup MMA or the FMA loop: DotOpToGPU/) and
/// tile.dot_wait.
void populateDotOpToGPUPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns,
                                LoweringState &state);

/// The shared-memory buffers of software pipelining: tile.local_alloc and
/// tile.local_load.
void populateLocalMemoryOpToGPUPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        LoweringState &state);

/// cp.async copies into buffer slots: tile.async_copy, tile.async_commit and
/// tile.async_wait.
void populateAsyncCopyOpToGPUPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      LoweringState &state);

/// TMA copies into buffer slots: tile.async_tma_copy and tile.async_tma_wait.
void populateTMAOpToGPUPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns,
                                LoweringState &state);

/// The compiler hints tile.multiple_of, tile.max_contiguous and
/// tile.max_constancy: their operand.
void populateHintOpToGPUPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 LoweringState &state);

/// tile.print and tile.assert (kernels built with device debug).
void populateDebugOpToGPUPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  LoweringState &state);

} // namespace llk::togpu

#endif // LLK_LIB_CONVERSION_TILETOGPU_PATTERNTILEOPTOGPU_H
