//===- DotLowering.cpp - tile.dot on the tensor cores, pipelined buffers ---===//
//
// tile.dot becomes ldmatrix + mma.sync (or an FMA loop); its operands come
// from shared memory: staged from registers, or, when software pipelining
// (the tile-pipeline pass) put them there with cp.async, read straight from
// their buffer slot. The buffers (tile.local_alloc) and the asynchronous
// copies that fill them are lowered here too.
//
//===----------------------------------------------------------------------===//

#include "TileToGPUInternal.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace llk::togpu;

namespace {


/// A dot operand staged in shared memory: `outer` rows of `inner` elements,
/// the tile dimension `innerDim` contiguous. With `swizzled`, the 16-byte
/// chunks of a row are XOR-permuted by the row so that the 8 consecutive
/// rows one ldmatrix 8x8 matrix reads land in 8 different bank groups:
/// chunk c of row r sits at c ^ ((r / perPhase) % maxPhase), where perPhase
/// rows share one 128-byte bank line.
struct SharedOperand {
  Value base;
  unsigned innerDim;
  int64_t outer, inner, bytes;
  int64_t perPhase = 1, maxPhase = 1;

  SharedOperand(Value base, RankedTensorType type, unsigned innerDim,
                bool swizzled)
      : base(base), innerDim(innerDim) {
    inner = type.getDimSize(innerDim);
    outer = type.getDimSize(1 - innerDim);
    bytes = byteWidth(type.getElementType());
    int64_t rowBytes = inner * bytes;
    if (swizzled && rowBytes >= 16) {
      perPhase = std::max<int64_t>(1, 128 / rowBytes);
      maxPhase = std::min<int64_t>(8, rowBytes / 16);
    }
  }
  int64_t sizeInBytes() const { return outer * inner * bytes; }

  /// Address of element (row, col) of the shared array (outer, inner).
  Value address(IndexEmitter &e, Value row, Value col) const {
    Value rowStart = arith::MulIOp::create(e.b, e.loc, row, e.i32(inner * bytes));
    Value colBytes = arith::MulIOp::create(e.b, e.loc, col, e.i32(bytes));
    Value chunk = arith::ShRUIOp::create(e.b, e.loc, colBytes, e.i32(4));
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
/// leaving infinities and NaNs alone, as the interpreter does.
Value roundToTF32(IndexEmitter &e, Value value) {
  Type type = value.getType();
  Type intType = e.b.getI32Type();
  if (auto vec = dyn_cast<VectorType>(type))
    intType = VectorType::get(vec.getShape(), intType);
  auto splat = [&](int64_t v) -> Value {
    if (auto vec = dyn_cast<VectorType>(intType))
      return arith::ConstantOp::create(
          e.b, e.loc, DenseIntElementsAttr::get(vec, int32_t(v)));
    return e.i32(v);
  };
  Value bits = arith::BitcastOp::create(e.b, e.loc, intType, value);
  Value rounded = arith::AndIOp::create(
      e.b, e.loc, arith::AddIOp::create(e.b, e.loc, bits, splat(0x1000)),
      splat(int32_t(0xffffe000u)));
  Value exponent = arith::AndIOp::create(e.b, e.loc, bits, splat(0x7f800000));
  Value special = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                        exponent, splat(0x7f800000));
  Value result = arith::SelectOp::create(e.b, e.loc, special, bits, rounded);
  return arith::BitcastOp::create(e.b, e.loc, type, result);
}

/// Writes a tile (the registers `regs` of layout `type`) into `smem`: one
/// store per run of registers contiguous along the shared row (at most 16
/// bytes), one per element otherwise.
void stageOperand(IndexEmitter &e, Value regs, RankedTensorType type,
                  const SharedOperand &smem) {
  DistributedView view = viewOf(type);
  Value rows = e.coordinates(view, 0), cols = e.coordinates(view, 1);
  int64_t run = sharedRunLength(view, view.order[0] == smem.innerDim, smem.bytes);
  storeRuns(e, regs, run, smem.bytes, [&](int64_t r) {
    return smem.tileAddress(e, e.extract(rows, r), e.extract(cols, r));
  });
}

/// One mma.sync shape per operand type. The fragments of A (16 x k) and B
/// (k x 8) are made of 8x8 matrices of 16-bit elements as ldmatrix loads
/// them: 8 rows (of M or N) by 16 bytes (of K). A is matrices (rows 0-7,
/// K bytes 0-15), (rows 8-15, 0-15), (rows 0-7, 16-31), (rows 8-15, 16-31);
/// B is (cols 0-7, K bytes 0-15), (cols 0-7, 16-31). So k = 32 bytes.
struct MmaShape {
  int64_t k;
  NVVM::MMATypes ptxType;
  std::optional<NVVM::MMAIntOverflow> overflow;
};

std::optional<MmaShape> mmaShapeOf(DotOp op) {
  Type elem = op.getA().getType().getElementType();
  if (elem.isF16())
    return MmaShape{16, NVVM::MMATypes::f16, std::nullopt};
  if (elem.isBF16())
    return MmaShape{16, NVVM::MMATypes::bf16, std::nullopt};
  if (elem.isInteger(8))
    return MmaShape{32, NVVM::MMATypes::s8, NVVM::MMAIntOverflow::wrapped};
  if (elem.isF32() &&
      op.getPrecision().value_or(DotPrecision::TF32) == DotPrecision::TF32)
    return MmaShape{8, NVVM::MMATypes::tf32, std::nullopt};
  return std::nullopt;
}

/// Whether `op` lowers to mma.sync (else to the FMA loop).
bool usesTensorCores(DotOp op) {
  auto shape = mmaShapeOf(op);
  auto result = op.getType();
  return shape && op.getA().getType().getDimSize(1) % shape->k == 0 &&
         isMmaAccumulatorLayout(result.getEncoding(), result.getShape());
}

/// The tensor-core dot. Operands go to shared memory (swizzled; a 16-bit
/// operand whose registers run along M or N stays so there and is read with
/// ldmatrix.trans, every other one is stored K-contiguous), then each warp
/// loads its fragments with ldmatrix and issues one mma.sync per 16x8 tile
/// of its accumulator and instruction step of K.
Value lowerMmaDot(IndexEmitter &e, SharedScratch &scratch, DotOp op, Value a,
                  Value b, Value acc, std::optional<SharedOperand> aBuffer,
                  std::optional<SharedOperand> bBuffer) {
  MLIRContext *ctx = e.b.getContext();
  MmaShape mma = *mmaShapeOf(op);
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                   cType = op.getType();
  int64_t K = aType.getDimSize(1), N = bType.getDimSize(1);
  int64_t bytes = byteWidth(aType.getElementType());
  int64_t kb = 16 / bytes; // K elements of one 8x8 matrix row

  // Shared layouts: inner dimension K (1 for A, 0 for B) unless a 16-bit
  // operand's registers are contiguous along M (N).
  // An operand already in a buffer slot (software pipelining) keeps that
  // slot's layout; the others are staged in the scratch space.
  DistributedView aView = viewOf(aType), bView = viewOf(bType);
  bool aTrans = aBuffer ? aBuffer->innerDim == 0
                        : bytes == 2 && aView.order[0] == 0 &&
                              aView.contigPerThread(0) > 1;
  bool bTrans = bBuffer ? bBuffer->innerDim == 1
                        : bytes == 2 && bView.order[0] == 1 &&
                              bView.contigPerThread(1) > 1;
  int64_t aBytes = aBuffer ? 0 : aType.getNumElements() * bytes;
  int64_t bOffset = llvm::alignTo(aBytes, 128);
  int64_t scratchBytes = bOffset + (bBuffer ? 0 : bType.getNumElements() * bytes);
  Value base;
  if (!aBuffer || !bBuffer)
    base = scratch.base(e.b, e.loc, op, scratchBytes);
  SharedOperand aSmem = aBuffer ? *aBuffer
                                : SharedOperand(base, aType, aTrans ? 0 : 1,
                                                /*swizzled=*/true);
  SharedOperand bSmem =
      bBuffer ? *bBuffer
              : SharedOperand(byteAddress(e, base, e.i32(bOffset)), bType,
                              bTrans ? 1 : 0, /*swizzled=*/true);

  if (mma.ptxType == NVVM::MMATypes::tf32) {
    a = roundToTF32(e, a);
    b = roundToTF32(e, b);
  }
  if (!aBuffer || !bBuffer) {
    gpu::BarrierOp::create(e.b, e.loc);
    if (!aBuffer)
      stageOperand(e, a, aType, aSmem);
    if (!bBuffer)
      stageOperand(e, b, bType, bSmem);
    gpu::BarrierOp::create(e.b, e.loc);
  }

  // The accumulator: warp (wM, wN) holds rows 8*wm*i + 8*wM + g and columns
  // 8*wn*j + 8*wN + 2t + {0, 1}; instruction tile (mi, nj) pairs rows
  // i = 2mi (g) and 2mi + 1 (g + 8).
  DistributedView cView = viewOf(cType);
  unsigned wm = cView.warpsPerCTA[0], wn = cView.warpsPerCTA[1];
  int64_t mTiles = cView.elemsPerThread(0) / 2;
  int64_t nTiles = cView.elemsPerThread(1) / 2;
  Value lane = e.laneId();
  Value wM = e.warpCoord(cView, 0), wN = e.warpCoord(cView, 1);
  Value rowBase = arith::MulIOp::create(e.b, e.loc, wM, e.i32(8));
  Value colBase = arith::AndIOp::create(
      e.b, e.loc, arith::MulIOp::create(e.b, e.loc, wN, e.i32(8)), e.i32(N - 1));
  Value laneRow = arith::AndIOp::create(e.b, e.loc, lane, e.i32(7));
  Value matrix = arith::ShRUIOp::create(e.b, e.loc, lane, e.i32(3));
  Value matrixLo = arith::AndIOp::create(e.b, e.loc, matrix, e.i32(1));
  Value matrixHi = arith::ShRUIOp::create(e.b, e.loc, matrix, e.i32(1));
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(e.b, e.loc, x, y).getResult();
  };
  auto mul = [&](Value x, int64_t c) {
    return arith::MulIOp::create(e.b, e.loc, x, e.i32(c)).getResult();
  };

  // The address this lane gives ldmatrix for the 8x8 matrix whose 8 M/N
  // indices start at `mn` (8-aligned, contiguous) and K elements at `k`.
  auto matrixRowAddress = [&](const SharedOperand &smem, unsigned mnDim,
                              Value mn, Value k) {
    bool kInner = smem.innerDim != mnDim;
    Value row = kInner ? add(mn, laneRow) : add(k, laneRow);
    Value col = kInner ? k : mn;
    return smem.address(e, row, col);
  };
  auto i32Struct = [&](unsigned n) -> Type {
    if (n == 1)
      return e.b.getI32Type();
    return LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(n, e.b.getI32Type()));
  };
  // The K step whose fragments are being loaded, tagged on the ldmatrix and
  // mma.sync ops (kMmaStepAttr) of a dot on pipelined buffers, for the
  // fragment prefetch pass.
  int64_t step = 0;
  bool tagSteps = aBuffer && bBuffer;
  auto tagStep = [&](Operation *op, int64_t ks) {
    if (tagSteps)
      op->setAttr(kMmaStepAttr, e.b.getI32IntegerAttr(int32_t(ks)));
  };
  auto ldmatrix = [&](Value addr, unsigned num, bool trans) {
    auto load = NVVM::LdMatrixOp::create(
        e.b, e.loc, i32Struct(num), addr, num,
        trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
    tagStep(load, step);
    SmallVector<Value> regs;
    for (unsigned i = 0; i < num; ++i)
      regs.push_back(num == 1 ? load.getResult()
                              : LLVM::ExtractValueOp::create(
                                    e.b, e.loc, load.getResult(),
                                    ArrayRef<int64_t>{i})
                                    .getResult());
    return regs;
  };
  // Operand registers as mma.sync takes them: f16 pairs as vector<2xf16>.
  auto asOperand = [&](Value reg) -> Value {
    if (mma.ptxType != NVVM::MMATypes::f16)
      return reg;
    return LLVM::BitcastOp::create(e.b, e.loc,
                                   VectorType::get({2}, e.b.getF16Type()), reg);
  };

  Type accElem = cType.getElementType();
  struct Fragments {
    SmallVector<SmallVector<Value>> a, b;
  };
  auto loadFragments = [&](int64_t ks) {
    Fragments f;
    step = ks;
    Value kFirst = e.i32(ks * mma.k);
    // A: one ldmatrix.x4 per 16-row tile; lane group m (0..3) addresses
    // matrix m: row half m & 1, K half m >> 1.
    for (int64_t mi = 0; mi < mTiles; ++mi) {
      Value mn = add(add(mul(matrixLo, 8 * wm), e.i32(16 * wm * mi)), rowBase);
      Value k = add(kFirst, mul(matrixHi, kb));
      f.a.push_back(ldmatrix(matrixRowAddress(aSmem, 0, mn, k), 4, aTrans));
    }
    // B: one ldmatrix.x4 per two 8-column tiles (x2 for a single one);
    // matrix m: column tile m >> 1, K half m & 1.
    for (int64_t nj = 0; nj < nTiles; nj += 2) {
      bool pair = nj + 1 < nTiles;
      Value tile = pair ? add(matrixHi, e.i32(nj)) : e.i32(nj);
      Value mn = add(mul(tile, 8 * wn), colBase);
      Value k = add(kFirst, mul(matrixLo, kb));
      SmallVector<Value> regs =
          ldmatrix(matrixRowAddress(bSmem, 1, mn, k), pair ? 4 : 2, bTrans);
      f.b.push_back({regs[0], regs[1]});
      if (pair)
        f.b.push_back({regs[2], regs[3]});
    }
    return f;
  };
  // The fragments of step ks + 1 are loaded before the mma.sync of step ks,
  // so that the shared-memory latency hides behind the tensor cores.
  int64_t kSteps = K / mma.k;
  Fragments current = loadFragments(0);
  for (int64_t ks = 0; ks < kSteps; ++ks) {
    Fragments next;
    if (ks + 1 < kSteps)
      next = loadFragments(ks + 1);
    auto &aFrags = current.a;
    auto &bFrags = current.b;
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t nj = 0; nj < nTiles; ++nj) {
        int64_t regs[4] = {cView.registerIndex({2 * mi, 2 * nj}),
                           cView.registerIndex({2 * mi, 2 * nj + 1}),
                           cView.registerIndex({2 * mi + 1, 2 * nj}),
                           cView.registerIndex({2 * mi + 1, 2 * nj + 1})};
        SmallVector<Value> aOps, bOps, cOps;
        for (Value r : aFrags[mi])
          aOps.push_back(asOperand(r));
        for (Value r : bFrags[nj])
          bOps.push_back(asOperand(r));
        for (int64_t r : regs)
          cOps.push_back(e.extract(acc, r));
        Type resultType = LLVM::LLVMStructType::getLiteral(
            ctx, SmallVector<Type>(4, accElem));
        auto inst = NVVM::MmaOp::create(
            e.b, e.loc, resultType, aOps, bOps, cOps,
            ArrayRef<int64_t>{16, 8, mma.k}, std::nullopt, mma.overflow,
            std::array<NVVM::MMATypes, 2>{mma.ptxType, mma.ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        tagStep(inst, ks);
        for (auto [i, r] : llvm::enumerate(regs)) {
          Value d = LLVM::ExtractValueOp::create(e.b, e.loc, inst.getResult(),
                                                 ArrayRef<int64_t>{int64_t(i)});
          acc = vector::InsertOp::create(e.b, e.loc, d, acc, ArrayRef<int64_t>{r});
        }
      }
    current = std::move(next);
  }
  return acc;
}

/// The exact dot (`precision = ieee`, and shapes the tensor cores cannot
/// take): operands row-major in shared memory, then each thread runs over K
/// with one FMA per accumulator register, in K order (as the reference).
Value lowerFmaDot(IndexEmitter &e, SharedScratch &scratch, DotOp op, Value a,
                  Value b, Value acc) {
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                   cType = op.getType();
  int64_t K = aType.getDimSize(1);
  Type elem = aType.getElementType(), accElem = cType.getElementType();
  int64_t bytes = byteWidth(elem);
  int64_t aBytes = aType.getNumElements() * bytes;
  int64_t bOffset = llvm::alignTo(aBytes, 16);
  Value base = scratch.base(e.b, e.loc, op, bOffset + bType.getNumElements() * bytes);
  SharedOperand aSmem(base, aType, 1, /*swizzled=*/false);
  SharedOperand bSmem(byteAddress(e, base, e.i32(bOffset)), bType, 1,
                      /*swizzled=*/false);
  gpu::BarrierOp::create(e.b, e.loc);
  stageOperand(e, a, aType, aSmem);
  stageOperand(e, b, bType, bSmem);
  gpu::BarrierOp::create(e.b, e.loc);

  DistributedView view = viewOf(cType);
  Value rows = e.coordinates(view, 0), cols = e.coordinates(view, 1);
  SmallVector<Value> rowOf, colOf;
  for (int64_t i = 0; i < view.elemsPerThread(0); ++i)
    rowOf.push_back(e.extract(rows, view.registerIndex({i, 0})));
  for (int64_t j = 0; j < view.elemsPerThread(1); ++j)
    colOf.push_back(e.extract(cols, view.registerIndex({0, j})));

  Value lb = arith::ConstantIndexOp::create(e.b, e.loc, 0);
  Value ub = arith::ConstantIndexOp::create(e.b, e.loc, K);
  Value step = arith::ConstantIndexOp::create(e.b, e.loc, 1);
  auto loop = scf::ForOp::create(
      e.b, e.loc, lb, ub, step, ValueRange{acc},
      [&](OpBuilder &nb, Location nl, Value iv, ValueRange iters) {
        IndexEmitter ie(nb, nl);
        Value k = arith::IndexCastOp::create(nb, nl, nb.getI32Type(), iv);
        auto widen = [&](Value v) -> Value {
          if (elem.isInteger(8))
            return arith::ExtSIOp::create(nb, nl, accElem, v);
          if (elem != accElem)
            return arith::ExtFOp::create(nb, nl, accElem, v);
          return v;
        };
        SmallVector<Value> aVals, bVals;
        for (Value row : rowOf)
          aVals.push_back(widen(LLVM::LoadOp::create(
              nb, nl, elem, aSmem.tileAddress(ie, row, k), bytes)));
        for (Value col : colOf)
          bVals.push_back(widen(LLVM::LoadOp::create(
              nb, nl, elem, bSmem.tileAddress(ie, k, col), bytes)));
        Value result = iters[0];
        for (auto [r, local] : llvm::enumerate(view.localIndices())) {
          Value x = aVals[local[0]], y = bVals[local[1]];
          Value c = ie.extract(result, r);
          Value d = isa<FloatType>(accElem)
                        ? LLVM::FMAOp::create(nb, nl, x, y, c).getResult()
                        : arith::AddIOp::create(
                              nb, nl, c, arith::MulIOp::create(nb, nl, x, y))
                              .getResult();
          result = vector::InsertOp::create(nb, nl, d, result,
                                            ArrayRef<int64_t>{int64_t(r)});
        }
        scf::YieldOp::create(nb, nl, result);
      });
  return loop.getResult(0);
}

//===----------------------------------------------------------------------===//
// Buffers in shared memory and asynchronous copies
//===----------------------------------------------------------------------===//

/// The tile type of one slot of `type`.
RankedTensorType slotTileType(SharedType type) {
  return RankedTensorType::get(type.getSlotShape(), type.getElementType());
}

/// Slot `slot` of the buffer `type` whose first slot is at `base`.
SharedOperand slotOperand(IndexEmitter &e, Value base, SharedType type,
                          Value slot) {
  RankedTensorType tile = slotTileType(type);
  int64_t slotBytes = tile.getNumElements() * byteWidth(type.getElementType());
  Value offset = arith::MulIOp::create(e.b, e.loc, slot, e.i32(slotBytes));
  return SharedOperand(byteAddress(e, base, offset), tile,
                       type.getContiguousDim(), /*swizzled=*/true);
}

/// Whether operand `index` (0: a, 1: b) of `dot` is a tile.local_load that
/// ldmatrix can read in place: a tensor-core dot of 16-bit or 8-bit
/// elements, with the slot K-contiguous, or M/N-contiguous for 16-bit
/// elements (ldmatrix.trans).
bool readsOperandFromBuffer(DotOp dot, unsigned index) {
  auto load = dot->getOperand(index).getDefiningOp<LocalLoadOp>();
  if (!load || !usesTensorCores(dot))
    return false;
  SharedType type = load.getBuffer().getType();
  unsigned bytes = byteWidth(type.getElementType());
  if (bytes > 2)
    return false; // tf32 rounds its operands in registers first
  unsigned kDim = index == 0 ? 1 : 0;
  return type.getContiguousDim() == kDim || bytes == 2;
}

struct LocalAllocLowering : TilePattern<LocalAllocOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    // Scratch users before the buffer's live range share its memory and end
    // with reads, not a barrier: wait for every thread to be done with them
    // before the first copy writes there.
    gpu::BarrierOp::create(rewriter, op.getLoc());
    Value base = state.scratch.kernelBase(rewriter, op.getLoc(), op);
    int64_t offset = state.allocOffsets.lookup(op.getOperation());
    rewriter.replaceOp(op, byteAddress(e, base, e.i32(offset)));
    return success();
  }
};

/// One cp.async per chunk of registers contiguous in global memory (the
/// access width of the contiguity analysis: 16 bytes for a vectorizable
/// tile), into the chunk's swizzled place in the slot; a masked-off chunk
/// reads nothing (source size 0) and writes zeros.
struct AsyncCopyLowering : TilePattern<AsyncCopyOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    SharedType type = op.getBuffer().getType();
    DistributedView view = viewOf(op.getPtr().getType());
    int64_t bytes = byteWidth(type.getElementType());
    auto it = state.accessWidth.find(op);
    int64_t width = it == state.accessWidth.end() ? 1 : it->second;
    int64_t chunkBytes = width * bytes;
    if (chunkBytes < 4 ||
        (width > 1 && view.order[0] != type.getContiguousDim()))
      return op.emitOpError()
             << "copies " << chunkBytes
             << " contiguous bytes at a time along dimension " << view.order[0]
             << ", but cp.async moves 4, 8 or 16 bytes into the slot's "
                "contiguous dimension "
             << type.getContiguousDim();
    SharedOperand slot =
        slotOperand(e, adaptor.getBuffer(), type, adaptor.getSlot());
    Value rows = e.coordinates(view, 0), cols = e.coordinates(view, 1);
    auto modifier = chunkBytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                     : NVVM::LoadCacheModifierKind::CA;
    // A chunk whose slot row is the first chunk's plus a multiple of the
    // swizzle period, in the same columns, has the same swizzle: its
    // address is the first one's plus a constant, which spares a register
    // and an add per chunk (the registers' coordinates are the thread's
    // plus constants, unless the tile is smaller than the layout's pattern).
    auto localOffsets = [&](unsigned d) {
      SmallVector<int64_t> offsets;
      for (const auto &local : view.localIndices()) {
        int64_t k = local[d];
        offsets.push_back((k / view.contigPerThread(d)) * view.tileExtent(d) +
                          k % view.contigPerThread(d));
      }
      return offsets;
    };
    bool wraps = view.shape[0] < view.tileExtent(0) ||
                 view.shape[1] < view.tileExtent(1);
    SmallVector<int64_t> outerOffsets = localOffsets(1 - slot.innerDim),
                         innerOffsets = localOffsets(slot.innerDim);
    Value firstDst;
    for (int64_t r = 0; r < view.totalElemsPerThread(); r += width) {
      int64_t dOuter = outerOffsets[r] - outerOffsets[0];
      Value dst;
      if (r > 0 && !wraps && innerOffsets[r] == innerOffsets[0] &&
          dOuter % (slot.perPhase * slot.maxPhase) == 0)
        dst = byteAddress(e, firstDst, e.i32(dOuter * slot.inner * slot.bytes));
      else
        dst = slot.tileAddress(e, e.extract(rows, r), e.extract(cols, r));
      if (r == 0)
        firstDst = dst;
      Value src = toGlobalPtr(e, e.extract(adaptor.getPtr(), r));
      Value size;
      if (adaptor.getMask())
        size = arith::SelectOp::create(rewriter, op.getLoc(),
                                       e.extract(adaptor.getMask(), r),
                                       e.i32(chunkBytes), e.i32(0));
      NVVM::CpAsyncOp::create(rewriter, op.getLoc(), dst, src, chunkBytes,
                              modifier, size);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitLowering : TilePattern<AsyncCommitOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncCommitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitLowering : TilePattern<AsyncWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getPending());
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

/// Reads a slot into registers; nothing when every user is a dot that reads
/// the slot itself.
struct LocalLoadLowering : TilePattern<LocalLoadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    auto resultType =
        cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    bool direct = llvm::all_of(op->getUses(), [](OpOperand &use) {
      auto dot = dyn_cast<DotOp>(use.getOwner());
      return dot && use.getOperandNumber() < 2 &&
             readsOperandFromBuffer(dot, use.getOperandNumber());
    });
    if (direct) {
      rewriter.replaceOp(op, e.poison(resultType));
      return success();
    }
    SharedType type = op.getBuffer().getType();
    SharedOperand slot =
        slotOperand(e, adaptor.getBuffer(), type, adaptor.getSlot());
    DistributedView view = viewOf(op.getType());
    Value rows = e.coordinates(view, 0), cols = e.coordinates(view, 1);
    int64_t run = sharedRunLength(view, view.order[0] == slot.innerDim, slot.bytes);
    Value result = loadRuns(e, resultType, run, slot.bytes, [&](int64_t r) {
      return slot.tileAddress(e, e.extract(rows, r), e.extract(cols, r));
    });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DotLowering : TilePattern<DotOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    auto buffered = [&](unsigned index) -> std::optional<SharedOperand> {
      if (!readsOperandFromBuffer(op, index))
        return std::nullopt;
      auto load = op->getOperand(index).getDefiningOp<LocalLoadOp>();
      return slotOperand(e, rewriter.getRemappedValue(load.getBuffer()),
                         load.getBuffer().getType(),
                         rewriter.getRemappedValue(load.getSlot()));
    };
    Value result =
        usesTensorCores(op)
            ? lowerMmaDot(e, state.scratch, op, adaptor.getA(), adaptor.getB(),
                          adaptor.getAcc(), buffered(0), buffered(1))
            : lowerFmaDot(e, state.scratch, op, adaptor.getA(), adaptor.getB(),
                          adaptor.getAcc());
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void llk::togpu::populateDotPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     LoweringState &state) {
  patterns.add<DotLowering, LocalAllocLowering, AsyncCopyLowering,
               AsyncCommitLowering, AsyncWaitLowering, LocalLoadLowering>(
      converter, patterns.getContext(), state);
}
