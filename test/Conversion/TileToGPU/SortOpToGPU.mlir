// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// 64 elements over one warp, 2 a thread: coordinate bit 0 in registers, bits
// 1-5 in lanes 1, 2, 4, 8, 16 apart. The network's stages (k, j) for k = 2,
// 4, ..., 64: the pair in registers first, then for k = 4 lanes 1 apart and
// the registers again; each lane exchange shuffles the key and the position.
// No shared memory.
// CHECK-LABEL: gpu.func @sort_warp
// CHECK-NOT:     llvm.mlir.addressof
// CHECK:         arith.cmpf ord
// CHECK:         arith.cmpf ult
// CHECK:         gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : i32
// CHECK:         gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NOT:     gpu.barrier
// CHECK:         vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
#blocked = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
func.func @sort_warp(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #blocked>
  %p = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
  %v = tile.load %p : tensor<64x!tile.ptr<f32>, #blocked>
  %s = tile.sort %v axis = 0 : tensor<64xf32, #blocked>
  tile.store %s, %p : tensor<64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// A key/value sort of 128 i32 keys over 2 warps of 32 lanes, 2 a thread,
// descending: bit 6 of the coordinate is the warp, so stages j = 64 go
// through shared memory: the keys, positions and values stored (each at its
// row-major index), a barrier, the partner's three loaded at index ^ 64.
// The descending order compares with the keys swapped (slt of the partner).
// CHECK-LABEL: gpu.func @sort_warps
// CHECK:         gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : i32
// CHECK:         gpu.barrier
// CHECK-COUNT-6: llvm.store %{{.*}} : {{i32|f16}}, !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK:         arith.xori %{{.*}}, %c64_i32 : i32
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> f16
// CHECK:         vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
#blocked = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
func.func @sort_warps(%k: !tile.ptr<i32> {tile.divisibility = 16 : i64}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 2 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
  %ks = tile.splat %k : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>, #blocked>
  %kp = tile.addptr %ks, %r : tensor<128x!tile.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
  %kv = tile.load %kp : tensor<128x!tile.ptr<i32>, #blocked>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>, #blocked>
  %vp = tile.addptr %vs, %r : tensor<128x!tile.ptr<f16>, #blocked>, tensor<128xi32, #blocked>
  %vv = tile.load %vp : tensor<128x!tile.ptr<f16>, #blocked>
  %sk, %sv = tile.sort %kv, %vv axis = 0 descending : tensor<128xi32, #blocked>, tensor<128xf16, #blocked>
  tile.store %sk, %kp : tensor<128x!tile.ptr<i32>, #blocked>
  tile.store %sv, %vp : tensor<128x!tile.ptr<f16>, #blocked>
  return
}

// -----

// Top 4 of a row of 32 in one warp, a lane each: the network in lanes
// (shuffles 1 to 16 apart), then the sorted row and its positions through
// shared memory into the results' layout (each thread loads element lane % 4
// of the row).
// CHECK-LABEL: gpu.func @topk
// CHECK:         gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK:         gpu.barrier
// CHECK:         llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:         gpu.barrier
// CHECK:         llvm.store %{{.*}} : i32, !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> i32
#row = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
func.func @topk(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %o: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32, #row>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>, #row>
  %p = tile.addptr %xs, %r : tensor<32x!tile.ptr<f32>, #row>, tensor<32xi32, #row>
  %v = tile.load %p : tensor<32x!tile.ptr<f32>, #row>
  %tv, %ti = tile.topk %v : tensor<32xf32, #row> -> tensor<4xf32, #row>, tensor<4xi32, #row>
  %r4 = tile.make_range 0 to 4 : tensor<4xi32, #row>
  %os = tile.splat %o : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>, #row>
  %op = tile.addptr %os, %r4 : tensor<4x!tile.ptr<i32>, #row>, tensor<4xi32, #row>
  tile.store %ti, %op : tensor<4x!tile.ptr<i32>, #row>
  %xo = tile.splat %x : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>, #row>
  %xq = tile.addptr %xo, %r4 : tensor<4x!tile.ptr<f32>, #row>, tensor<4xi32, #row>
  tile.store %tv, %xq : tensor<4x!tile.ptr<f32>, #row>
  return
}
