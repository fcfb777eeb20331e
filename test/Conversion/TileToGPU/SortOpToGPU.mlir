// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// 64 elements over one warp, 2 a thread: coordinate bit 0 in registers, bits
// 1-5 in lanes 1, 2, 4, 8, 16 apart. Merge k = 2 pairs the thread's two
// registers, unrolled; merges k = 2^m, m = 2..6, are a loop: in each, the
// lane stages j = 2^b, b = m-1 down to 1, a loop (the xor mask j / 2 and the
// directions c & j, c & k at run time; each shuffles the key and the
// position), then the register stage j = 1. No shared memory.
// CHECK-LABEL: gpu.func @sort_warp
// CHECK-NOT:     llvm.mlir.addressof
// CHECK:         arith.cmpf ord
// CHECK:         arith.cmpf ult
// CHECK:         arith.select
// CHECK:         scf.for %[[M:.*]] = %c2_i32 to %c7_i32 step %c1_i32 iter_args({{.*}}) -> (f32, i32, f32, i32)  : i32 {
// CHECK:           %[[K:.*]] = arith.shli %c1_i32, %[[M]] : i32
// CHECK:           %[[TO:.*]] = arith.minsi %[[M]], %c6_i32 : i32
// CHECK:           scf.for %[[I:.*]] = %c1_i32 to %[[TO]] step %c1_i32
// CHECK:             %[[BIT:.*]] = arith.subi %[[TO]], %[[I]] : i32
// CHECK:             %[[J:.*]] = arith.shli %c1_i32, %[[BIT]] : i32
// CHECK:             %[[MASK:.*]] = arith.shrui %[[J]], %c1_i32 : i32
// CHECK:             gpu.shuffle  xor %{{.*}}, %[[MASK]], %c32_i32 : f32
// CHECK:             gpu.shuffle  xor %{{.*}}, %[[MASK]], %c32_i32 : i32
// CHECK-DAG:         arith.andi %{{.*}}, %[[K]] : i32
// CHECK-DAG:         arith.andi %{{.*}}, %[[J]] : i32
// CHECK:             scf.yield
// CHECK:           }
// CHECK:           arith.andi %{{.*}}, %[[K]] : i32
// CHECK:           arith.select
// CHECK:           scf.yield
// CHECK:         }
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
// descending: bit 6 of the coordinate is the warp, so in merge k = 128 the
// stage j = 64 (a loop over the warp's bits, from 6 to min(m, 7)) goes
// through shared memory: the keys, positions and values stored (each at its
// row-major index), a barrier, the partner's three loaded at index ^ j,
// one index for the thread's run of two. The lane stages follow, a loop.
// The descending order compares with the keys swapped (slt of the partner).
// CHECK-LABEL: gpu.func @sort_warps
// CHECK:         scf.for %[[M:.*]] = %c2_i32 to %c8_i32 step %c1_i32
// CHECK:           %[[TO:.*]] = arith.minsi %[[M]], %c7_i32 : i32
// CHECK:           scf.for %{{.*}} = %c6_i32 to %[[TO]] step %c1_i32
// CHECK:             %[[J:.*]] = arith.shli %c1_i32, %{{.*}} : i32
// CHECK:             gpu.barrier
// CHECK-NOT:         scf.if
// CHECK-COUNT-6:     llvm.store %{{.*}} : {{i32|f16}}, !llvm.ptr<3>
// CHECK:             gpu.barrier
// CHECK:             %[[PARTNER:.*]] = arith.xori %{{.*}}, %[[J]] : i32
// CHECK:             arith.muli %[[PARTNER]], %c4_i32 : i32
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> f16
// CHECK:             arith.cmpi slt
// CHECK-NOT:         arith.xori %{{.*}}, %[[J]] : i32
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> f16
// CHECK:             scf.yield
// CHECK:           %[[LANES:.*]] = arith.minsi %[[M]], %c6_i32 : i32
// CHECK:           scf.for %{{.*}} = %c1_i32 to %[[LANES]] step %c1_i32
// CHECK:             gpu.shuffle  xor %{{.*}}, %c32_i32 : i32
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

// Top 4 of a row of 32 in one warp, a lane each: the network in lanes (no
// merge within a thread: the loop over k = 2^m starts at m = 1; the lane
// loop runs bits 0 to m - 1, shuffles 1 to 16 apart), then the sorted row and
// its positions through shared memory into the results' layout (each thread
// loads element lane % 4 of the row).
// CHECK-LABEL: gpu.func @topk
// CHECK:         scf.for %[[M:.*]] = %c1_i32 to %c6_i32 step %c1_i32
// CHECK:           %[[TO:.*]] = arith.minsi %[[M]], %c5_i32 : i32
// CHECK:           scf.for %{{.*}} = %c0_i32 to %[[TO]] step %c1_i32
// CHECK:             gpu.shuffle  xor %{{.*}}, %c32_i32 : f32
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

// -----

// A row of 128 over 2 warps (bit 6 of the coordinate) whose 4 warps also
// span 2 rows of a 1-row tile: warps 2 and 3 hold copies of warps 0 and 1's
// elements. In the cross-warp stage only the owners (warp / 2 == 0) store.
// CHECK-LABEL: gpu.func @sort_replicas
// CHECK:         %[[ROWWARP:.*]] = arith.shrui %{{.*}}, %c1_i32 : i32
// CHECK-NEXT:    %[[DIGIT:.*]] = arith.andi %[[ROWWARP]], %c1_i32 : i32
// CHECK-NEXT:    %[[OWNER:.*]] = arith.cmpi ult, %[[DIGIT]], %c1_i32 : i32
// CHECK:         scf.for
// CHECK:           scf.for %{{.*}} = %c6_i32 to
// CHECK:             gpu.barrier
// CHECK-NEXT:        scf.if %[[OWNER]] {
// CHECK-COUNT-4:       llvm.store %{{.*}} : i32, !llvm.ptr<3>
// CHECK:             }
// CHECK-NEXT:        gpu.barrier
#replicated = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @sort_replicas(%k: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #tile.slice<dim = 0, parent = #replicated>>
  %re = tile.expand_dims %r axis = 0 : tensor<128xi32, #tile.slice<dim = 0, parent = #replicated>> -> tensor<1x128xi32, #replicated>
  %ks = tile.splat %k : !tile.ptr<i32> -> tensor<1x128x!tile.ptr<i32>, #replicated>
  %kp = tile.addptr %ks, %re : tensor<1x128x!tile.ptr<i32>, #replicated>, tensor<1x128xi32, #replicated>
  %kv = tile.load %kp : tensor<1x128x!tile.ptr<i32>, #replicated>
  %s = tile.sort %kv axis = 1 : tensor<1x128xi32, #replicated>
  tile.store %s, %kp : tensor<1x128x!tile.ptr<i32>, #replicated>
  return
}
