//===- DotLowering.cpp - tile.dot on the tensor cores, pipelined buffers ---===//
//
// tile.dot becomes ldmatrix + mma.sync (or an FMA loop); its operands come
// from shared memory: staged from registers, or, when software pipelining
// (the tile-pipeline pass) put them there with cp.async, read straight from
// their buffer slot. The buffers (tile.local_alloc) and the asynchronous
// copies that fill them are lowered here too.
//
//===----------------------------------------------------------------------===//

#include "PatternTileOpToGPU.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace llk::togpu;

namespace {


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
  /// so the swizzle is c ^ (r % 8) already).
  void useWgmmaLayout() { slabBytes = 128; }

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
  // i = 2mi (g) and 2mi + 1 (g + 8). With warpRepeat 2 along M, rows
  // 16*wm*mi + 16*wM + 8h + g instead (DistributedView::localOffset).
  DistributedView cView = viewOf(cType);
  unsigned wn = cView.warpsPerCTA[1];
  int64_t mTiles = cView.elemsPerThread(0) / 2;
  int64_t nTiles = cView.elemsPerThread(1) / 2;
  Value lane = e.laneId();
  Value wM = e.warpCoord(cView, 0), wN = e.warpCoord(cView, 1);
  Value rowBase =
      arith::MulIOp::create(e.b, e.loc, wM, e.i32(8 * cView.warpRepeat[0]));
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
      Value mn = add(add(mul(matrixLo, cView.localOffset(0, 1)),
                         e.i32(cView.localOffset(0, 2 * mi))),
                     rowBase);
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

/// `values` (f32 accumulator registers that wgmma wrote asynchronously),
/// passed through empty side-effecting asm statements placed after the
/// wgmma wait, so that no use of them can be scheduled before it.
SmallVector<Value> pinAfterWait(IndexEmitter &e, ArrayRef<Value> values) {
  constexpr size_t kChunk = 32;
  SmallVector<Value> pinned;
  for (size_t first = 0; first < values.size(); first += kChunk) {
    ArrayRef<Value> chunk =
        values.slice(first, std::min(kChunk, values.size() - first));
    std::string constraints;
    for (size_t i = 0; i < chunk.size(); ++i)
      constraints += "=f,";
    for (size_t i = 0; i < chunk.size(); ++i)
      constraints += std::to_string(i) + (i + 1 < chunk.size() ? "," : "");
    auto type = LLVM::LLVMStructType::getLiteral(
        e.b.getContext(), SmallVector<Type>(chunk.size(), e.b.getF32Type()));
    auto asmOp = e.inlineAsm(type, chunk, /*text=*/"", constraints);
    for (size_t i = 0; i < chunk.size(); ++i)
      pinned.push_back(LLVM::ExtractValueOp::create(
          e.b, e.loc, asmOp.getResult(0), ArrayRef<int64_t>{int64_t(i)}));
  }
  return pinned;
}

/// The shared-memory matrix descriptor of wgmma for the 128-byte swizzle:
/// start address, leading- and stride-dimension byte offsets (all in 16-byte
/// units), swizzle mode 1 in bits 62-63. The stride offset is 1024 bytes,
/// from one 8-row group of 128-byte rows to the next; the leading offset is
/// the step from one 128-byte slab to the next along an M- or N-contiguous
/// operand (K-contiguous ones never leave a slab within one instruction).
Value wgmmaDescriptor(IndexEmitter &e, Value base, int64_t leadingBytes) {
  Type i64 = e.b.getI64Type();
  Value address = LLVM::PtrToIntOp::create(e.b, e.loc, i64, base);
  Value start = arith::ShRUIOp::create(
      e.b, e.loc,
      arith::AndIOp::create(e.b, e.loc, address,
                            arith::ConstantIntOp::create(e.b, e.loc, i64, 0x3FFFF)),
      arith::ConstantIntOp::create(e.b, e.loc, i64, 4));
  uint64_t fields = (uint64_t(leadingBytes >> 4) << 16) |
                    (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(
      e.b, e.loc, start,
      arith::ConstantIntOp::create(e.b, e.loc, i64, int64_t(fields)));
}

/// The tensor-core dot of sm_90a: each warpgroup issues one
/// wgmma.mma_async m64nNk16 per 64 of its rows and 16 of K, both operands
/// read through descriptors from their slots (laid out by useWgmmaLayout),
/// then waits for them. The accumulator is the mma layout with every warp
/// along M: for instruction block mb, register d[4j + 2h + c] of a thread is
/// its repetition (2mb + h, 2j + c).
Value lowerWgmmaDot(IndexEmitter &e, DotOp op, Value acc,
                    const SharedOperand &aSlot, const SharedOperand &bSlot,
                    bool async) {
  MLIRContext *ctx = e.b.getContext();
  RankedTensorType aType = op.getA().getType(), cType = op.getType();
  int64_t K = aType.getDimSize(1), N = cType.getDimSize(1);
  int64_t bytes = byteWidth(aType.getElementType());
  DistributedView cView = viewOf(cType);
  unsigned warps = cView.warpsPerCTA[0];
  int64_t mBlocks = cView.elemsPerThread(0) / 2;
  bool bTrans = bSlot.innerDim == 1; // N-contiguous B
  Type i64 = e.b.getI64Type();
  auto addDesc = [&](Value desc, Value byteOffset) -> Value {
    return arith::AddIOp::create(e.b, e.loc, desc, byteOffset);
  };
  auto units = [&](int64_t byteOffset) -> Value {
    return arith::ConstantIntOp::create(e.b, e.loc, i64, byteOffset >> 4);
  };

  // Warpgroup G's m64 blocks are rows 64 (G + groups * mb) of A, as the
  // accumulator layout (warpRepeat [2, 1]) gives them to its warps.
  Value group = arith::ShRUIOp::create(e.b, e.loc, e.warpId(), e.i32(2));
  Value aDesc = addDesc(
      wgmmaDescriptor(e, aSlot.base, 16),
      arith::ExtUIOp::create(
          e.b, e.loc, i64,
          arith::MulIOp::create(e.b, e.loc, group, e.i32((64 * 128) >> 4))));
  Value bDesc = wgmmaDescriptor(
      e, bSlot.base, bTrans ? bSlot.outer * bSlot.slabBytes : 16);
  // Byte offset of K elements [k, k + 16) in a K-contiguous slot: slab,
  // then the 32 bytes within the (swizzled) row, which the hardware
  // swizzles from the start address.
  auto kOffset = [&](const SharedOperand &slot, int64_t k) {
    int64_t kBytes = k * bytes;
    return (kBytes / slot.slabBytes) * slot.outer * slot.slabBytes +
           kBytes % slot.slabBytes;
  };

  NVVM::WGMMATypes elemType = aType.getElementType().isF16()
                                  ? NVVM::WGMMATypes::f16
                                  : NVVM::WGMMATypes::bf16;
  Type f32 = e.b.getF32Type();
  int64_t perInstr = N / 2;
  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(perInstr, f32));
  auto regOf = [&](int64_t mb, int64_t q) {
    return cView.registerIndex({2 * mb + (q / 2) % 2, 2 * (q / 4) + q % 2});
  };

  NVVM::WgmmaFenceAlignedOp::create(e.b, e.loc);
  SmallVector<Value> accs;
  for (int64_t mb = 0; mb < mBlocks; ++mb) {
    Value packed = LLVM::PoisonOp::create(e.b, e.loc, structType);
    for (int64_t q = 0; q < perInstr; ++q)
      packed = LLVM::InsertValueOp::create(e.b, e.loc, packed,
                                           e.extract(acc, regOf(mb, q)),
                                           ArrayRef<int64_t>{q});
    accs.push_back(packed);
  }
  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, N, 16);
  for (int64_t k = 0; k < K; k += 16) {
    Value b = addDesc(bDesc, units(bTrans ? k * 128 : kOffset(bSlot, k)));
    for (int64_t mb = 0; mb < mBlocks; ++mb) {
      Value a = addDesc(
          aDesc, units(mb * (warps / 4) * 64 * 128 + kOffset(aSlot, k)));
      accs[mb] = NVVM::WgmmaMmaAsyncOp::create(
          e.b, e.loc, structType, accs[mb], a, b, shape, elemType, elemType,
          NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row,
          bTrans ? NVVM::MMALayout::row : NVVM::MMALayout::col,
          /*satfinite=*/nullptr);
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(e.b, e.loc);
  // Asynchronously, this step's group stays in flight (its registers are
  // only read by the next step's wgmma, which chains on them) and the
  // previous one is waited for; tile.dot_wait waits for the last.
  NVVM::WgmmaWaitGroupSyncOp::create(e.b, e.loc, async ? 1 : 0);
  SmallVector<Value> results;
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    for (int64_t q = 0; q < perInstr; ++q)
      results.push_back(LLVM::ExtractValueOp::create(e.b, e.loc, accs[mb],
                                                     ArrayRef<int64_t>{q}));
  if (!async)
    results = pinAfterWait(e, results);
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    for (int64_t q = 0; q < perInstr; ++q)
      acc = vector::InsertOp::create(e.b, e.loc, results[mb * perInstr + q],
                                     acc, ArrayRef<int64_t>{regOf(mb, q)});
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

/// Slot `slot` of the buffer `buffer` (tile IR) whose first slot is at
/// `base`, in the layout wgmma wants if a wgmma dot reads it.
SharedOperand slotOperand(IndexEmitter &e, const LoweringState &state,
                          Value buffer, Value base, Value slot) {
  auto type = cast<SharedType>(buffer.getType());
  RankedTensorType tile = slotTileType(type);
  int64_t slotBytes = tile.getNumElements() * byteWidth(type.getElementType());
  Value offset = arith::MulIOp::create(e.b, e.loc, slot, e.i32(slotBytes));
  SharedOperand operand(byteAddress(e, base, offset), tile,
                        type.getContiguousDim(), /*swizzled=*/true);
  if (state.wgmmaBuffers.contains(buffer.getDefiningOp()))
    operand.useWgmmaLayout();
  return operand;
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

} // namespace

/// Whether `dot` (to run on warpgroup MMA) may leave its K step in flight:
/// it accumulates into a loop-carried value that nothing else reads, and the
/// loop's result goes straight to a tile.dot_wait (tile-pipeline's pattern).
static bool runsAsynchronously(DotOp dot) {
  std::optional<unsigned> index = loopCarriedAccumulator(dot);
  if (!index)
    return false;
  Value result = cast<scf::ForOp>(dot->getParentOp()).getResult(*index);
  return result.hasOneUse() && isa<DotWaitOp>(*result.getUsers().begin());
}

void llk::togpu::findWgmmaDots(func::FuncOp func, LoweringState &state) {
  func.walk([&](DotOp dot) {
    // Both operands straight from a buffer slot that nothing else reads.
    SmallVector<LocalAllocOp, 2> allocs;
    for (Value operand : {dot.getA(), dot.getB()}) {
      auto load = operand.getDefiningOp<LocalLoadOp>();
      if (!load || !load->hasOneUse())
        return;
      auto alloc = load.getBuffer().getDefiningOp<LocalAllocOp>();
      if (!alloc || state.wgmmaBuffers.count(alloc) ||
          llvm::any_of(alloc->getUsers(), [&](Operation *user) {
            return !isa<AsyncCopyOp, AsyncTmaCopyOp, AsyncTmaWaitOp>(user) &&
                   user != load;
          }))
        return;
      allocs.push_back(alloc);
    }
    if (allocs[0] == allocs[1] ||
        !suitsWarpgroupMma(dot, allocs[0].getType().getContiguousDim(),
                           allocs[1].getType().getContiguousDim()))
      return;
    state.wgmmaDots[dot] = runsAsynchronously(dot);
    state.wgmmaKernels.insert(func.getName());
    state.wgmmaBuffers.insert(allocs.begin(), allocs.end());
  });
}

std::pair<int64_t, int64_t> llk::togpu::tmaBoxOf(TensorDescType desc) {
  return {std::min<int64_t>(desc.getBlockShape()[0], 256),
          128 / byteWidth(desc.getElementType())};
}

LogicalResult llk::togpu::findTmaBuffers(func::FuncOp func,
                                         LoweringState &state) {
  WalkResult result = func.walk([&](AsyncTmaCopyOp copy) {
    auto alloc = copy.getBuffer().getDefiningOp<LocalAllocOp>();
    if (!alloc || !state.wgmmaBuffers.contains(alloc)) {
      copy.emitOpError("fills a buffer that no warpgroup MMA (wgmma) reads; "
                       "TMA copies feed only wgmma so far (sm_90a, f16/bf16 "
                       "dots whose accumulator puts every warp along M and "
                       "whose instructions fit a thread's registers: fewer "
                       "columns, warps or programs per SM)");
      return WalkResult::interrupt();
    }
    auto arg = dyn_cast<BlockArgument>(copy.getDesc());
    if (!arg || arg.getOwner() != &func.getBody().front()) {
      copy.emitOpError("needs the descriptor to be a kernel argument");
      return WalkResult::interrupt();
    }
    if (!state.tmaBarrierOffsets.count(alloc))
      state.tmaBarrierOffsets[alloc] = state.scratch.reserve(
          func.getName(), alloc.getType().getNumSlots() * 8, 8);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // The host encodes every descriptor with the box of its copies.
  for (BlockArgument arg : func.getArguments())
    if (isa<TensorDescType>(arg.getType()) &&
        llvm::none_of(arg.getUsers(),
                      [](Operation *user) { return isa<AsyncTmaCopyOp>(user); }))
      return func.emitError("kernel argument ")
             << arg.getArgNumber()
             << " is a tensor descriptor that no pipelined tile.dot operand "
                "reads, so it has no TMA box to be encoded with";
  return success();
}

namespace {

/// The barriers of TMA buffer `alloc` (tile IR), as seen from `op`; slot
/// `slot`'s is 8 bytes at `slot * 8`.
Value tmaBarrier(IndexEmitter &e, LoweringState &state, Operation *alloc,
                 Operation *op, Value slot) {
  Value base = state.scratch.kernelBase(e.b, e.loc, op);
  Value offset = arith::AddIOp::create(
      e.b, e.loc, e.i32(state.tmaBarrierOffsets.lookup(alloc)),
      arith::MulIOp::create(e.b, e.loc, slot, e.i32(8)));
  return byteAddress(e, base, offset);
}

/// Builds `body` under `if (threadIdx.x == 0 && extra)`: the one thread that
/// issues bulk copies and initializes barriers.
void ifFirstThread(IndexEmitter &e, Value extra,
                   llvm::function_ref<void()> body) {
  Value first = arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::eq,
                                      e.threadId(), e.i32(0));
  if (extra)
    first = arith::AndIOp::create(e.b, e.loc, first, extra);
  auto branch = scf::IfOp::create(e.b, e.loc, first, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(e.b);
  e.b.setInsertionPointToStart(&branch.getThenRegion().front());
  body();
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
    if (state.tmaBarrierOffsets.count(op)) {
      // One mbarrier per slot, one arrival (the thread that starts the
      // copies) plus the bytes they bring; ready before anyone uses them.
      ifFirstThread(e, nullptr, [&] {
        for (int64_t slot = 0; slot < op.getType().getNumSlots(); ++slot)
          NVVM::MBarrierInitOp::create(
              rewriter, op.getLoc(),
              tmaBarrier(e, state, op, op, e.i32(slot)), e.i32(1),
              /*predicate=*/Value());
        NVVM::FenceMbarrierInitOp::create(rewriter, op.getLoc());
      });
      gpu::BarrierOp::create(rewriter, op.getLoc());
    }
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
    SharedOperand slot = slotOperand(e, state, op.getBuffer(),
                                     adaptor.getBuffer(), adaptor.getSlot());
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
      for (const auto &local : view.localIndices())
        offsets.push_back(view.localOffset(d, local[d]));
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
        dst = byteAddress(e, firstDst, e.i32(dOuter * slot.slabBytes));
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

/// One thread announces the slot's bytes on its barrier and starts one
/// cp.async.bulk.tensor per box (tmaBoxOf) into the slot's wgmma layout:
/// 128-byte slabs of columns, one after the other.
struct AsyncTmaCopyLowering : TilePattern<AsyncTmaCopyOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncTmaCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Operation *alloc = op.getBuffer().getDefiningOp();
    SharedOperand slot = slotOperand(e, state, op.getBuffer(),
                                     adaptor.getBuffer(), adaptor.getSlot());
    Value barrier = tmaBarrier(e, state, alloc, op, adaptor.getSlot());
    auto [boxRows, boxCols] = tmaBoxOf(op.getDesc().getType());
    int64_t slabs = slot.inner / boxCols;
    ifFirstThread(e, adaptor.getPred(), [&] {
      NVVM::MBarrierArriveExpectTxOp::create(
          rewriter, op.getLoc(), /*res=*/Type(), barrier,
          e.i32(slot.sizeInBytes()), NVVM::MemScopeKind::CTA,
          /*relaxed=*/false, /*predicate=*/Value());
      for (int64_t s = 0; s < slabs; ++s)
        for (int64_t r = 0; r < slot.outer; r += boxRows) {
          Value coords[] = {
              arith::AddIOp::create(e.b, e.loc, adaptor.getCol(),
                                    e.i32(s * boxCols)),
              arith::AddIOp::create(e.b, e.loc, adaptor.getRow(), e.i32(r))};
          // The destination as a shared::cluster address (a program is a
          // cluster of one), the form sm_90 takes.
          Value dst = LLVM::AddrSpaceCastOp::create(
              rewriter, op.getLoc(),
              LLVM::LLVMPointerType::get(rewriter.getContext(),
                                         kSharedClusterAddressSpace),
              slot.address(e, e.i32(r), e.i32(s * boxCols)));
          NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
              rewriter, op.getLoc(), dst,
              adaptor.getDesc(), coords, barrier, /*im2colOffsets=*/ValueRange(),
              /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
              NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
              /*group=*/nullptr, /*predicate=*/Value());
        }
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Every thread spins on the slot's barrier until the phase completes.
struct AsyncTmaWaitLowering : TilePattern<AsyncTmaWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AsyncTmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexEmitter e(rewriter, op.getLoc());
    Value barrier = tmaBarrier(e, state, op.getBuffer().getDefiningOp(), op,
                               adaptor.getSlot());
    // A loop of mbarrier.try_wait.parity (each try may suspend the thread
    // for a while). Inline assembly with side effects: nvvm's op for it has
    // none, so nothing would keep it alive.
    Value address = LLVM::PtrToIntOp::create(rewriter, op.getLoc(),
                                             rewriter.getI32Type(), barrier);
    e.inlineAsm(Type(), ValueRange{address, adaptor.getPhase()},
                "{\n.reg .pred done;\nwait:\n"
                "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
                "@!done bra wait;\n}",
                "r,r");
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
    // wgmma reads shared memory through the async proxy: order this
    // thread's copies before it.
    auto kernel = op->getParentOfType<FunctionOpInterface>();
    if (state.wgmmaKernels.contains(kernel.getName()))
      NVVM::FenceProxyOp::create(
          rewriter, op.getLoc(),
          NVVM::ProxyKindAttr::get(rewriter.getContext(),
                                   NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                     NVVM::SharedSpace::shared_cta));
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
    SharedOperand slot = slotOperand(e, state, op.getBuffer(),
                                     adaptor.getBuffer(), adaptor.getSlot());
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

/// In a kernel with warpgroup MMA, waits for every wgmma group and pins
/// the tile's registers after the wait; elsewhere nothing runs
/// asynchronously and the tile passes through.
struct DotWaitLowering : TilePattern<DotWaitOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(DotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto kernel = op->getParentOfType<FunctionOpInterface>();
    Value acc = adaptor.getAcc();
    if (!state.wgmmaKernels.contains(kernel.getName()) ||
        !cast<VectorType>(acc.getType()).getElementType().isF32()) {
      rewriter.replaceOp(op, acc);
      return success();
    }
    IndexEmitter e(rewriter, op.getLoc());
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, op.getLoc(), 0);
    int64_t n = cast<VectorType>(acc.getType()).getNumElements();
    SmallVector<Value> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(e.extract(acc, i));
    rewriter.replaceOp(op, e.fromElements(rewriter.getF32Type(),
                                          pinAfterWait(e, values)));
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
      return slotOperand(e, state, load.getBuffer(),
                         rewriter.getRemappedValue(load.getBuffer()),
                         rewriter.getRemappedValue(load.getSlot()));
    };
    auto wgmma = state.wgmmaDots.find(op);
    if (wgmma != state.wgmmaDots.end()) {
      rewriter.replaceOp(op,
                         lowerWgmmaDot(e, op, adaptor.getAcc(), *buffered(0),
                                       *buffered(1), /*async=*/wgmma->second));
      return success();
    }
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
  patterns.add<DotLowering, DotWaitLowering, LocalAllocLowering,
               AsyncTmaCopyLowering, AsyncTmaWaitLowering, AsyncCopyLowering,
               AsyncCommitLowering, AsyncWaitLowering, LocalLoadLowering>(
      converter, patterns.getContext(), state);
}
