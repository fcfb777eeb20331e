// The verifier rules of tile.sort and tile.topk, one case each.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

func.func @axis_out_of_range(%x: tensor<16x128xf32>) {
  // expected-error @+1 {{'tile.sort' op axis 2 is out of range for a tile of rank 2}}
  %a = tile.sort %x axis = 2 : tensor<16x128xf32>
  return
}

// -----

func.func @values_shape(%x: tensor<128xf32>, %v: tensor<64xi32>) {
  // expected-error @+1 {{'tile.sort' op values must have the keys' shape: expected 'tensor<128xi32>'}}
  %a, %b = tile.sort %x, %v axis = 0 : tensor<128xf32>, tensor<64xi32>
  return
}

// -----

func.func @i1_keys(%x: tensor<128xi1>) {
  // expected-error @+1 {{'tile.sort' op cannot sort keys of 'i1'; cast to i8 first}}
  %a = tile.sort %x axis = 0 : tensor<128xi1>
  return
}

// -----

func.func @pointer_values(%x: tensor<128xf32>, %p: tensor<128x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.sort' op cannot sort values of '!tile.ptr<f32>'}}
  %a, %b = tile.sort %x, %p axis = 0 : tensor<128xf32>, tensor<128x!tile.ptr<f32>>
  return
}

// -----

func.func @length_not_power_of_two(%x: tensor<100xf32>) {
  // expected-error @+1 {{'tile.sort' op operand #0 must have power-of-two dimensions, but dimension 0 of 'tensor<100xf32>' is 100}}
  %a = tile.sort %x axis = 0 : tensor<100xf32>
  return
}

// -----

func.func @topk_too_many(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.topk' op k = 128 (the results' last dimension) is larger than the row, 64}}
  %v, %i = tile.topk %x : tensor<4x64xf32> -> tensor<4x128xf32>, tensor<4x128xi32>
  return
}

// -----

func.func @topk_rows(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'tile.topk' op values must match the source in dimension 0: 8 vs 4}}
  %v, %i = tile.topk %x : tensor<4x64xf32> -> tensor<8x8xf32>, tensor<8x8xi32>
  return
}

// -----

func.func @topk_element_type(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.topk' op values must have the source's rank and element type, got 'tensor<8xf16>'}}
  %v, %i = tile.topk %x : tensor<64xf32> -> tensor<8xf16>, tensor<8xi32>
  return
}

// -----

func.func @topk_indices(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.topk' op indices must be i32 of the values' shape: expected 'tensor<8xi32>'}}
  %v, %i = tile.topk %x : tensor<64xf32> -> tensor<8xf32>, tensor<8xi64>
  return
}

// -----

// fp8 tiles are bytes on the GPU: keys are compared as numbers only after a
// cast.
func.func @fp8_keys(%x: tensor<128xf8E4M3FN>) {
  // expected-error @+1 {{'tile.sort' op cannot sort keys of 'f8E4M3FN'; tile.cast them to f16 or f32 first}}
  %a = tile.sort %x axis = 0 : tensor<128xf8E4M3FN>
  return
}

// -----

func.func @fp8_topk(%x: tensor<64xf8E5M2>) {
  // expected-error @+1 {{'tile.topk' op cannot sort a tile of 'f8E5M2'; tile.cast them to f16 or f32 first}}
  %v, %i = tile.topk %x : tensor<64xf8E5M2> -> tensor<8xf8E5M2>, tensor<8xi32>
  return
}

// -----

// fp8 values only move with their keys.
func.func @fp8_values(%k: tensor<128xf32>, %x: tensor<128xf8E4M3FN>) {
  %a, %b = tile.sort %k, %x axis = 0 : tensor<128xf32>, tensor<128xf8E4M3FN>
  return
}
