// RUN: llk-opt %s -split-input-file -tile-assign-layouts -canonicalize -convert-tile-to-gpu -canonicalize | FileCheck %s

// A 3-D index tile built by chains of expand_dims: the intermediate 2-D
// tiles must be blocked where the next expand_dims wants a slice, so the
// layout pass joins them with conversions. Those of index tiles (make_range,
// splats, constants, +, -, *) are recomputed from each thread's coordinates:
// no shared memory, no barrier.
// CHECK-LABEL: gpu.module @llk_kernels
// CHECK-NOT: llvm.mlir.global internal @__llk_smem
// CHECK: gpu.func @indices_3d
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @indices_3d(%x: !tile.ptr<f32> {tile.divisibility = 16}, %base: i32) {
  %r = tile.make_range 0 to 4 : tensor<4xi32>
  %bs = tile.splat %base : i32 -> tensor<4xi32>
  %rows = arith.addi %bs, %r : tensor<4xi32>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<4xi32> -> tensor<4x1xi32>
  %r3 = tile.expand_dims %r2 axis = 2 : tensor<4x1xi32> -> tensor<4x1x1xi32>
  %c512 = arith.constant dense<512> : tensor<4x1x1xi32>
  %rs = arith.muli %r3, %c512 : tensor<4x1x1xi32>
  %rb = tile.broadcast %rs : tensor<4x1x1xi32> -> tensor<4x16x32xi32>
  %b = tile.make_range 0 to 16 : tensor<16xi32>
  %b2 = tile.expand_dims %b axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %b3 = tile.expand_dims %b2 axis = 2 : tensor<1x16xi32> -> tensor<1x16x1xi32>
  %c32 = arith.constant dense<32> : tensor<1x16x1xi32>
  %bo = arith.muli %b3, %c32 : tensor<1x16x1xi32>
  %bb = tile.broadcast %bo : tensor<1x16x1xi32> -> tensor<4x16x32xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %j3 = tile.expand_dims %j2 axis = 0 : tensor<1x32xi32> -> tensor<1x1x32xi32>
  %jb = tile.broadcast %j3 : tensor<1x1x32xi32> -> tensor<4x16x32xi32>
  %o1 = arith.addi %rb, %bb : tensor<4x16x32xi32>
  %off = arith.addi %o1, %jb : tensor<4x16x32xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<4x16x32x!tile.ptr<f32>>
  %p = tile.addptr %xs, %off : tensor<4x16x32x!tile.ptr<f32>>, tensor<4x16x32xi32>
  %v = tile.load %p : tensor<4x16x32x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<4x16x32xf32>
  %w = arith.addf %v, %one : tensor<4x16x32xf32>
  tile.store %w, %p : tensor<4x16x32x!tile.ptr<f32>>
  return
}
