// Negative values of the I32Attr start/axis attributes are reported as
// written, not as their unsigned 32-bit images.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

func.func @make_range_negative_start() {
  // expected-error @+1 {{'tile.make_range' op needs 0 <= start < end, got -1 to 15}}
  %0 = tile.make_range -1 to 15 : tensor<16xi32>
  return
}

// -----

func.func @expand_dims_negative_axis(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis -1 is out of range for a tile of rank 1}}
  %0 = tile.expand_dims %x axis = -1 : tensor<64xf32> -> tensor<64x1xf32>
  return
}

// -----

func.func @reduce_negative_axis(%x: tensor<64x2xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis -1 is out of range for a tile of rank 2}}
  %0 = tile.reduce sum %x axis = -1 : tensor<64x2xf32> -> tensor<64xf32>
  return
}

// -----

func.func @generic_reduce_negative_axis(%x: tensor<64x2xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op axis -1 is out of range for a tile of rank 2}}
  %0 = tile.generic_reduce %x axis = -1 : tensor<64x2xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  return
}
