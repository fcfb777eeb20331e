//===- WGMMA.cpp - tile.dot on warpgroup MMA ------------------------------===//
//
// wgmma.mma_async (sm_90a) with both operands read through shared-memory
// matrix descriptors from their buffer slots.
//
//===----------------------------------------------------------------------===//

#include "DotOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

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

} // namespace

namespace llk::togpu {

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

} // namespace llk::togpu
