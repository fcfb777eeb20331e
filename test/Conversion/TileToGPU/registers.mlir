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
