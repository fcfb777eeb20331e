//===- WGMMA.cpp - tile.dot on warpgroup MMA ------------------------------===//
//
// wgmma.mma_async (sm_90a) with B read through a shared-memory matrix
// descriptor from its buffer slot, and A through one too or from registers
// (the register-A form, as inline assembly: the NVVM op takes descriptors
// only). fp8 (m64nNk32, e4m3 / e5m2 in any mix) reads both from slots,
// K-major: 8-bit wgmma has no transpose. Its 32 K elements per instruction
// are 32 bytes of a row, as f16's 16 are, so the descriptors are the same.
//
//===----------------------------------------------------------------------===//

#include "DotOpToGPU.h"

using namespace mlir;
using namespace llk;
using namespace llk::togpu;

namespace {

/// The shared-memory matrix descriptor of wgmma for the swizzle of
/// `slabBytes`-byte rows (128, or 64 for a K-major operand of 64 bytes of
/// K): start address, leading- and stride-dimension byte offsets (all in
/// 16-byte units), swizzle mode (1: 128 bytes, 2: 64) in bits 62-63. The
/// stride offset is 8 rows, from one 8-row group to the next; the leading
/// offset is the step from one 128-byte slab to the next along an M- or
/// N-contiguous operand (K-contiguous ones never leave a slab within one
/// instruction).
Value wgmmaDescriptor(IndexEmitter &e, Value base, int64_t leadingBytes,
                      int64_t slabBytes) {
  assert((slabBytes == 128 || slabBytes == 64) && "no wgmma swizzle");
  Type i64 = e.b.getI64Type();
  Value address = LLVM::PtrToIntOp::create(e.b, e.loc, i64, base);
  Value start = arith::ShRUIOp::create(
      e.b, e.loc,
      arith::AndIOp::create(e.b, e.loc, address,
                            arith::ConstantIntOp::create(e.b, e.loc, i64, 0x3FFFF)),
      arith::ConstantIntOp::create(e.b, e.loc, i64, 4));
  uint64_t mode = slabBytes == 128 ? 1 : 2;
  uint64_t fields = (uint64_t(leadingBytes >> 4) << 16) |
                    (uint64_t((8 * slabBytes) >> 4) << 32) | (mode << 62);
  return arith::OrIOp::create(
      e.b, e.loc, start,
      arith::ConstantIntOp::create(e.b, e.loc, i64, int64_t(fields)));
}

/// One wgmma.mma_async m64nNk16 with A from registers: `acc` the N / 2 f32
/// accumulators (tied in and out), `a` its four registers of 16-bit pairs,
/// `bDesc` B's descriptor (`bTrans`: N-contiguous). Returns the
/// accumulators.
SmallVector<Value> wgmmaRegisterA(IndexEmitter &e, ArrayRef<Value> acc,
                                  ArrayRef<Value> a, Value bDesc, int64_t n,
                                  bool bf16, bool bTrans) {
  int64_t count = int64_t(acc.size());
  std::string text;
  llvm::raw_string_ostream os(text);
  // Operands: the outputs, the tied inputs, then A, B and scale-d.
  int64_t in = 2 * count;
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << in + 5 << ", 0;\n"
     << "wgmma.mma_async.sync.aligned.m64n" << n << "k16.f32"
     << (bf16 ? ".bf16.bf16" : ".f16.f16") << " {";
  for (int64_t i = 0; i < count; ++i)
    os << (i ? ", $" : "$") << i;
  os << "}, {$" << in << ", $" << in + 1 << ", $" << in + 2 << ", $"
     << in + 3 << "}, $" << in + 4 << ", p, 1, 1, " << (bTrans ? 1 : 0)
     << ";\n}";
  std::string constraints;
  for (int64_t i = 0; i < count; ++i)
    constraints += "=f,";
  for (int64_t i = 0; i < count; ++i)
    constraints += std::to_string(i) + ",";
  constraints += "r,r,r,r,l,r";
  SmallVector<Value> operands(acc.begin(), acc.end());
  llvm::append_range(operands, a);
  operands.push_back(bDesc);
  operands.push_back(e.i32(1)); // scale-d: accumulate
  auto type = LLVM::LLVMStructType::getLiteral(
      e.b.getContext(), SmallVector<Type>(count, e.b.getF32Type()));
  auto asmOp = e.inlineAsm(type, operands, text, constraints);
  SmallVector<Value> results;
  for (int64_t i = 0; i < count; ++i)
    results.push_back(LLVM::ExtractValueOp::create(
        e.b, e.loc, asmOp.getResult(0), ArrayRef<int64_t>{i}));
  return results;
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

Value lowerWgmmaDot(IndexEmitter &e, DotOp op, Value acc, Value aRegs,
                    const std::optional<SharedOperand> &aSlot,
                    const SharedOperand &bSlot, bool async) {
  // A's registers must not change under an in-flight wgmma: the operand
  // placement never makes a register-A dot async.
  assert((aSlot || !async) && "a register-A warpgroup MMA left in flight");
  MLIRContext *ctx = e.b.getContext();
  RankedTensorType aType = op.getA().getType(), cType = op.getType();
  int64_t K = aType.getDimSize(1), N = cType.getDimSize(1);
  int64_t bytes = byteWidth(aType.getElementType());
  // One instruction takes 32 bytes of K: 16 f16 / bf16, 32 fp8.
  int64_t kStep = 32 / bytes;
  DistributedView cView = viewOf(cType);
  unsigned warps = cView.warpsPerCTA[0];
  int64_t mBlocks = cView.elemsPerThread(0) / 2;
  bool bTrans = bSlot.innerDim == 1; // N-contiguous B
  bool bf16 = aType.getElementType().isBF16();
  assert((bytes == 2 || (aSlot && !bTrans)) &&
         "an fp8 warpgroup MMA not K-major from its slots");
  Type i64 = e.b.getI64Type();
  auto addDesc = [&](Value desc, Value byteOffset) -> Value {
    return arith::AddIOp::create(e.b, e.loc, desc, byteOffset);
  };
  auto units = [&](int64_t byteOffset) -> Value {
    return arith::ConstantIntOp::create(e.b, e.loc, i64, byteOffset >> 4);
  };

  // Warpgroup G's m64 blocks are rows 64 (G + groups * mb) of A, as the
  // accumulator layout (warpRepeat [2, 1]) gives them to its warps.
  Value aDesc;
  if (aSlot) {
    Value group = arith::ShRUIOp::create(e.b, e.loc, e.warpId(), e.i32(2));
    aDesc = addDesc(
        wgmmaDescriptor(e, aSlot->base, 16, aSlot->slabBytes),
        arith::ExtUIOp::create(
            e.b, e.loc, i64,
            arith::MulIOp::create(e.b, e.loc, group,
                                  e.i32((64 * aSlot->slabBytes) >> 4))));
  }
  Value bDesc =
      wgmmaDescriptor(e, bSlot.base, bTrans ? bSlot.outer * bSlot.slabBytes : 16,
                      bSlot.slabBytes);
  // Byte offset of K elements [k, k + kStep) in a K-contiguous slot: slab,
  // then the 32 bytes within the (swizzled) row, which the hardware
  // swizzles from the start address.
  auto kOffset = [&](const SharedOperand &slot, int64_t k) {
    int64_t kBytes = k * bytes;
    return (kBytes / slot.slabBytes) * slot.outer * slot.slabBytes +
           kBytes % slot.slabBytes;
  };
  // A register-A operand: for m64 block mb and K step k, the pairs (rows
  // g, g + 8) x (columns 2t, 2t + 8 of the step) as 32-bit registers, in
  // the instruction's order a0 (g, 2t), a1 (g + 8, 2t), a2 (g, 2t + 8),
  // a3 (g + 8, 2t + 8). A's layout is the accumulator's: a thread's column
  // pair j of 8 holds columns 8j + 2t, 8j + 2t + 1.
  DistributedView aView;
  if (!aSlot)
    aView = viewOf(aType);
  auto aRegisters = [&](int64_t mb, int64_t k) {
    SmallVector<Value> regs;
    for (int64_t half : {0, 1})
      for (int64_t h : {0, 1}) {
        int64_t row = 2 * mb + h, col = 2 * (k / 8 + half);
        Value pair = e.fromElements(
            aType.getElementType(),
            {e.extract(aRegs, aView.registerIndex({row, col})),
             e.extract(aRegs, aView.registerIndex({row, col + 1}))});
        regs.push_back(
            LLVM::BitcastOp::create(e.b, e.loc, e.b.getI32Type(), pair));
      }
    return regs;
  };

  auto wgmmaType = [](Type elem) {
    if (isa<Float8E4M3FNType>(elem))
      return NVVM::WGMMATypes::e4m3;
    if (isa<Float8E5M2Type>(elem))
      return NVVM::WGMMATypes::e5m2;
    return elem.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  };
  NVVM::WGMMATypes aElemType = wgmmaType(aType.getElementType()),
                   bElemType = wgmmaType(op.getB().getType().getElementType());
  Type f32 = e.b.getF32Type();
  int64_t perInstr = N / 2;
  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(perInstr, f32));
  auto regOf = [&](int64_t mb, int64_t q) {
    return cView.registerIndex({2 * mb + (q / 2) % 2, 2 * (q / 4) + q % 2});
  };

  NVVM::WgmmaFenceAlignedOp::create(e.b, e.loc);
  // The accumulators of each m64 block, as the instructions take them.
  SmallVector<SmallVector<Value>> accs(mBlocks);
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    for (int64_t q = 0; q < perInstr; ++q)
      accs[mb].push_back(e.extract(acc, regOf(mb, q)));
  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, N, kStep);
  for (int64_t k = 0; k < K; k += kStep) {
    Value b = addDesc(bDesc, units(bTrans ? k * 128 : kOffset(bSlot, k)));
    for (int64_t mb = 0; mb < mBlocks; ++mb) {
      if (!aSlot) {
        accs[mb] = wgmmaRegisterA(e, accs[mb], aRegisters(mb, k), b, N, bf16,
                                  bTrans);
        continue;
      }
      Value a = addDesc(
          aDesc, units(mb * (warps / 4) * 64 * aSlot->slabBytes +
                       kOffset(*aSlot, k)));
      Value packed = LLVM::PoisonOp::create(e.b, e.loc, structType);
      for (int64_t q = 0; q < perInstr; ++q)
        packed = LLVM::InsertValueOp::create(e.b, e.loc, packed, accs[mb][q],
                                             ArrayRef<int64_t>{q});
      Value result = NVVM::WgmmaMmaAsyncOp::create(
          e.b, e.loc, structType, packed, a, b, shape, aElemType, bElemType,
          NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row,
          bTrans ? NVVM::MMALayout::row : NVVM::MMALayout::col,
          /*satfinite=*/nullptr);
      for (int64_t q = 0; q < perInstr; ++q)
        accs[mb][q] = LLVM::ExtractValueOp::create(e.b, e.loc, result,
                                                   ArrayRef<int64_t>{q});
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(e.b, e.loc);
  // Asynchronously, this step's group stays in flight (its registers are
  // only read by the next step's wgmma, which chains on them) and the
  // previous one is waited for; tile.dot_wait waits for the last.
  NVVM::WgmmaWaitGroupSyncOp::create(e.b, e.loc, async ? 1 : 0);
  SmallVector<Value> results;
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    llvm::append_range(results, accs[mb]);
  if (!async)
    results = pinAfterWait(e, results);
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    for (int64_t q = 0; q < perInstr; ++q)
      acc = vector::InsertOp::create(e.b, e.loc, results[mb * perInstr + q],
                                     acc, ArrayRef<int64_t>{regOf(mb, q)});
  return acc;
}

} // namespace llk::togpu
