// A layout must have the rank of the tile it lays out: a #tile.blocked its
// order's length, a #tile.slice its parent's rank less one.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

#blocked2d = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @blocked_rank_too_high(%x: f32) {
  // expected-error @+1 {{layout of rank 2 on a tile of rank 1}}
  %0 = tile.splat %x : f32 -> tensor<64xf32, #blocked2d>
  return
}

// -----

#blocked1d = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @blocked_rank_too_low() {
  %0 = tile.make_range 0 to 64 : tensor<64xi32, #blocked1d>
  // expected-error @+1 {{layout of rank 1 on a tile of rank 2}}
  %1 = tile.reshape %0 : tensor<64xi32, #blocked1d> -> tensor<8x8xi32, #blocked1d>
  return
}

// -----

#blocked2d = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @slice_rank(%x: f32) {
  // expected-error @+1 {{layout of rank 1 on a tile of rank 2}}
  %0 = tile.splat %x : f32 -> tensor<64x4xf32, #tile.slice<dim = 0, parent = #blocked2d>>
  return
}
