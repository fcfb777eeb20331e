// linear_half: linear_f32 (linear_f32.mlir, which says how it works) on f16
// or bf16 weights, widened to f32 in registers (exactly):
//
//   y[r] = sum_c W[r, c] * x[c],   W of type T, x and y f32
//
//   grid = ceil(N / ROWS) programs, num_warps = 4
//   constants: T (f16 or bf16), ROWS (4), BLOCK_K (256)
//   args: y (f32, N), w (T, N x K), x (f32, K), n_rows = N, n_cols = K (a
//         multiple of 16)
func.func @linear_half(%y: !tile.ptr<f32> {tile.divisibility = 16},
                      %w: !tile.ptr<${T}> {tile.divisibility = 16},
                      %x: !tile.ptr<f32> {tile.divisibility = 16},
                      %n_rows: i32,
                      %n_cols: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %c0 = arith.constant 0 : i32
  %c_rows = arith.constant ${ROWS} : i32
  %c_bk = arith.constant ${BLOCK_K} : i32
  %first_row = arith.muli %pid, %c_rows : i32

  %r = tile.make_range 0 to ${ROWS} : tensor<${ROWS}xi32>
  %first_rows = tile.splat %first_row : i32 -> tensor<${ROWS}xi32>
  %rows = arith.addi %first_rows, %r : tensor<${ROWS}xi32>
  %rows_2 = tile.expand_dims %rows axis = 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %n_rows_r = tile.splat %n_rows : i32 -> tensor<${ROWS}x1xi32>
  %row_ok_r = arith.cmpi slt, %rows_2, %n_rows_r : tensor<${ROWS}x1xi32>
  %row_ok = tile.broadcast %row_ok_r : tensor<${ROWS}x1xi1> -> tensor<${ROWS}x${BLOCK_K}xi1>
  %n_cols_r = tile.splat %n_cols : i32 -> tensor<${ROWS}x1xi32>
  %row_start_r = arith.muli %rows_2, %n_cols_r : tensor<${ROWS}x1xi32>
  %row_start = tile.broadcast %row_start_r : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${BLOCK_K}xi32>
  %k = tile.make_range 0 to ${BLOCK_K} : tensor<${BLOCK_K}xi32>
  %k_2 = tile.expand_dims %k axis = 0 : tensor<${BLOCK_K}xi32> -> tensor<1x${BLOCK_K}xi32>
  %k_b = tile.broadcast %k_2 : tensor<1x${BLOCK_K}xi32> -> tensor<${ROWS}x${BLOCK_K}xi32>
  %w_off = arith.addi %row_start, %k_b : tensor<${ROWS}x${BLOCK_K}xi32>
  %ws = tile.splat %w : !tile.ptr<${T}> -> tensor<${ROWS}x${BLOCK_K}x!tile.ptr<${T}>>
  %w_base = tile.addptr %ws, %w_off : tensor<${ROWS}x${BLOCK_K}x!tile.ptr<${T}>>, tensor<${ROWS}x${BLOCK_K}xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1x${BLOCK_K}x!tile.ptr<f32>>
  %x_base = tile.addptr %xs, %k_2 : tensor<1x${BLOCK_K}x!tile.ptr<f32>>, tensor<1x${BLOCK_K}xi32>
  %n_cols_w = tile.splat %n_cols : i32 -> tensor<${ROWS}x${BLOCK_K}xi32>
  %n_cols_x = tile.splat %n_cols : i32 -> tensor<1x${BLOCK_K}xi32>
  %zero_w = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_K}xf32>
  %zero_x = arith.constant dense<0.0> : tensor<1x${BLOCK_K}xf32>
  %zero_h = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCK_K}x${T}>

  // x may be the kernel before's output (dependent launches).
  tile.grid_dependency_wait
  tile.launch_dependents

  %acc = scf.for %kb = %c0 to %n_cols step %c_bk iter_args(%acc_in = %zero_w) -> (tensor<${ROWS}x${BLOCK_K}xf32>) : i32 {
    %kbs_w = tile.splat %kb : i32 -> tensor<${ROWS}x${BLOCK_K}xi32>
    %cols_w = arith.addi %kbs_w, %k_b : tensor<${ROWS}x${BLOCK_K}xi32>
    %col_ok_w = arith.cmpi slt, %cols_w, %n_cols_w : tensor<${ROWS}x${BLOCK_K}xi32>
    %ok_w = arith.andi %col_ok_w, %row_ok : tensor<${ROWS}x${BLOCK_K}xi1>
    %kbs_x = tile.splat %kb : i32 -> tensor<1x${BLOCK_K}xi32>
    %cols_x = arith.addi %kbs_x, %k_2 : tensor<1x${BLOCK_K}xi32>
    %ok_x = arith.cmpi slt, %cols_x, %n_cols_x : tensor<1x${BLOCK_K}xi32>
    %w_ptrs = tile.addptr %w_base, %kbs_w : tensor<${ROWS}x${BLOCK_K}x!tile.ptr<${T}>>, tensor<${ROWS}x${BLOCK_K}xi32>
    %x_ptrs = tile.addptr %x_base, %kbs_x : tensor<1x${BLOCK_K}x!tile.ptr<f32>>, tensor<1x${BLOCK_K}xi32>
    %xv = tile.load %x_ptrs mask %ok_x other %zero_x evict = evict_last : tensor<1x${BLOCK_K}x!tile.ptr<f32>>
    %wh = tile.load %w_ptrs mask %ok_w other %zero_h evict = evict_first : tensor<${ROWS}x${BLOCK_K}x!tile.ptr<${T}>>
    %wv = tile.cast %wh : tensor<${ROWS}x${BLOCK_K}x${T}> to tensor<${ROWS}x${BLOCK_K}xf32>
    %xb = tile.broadcast %xv : tensor<1x${BLOCK_K}xf32> -> tensor<${ROWS}x${BLOCK_K}xf32>
    %acc_out = math.fma %wv, %xb, %acc_in : tensor<${ROWS}x${BLOCK_K}xf32>
    scf.yield %acc_out : tensor<${ROWS}x${BLOCK_K}xf32>
  }
  %sums = tile.reduce sum %acc axis = 1 : tensor<${ROWS}x${BLOCK_K}xf32> -> tensor<${ROWS}xf32>

  %rows_left = arith.subi %n_rows, %first_row : i32
  %rows_left_o = tile.splat %rows_left : i32 -> tensor<${ROWS}xi32>
  %out_ok = arith.cmpi slt, %r, %rows_left_o : tensor<${ROWS}xi32>
  %y_first = tile.addptr %y, %first_row : !tile.ptr<f32>, i32
  %ys = tile.splat %y_first : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %ys, %r : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  tile.store %sums, %y_ptrs mask %out_ok : tensor<${ROWS}x!tile.ptr<f32>>
  return
}
