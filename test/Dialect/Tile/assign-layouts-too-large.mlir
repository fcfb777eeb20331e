// A tile whose threads would each hold more than 1024 elements is an error
// at the op that makes it (lowering it element by element would take
// minutes, for a kernel that spills); 1024 a thread is still laid out.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics -tile-assign-layouts=num-warps=1
// RUN: llk-opt %s -split-input-file -mlir-print-local-scope -tile-assign-layouts=num-warps=2 | FileCheck %s

func.func @range_too_large(%p: !tile.ptr<i32> {tile.divisibility = 16}) {
  // expected-error @+1 {{'tile.make_range' op makes a tile of which each thread holds 2048 elements ('tensor<65536xi32>' over 1 warp); at most 1024 fit in a thread's registers: use more warps or a smaller tile}}
  %r = tile.make_range 0 to 65536 : tensor<65536xi32>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<65536x!tile.ptr<i32>>
  %q = tile.addptr %ps, %r : tensor<65536x!tile.ptr<i32>>, tensor<65536xi32>
  tile.store %r, %q : tensor<65536x!tile.ptr<i32>>
  return
}
// CHECK-LABEL: func.func @range_too_large
// CHECK: tile.make_range 0 to 65536 : tensor<65536xi32, #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>>

// -----

// A 2-D loop accumulator: the error is at the op that makes it.
func.func @loop_value_too_large(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'arith.constant' op makes a tile of which each thread holds 2048 elements ('tensor<256x256xf32>' over 1 warp)}}
  %zero = arith.constant dense<0.0> : tensor<256x256xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<256x256xf32>) : i32 {
    %b = arith.addf %a, %a : tensor<256x256xf32>
    scf.yield %b : tensor<256x256xf32>
  }
  return
}
// CHECK-LABEL: func.func @loop_value_too_large
// CHECK: scf.for
