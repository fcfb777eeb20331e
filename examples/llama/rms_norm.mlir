// Llama RMS norm with the gamma multiply fused (llama.cpp's rms_norm_f32
// followed by mul_f32): one program per row.
//
//   dst[r, c] = x[r, c] * rsqrt(mean_c(x[r, :]^2) + eps) * gamma[c],  c < n_cols
//
// Grid: (n_rows, 1, 1). Constants: BLOCK >= n_cols, a power of two (4096 for
// H = 4096). num_warps: 8 (decode: 1 row; prompt: 512 rows).
// Arguments: dst, x, gamma (f32), dst_row_stride, x_row_stride, n_cols
// (elements, multiples of 16), eps (1e-5).
func.func @rms_norm_f32(%dst: !tile.ptr<f32> {tile.divisibility = 16},
                        %x: !tile.ptr<f32> {tile.divisibility = 16},
                        %gamma: !tile.ptr<f32> {tile.divisibility = 16},
                        %dst_row_stride: i32 {tile.divisibility = 16},
                        %x_row_stride: i32 {tile.divisibility = 16},
                        %n_cols: i32 {tile.divisibility = 16},
                        %eps: f32) {
  // Programmatic dependent launch (llk-decode-block): the next kernel may
  // start launching now; this one waits here for the kernel before it.
  tile.launch_dependents
  tile.grid_dependency_wait
  %row = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>
  %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>

  %x_offset = arith.muli %row, %x_row_stride : i32
  %x_row = tile.addptr %x, %x_offset : !tile.ptr<f32>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs mask %mask other %zero evict = evict_first : tensor<${BLOCK}x!tile.ptr<f32>>

  %squares = arith.mulf %xv, %xv : tensor<${BLOCK}xf32>
  %sum = tile.reduce sum %squares axis = 0 : tensor<${BLOCK}xf32> -> f32
  %count = arith.sitofp %n_cols : i32 to f32
  %mean = arith.divf %sum, %count : f32
  %shifted = arith.addf %mean, %eps : f32
  %scale = math.rsqrt %shifted : f32

  // gamma is shared by every row: keep it in L1/L2.
  %g_base = tile.splat %gamma : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %g_ptrs = tile.addptr %g_base, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %g = tile.load %g_ptrs mask %mask other %zero evict = evict_last : tensor<${BLOCK}x!tile.ptr<f32>>

  %scales = tile.splat %scale : f32 -> tensor<${BLOCK}xf32>
  %normed = arith.mulf %xv, %scales : tensor<${BLOCK}xf32>
  %y = arith.mulf %normed, %g : tensor<${BLOCK}xf32>

  %dst_offset = arith.muli %row, %dst_row_stride : i32
  %dst_row = tile.addptr %dst, %dst_offset : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
