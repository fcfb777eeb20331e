//===- Passes.td - llk conversions -------------------------*- tablegen -*-===//

#ifndef LLK_CONVERSION_PASSES
#define LLK_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTileToGPU : Pass<"convert-tile-to-gpu", "mlir::ModuleOp"> {
  let summary = "Lower laid-out tile kernels to per-thread code in gpu.func";
  let description = [{
    Each kernel `func.func` becomes a `gpu.func` kernel in the `gpu.module`
    `@llk_kernels`, with a known block size of `num_warps * 32` threads.
    Every tile becomes the vector of the elements that one thread holds
    (its layout says which), so `arith`, `math` and `scf` operate on those
    vectors and lower with MLIR's own conversions. Memory accesses become
    16-byte vector loads and stores where the contiguity analysis allows,
    predicated per vector when masked; reductions combine within a thread,
    across lanes with `gpu.shuffle` butterflies and across warps through
    shared memory; layout conversions go through shared memory.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // LLK_CONVERSION_PASSES
