// llama.cpp's diag_mask_inf_f32: the causal mask of the attention scores
// (prompt phase; rows_per_channel = T rows of n_kv scores per head):
//
//   dst[r, c] = c > n_past + r % rows_per_channel ? -inf : x[r, c]
//
// (The seed subtracts INT_MAX instead of selecting -inf; the spec asks for
// -inf.) Rows are dense, i = r * n_cols + c, as in the seed.
//
// Grid: (ceil(n_cols / BLOCK), n_rows, 1). Constants: BLOCK (1024), DIV (16
// when n_cols is a multiple of 16: 16-byte vectors; 1 for any n_cols).
// num_warps: 4. Arguments: x, dst (f32), n_cols, rows_per_channel, n_past.
func.func @diag_mask_inf_f32(%x: !tile.ptr<f32> {tile.divisibility = 16},
                             %dst: !tile.ptr<f32> {tile.divisibility = 16},
                             %n_cols: i32 {tile.divisibility = ${DIV}},
                             %rows_per_channel: i32, %n_past: i32) {
  %bx = tile.program_id x
  %row = tile.program_id y
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %bx, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %cols = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>
  %row_start = arith.muli %row, %n_cols : i32

  %x_row = tile.addptr %x, %row_start : !tile.ptr<f32>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>

  %t = arith.remsi %row, %rows_per_channel : i32
  %last = arith.addi %n_past, %t : i32
  %lasts = tile.splat %last : i32 -> tensor<${BLOCK}xi32>
  %future = arith.cmpi sgt, %cols, %lasts : tensor<${BLOCK}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK}xf32>
  %y = arith.select %future, %neg_inf, %xv : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>

  %dst_row = tile.addptr %dst, %row_start : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
