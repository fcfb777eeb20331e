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
    With `wgmma` (sm_90a), a pipelined f16/bf16 dot whose accumulator puts
    every warp along M instead reads both operands from their
    shared-memory slots (laid out as wgmma's 128-byte swizzle wants) with
    `nvvm.wgmma.mma_async`, one m64nNk16 instruction per warpgroup, 64 rows
    and k step.
  }];
  let options = [
    Option<"wgmma", "wgmma", "bool", "false",
           "lower pipelined f16/bf16 dots to warpgroup MMA (sm_90a)">,
    Option<"gridDependencyControl", "grid-dependency-control", "bool", "true",
           "lower tile.grid_dependency_wait / tile.launch_dependents to "
           "griddepcontrol (sm_90 and later); otherwise drop them">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect", "::mlir::cf::ControlFlowDialect"
  ];
}

def MmaFragmentPrefetch : Pass<"llk-mma-fragment-prefetch", "mlir::ModuleOp"> {
  let summary = "Load the first mma.sync fragments of a pipelined K loop's "
                "next iteration at the end of the current one";
  let description = [{
    Runs after `convert-tile-to-gpu`, on the `scf.for` loops whose body
    starts with the software pipeline's wait (`cp.async.wait_group` and a
    barrier) and then reads the first K step of a dot's operands from shared
    memory with `ldmatrix` (the ops the dot lowering tags `llk.mma_step = 0`).
    As CUTLASS's multistage main loop and Triton's Ampere prefetch do, the
    wait, the barrier and those `ldmatrix` move to just before the last K
    step's `mma.sync`, where they read the next iteration's slot and pass
    the fragments on as loop-carried values (a copy before the loop loads
    the first ones); the last step's `mma.sync` then cover the latency of
    those loads. The moved wait leaves fewer groups pending by the number
    of commits that now follow it (late copies). Off by default (llkc
    --mma-prefetch): the carried fragments cost registers.
  }];
  let options = [
    Option<"enabled", "enabled", "bool", "true",
           "transform the loops (otherwise only drop the dot lowering's "
           "llk.mma_step tags)">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect"
  ];
}

#endif // LLK_CONVERSION_PASSES
