//===- InitAllDialects.h - every dialect llk uses ---------------*- C++ -*-===//

#ifndef LLK_INITALLDIALECTS_H
#define LLK_INITALLDIALECTS_H

#include "llk/Export.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace llk {
/// Registers the tile dialect, the MLIR dialects kernels are written with and
/// lowered through (func, arith, math, scf, gpu, vector, cf, LLVM, NVVM), and
/// their conversion and translation interfaces.
LLK_API void registerAllDialects(mlir::DialectRegistry &registry);
/// Registers llk's passes and pipelines, and the MLIR passes they build on.
LLK_API void registerAllPasses();
} // namespace llk

#endif // LLK_INITALLDIALECTS_H
