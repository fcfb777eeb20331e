// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// A 1-D cumsum over 4 warps of 32 lanes, 2 elements per thread: the pair in
// registers, a Hillis-Steele scan of the pairs' totals over the lanes
// (shuffles up by 1, 2, 4, 8, 16, each kept where the lane is at least that
// far in), the lane before's inclusive total added to both elements, the
// warp's total from its last lane (idx), then the warps' totals through
// shared memory: warp w adds those of warps 0..w-1.
// CHECK-LABEL: gpu.func @cumsum
// CHECK:         %[[E0:.*]] = vector.extract %{{.*}}[0] : f32 from vector<2xf32>
// CHECK:         %[[E1:.*]] = vector.extract %{{.*}}[1] : f32 from vector<2xf32>
// CHECK:         %[[PAIR:.*]] = arith.addf %[[E0]], %[[E1]] : f32
// CHECK:         gpu.shuffle  up %[[PAIR]], %c1_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  up %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  up %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  up %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  up %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK:         %[[INCL:.*]] = arith.select
// CHECK:         %[[EXCL:.*]], %{{.*}} = gpu.shuffle  up %[[INCL]], %c1_i32, %c32_i32 : f32
// CHECK:         arith.addf %[[EXCL]], %[[E0]] : f32
// CHECK:         arith.addf %[[EXCL]], %[[PAIR]] : f32
// CHECK:         %[[TOTAL:.*]], %{{.*}} = gpu.shuffle  idx %[[INCL]], %{{.*}}, %c32_i32 : f32
// CHECK:         gpu.barrier
// CHECK:         llvm.store %[[TOTAL]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK-COUNT-3: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT:     llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK:         arith.cmpi ugt, %{{.*}}, %c0_i32 : i32
// CHECK:         vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
#blocked = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @cumsum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 256 : tensor<256xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #blocked>
  %p = tile.addptr %xs, %r : tensor<256x!tile.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
  %v = tile.load %p : tensor<256x!tile.ptr<f32>, #blocked>
  %s = tile.scan sum %v axis = 0 : tensor<256xf32, #blocked>
  tile.store %s, %p : tensor<256x!tile.ptr<f32>, #blocked>
  return
}

// -----

// A reversed cummax down the columns (axis 0: 4 lanes 8 apart, 2
// repetitions a thread, no warps along it): shuffles down by 8 and 16, the
// exclusive one by 8, the column group's total from its first lane (idx),
// the later repetition's total carried into the earlier one; no shared
// memory.
// CHECK-LABEL: gpu.func @rcummax
// CHECK-NOT:     llvm.mlir.addressof
// CHECK:         gpu.shuffle  down %{{.*}}, %c8_i32, %c32_i32 : i32
// CHECK:         arith.maxsi
// CHECK:         gpu.shuffle  down %{{.*}}, %c16_i32, %c32_i32 : i32
// CHECK:         gpu.shuffle  down %{{.*}}, %c8_i32, %c32_i32 : i32
// CHECK:         gpu.shuffle  idx
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.return
#b2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]>
func.func @rcummax(%x: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #tile.slice<dim = 0, parent = #b2>>
  %re = tile.expand_dims %r axis = 0 : tensor<128xi32, #tile.slice<dim = 0, parent = #b2>> -> tensor<1x128xi32, #b2>
  %rb = tile.broadcast %re : tensor<1x128xi32, #b2> -> tensor<8x128xi32, #b2>
  %s = tile.scan max %rb axis = 0 reverse : tensor<8x128xi32, #b2>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<8x128x!tile.ptr<i32>, #b2>
  %p = tile.addptr %xs, %rb : tensor<8x128x!tile.ptr<i32>, #b2>, tensor<8x128xi32, #b2>
  tile.store %s, %p : tensor<8x128x!tile.ptr<i32>, #b2>
  return
}

// -----

// tile.generic_scan: the combiner's ops cloned at each combination, the
// earlier part as its first argument (one thread holds the whole row here).
// CHECK-LABEL: gpu.func @ffill
// CHECK:         %[[A:.*]] = vector.extract %{{.*}}[0] : i32 from vector<4xi32>
// CHECK:         %[[B:.*]] = vector.extract %{{.*}}[1] : i32 from vector<4xi32>
// CHECK:         %[[SET:.*]] = arith.cmpi ne, %[[B]], %c0_i32 : i32
// CHECK:         arith.select %[[SET]], %[[B]], %[[A]] : i32
// CHECK-NOT:     gpu.shuffle
#b1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
func.func @ffill(%x: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 4 : tensor<4xi32, #b1>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>, #b1>
  %p = tile.addptr %xs, %r : tensor<4x!tile.ptr<i32>, #b1>, tensor<4xi32, #b1>
  %v = tile.load %p : tensor<4x!tile.ptr<i32>, #b1>
  %f = tile.generic_scan %v axis = 0 : tensor<4xi32, #b1> {
  ^bb0(%before: i32, %next: i32):
    %zero = arith.constant 0 : i32
    %set = arith.cmpi ne, %next, %zero : i32
    %w = arith.select %set, %next, %before : i32
    tile.yield %w : i32
  }
  tile.store %f, %p : tensor<4x!tile.ptr<i32>, #b1>
  return
}
