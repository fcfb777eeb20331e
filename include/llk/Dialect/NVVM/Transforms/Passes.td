//===- Passes.td - llk's passes over lowered (NVVM) kernels -*- tablegen -*-===//
//
// Passes that run after convert-tile-to-gpu, on the gpu.func kernels and
// their NVVM ops.
//
//===----------------------------------------------------------------------===//

#ifndef LLK_NVVM_PASSES
#define LLK_NVVM_PASSES

include "mlir/Pass/PassBase.td"

def NVVMPrefetchMmaFragments : Pass<"nvvm-prefetch-mma-fragments", "mlir::ModuleOp"> {
  let summary = "Load the first mma.sync fragments of a pipelined K loop's "
                "next iteration at the end of the current one";
  let description = [{
    Runs after `convert-tile-to-gpu`, on the `scf.for` loops whose body
    starts with the software pipeline's wait (`cp.async.wait_group` and a
    barrier) and then reads the first K step of a dot's operands from shared
    memory with `ldmatrix` (the ops the dot lowering tags `tile.mma_step = 0`).
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
           "tile.mma_step tags)">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect"
  ];
}

#endif // LLK_NVVM_PASSES
