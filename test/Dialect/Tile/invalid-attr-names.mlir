// The kernel attribute value checks name the attribute as written, in single
// quotes (invalid.mlir checks the rest of each message).
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.num_warps' must be a power-of-two integer in [1, 32], got 3 : i32}}
func.func @num_warps_not_power_of_two() attributes {tile.num_warps = 3 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.num_warps' must be a power-of-two integer in [1, 32], got "four"}}
func.func @num_warps_not_integer() attributes {tile.num_warps = "four"} {
  return
}

// -----

// expected-error @+1 {{'tile.divisibility' must be a power-of-two integer in [1, 1073741824], got 12 : i64}}
func.func @divisibility_not_power_of_two(%p: !tile.ptr<f32> {tile.divisibility = 12}) {
  return
}

// -----

// expected-error @+1 {{'tile.alignment' must be a power-of-two integer in [1, 1073741824], got 0 : i64}}
func.func @alignment_zero(%n: i64 {tile.alignment = 0}) {
  return
}
