// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// A gather of 16 elements of a 64-element f32 tile (one warp): the source
// stored to shared memory between two barriers, the indices wrapped into the
// axis (and with 63, so that a bad index reads another element of the tile,
// never past it), then one shared-memory load per result element.
// CHECK-LABEL: gpu.func @gather
// CHECK:         gpu.barrier
// CHECK:         llvm.store %{{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK:         arith.andi %{{.*}}, %{{.*}} : vector<1xi32>
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT:     !llvm.ptr<3> -> f32
// CHECK:         llvm.inline_asm has_side_effects "@$2 st.global.b32 [$0], $1;"
#s = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#i = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
func.func @gather(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                  %idx: !tile.ptr<i32> {tile.divisibility = 16 : i64},
                  %out: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #s>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #s>
  %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>, #s>, tensor<64xi32, #s>
  %t = tile.load %xp : tensor<64x!tile.ptr<f32>, #s>
  %k = tile.make_range 0 to 16 : tensor<16xi32, #i>
  %is = tile.splat %idx : !tile.ptr<i32> -> tensor<16x!tile.ptr<i32>, #i>
  %ip = tile.addptr %is, %k : tensor<16x!tile.ptr<i32>, #i>, tensor<16xi32, #i>
  %j = tile.load %ip : tensor<16x!tile.ptr<i32>, #i>
  %g = tile.gather %t[%j] axis = 0 : tensor<64xf32, #s>, tensor<16xi32, #i> -> tensor<16xf32, #i>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>, #i>
  %op = tile.addptr %os, %k : tensor<16x!tile.ptr<f32>, #i>, tensor<16xi32, #i>
  tile.store %g, %op : tensor<16x!tile.ptr<f32>, #i>
  return
}

// -----

// A histogram of 256 values into 64 bins over 4 warps: the bins zeroed (one
// per thread of the first 64), each element added by its owner with a
// shared-memory atomic when it has a bin, the bins read back after a
// barrier.
// CHECK-LABEL: gpu.func @histogram
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK:           llvm.store %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK-COUNT-2: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK:         gpu.barrier
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
#v = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#h = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @histogram(%x: !tile.ptr<i32> {tile.divisibility = 16 : i64},
                     %out: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %xr = tile.make_range 0 to 256 : tensor<256xi32, #v>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>, #v>
  %xp = tile.addptr %xs, %xr : tensor<256x!tile.ptr<i32>, #v>, tensor<256xi32, #v>
  %xv = tile.load %xp : tensor<256x!tile.ptr<i32>, #v>
  %h = tile.histogram %xv : tensor<256xi32, #v> -> tensor<64xi32, #h>
  %r = tile.make_range 0 to 64 : tensor<64xi32, #h>
  %os = tile.splat %out : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>, #h>
  %op = tile.addptr %os, %r : tensor<64x!tile.ptr<i32>, #h>, tensor<64xi32, #h>
  tile.store %h, %op : tensor<64x!tile.ptr<i32>, #h>
  return
}
