//===- Passes.h - llk conversions -------------------------------*- C++ -*-===//

#ifndef LLK_CONVERSION_PASSES_H
#define LLK_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace llk {

/// What convert-tile-to-gpu leaves in the lowered module for the kernel
/// metadata (Metadata.cpp) to read:
/// each kernel's shared memory is the global `<kSharedPrefix><kernel>`;
constexpr llvm::StringLiteral kSharedPrefix = "__llk_smem_";
/// on a dynamic shared-memory global, its size in bytes;
constexpr llvm::StringLiteral kDynamicSharedBytesAttr = "llk.dynamic_shared_bytes";
/// on a kernel, the TMA box of each tensor-descriptor argument, as
/// [argument, rows, columns] triples, which the host must encode.
constexpr llvm::StringLiteral kTmaBoxesAttr = "llk.tma_boxes";
/// on a kernel, [argument, bytes] pairs: how many bytes past the last byte
/// it accesses through that pointer argument the kernel may read (realigned
/// loads' windows; at most 15, never past that byte's 16-byte granule).
constexpr llvm::StringLiteral kReadOverrunAttr = "llk.read_overrun";

#define GEN_PASS_DECL
#include "llk/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "llk/Conversion/Passes.h.inc"

} // namespace llk

#endif // LLK_CONVERSION_PASSES_H
