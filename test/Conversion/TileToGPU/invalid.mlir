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

// -----

// A layout for 16 warps in a 4-warp kernel would drop the other 12 warps'
// parts of the tile.
#b16 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [16], order = [0]>
func.func @too_many_warps(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{tile 'tensor<512xi32, #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [16], order = [0]>>' is laid out for 16 warps, but kernel 'too_many_warps' runs 4 (tile.num_warps)}}
  %r = tile.make_range 0 to 512 : tensor<512xi32, #b16>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #b16>
  %xp = tile.addptr %xs, %r : tensor<512x!tile.ptr<f32>, #b16>, tensor<512xi32, #b16>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>, #b16>
  tile.store %v, %xp : tensor<512x!tile.ptr<f32>, #b16>
  return
}

// -----

// Fewer warps than the kernel's: reported too (a kernel without
// tile.num_warps runs 4), once per kernel.
#b2 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]>
func.func @too_few_warps(%f: f32) {
  // expected-error @+1 {{is laid out for 2 warps, but kernel 'too_few_warps' runs 4 (tile.num_warps)}}
  %x = tile.splat %f : f32 -> tensor<2x32xf32, #b2>
  %s = tile.reduce sum %x axis = 1 : tensor<2x32xf32, #b2> -> tensor<2xf32, #tile.slice<dim = 1, parent = #b2>>
  return
}

// -----

func.func @callee(%x: !tile.ptr<f32>) {
  return
}
func.func @caller(%x: !tile.ptr<f32>) {
  // expected-error @+1 {{'func.call' op is not supported: kernels cannot call functions (every func.func is a kernel); inline the callee}}
  func.call @callee(%x) : (!tile.ptr<f32>) -> ()
  return
}

// -----

// Buffers need their places (tile-allocate-shared).
func.func @unplaced() attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{'tile.local_alloc' op has no place in shared memory (offset); run tile-allocate-shared first}}
  %b = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  return
}

// -----

// Warpgroup MMA reads B from a wgmma-swizzled buffer slot, A from one too or
// from registers in the accumulator layout (here A is neither).
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_from_registers(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<64x64xf16, #op>
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  // expected-error @+1 {{'tile.dot' op runs on warpgroup MMA (#tile.mma version 3) but does not read B, and A, from buffer slots with swizzle = wgmma (A may instead be in registers, in the accumulator layout of its shape), as tile-allocate-shared makes them}}
  %d = tile.dot %a, %a, %c {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  return
}

// -----

// fp8 multiplies on warpgroup MMA only, both operands K-major in wgmma
// slots: here B's slot is N-contiguous (8-bit wgmma has no transpose).
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_fp8_n_major(%slot: i32) attributes {tile.num_warps = 4 : i32} {
  %ra = tile.local_alloc {offset = 0 : i64} : !tile.shared<1x64x128xf8E4M3FN, contiguous = 1, swizzle = wgmma>
  %rb = tile.local_alloc {offset = 8192 : i64} : !tile.shared<1x128x128xf8E4M3FN, contiguous = 1, swizzle = wgmma>
  %a = tile.local_load %ra[%slot] : !tile.shared<1x64x128xf8E4M3FN, contiguous = 1, swizzle = wgmma> -> tensor<64x128xf8E4M3FN, #op>
  %b = tile.local_load %rb[%slot] : !tile.shared<1x128x128xf8E4M3FN, contiguous = 1, swizzle = wgmma> -> tensor<128x128xf8E4M3FN, #op>
  %c = arith.constant dense<0.0> : tensor<64x128xf32, #acc>
  // expected-error @+1 {{'tile.dot' op multiplies fp8 but does not run on warpgroup MMA (#tile.mma version 3) with A and B read K-major (A contiguous = 1, B contiguous = 0) from buffer slots with swizzle = wgmma; elsewhere tile-upcast-fp8-dots makes it an f16 dot}}
  %d = tile.dot %a, %b, %c {mma = #tile.mma<version = 3, instrShape = [64, 128, 32], warpsPerCTA = [4, 1]>} : tensor<64x128xf8E4M3FN, #op>, tensor<128x128xf8E4M3FN, #op> -> tensor<64x128xf32, #acc>
  return
}

// -----

// Nor does it run as FMA.
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#op = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @fp8_fma() attributes {tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<64x64xf8E5M2, #op>
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  // expected-error @+1 {{'tile.dot' op multiplies fp8 but does not run on warpgroup MMA}}
  %d = tile.dot %a, %a, %c : tensor<64x64xf8E5M2, #op>, tensor<64x64xf8E5M2, #op> -> tensor<64x64xf32, #acc>
  return
}
