// Ops that keep the distribution of their operand need operand and result in
// matching layouts: a reduction's result is its operand's layout sliced at the
// axis, expand_dims the reverse, and addptr, casts, bitcasts and broadcasts
// keep one layout.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

#b2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#b1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @reduce_to_blocked(%x: f32) {
  %s = tile.splat %x : f32 -> tensor<64x32xf32, #b2>
  // expected-error @+1 {{'tile.reduce' op result layout must be the operand layout sliced at the reduced axis}}
  %0 = tile.reduce sum %s axis = 1 : tensor<64x32xf32, #b2> -> tensor<64xf32, #b1>
  return
}

// -----

#b2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#b1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @generic_reduce_to_blocked(%x: f32) {
  %s = tile.splat %x : f32 -> tensor<64x32xf32, #b2>
  // expected-error @+1 {{'tile.generic_reduce' op result layout must be the operand layout sliced at the reduced axis}}
  %0 = tile.generic_reduce %s axis = 1 : tensor<64x32xf32, #b2> -> tensor<64xf32, #b1> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  return
}

// -----

#b2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#b1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @expand_dims_from_blocked() {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #b1>
  // expected-error @+1 {{'tile.expand_dims' op operand layout must be the result layout sliced at the expanded axis}}
  %0 = tile.expand_dims %r axis = 1 : tensor<64xi32, #b1> -> tensor<64x1xi32, #b2>
  return
}

// -----

#a = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
func.func @addptr_layouts(%p: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #a>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #b>
  // expected-error @+1 {{'tile.addptr' op pointer and offset layouts differ}}
  %0 = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #b>, tensor<128xi32, #a>
  return
}

// -----

#a = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
func.func @cast_layouts() {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #a>
  // expected-error @+1 {{'tile.cast' op operand and result layouts differ}}
  %0 = tile.cast %r : tensor<128xi32, #a> to tensor<128xf32, #b>
  return
}

// -----

#a = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
func.func @bitcast_layouts() {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #a>
  // expected-error @+1 {{'tile.bitcast' op operand and result layouts differ}}
  %0 = tile.bitcast %r : tensor<128xi32, #a> to tensor<128xf32, #b>
  return
}

// -----

#c2 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
#d2 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [0, 1]>
func.func @broadcast_layouts(%x: i32) {
  %s = tile.splat %x : i32 -> tensor<1x128xi32, #c2>
  // expected-error @+1 {{'tile.broadcast' op operand and result layouts differ}}
  %0 = tile.broadcast %s : tensor<1x128xi32, #c2> -> tensor<2x128xi32, #d2>
  return
}
