// The verifier rules of the scan ops, one case each.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

func.func @axis_out_of_range(%x: tensor<16x128xf32>) {
  // expected-error @+1 {{'tile.scan' op axis 2 is out of range for a tile of rank 2}}
  %a = tile.scan sum %x axis = 2 : tensor<16x128xf32>
  return
}

// -----

func.func @generic_axis_out_of_range(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tile.generic_scan' op axis 1 is out of range for a tile of rank 1}}
  %a = tile.generic_scan %x axis = 1 : tensor<128xf32> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    tile.yield %s : f32
  }
  return
}

// -----

func.func @sum_of_i1(%b: tensor<8xi1>) {
  // expected-error @+1 {{'tile.scan' op cannot sum i1; cast to an integer type first}}
  %a = tile.scan sum %b axis = 0 : tensor<8xi1>
  return
}

// -----

func.func @pointers(%p: tensor<8x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.scan' op cannot scan a tile of pointers}}
  %a = tile.scan max %p axis = 0 : tensor<8x!tile.ptr<f32>>
  return
}

// -----

func.func @result_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{all of {src, result} have same type}}
  %a = "tile.scan"(%x) <{kind = 0 : i32, axis = 0 : i32}> : (tensor<8xf32>) -> tensor<8xf16>
  return
}

// -----

func.func @not_power_of_two(%x: tensor<6xf32>) {
  // expected-error @+1 {{operand #0 must have power-of-two dimensions, but dimension 0 of 'tensor<6xf32>' is 6}}
  %a = tile.scan sum %x axis = 0 : tensor<6xf32>
  return
}

// -----

func.func @combiner_arguments(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.generic_scan' op combiner must take two arguments of type 'f32'}}
  %a = tile.generic_scan %x axis = 0 : tensor<8xf32> {
  ^bb0(%p: f32, %q: f16):
    tile.yield %p : f32
  }
  return
}

// -----

func.func @combiner_result(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.generic_scan' op combiner must yield one value of type 'f32'}}
  %a = tile.generic_scan %x axis = 0 : tensor<8xf32> {
  ^bb0(%p: f32, %q: f32):
    %i = arith.fptosi %p : f32 to i32
    tile.yield %i : i32
  }
  return
}

// -----

func.func @combiner_side_effects(%x: tensor<8xf32>, %ptr: !tile.ptr<f32>) {
  %a = tile.generic_scan %x axis = 0 : tensor<8xf32> {
  ^bb0(%p: f32, %q: f32):
    // expected-error @+1 {{'tile.load' op cannot be in a tile.generic_scan combiner}}
    %v = tile.load %ptr : !tile.ptr<f32>
    tile.yield %v : f32
  }
  return
}
