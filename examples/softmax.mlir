// Row-wise softmax, numerically stable: one program per row of at most BLOCK
// columns; the row maximum is subtracted before exponentiating.
//
//   out[r, c] = exp(x[r, c] - max_r) / sum_c exp(x[r, c] - max_r)
//
//   llkc examples/softmax.mlir -D BLOCK=4096 --num-warps 8 -o softmax.ptx
//   grid = n_rows programs
//   row lengths and strides: multiples of 4 elements (rows start 16-byte
//   aligned, and the row mask is uniform across each 16-byte vector)
func.func @softmax_kernel(%out: !tile.ptr<f32> {tile.divisibility = 16},
                          %in: !tile.ptr<f32> {tile.divisibility = 16},
                          %in_row_stride: i32 {tile.divisibility = 4},
                          %out_row_stride: i32 {tile.divisibility = 4},
                          %n_cols: i32 {tile.divisibility = 4}) {
  %row = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>

  %in_offset = arith.muli %row, %in_row_stride : i32
  %in_row = tile.addptr %in, %in_offset : !tile.ptr<f32>, i32
  %in_rows = tile.splat %in_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %in_ptrs = tile.addptr %in_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK}xf32>
  %x = tile.load %in_ptrs mask %mask other %neg_inf : tensor<${BLOCK}x!tile.ptr<f32>>

  %max = tile.reduce max %x axis = 0 : tensor<${BLOCK}xf32> -> f32
  %maxs = tile.splat %max : f32 -> tensor<${BLOCK}xf32>
  %shifted = arith.subf %x, %maxs : tensor<${BLOCK}xf32>
  %num = math.exp %shifted : tensor<${BLOCK}xf32>
  %den = tile.reduce sum %num axis = 0 : tensor<${BLOCK}xf32> -> f32
  %dens = tile.splat %den : f32 -> tensor<${BLOCK}xf32>
  %y = arith.divf %num, %dens : tensor<${BLOCK}xf32>

  %out_offset = arith.muli %row, %out_row_stride : i32
  %out_row = tile.addptr %out, %out_offset : !tile.ptr<f32>, i32
  %out_rows = tile.splat %out_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %out_ptrs = tile.addptr %out_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %out_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
