// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -verify-diagnostics

// The lowering needs every tile laid out.
func.func @no_layout(%x: !tile.ptr<f32>) {
  // expected-error @+1 {{tile 'tensor<128xi32>' has no distributed layout; run tile-assign-layouts first}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  return
}

// -----

// expected-error @+1 {{kernel argument 0 is i1, which kernels cannot take; pass an i32}}
func.func @bool_argument(%b: i1) {
  return
}

// -----

// expected-error @+1 {{kernel 'returns' must not return values; store results}}
func.func @returns(%x: i32) -> i32 {
  return %x : i32
}

// -----

#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @nonuniform_constant(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{only uniform (splat) tile constants are supported; build others from tile.make_range}}
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32, #b>
  return
}
