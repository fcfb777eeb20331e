//===- Passes.h - llk's passes over lowered (NVVM) kernels ------*- C++ -*-===//

#ifndef LLK_DIALECT_NVVM_TRANSFORMS_PASSES_H
#define LLK_DIALECT_NVVM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace llk::nvvm {

#define GEN_PASS_DECL
#include "llk/Dialect/NVVM/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "llk/Dialect/NVVM/Transforms/Passes.h.inc"

} // namespace llk::nvvm

#endif // LLK_DIALECT_NVVM_TRANSFORMS_PASSES_H
