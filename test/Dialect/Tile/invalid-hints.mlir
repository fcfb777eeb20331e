// The verifier rules of the compiler hints, one case each.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

func.func @not_power_of_two(%n: i32) {
  // expected-error @+1 {{'tile.multiple_of' op value 12 is not a positive power of two}}
  %a = tile.multiple_of %n, [12] : i32
  return
}

// -----

func.func @zero(%x: tensor<16x64xi32>) {
  // expected-error @+1 {{'tile.multiple_of' op value 0 of dimension 1 is not a positive power of two}}
  %a = tile.multiple_of %x, [16, 0] : tensor<16x64xi32>
  return
}

// -----

func.func @rank_mismatch(%x: tensor<16x64xi32>) {
  // expected-error @+1 {{'tile.max_contiguous' op needs 2 values, one per dimension of 'tensor<16x64xi32>', got 1}}
  %a = tile.max_contiguous %x, [64] : tensor<16x64xi32>
  return
}

// -----

func.func @scalar_two_values(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.multiple_of' op needs 1 value for the scalar '!tile.ptr<f32>', got 2}}
  %a = tile.multiple_of %p, [16, 16] : !tile.ptr<f32>
  return
}

// -----

func.func @run_on_scalar(%n: i32) {
  // expected-error @+1 {{'tile.max_constancy' op speaks of runs along the dimensions of a tile, not of the scalar 'i32'}}
  %a = tile.max_constancy %n, [1] : i32
  return
}

// -----

func.func @run_too_long(%x: tensor<16x64xi32>) {
  // expected-error @+1 {{'tile.max_contiguous' op run of 128 along dimension 1 is longer than the dimension (64)}}
  %a = tile.max_contiguous %x, [1, 128] : tensor<16x64xi32>
  return
}

// -----

func.func @negative(%x: tensor<64xi32>) {
  // expected-error @+1 {{'tile.max_constancy' op value -4 of dimension 0 is not a positive power of two}}
  %a = tile.max_constancy %x, [-4] : tensor<64xi32>
  return
}

// -----

func.func @bool_divisibility(%m: tensor<64xi1>) {
  // expected-error @+1 {{'tile.multiple_of' op needs integers or pointers, not i1}}
  %a = tile.multiple_of %m, [2] : tensor<64xi1>
  return
}

// -----

func.func @floats(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.multiple_of' op operand #0 must be}}
  %a = tile.multiple_of %x, [2] : tensor<64xf32>
  return
}
