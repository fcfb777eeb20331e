// Row-wise softmax of the attention scores, numerically stable (the row
// maximum is subtracted first; llama.cpp's soft_max_f32 of the seed skips
// it), and a variant with llama.cpp's scale and diag_mask_inf fused in (the
// prompt phase's scores: rows of n_kv columns, one row per (head, token)).
//
//   soft_max_f32:              dst[r, c] = exp(x[r, c] - m_r) / sum_c exp(x[r, c] - m_r)
//   soft_max_scale_causal_f32: s[r, c] = c > n_past + r % rows_per_channel ? -inf
//                                                                         : scale * x[r, c]
//                              dst[r, :] = softmax(s[r, :])
//
// Grid: (n_rows, 1, 1), one program per row. Constants: BLOCK >= n_cols, a
// power of two (n_kv rounded up: 512 .. 4096); DIV (16 where n_cols and the
// row strides are multiples of 16: 16-byte vectors; 1 for any n_kv, as in
// decode's dense rows of n_past + 1 scores). num_warps: 4 for BLOCK <= 1024,
// 8 above. Arguments: dst, x (f32), dst_row_stride, x_row_stride, n_cols
// (elements); the fused variant adds scale (1/sqrt(D)), n_past (n_kv - T)
// and rows_per_channel (T).
func.func @soft_max_f32(%dst: !tile.ptr<f32> {tile.divisibility = 16},
                        %x: !tile.ptr<f32> {tile.divisibility = 16},
                        %dst_row_stride: i32 {tile.divisibility = ${DIV}},
                        %x_row_stride: i32 {tile.divisibility = ${DIV}},
                        %n_cols: i32 {tile.divisibility = ${DIV}}) {
  %row = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>

  %x_offset = arith.muli %row, %x_row_stride : i32
  %x_row = tile.addptr %x, %x_offset : !tile.ptr<f32>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK}xf32>
  %xv = tile.load %x_ptrs mask %mask other %neg_inf evict = evict_first : tensor<${BLOCK}x!tile.ptr<f32>>

  %max = tile.reduce max %xv axis = 0 : tensor<${BLOCK}xf32> -> f32
  %maxs = tile.splat %max : f32 -> tensor<${BLOCK}xf32>
  %shifted = arith.subf %xv, %maxs : tensor<${BLOCK}xf32>
  %num = math.exp %shifted : tensor<${BLOCK}xf32>
  %den = tile.reduce sum %num axis = 0 : tensor<${BLOCK}xf32> -> f32
  %one = arith.constant 1.0 : f32
  %inv = arith.divf %one, %den : f32
  %invs = tile.splat %inv : f32 -> tensor<${BLOCK}xf32>
  %y = arith.mulf %num, %invs : tensor<${BLOCK}xf32>

  %dst_offset = arith.muli %row, %dst_row_stride : i32
  %dst_row = tile.addptr %dst, %dst_offset : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}

func.func @soft_max_scale_causal_f32(%dst: !tile.ptr<f32> {tile.divisibility = 16},
                                     %x: !tile.ptr<f32> {tile.divisibility = 16},
                                     %dst_row_stride: i32 {tile.divisibility = ${DIV}},
                                     %x_row_stride: i32 {tile.divisibility = ${DIV}},
                                     %n_cols: i32 {tile.divisibility = ${DIV}},
                                     %scale: f32, %n_past: i32,
                                     %rows_per_channel: i32) {
  %row = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>

  %x_offset = arith.muli %row, %x_row_stride : i32
  %x_row = tile.addptr %x, %x_offset : !tile.ptr<f32>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK}xf32>
  %xv = tile.load %x_ptrs mask %mask other %neg_inf evict = evict_first : tensor<${BLOCK}x!tile.ptr<f32>>

  // Causal mask: token r % rows_per_channel sees columns up to n_past + it.
  // Column 0 is always visible, so the row maximum is finite.
  %t = arith.remsi %row, %rows_per_channel : i32
  %last = arith.addi %n_past, %t : i32
  %lasts = tile.splat %last : i32 -> tensor<${BLOCK}xi32>
  %future = arith.cmpi sgt, %cols, %lasts : tensor<${BLOCK}xi32>
  %scales = tile.splat %scale : f32 -> tensor<${BLOCK}xf32>
  %scaled = arith.mulf %xv, %scales : tensor<${BLOCK}xf32>
  %s = arith.select %future, %neg_inf, %scaled : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>

  %max = tile.reduce max %s axis = 0 : tensor<${BLOCK}xf32> -> f32
  %maxs = tile.splat %max : f32 -> tensor<${BLOCK}xf32>
  %shifted = arith.subf %s, %maxs : tensor<${BLOCK}xf32>
  %num = math.exp %shifted : tensor<${BLOCK}xf32>
  %den = tile.reduce sum %num axis = 0 : tensor<${BLOCK}xf32> -> f32
  %one = arith.constant 1.0 : f32
  %inv = arith.divf %one, %den : f32
  %invs = tile.splat %inv : f32 -> tensor<${BLOCK}xf32>
  %y = arith.mulf %num, %invs : tensor<${BLOCK}xf32>

  %dst_offset = arith.muli %row, %dst_row_stride : i32
  %dst_row = tile.addptr %dst, %dst_offset : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
