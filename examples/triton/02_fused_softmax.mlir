// Triton tutorial 02, fused softmax (python/tutorials/02-fused-softmax.py):
// row-wise softmax, numerically stable, each row read once and written once.
// A persistent grid: program p does rows p, p + P, p + 2P, ... (P programs,
// as many as fit on the GPU at once), so that the next row's loads overlap
// this row's arithmetic across the programs of an SM.
//
//   out[r, c] = exp(x[r, c] - max_r) * (1 / sum_c exp(x[r, c] - max_r))
//
//   llkc examples/triton/02_fused_softmax.mlir -D BLOCK=1024 -D DIV=16 --num-warps 4
//   grid = min(n_rows, P) programs; BLOCK = n_cols rounded up to a power of
//   two; DIV: a power of two dividing n_cols and both row strides (16 as
//   Triton specializes them; 1 for any shape).
func.func @softmax_kernel(%out: !tile.ptr<f32> {tile.divisibility = 16}, %in: !tile.ptr<f32> {tile.divisibility = 16},
                          %in_row_stride: i32 {tile.divisibility = ${DIV}}, %out_row_stride: i32 {tile.divisibility = ${DIV}},
                          %n_rows: i32, %n_cols: i32 {tile.divisibility = ${DIV}}) {
  %row_start = tile.program_id x
  %row_step = tile.num_programs x
  %cols = tile.make_range 0 to ${BLOCK}
  %mask = tile.cmp lt %cols, %n_cols : tensor<${BLOCK}xi32>, i32
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK}xf32>
  scf.for %row = %row_start to %n_rows step %row_step : i32 {
    %in_offset = arith.muli %row, %in_row_stride : i32
    %in_row = tile.addptr %in, %in_offset : !tile.ptr<f32>, i32
    %in_ptrs = tile.addptr %in_row, %cols : !tile.ptr<f32>, tensor<${BLOCK}xi32>
    %x = tile.load %in_ptrs mask %mask other %neg_inf : tensor<${BLOCK}x!tile.ptr<f32>>
    %max = tile.reduce max %x axis = 0 : tensor<${BLOCK}xf32>
    %shifted = tile.sub %x, %max : tensor<${BLOCK}xf32>, f32
    %num = math.exp %shifted : tensor<${BLOCK}xf32>
    %den = tile.reduce sum %num axis = 0 : tensor<${BLOCK}xf32>
    // One division a row, then a multiply an element (an IEEE division of
    // every element costs more than the exponential; Triton divides with
    // div.full.f32, which is not correctly rounded either).
    %one = arith.constant 1.0 : f32
    %inv_den = arith.divf %one, %den : f32
    %y = tile.mul %num, %inv_den : tensor<${BLOCK}xf32>, f32
    %out_offset = arith.muli %row, %out_row_stride : i32
    %out_row = tile.addptr %out, %out_offset : !tile.ptr<f32>, i32
    %out_ptrs = tile.addptr %out_row, %cols : !tile.ptr<f32>, tensor<${BLOCK}xi32>
    tile.store %y, %out_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  }
  return
}
