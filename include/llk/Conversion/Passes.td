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
    `tile.dot` stages its operands in swizzled shared memory and becomes
    `nvvm.ldmatrix` and `nvvm.mma.sync` (m16n8k16 for f16/bf16, m16n8k32
    for i8, m16n8k8 for tf32), or an FMA loop for `precision = ieee`.
    A dot whose `mma` attribute is warpgroup MMA (`#tile.mma` version 3,
    sm_90a) instead reads B, and A unless A is in registers (the register-A
    form), from their shared-memory slots
    (`!tile.shared<..., swizzle = wgmma>`) with `nvvm.wgmma.mma_async`, one
    m64nNk16 instruction per warpgroup, 64 rows and k step. The buffers sit
    where `tile-allocate-shared` placed them (`offset`, `barrier_offset`).
  }];
  let options = [
    Option<"gridDependencyControl", "grid-dependency-control", "bool", "true",
           "lower tile.grid_dependency_wait / tile.launch_dependents to "
           "griddepcontrol (sm_90 and later); otherwise drop them">,
    Option<"fp8Conversions", "fp8-conversions", "bool", "true",
           "convert fp8 with PTX's paired cvt (sm_90; PTX 8.1); otherwise "
           "with integer ops that give the same bits">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect", "::mlir::cf::ControlFlowDialect"
  ];
}

#endif // LLK_CONVERSION_PASSES
