//===- Passes.h - llk conversions -------------------------------*- C++ -*-===//

#ifndef LLK_CONVERSION_PASSES_H
#define LLK_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace llk {

#define GEN_PASS_DECL
#include "llk/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "llk/Conversion/Passes.h.inc"

} // namespace llk

#endif // LLK_CONVERSION_PASSES_H
