// REQUIRES: llk-debug-output
// RUN: llk-opt %s -split-input-file -tile-assign-layouts -tile-software-pipeline -debug-only=tile-software-pipeline -o /dev/null 2>&1 | FileCheck %s

// The software pipeliner traces what it pipelines, with how many stages,
// and why it leaves a load or a loop alone (a build with
// -DLLK_ENABLE_DEBUG_OUTPUT=ON).

// CHECK: [tile-software-pipeline] kernel @both: 3 stages
// CHECK-NEXT: [tile-software-pipeline] loop at loc("{{.*}}software-pipeline-debug.mlir":{{[0-9]+}}:{{[0-9]+}}):
// CHECK-NEXT: [tile-software-pipeline]   pipelined: 2 load(s) (cp.async at loc({{.*}}), cp.async at loc({{.*}})), 3 stages, copies 2 iterations ahead
func.func @both(%a: !tile.ptr<f16> {tile.divisibility = 16},
    %b: !tile.ptr<f16> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s = arith.constant dense<32> : tensor<32x1xi32>
  %rows = arith.muli %row, %s : tensor<32x1xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colsb = tile.broadcast %col : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rowsb, %colsb : tensor<32x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %one = arith.constant dense<1.0> : tensor<32x32xf16>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x32xi32>
  %m = arith.cmpi slt, %colsb, %ns : tensor<32x32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap_end = scf.for %i = %c0 to %n step %c1 iter_args(%acc_i = %zero, %ap = %ap0)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap : tensor<32x32x!tile.ptr<f16>>
    %bv = tile.load %bp0 : tensor<32x32x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<32x32xf16>, tensor<32x32xf16> -> tensor<32x32xf32>
    %apn = tile.addptr %ap, %step : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %apn : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %acc, %cp : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// A's masked-off elements read 1.0, which a copy cannot fill in: only B is
// pipelined.
// CHECK: [tile-software-pipeline] kernel @other_not_zero: 3 stages
// CHECK-NEXT: [tile-software-pipeline] loop at loc({{.*}}):
// CHECK-NEXT: [tile-software-pipeline]   tile.load at loc({{.*}}): not pipelined, its other is not zero (copies fill zeros)
// CHECK-NEXT: [tile-software-pipeline]   pipelined: 1 load(s) (cp.async at loc({{.*}})), 3 stages, copies 2 iterations ahead
func.func @other_not_zero(%a: !tile.ptr<f16> {tile.divisibility = 16},
    %b: !tile.ptr<f16> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s = arith.constant dense<32> : tensor<32x1xi32>
  %rows = arith.muli %row, %s : tensor<32x1xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colsb = tile.broadcast %col : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rowsb, %colsb : tensor<32x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %one = arith.constant dense<1.0> : tensor<32x32xf16>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x32xi32>
  %m = arith.cmpi slt, %colsb, %ns : tensor<32x32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap_end = scf.for %i = %c0 to %n step %c1 iter_args(%acc_i = %zero, %ap = %ap0)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap mask %m other %one : tensor<32x32x!tile.ptr<f16>>
    %bv = tile.load %bp0 : tensor<32x32x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<32x32xf16>, tensor<32x32xf16> -> tensor<32x32xf32>
    %apn = tile.addptr %ap, %step : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %apn : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %acc, %cp : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// One stage: nothing to do.
// CHECK: [tile-software-pipeline] kernel @one_stage: 1 stage, no pipelining
// CHECK-NOT: loop at
func.func @one_stage(%a: !tile.ptr<f16> {tile.divisibility = 16},
    %b: !tile.ptr<f16> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32)
    attributes {tile.num_stages = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s = arith.constant dense<32> : tensor<32x1xi32>
  %rows = arith.muli %row, %s : tensor<32x1xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colsb = tile.broadcast %col : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rowsb, %colsb : tensor<32x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %one = arith.constant dense<1.0> : tensor<32x32xf16>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x32xi32>
  %m = arith.cmpi slt, %colsb, %ns : tensor<32x32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap_end = scf.for %i = %c0 to %n step %c1 iter_args(%acc_i = %zero, %ap = %ap0)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap : tensor<32x32x!tile.ptr<f16>>
    %bv = tile.load %bp0 : tensor<32x32x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<32x32xf16>, tensor<32x32xf16> -> tensor<32x32xf32>
    %apn = tile.addptr %ap, %step : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %apn : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %acc, %cp : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// On sm_90a: TMA copies, the dot asynchronous; the loop over blocks of a
// persistent program keeps the slots and starts the next block's copies
// early; that loop itself has no constant step.
// RUN: llkc %examples/gemm_tma_persistent.mlir -D T=f16 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 \
// RUN:     --arch sm_90a --num-warps 4 --num-stages 4 --emit=llvm -debug-only=tile-software-pipeline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TMA
// TMA: [tile-software-pipeline] kernel @gemm_tma_persistent_kernel: 4 stages, warpgroup MMA
// TMA-NEXT: [tile-software-pipeline] loop at loc("{{.*}}gemm_tma_persistent.mlir":{{[0-9]+}}:{{[0-9]+}}):
// TMA-NEXT: [tile-software-pipeline]   pipelined: 2 load(s) (TMA at loc({{.*}}), TMA at loc({{.*}})), 4 stages, copies 3 iterations ahead, the dot at loc({{.*}}) asynchronous (wgmma, one step in flight), copies after the dot
// TMA-NEXT: [tile-software-pipeline]   in the loop over blocks at loc("{{.*}}gemm_tma_persistent.mlir":[[BLOCKS:[0-9]+]]:{{[0-9]+}}): the next block's first copies start under this one's epilogue
// TMA-NEXT: [tile-software-pipeline] loop at loc("{{.*}}gemm_tma_persistent.mlir":[[BLOCKS]]:{{[0-9]+}}):
// TMA-NEXT: [tile-software-pipeline]   not pipelined: its step is no positive constant
