// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s

// Ops that keep every element in its thread become register shuffles, given
// the layouts the layout pass would choose (written out here).

#b = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#t = #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#s0 = #tile.slice<dim = 0, parent = #b>

// A 16x32 tile over 4 warps of 4x8 lanes: 4 registers per thread. Expanding
// a slice is free; broadcasting the size-1 dimension repeats registers;
// transposing into the transposed layout permutes nothing across threads.
// CHECK-LABEL: gpu.func @relabel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK-NOT: gpu.barrier
// CHECK: %[[ROW:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @relabel(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32, #s0>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>, #s0>
  %p = tile.addptr %xs, %r : tensor<32x!tile.ptr<f32>, #s0>, tensor<32xi32, #s0>
  %v = tile.load %p : tensor<32x!tile.ptr<f32>, #s0>
  %e = tile.expand_dims %v axis = 0 : tensor<32xf32, #s0> -> tensor<1x32xf32, #b>
  %bc = tile.broadcast %e : tensor<1x32xf32, #b> -> tensor<16x32xf32, #b>
  %t = tile.trans %bc : tensor<16x32xf32, #b> -> tensor<32x16xf32, #t>
  return
}

// -----

// warpRepeat keeps a warp on consecutive blocks of its lanes: 2 warps of 32
// lanes over 128 elements, warpRepeat 2: warp w holds 64w + lane and
// 64w + 32 + lane (without it, 32w + lane and 64 + 32w + lane).
#r = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0], warpRepeat = [2]>
// CHECK-LABEL: gpu.func @warp_repeat
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WARP:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: arith.muli %{{.*}}, %[[C64]] : i32
// CHECK: arith.constant dense<[0, 32]> : vector<2xi32>
func.func @warp_repeat(%x: !tile.ptr<i32>) attributes {tile.num_warps = 2 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #r>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>, #r>
  %p = tile.addptr %xs, %r : tensor<128x!tile.ptr<i32>, #r>, tensor<128xi32, #r>
  tile.store %r, %p : tensor<128x!tile.ptr<i32>, #r>
  return
}
