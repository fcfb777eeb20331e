//===- Utility.h - what the tile-to-GPU lowering's files share ----*- C++ -*-===//
//
// Per-thread index arithmetic (IndexEmitter), the kernel's shared memory
// (SharedScratch), register runs to and from shared memory, and the
// exchange of a tile between layouts through shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LIB_CONVERSION_TILETOGPU_UTILITY_H
#define LLK_LIB_CONVERSION_TILETOGPU_UTILITY_H

#include "llk/Conversion/Passes.h"
#include "llk/Dialect/Tile/IR/Layout.h"
#include "llk/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSet.h"

namespace llk::togpu {

using namespace mlir;
using namespace llk::tile;

constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kSharedAddressSpace = 3;
/// shared::cluster: the shared memory of any program of the cluster.
constexpr unsigned kSharedClusterAddressSpace = 7;
/// Shared memory a kernel may declare statically; past it, its buffer is
/// dynamic shared memory that the launch provides.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

inline unsigned byteWidth(Type elem) {
  if (isa<PtrType>(elem))
    return 8;
  return std::max<unsigned>(1, elem.getIntOrFloatBitWidth() / 8);
}


/// Emits the index arithmetic of one op: thread coordinates and the tile
/// coordinates of each register.
class IndexEmitter {
public:
  IndexEmitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }
  Value i1(bool v) {
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(v));
  }

  Value threadId() {
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), tid);
  }
  Value laneId() { return arith::AndIOp::create(b, loc, threadId(), i32(31)); }
  Value warpId() { return arith::ShRUIOp::create(b, loc, threadId(), i32(5)); }

  /// (id / stride) % count, for powers of two.
  Value digit(Value id, unsigned stride, unsigned count) {
    Value shifted = arith::ShRUIOp::create(b, loc, id, i32(llvm::Log2_32(stride)));
    return arith::AndIOp::create(b, loc, shifted, i32(count - 1));
  }
  Value laneCoord(const DistributedView &v, unsigned d) {
    return digit(laneId(), v.laneStride[d], v.threadsPerWarp[d]);
  }
  Value warpCoord(const DistributedView &v, unsigned d) {
    return digit(warpId(), v.warpStride[d], v.warpsPerCTA[d]);
  }

  /// Coordinate along `d` of each register, as vector<E x i32>.
  Value coordinates(const DistributedView &v, unsigned d) {
    Value threadPart = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, warpCoord(v, d),
                              i32(v.threadsPerWarp[d] * v.warpRepeat[d])),
        laneCoord(v, d));
    Value base =
        arith::MulIOp::create(b, loc, threadPart, i32(v.sizePerThread[d]));
    SmallVector<int32_t> offsets;
    for (const auto &local : v.localIndices())
      offsets.push_back(v.localOffset(d, local[d]));
    auto type = VectorType::get({int64_t(offsets.size())}, b.getI32Type());
    Value result = arith::AddIOp::create(
        b, loc, vector::BroadcastOp::create(b, loc, type, base),
        arith::ConstantOp::create(b, loc, DenseIntElementsAttr::get(type, offsets)));
    // Along a dimension smaller than the pattern, threads wrap around.
    if (v.shape[d] < v.tileExtent(d))
      result = arith::AndIOp::create(
          b, loc, result,
          arith::ConstantOp::create(
              b, loc, DenseIntElementsAttr::get(type, int32_t(v.shape[d] - 1))));
    return result;
  }

  /// True in exactly one of the threads that hold the same elements, so
  /// that stores and atomics happen once.
  Value ownerPredicate(const DistributedView &v) {
    Value pred;
    auto require = [&](Value cond) {
      pred = pred ? arith::AndIOp::create(b, loc, pred, cond).getResult() : cond;
    };
    auto below = [&](Value coord, unsigned n) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, coord, i32(n));
    };
    for (unsigned d = 0; d < v.shape.size(); ++d) {
      if (v.distinctLanes(d) < v.threadsPerWarp[d])
        require(below(laneCoord(v, d), v.distinctLanes(d)));
      if (v.distinctWarps(d) < v.warpsPerCTA[d])
        require(below(warpCoord(v, d), v.distinctWarps(d)));
    }
    if (v.slicedLanes > 1)
      require(below(digit(laneId(), v.slicedLaneStride, v.slicedLanes), 1));
    if (v.slicedWarps > 1)
      require(below(digit(warpId(), v.slicedWarpStride, v.slicedWarps), 1));
    return pred;
  }

  Value extract(Value vec, int64_t i) {
    return vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{i});
  }
  /// Registers [offset, offset + size) of `vec`.
  Value slice(Value vec, int64_t offset, int64_t size) {
    if (cast<VectorType>(vec.getType()).getNumElements() == size)
      return vec;
    SmallVector<int64_t> mask;
    for (int64_t i = 0; i < size; ++i)
      mask.push_back(offset + i);
    return vector::ShuffleOp::create(b, loc, vec, vec, mask);
  }
  /// `into` with registers [offset, offset + size(chunk)) replaced by `chunk`
  /// (a vector, or one scalar register).
  Value insertSlice(Value chunk, Value into, int64_t offset) {
    if (chunk.getType() == into.getType())
      return chunk;
    if (!isa<VectorType>(chunk.getType()))
      return vector::InsertOp::create(b, loc, chunk, into, ArrayRef<int64_t>{offset});
    int64_t n = cast<VectorType>(into.getType()).getNumElements();
    int64_t size = cast<VectorType>(chunk.getType()).getNumElements();
    auto inSlice = [&](int64_t i) { return i >= offset && i < offset + size; };
    SmallVector<int64_t> blend;
    for (int64_t i = 0; i < n; ++i)
      blend.push_back(inSlice(i) ? n + i - offset : i);
    // A shuffle of two vectors of different lengths lowers to an extract
    // and an insert per register of the result: filling a vector chunk by
    // chunk costs registers^2 / chunk ops, which made large tiles' IR (a
    // 128-register accumulator loaded 4 at a time) grow 10x. Past
    // kWideningRegisters the chunk is widened to `into`'s length first
    // (poison past its end) and blended in: two shuffles of one type each.
    // Below, the per-register form stays (the PTX of small tiles as it was).
    constexpr int64_t kWideningRegisters = 64;
    if (n < kWideningRegisters)
      return vector::ShuffleOp::create(b, loc, into, chunk, blend);
    SmallVector<int64_t> widen;
    for (int64_t i = 0; i < n; ++i)
      widen.push_back(i < size ? i : vector::ShuffleOp::kPoisonIndex);
    Value wide = vector::ShuffleOp::create(b, loc, chunk, chunk, widen);
    return vector::ShuffleOp::create(b, loc, into, wide, blend);
  }
  Value fromElements(Type elem, ArrayRef<Value> elems) {
    auto type = VectorType::get({int64_t(elems.size())}, elem);
    return vector::FromElementsOp::create(b, loc, type, elems);
  }
  Value poison(Type type) { return ub::PoisonOp::create(b, loc, type); }
  /// PTX inline assembly: `text` with `$i` operands per `constraints`; no
  /// result where `result` is null.
  LLVM::InlineAsmOp inlineAsm(Type result, ValueRange operands, StringRef text,
                              StringRef constraints, bool sideEffects = true) {
    return LLVM::InlineAsmOp::create(
        b, loc, result ? TypeRange(result) : TypeRange(), operands, text,
        constraints, sideEffects, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
        ArrayAttr());
  }

  OpBuilder &b;
  Location loc;
};

/// The distributed view of a tile type; the layout pass guarantees one.
inline DistributedView viewOf(Type type) {
  return *getDistributedView(cast<RankedTensorType>(type));
}

/// The kernel's shared memory, one buffer per kernel: first the buffers of
/// `tile.local_alloc`, then scratch space. Scratch users run one after
/// another, each starting with a barrier, so they all share one offset:
/// past the buffers for the ops that run while the buffers are live (see
/// markBuffersLive), 0 for the others.
class SharedScratch {
public:
  /// Reserves `bytes` at `offset` (a multiple of `align`) of `func`'s
  /// shared memory for the whole kernel: a buffer or barriers that
  /// tile-allocate-shared placed there.
  void reserveAt(llvm::StringRef func, int64_t offset, int64_t bytes,
                 int64_t align) {
    std::string name = (kSharedPrefix + func).str();
    int64_t &end = reserved[name];
    end = std::max(end, offset + bytes);
    int64_t &maxAlign = alignments[name];
    maxAlign = std::max(maxAlign, align);
    sizes[name] = std::max(sizes[name], end);
  }
  /// The start of the kernel's shared memory, as seen from `op`.
  Value kernelBase(OpBuilder &b, Location loc, Operation *op) {
    std::string name = bufferName(op);
    sizes.try_emplace(name, 0);
    return LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedAddressSpace),
        name);
  }
  /// Notes that `op` (and every op nested in it) runs while the buffers
  /// hold data, so its scratch must not overlap them (a cache of the
  /// buffers' live ranges in the tile IR).
  void markBuffersLive(Operation *op) {
    op->walk([&](Operation *nested) { live.insert(nested); });
  }
  /// Scratch space of `bytes` for `op`.
  Value base(OpBuilder &b, Location loc, Operation *op, int64_t bytes) {
    std::string name = bufferName(op);
    int64_t offset =
        live.contains(op) ? llvm::alignTo(reserved.lookup(name), 128) : 0;
    int64_t &size = sizes[name];
    size = std::max(size, offset + bytes);
    Value base = kernelBase(b, loc, op);
    if (offset == 0)
      return base;
    Value offsetValue =
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(offset));
    return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                               ValueRange{offsetValue});
  }
  const llvm::StringMap<int64_t> &getSizes() const { return sizes; }
  /// The alignment `name`'s buffer needs: 16, or what reserve asked for.
  int64_t alignment(llvm::StringRef name) const {
    return std::max<int64_t>(16, alignments.lookup(name));
  }

private:
  /// The name of the shared-memory buffer of `op`'s kernel.
  static std::string bufferName(Operation *op) {
    return (kSharedPrefix +
            op->getParentOfType<FunctionOpInterface>().getName())
        .str();
  }

  llvm::StringMap<int64_t> sizes, reserved, alignments;
  llvm::DenseSet<Operation *> live;
};

inline Value byteAddress(IndexEmitter &e, Value base, Value byteOffset) {
  return LLVM::GEPOp::create(e.b, e.loc, base.getType(), e.b.getI8Type(), base,
                             ValueRange{byteOffset});
}

/// Registers a thread moves to or from shared memory in one access: a run
/// of `view`'s contiguous registers (at most 16 bytes of `bytes`-byte
/// elements) where its fast dimension is contiguous in shared memory, else 1.
inline int64_t sharedRunLength(const DistributedView &view, bool fastIsContiguous,
                               int64_t bytes) {
  if (!fastIsContiguous)
    return 1;
  return std::min<int64_t>(view.contigPerThread(view.order[0]),
                           std::max<int64_t>(1, 16 / bytes));
}

/// Stores the registers of `regs` (elements of `bytes` bytes) to shared
/// memory, `run` registers an access; `addressOf(r)` is where register r goes.
inline void storeRuns(IndexEmitter &e, Value regs, int64_t run, int64_t bytes,
                      llvm::function_ref<Value(int64_t)> addressOf) {
  int64_t n = cast<VectorType>(regs.getType()).getNumElements();
  for (int64_t r = 0; r < n; r += run) {
    Value addr = addressOf(r);
    Value value = run == 1 ? e.extract(regs, r) : e.slice(regs, r, run);
    LLVM::StoreOp::create(e.b, e.loc, value, addr, run * bytes);
  }
}

/// The registers of `type` (elements of `bytes` bytes) loaded from shared
/// memory, `run` registers an access; `addressOf(r)` is where register r is.
inline Value loadRuns(IndexEmitter &e, VectorType type, int64_t run,
                      int64_t bytes, llvm::function_ref<Value(int64_t)> addressOf) {
  Type elem = type.getElementType();
  Value result = e.poison(type);
  for (int64_t r = 0; r < type.getNumElements(); r += run) {
    Value addr = addressOf(r);
    Type chunkType = run == 1 ? elem : VectorType::get({run}, elem);
    Value value = LLVM::LoadOp::create(e.b, e.loc, chunkType, addr, run * bytes);
    result = e.insertSlice(value, result, r);
  }
  return result;
}

inline Value toGlobalPtr(IndexEmitter &e, Value address) {
  if (isa<LLVM::LLVMPointerType>(address.getType()))
    return address;
  return LLVM::IntToPtrOp::create(
      e.b, e.loc, LLVM::LLVMPointerType::get(e.b.getContext(), kGlobalAddressSpace),
      address);
}

/// A dot operand staged in shared memory: `outer` rows of `inner` elements,
/// the tile dimension `innerDim` contiguous, cut along it into slabs of
/// `slabBytes` (each slab `outer` rows of that many bytes, one slab after
/// the other). With `swizzled`, the 16-byte chunks of a slab row are
/// XOR-permuted by the row so that the 8 consecutive rows one ldmatrix 8x8
/// matrix (or one wgmma core matrix) reads land in 8 different bank groups:
/// chunk c of row r sits at c ^ ((r / perPhase) % maxPhase), where perPhase
/// rows share one 128-byte bank line. ldmatrix reads whole rows (one slab);
/// wgmma reads 128-byte slabs (the 128-byte swizzle: c ^ (r % 8)).
struct SharedOperand {
  Value base;
  unsigned innerDim;
  int64_t outer, inner, bytes, slabBytes;
  int64_t perPhase = 1, maxPhase = 1;

  SharedOperand(Value base, RankedTensorType type, unsigned innerDim,
                bool swizzled)
      : base(base), innerDim(innerDim) {
    inner = type.getDimSize(innerDim);
    outer = type.getDimSize(1 - innerDim);
    bytes = byteWidth(type.getElementType());
    slabBytes = inner * bytes;
    if (swizzled && slabBytes >= 16) {
      perPhase = std::max<int64_t>(1, 128 / slabBytes);
      maxPhase = std::min<int64_t>(8, slabBytes / 16);
    }
  }
  int64_t sizeInBytes() const { return outer * inner * bytes; }

  /// wgmma's layout: 128-byte slabs (the contiguous extent is whole slabs,
  /// so the swizzle is c ^ (r % 8) already), or one 64-byte slab (its
  /// 64-byte swizzle, c ^ ((r / 2) % 4), already too).
  void useWgmmaLayout() { slabBytes = std::min<int64_t>(slabBytes, 128); }

  /// Address of element (row, col) of the shared array (outer, inner).
  Value address(IndexEmitter &e, Value row, Value col) const {
    Value rowStart = arith::MulIOp::create(e.b, e.loc, row, e.i32(slabBytes));
    Value colBytes = arith::MulIOp::create(e.b, e.loc, col, e.i32(bytes));
    Value inSlab = colBytes;
    if (slabBytes < inner * bytes) {
      Value slab = arith::DivUIOp::create(e.b, e.loc, colBytes, e.i32(slabBytes));
      rowStart = arith::AddIOp::create(
          e.b, e.loc, rowStart,
          arith::MulIOp::create(e.b, e.loc, slab, e.i32(outer * slabBytes)));
      inSlab = arith::RemUIOp::create(e.b, e.loc, colBytes, e.i32(slabBytes));
    }
    Value chunk = arith::ShRUIOp::create(e.b, e.loc, inSlab, e.i32(4));
    Value within = arith::AndIOp::create(e.b, e.loc, colBytes, e.i32(15));
    if (maxPhase > 1) {
      Value phase = e.digit(row, perPhase, maxPhase);
      chunk = arith::XOrIOp::create(e.b, e.loc, chunk, phase);
    }
    Value offset = arith::AddIOp::create(
        e.b, e.loc, rowStart,
        arith::AddIOp::create(
            e.b, e.loc, arith::ShLIOp::create(e.b, e.loc, chunk, e.i32(4)),
            within));
    return byteAddress(e, base, offset);
  }

  /// Address of tile element (i, j) (tile coordinates).
  Value tileAddress(IndexEmitter &e, Value i, Value j) const {
    return innerDim == 1 ? address(e, i, j) : address(e, j, i);
  }
};

/// Rounds f32 bits to tf32 (nearest, ties away from zero: cvt.rna.tf32.f32),

/// Whether `op` has a tile operand or result.
bool hasTileType(Operation *op);

/// Element types as stored in shared memory: i1 travels as i8.
Type storageType(Type elem);

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

/// `sum(coord[d] * strides[d]) * scale` for each register of a tile of
/// `view`, as vector<E x i32>; `coordinates(d)`, where it gives a value,
/// replaces dimension d's coordinates.
Value registerOffsets(IndexEmitter &e, const DistributedView &view,
                      ArrayRef<int64_t> strides, int64_t scale,
                      llvm::function_ref<Value(unsigned)> coordinates = nullptr);

/// `a && b`, where a null predicate is true.
Value andPredicates(IndexEmitter &e, Value a, Value b);

/// Whether this is the program's thread 0 (what a once-per-program action
/// is predicated on).
Value isFirstThread(IndexEmitter &e);

/// Moves a tile between layouts (and, for reshape and transpose, between
/// index spaces) through shared memory: every thread writes its elements at
/// `sum(coord[d] * srcStrides[d])`, and reads those of its new layout at
/// `sum(coord[d] * dstStrides[d])`. With `writers`, only the threads where
/// it holds write (the others' copies of their elements may differ); without,
/// one owner of each element (copies in other threads are not written twice).
Value exchangeThroughShared(IndexEmitter &e, SharedScratch &scratch,
                            Operation *op, Value src, Type srcTileType,
                            Type dstTileType, ArrayRef<int64_t> srcStrides,
                            ArrayRef<int64_t> dstStrides, Value writers = Value());

/// `value` from another lane of the warp, as `mode` picks it with `offset`
/// (xor: lane ^ offset; up: lane - offset; down: lane + offset; idx: lane
/// `offset`; lanes out of the warp get their own value). Shuffles move
/// 32-bit registers: narrower values are widened, 64-bit ones split.
Value shuffle(IndexEmitter &e, Value value, Value offset, gpu::ShuffleMode mode);

/// The value a combiner region (tile.generic_reduce, tile.generic_scan)
/// yields for `lhs` and `rhs`, its ops cloned at `b`'s insertion point.
Value applyCombiner(OpBuilder &b, Region &combiner, Value lhs, Value rhs);

/// The built-in combiners of the reductions and scans.
enum class ArithCombiner { Sum, Prod, Max, Min };
/// `lhs op rhs` for a built-in combiner, float or signed integer; `addFlags`
/// for a float sum.
Value arithCombine(OpBuilder &b, Location loc, ArithCombiner kind, Value lhs,
                   Value rhs, arith::FastMathFlags addFlags = arith::FastMathFlags::none);

} // namespace llk::togpu

#endif // LLK_LIB_CONVERSION_TILETOGPU_UTILITY_H
