//===- MMAv2.cpp - tile.dot on mma.sync -----------------------------------===//
//
// ldmatrix + mma.sync m16n8k16 (f16, bf16), m16n8k32 (i8), m16n8k8 (tf32),
// operands staged in swizzled shared memory or read from their buffer slots.
//
//===----------------------------------------------------------------------===//

#include "DotOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

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
  std::optional<unsigned> k = getMmaSyncK(op);
  if (!k)
    return std::nullopt;
  Type elem = op.getA().getType().getElementType();
  if (elem.isF16())
    return MmaShape{*k, NVVM::MMATypes::f16, std::nullopt};
  if (elem.isBF16())
    return MmaShape{*k, NVVM::MMATypes::bf16, std::nullopt};
  if (elem.isInteger(8))
    return MmaShape{*k, NVVM::MMATypes::s8, NVVM::MMAIntOverflow::wrapped};
  return MmaShape{*k, NVVM::MMATypes::tf32, std::nullopt};
}

} // namespace

namespace llk::togpu {

bool usesTensorCores(DotOp op) {
  // The instruction the layout pass would give it (its `mma`, where set).
  return bool(getMmaEncoding(op, /*allowWarpgroup=*/false));
}

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
  // mma.sync ops (tile.mma_step) of a dot on pipelined buffers, for the
  // fragment prefetch pass.
  int64_t step = 0;
  bool tagSteps = aBuffer && bBuffer;
  auto tagStep = [&](Operation *op, int64_t ks) {
    if (tagSteps)
      op->setAttr(TileDialect::kMmaStepAttr, e.b.getI32IntegerAttr(int32_t(ks)));
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

} // namespace llk::togpu
