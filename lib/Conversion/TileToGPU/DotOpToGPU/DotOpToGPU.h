//===- DotOpToGPU.h - the lowerings of tile.dot -----------------*- C++ -*-===//
//
// The three ways a tile.dot runs, each in its file, and what they share.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_LIB_CONVERSION_TILETOGPU_DOTOPTOGPU_DOTOPTOGPU_H
#define LLK_LIB_CONVERSION_TILETOGPU_DOTOPTOGPU_DOTOPTOGPU_H

#include "../PatternTileOpToGPU.h"

namespace llk::togpu {

/// Writes a tile (the registers `regs` of layout `type`) into `smem`: one
/// store per run of registers contiguous along the shared row (at most 16
/// bytes), one per element otherwise.
void stageOperand(IndexEmitter &e, Value regs, RankedTensorType type,
                  const SharedOperand &smem);

/// Whether `op` lowers to mma.sync (else to the FMA loop).
bool usesTensorCores(DotOp op);

/// The tensor-core dot (MMAv2.cpp). Operands go to shared memory (swizzled; a
/// 16-bit operand whose registers run along M or N stays so there and is
/// read with ldmatrix.trans, every other one is stored K-contiguous), then
/// each warp loads its fragments with ldmatrix and issues one mma.sync per
/// 16x8 tile of its accumulator and instruction step of K. An operand given
/// as a buffer slot (software pipelining) is read from there.
Value lowerMmaDot(IndexEmitter &e, SharedScratch &scratch, DotOp op, Value a,
                  Value b, Value acc, std::optional<SharedOperand> aBuffer,
                  std::optional<SharedOperand> bBuffer);

/// The tensor-core dot of sm_90a (WGMMA.cpp): each warpgroup issues one
/// wgmma.mma_async m64nNk16 (fp8: m64nNk32, A and B both from K-major
/// slots) per 64 of its rows and 16 (32) of K, B read through
/// a descriptor from its slot (laid out by useWgmmaLayout), A from its slot
/// `aSlot` too or, without one, from the registers `aRegs` (in the
/// register-A layout), then waits for them (with `async`, for the previous
/// step's group only).
Value lowerWgmmaDot(IndexEmitter &e, DotOp op, Value acc, Value aRegs,
                    const std::optional<SharedOperand> &aSlot,
                    const SharedOperand &bSlot, bool async);

/// `values` (f32 accumulator registers that wgmma wrote asynchronously),
/// passed through empty side-effecting asm statements placed after the
/// wgmma wait, so that no use of them can be scheduled before it.
SmallVector<Value> pinAfterWait(IndexEmitter &e, ArrayRef<Value> values);

/// The exact dot (FMA.cpp; `precision = ieee`, and shapes the tensor cores
/// cannot take): operands row-major in shared memory, then each thread runs
/// over K with one FMA per accumulator register, in K order.
Value lowerFmaDot(IndexEmitter &e, SharedScratch &scratch, DotOp op, Value a,
                  Value b, Value acc);

} // namespace llk::togpu

#endif // LLK_LIB_CONVERSION_TILETOGPU_DOTOPTOGPU_DOTOPTOGPU_H
