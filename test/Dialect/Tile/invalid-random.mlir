// The verifier rules of the random-number ops (TileOps.td's constraints and
// TileOps.cpp), one case each.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

func.func @seed_i16(%seed: i16, %offsets: tensor<128xi32>) {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer or 64-bit signless integer, but got 'i16'}}
  %r = "tile.randint"(%seed, %offsets) : (i16, tensor<128xi32>) -> tensor<128xi32>
  return
}

// -----

func.func @float_offsets(%seed: i32, %offsets: tensor<128xf32>) {
  // expected-error @+1 {{operand #1 must be 32-bit signless integer or 64-bit signless integer or ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<128xf32>'}}
  %r = "tile.rand"(%seed, %offsets) : (i32, tensor<128xf32>) -> tensor<128xf32>
  return
}

// -----

func.func @i8_offsets(%seed: i32, %offsets: tensor<128xi8>) {
  // expected-error @+1 {{operand #1 must be 32-bit signless integer or 64-bit signless integer or ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<128xi8>'}}
  %r = "tile.randint"(%seed, %offsets) : (i32, tensor<128xi8>) -> tensor<128xi32>
  return
}

// -----

func.func @wrong_shape(%seed: i32, %offsets: tensor<128xi32>) {
  // expected-error @+1 {{result has the shape of the offsets, with Float32 elements}}
  %r = "tile.randn"(%seed, %offsets) : (i32, tensor<128xi32>) -> tensor<64xf32>
  return
}

// -----

func.func @wrong_element(%seed: i32, %offsets: tensor<128xi32>) {
  // expected-error @+1 {{result has the shape of the offsets, with Integer elements}}
  %r = "tile.randint"(%seed, %offsets) : (i32, tensor<128xi32>) -> tensor<128xi64>
  return
}

// -----

func.func @scalar_for_tile(%seed: i32, %offsets: tensor<128xi32>) {
  // expected-error @+1 {{r2 has the shape of the offsets, with Integer elements}}
  %r:4 = "tile.randint4x"(%seed, %offsets) : (i32, tensor<128xi32>) -> (tensor<128xi32>, tensor<128xi32>, i32, tensor<128xi32>)
  return
}

// -----

func.func @not_a_power_of_two(%seed: i32, %offsets: tensor<96xi32>) {
  // expected-error @+1 {{operand #1 must have power-of-two dimensions, but dimension 0 of 'tensor<96xi32>' is 96}}
  %r = tile.rand %seed, %offsets : i32, tensor<96xi32>
  return
}
