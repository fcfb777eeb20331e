// RMS norm with gamma fused (Llama): one program per row of at most BLOCK
// columns.
//
//   out[r, c] = x[r, c] * rsqrt(mean_c(x[r, :]^2) + eps) * gamma[c]
//
//   llkc examples/rms_norm.mlir -D BLOCK=4096 --num-warps 8 -o rms_norm.ptx
//   grid = n_rows programs
//   row lengths and strides: multiples of 4 elements (rows start 16-byte
//   aligned, and the row mask is uniform across each 16-byte vector)
func.func @rms_norm_kernel(%out: !tile.ptr<f32> {tile.divisibility = 16},
                           %x: !tile.ptr<f32> {tile.divisibility = 16},
                           %gamma: !tile.ptr<f32> {tile.divisibility = 16},
                           %row_stride: i32 {tile.divisibility = 4},
                           %n_cols: i32 {tile.divisibility = 4},
                           %eps: f32) {
  %row = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>
  %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>

  %offset = arith.muli %row, %row_stride : i32
  %x_row = tile.addptr %x, %offset : !tile.ptr<f32>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs mask %mask other %zero : tensor<${BLOCK}x!tile.ptr<f32>>

  %squares = arith.mulf %xv, %xv : tensor<${BLOCK}xf32>
  %sum = tile.reduce sum %squares axis = 0 : tensor<${BLOCK}xf32> -> f32
  %count = arith.sitofp %n_cols : i32 to f32
  %mean = arith.divf %sum, %count : f32
  %shifted = arith.addf %mean, %eps : f32
  %scale = math.rsqrt %shifted : f32

  %g_rows = tile.splat %gamma : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %g_ptrs = tile.addptr %g_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %g = tile.load %g_ptrs mask %mask other %zero evict = evict_last : tensor<${BLOCK}x!tile.ptr<f32>>

  %scales = tile.splat %scale : f32 -> tensor<${BLOCK}xf32>
  %normed = arith.mulf %xv, %scales : tensor<${BLOCK}xf32>
  %y = arith.mulf %normed, %g : tensor<${BLOCK}xf32>

  %out_row = tile.addptr %out, %offset : !tile.ptr<f32>, i32
  %out_rows = tile.splat %out_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %out_ptrs = tile.addptr %out_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %out_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
