// Tiles have at least one dimension.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

func.func @splat_rank0(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must have at least one dimension, got 'tensor<f32>'}}
  %0 = tile.splat %x : f32 -> tensor<f32>
  return
}

// -----

func.func @splat_rank0_pointer(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.splat' op result #0 must have at least one dimension, got 'tensor<!tile.ptr<f32>>'}}
  %0 = tile.splat %p : !tile.ptr<f32> -> tensor<!tile.ptr<f32>>
  return
}

// -----

func.func @reshape_to_rank0(%x: tensor<1xf32>) {
  // expected-error @+1 {{'tile.reshape' op result #0 must have at least one dimension, got 'tensor<f32>'}}
  %0 = tile.reshape %x : tensor<1xf32> -> tensor<f32>
  return
}

// -----

func.func @load_rank0(%p: tensor<!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op operand #0 must have at least one dimension, got 'tensor<!tile.ptr<f32>>'}}
  %0 = tile.load %p : tensor<!tile.ptr<f32>>
  return
}
