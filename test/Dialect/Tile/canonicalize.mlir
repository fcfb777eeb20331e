// RUN: llk-opt %s -split-input-file -mlir-print-local-scope -canonicalize | FileCheck %s

#a = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// Tiles that are cheap to build in any layout are rebuilt in the target
// layout instead of being moved through shared memory.
// CHECK-LABEL: func.func @rematerialize
// CHECK-NOT: tile.convert_layout
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<512xf32, #tile.blocked<sizePerThread = [1]
// CHECK-DAG: tile.splat %{{.*}} : f32 -> tensor<512xf32, #tile.blocked<sizePerThread = [1]
// CHECK-DAG: tile.make_range 0 to 512 : tensor<512xi32, #tile.blocked<sizePerThread = [1]
func.func @rematerialize(%x: f32, %p: !tile.ptr<f32>) {
  %c = arith.constant dense<1.0> : tensor<512xf32, #a>
  %s = tile.splat %x : f32 -> tensor<512xf32, #a>
  %r = tile.make_range 0 to 512 : tensor<512xi32, #a>
  %c2 = tile.convert_layout %c : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %s2 = tile.convert_layout %s : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %r2 = tile.convert_layout %r : tensor<512xi32, #a> -> tensor<512xi32, #b>
  %sum = arith.addf %c2, %s2 : tensor<512xf32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b>
  %pp = tile.addptr %ps, %r2 : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
  tile.store %sum, %pp : tensor<512x!tile.ptr<f32>, #b>
  return
}

// -----

#a = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// A conversion to the same layout vanishes; two in a row become one.
// CHECK-LABEL: func.func @fold
// CHECK: %[[V:.*]] = tile.load
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[V]] : tensor<512xf32, #tile.blocked<sizePerThread = [4]{{.*}} -> tensor<512xf32, #tile.blocked<sizePerThread = [1]
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %[[C]]
func.func @fold(%p: tensor<512x!tile.ptr<f32>, #a>, %q: tensor<512x!tile.ptr<f32>, #b>) {
  %v = tile.load %p : tensor<512x!tile.ptr<f32>, #a>
  %same = tile.convert_layout %v : tensor<512xf32, #a> -> tensor<512xf32, #a>
  %there = tile.convert_layout %same : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %back = tile.convert_layout %there : tensor<512xf32, #b> -> tensor<512xf32, #a>
  %again = tile.convert_layout %back : tensor<512xf32, #a> -> tensor<512xf32, #b>
  tile.store %again, %q : tensor<512x!tile.ptr<f32>, #b>
  return
}

// -----

// A cast to its own type is the identity, whatever its rounding: what one
// source becomes under -D T=f32 where T=f16 needs a real cast.
// CHECK-LABEL: func.func @cast_to_itself
// CHECK-NOT: tile.cast
// CHECK: tile.store %arg0
func.func @cast_to_itself(%x: tensor<16xf32>, %p: tensor<16x!tile.ptr<f32>>) {
  %y = tile.cast %x rounding = rtz : tensor<16xf32> to tensor<16xf32>
  tile.store %y, %p : tensor<16x!tile.ptr<f32>>
  return
}

// -----

#a = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#b = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#r = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>

// A broadcast converts its source instead of its result: a [1 x 64] row
// (of indices here, which the lowering recomputes) rather than [64 x 64];
// into a layout with warpRepeat along the row's single element too (every
// thread holds it).
// CHECK-LABEL: func.func @broadcast_source
// CHECK: %[[ROW:.*]] = tile.convert_layout %{{.*}} : tensor<1x64xi32, #tile.blocked<sizePerThread = [1, 8]{{.*}} -> tensor<1x64xi32, #tile.blocked<sizePerThread = [1, 2]{{[^>]*}}order = [1, 0]>>
// CHECK: tile.broadcast %[[ROW]] : tensor<1x64xi32, #tile.blocked<sizePerThread = [1, 2]{{[^>]*}}>> -> tensor<64x64xi32, #tile.blocked<sizePerThread = [1, 2]
// CHECK: %[[REPEATED:.*]] = tile.convert_layout %{{.*}} : tensor<1x64xi32, #tile.blocked<sizePerThread = [1, 8]{{.*}} -> tensor<1x64xi32, {{.*}}warpRepeat = [2, 1]>>
// CHECK: tile.broadcast %[[REPEATED]] : {{.*}} -> tensor<64x64xi32, {{.*}}warpRepeat = [2, 1]>>
// CHECK-NOT: tile.convert_layout {{.*}} : tensor<64x64xi32
func.func @broadcast_source(%p: tensor<64x64x!tile.ptr<i32>, #b>, %q: tensor<64x64x!tile.ptr<i32>, #r>) {
  %range = tile.make_range 0 to 64 : tensor<64xi32, #tile.slice<dim = 0, parent = #a>>
  %row = tile.expand_dims %range axis = 0 : tensor<64xi32, #tile.slice<dim = 0, parent = #a>> -> tensor<1x64xi32, #a>
  %wide = tile.broadcast %row : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
  %to_b = tile.convert_layout %wide : tensor<64x64xi32, #a> -> tensor<64x64xi32, #b>
  tile.store %to_b, %p : tensor<64x64x!tile.ptr<i32>, #b>
  %to_r = tile.convert_layout %wide : tensor<64x64xi32, #a> -> tensor<64x64xi32, #r>
  tile.store %to_r, %q : tensor<64x64x!tile.ptr<i32>, #r>
  return
}
