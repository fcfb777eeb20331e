//===- InitAllDialects.h - every dialect llk uses ---------------*- C++ -*-===//

#ifndef LLK_INITALLDIALECTS_H
#define LLK_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace llk {
/// Registers the tile dialect, the MLIR dialects kernels are written with and
/// lowered through (func, arith, math, scf, gpu, vector, cf, LLVM, NVVM), and
/// their conversion and translation interfaces.
void registerAllDialects(mlir::DialectRegistry &registry);
/// Registers llk's passes and pipelines, and the MLIR passes they build on.
void registerAllPasses();
} // namespace llk

#endif // LLK_INITALLDIALECTS_H
