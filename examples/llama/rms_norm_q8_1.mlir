// rms_norm_q8_1: the RMS norm with gamma (rms_norm.mlir) and the activation
// quantization of the mat-vec that reads it (quantize_q8_1.mlir) in one
// program: the decode step's input of mul_mat_vec_q and its fused variants.
//
//   y = x * rsqrt(mean(x^2) + eps) * gamma            (f32, not stored)
//   per block b of 32: amax = max |y|, d = amax / 127 (f32, stored as f16),
//   q = round(y / d) (half away from zero; 0 when amax = 0), s = sum y
//   xq[b] = block_q8_1 { f16 d; f16 s; int8 qs[32]; } (36 bytes)
//
// x is read as a [BLOCKS, 32] tile, a q8_1 block a row, so the sum of squares
// is two reductions (the rows, then the blocks) and the quantization is
// quantize_q8_1's on the same tile: nothing changes layout. Exactly K/32
// blocks are written (no padding).
//
//   grid = (n_rows); constants: BLOCKS (a power of two >= n_cols / 32: 128
//   for 4096); num_warps 8
//   args: xq (q8_1 bytes, rows of n_cols/32*36), x, gamma (f32), x_row_stride
//         (elements), n_cols (a multiple of 32), eps
func.func @rms_norm_q8_1(%xq: !tile.ptr<i8> {tile.divisibility = 16},
                         %x: !tile.ptr<f32> {tile.divisibility = 16},
                         %gamma: !tile.ptr<f32> {tile.divisibility = 16},
                         %x_row_stride: i32 {tile.divisibility = 16},
                         %n_cols: i32 {tile.divisibility = 16},
                         %eps: f32) {
  tile.launch_dependents
  tile.grid_dependency_wait
  %row = tile.program_id x
  %c32 = arith.constant 32 : i32
  %c36 = arith.constant 36 : i32
  %n_blocks = arith.divsi %n_cols, %c32 : i32

  // Element (b, j) is column 32 b + j.
  %b = tile.make_range 0 to ${BLOCKS} : tensor<${BLOCKS}xi32>
  %b_2 = tile.expand_dims %b axis = 1 : tensor<${BLOCKS}xi32> -> tensor<${BLOCKS}x1xi32>
  %b_b = tile.broadcast %b_2 : tensor<${BLOCKS}x1xi32> -> tensor<${BLOCKS}x32xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j_2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %j_b = tile.broadcast %j_2 : tensor<1x32xi32> -> tensor<${BLOCKS}x32xi32>
  %c32s = arith.constant dense<32> : tensor<${BLOCKS}x32xi32>
  %b_cols = arith.muli %b_b, %c32s : tensor<${BLOCKS}x32xi32>
  %cols = arith.addi %b_cols, %j_b : tensor<${BLOCKS}x32xi32>
  %n_blks = tile.splat %n_blocks : i32 -> tensor<${BLOCKS}x32xi32>
  %mask = arith.cmpi slt, %b_b, %n_blks : tensor<${BLOCKS}x32xi32>
  %zeros = arith.constant dense<0.0> : tensor<${BLOCKS}x32xf32>

  %x_off = arith.muli %row, %x_row_stride : i32
  %x_row = tile.addptr %x, %x_off : !tile.ptr<f32>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCKS}x32x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCKS}x32x!tile.ptr<f32>>, tensor<${BLOCKS}x32xi32>
  %xv = tile.load %x_ptrs mask %mask other %zeros evict = evict_first : tensor<${BLOCKS}x32x!tile.ptr<f32>>
  %gs = tile.splat %gamma : !tile.ptr<f32> -> tensor<${BLOCKS}x32x!tile.ptr<f32>>
  %g_ptrs = tile.addptr %gs, %cols : tensor<${BLOCKS}x32x!tile.ptr<f32>>, tensor<${BLOCKS}x32xi32>
  %g = tile.load %g_ptrs mask %mask other %zeros evict = evict_last : tensor<${BLOCKS}x32x!tile.ptr<f32>>

  // The norm.
  %squares = arith.mulf %xv, %xv : tensor<${BLOCKS}x32xf32>
  %block_squares = tile.reduce sum %squares axis = 1 : tensor<${BLOCKS}x32xf32> -> tensor<${BLOCKS}xf32>
  %sum = tile.reduce sum %block_squares axis = 0 : tensor<${BLOCKS}xf32> -> f32
  %count = arith.sitofp %n_cols : i32 to f32
  %mean = arith.divf %sum, %count : f32
  %shifted = arith.addf %mean, %eps : f32
  %scale = math.rsqrt %shifted : f32
  %scales = tile.splat %scale : f32 -> tensor<${BLOCKS}x32xf32>
  %normed = arith.mulf %xv, %scales : tensor<${BLOCKS}x32xf32>
  %y = arith.mulf %normed, %g : tensor<${BLOCKS}x32xf32>

  // The quantization (quantize_q8_1.mlir).
  %abs = math.absf %y : tensor<${BLOCKS}x32xf32>
  %amax = tile.reduce max %abs axis = 1 : tensor<${BLOCKS}x32xf32> -> tensor<${BLOCKS}xf32>
  %bsum = tile.reduce sum %y axis = 1 : tensor<${BLOCKS}x32xf32> -> tensor<${BLOCKS}xf32>
  %c127 = arith.constant dense<127.0> : tensor<${BLOCKS}xf32>
  %d = arith.divf %amax, %c127 : tensor<${BLOCKS}xf32>
  %d_col = tile.expand_dims %d axis = 1 : tensor<${BLOCKS}xf32> -> tensor<${BLOCKS}x1xf32>
  %d_2d = tile.broadcast %d_col : tensor<${BLOCKS}x1xf32> -> tensor<${BLOCKS}x32xf32>
  %scaled = arith.divf %y, %d_2d : tensor<${BLOCKS}x32xf32>
  %rounded = math.round %scaled : tensor<${BLOCKS}x32xf32>
  %zero_blk = arith.constant dense<0.0> : tensor<${BLOCKS}xf32>
  %is_zero = arith.cmpf oeq, %amax, %zero_blk : tensor<${BLOCKS}xf32>
  %is_zero_col = tile.expand_dims %is_zero axis = 1 : tensor<${BLOCKS}xi1> -> tensor<${BLOCKS}x1xi1>
  %is_zero_2d = tile.broadcast %is_zero_col : tensor<${BLOCKS}x1xi1> -> tensor<${BLOCKS}x32xi1>
  %qf = arith.select %is_zero_2d, %zeros, %rounded : tensor<${BLOCKS}x32xi1>, tensor<${BLOCKS}x32xf32>
  %q = tile.cast %qf rounding = rtz : tensor<${BLOCKS}x32xf32> to tensor<${BLOCKS}x32xi8>

  // qs at byte 36 b + 4 + j of the row's output; d, s: f16 words 18 b, 18 b + 1.
  %y_row_bytes = arith.muli %n_blocks, %c36 : i32
  %y_off = arith.muli %row, %y_row_bytes : i32
  %y_row = tile.addptr %xq, %y_off : !tile.ptr<i8>, i32
  %c36s = arith.constant dense<36> : tensor<${BLOCKS}x32xi32>
  %blk_bytes = arith.muli %b_b, %c36s : tensor<${BLOCKS}x32xi32>
  %c4s = arith.constant dense<4> : tensor<${BLOCKS}x32xi32>
  %qs_start = arith.addi %blk_bytes, %c4s : tensor<${BLOCKS}x32xi32>
  %q_off = arith.addi %qs_start, %j_b : tensor<${BLOCKS}x32xi32>
  %y_rows = tile.splat %y_row : !tile.ptr<i8> -> tensor<${BLOCKS}x32x!tile.ptr<i8>>
  %q_ptrs = tile.addptr %y_rows, %q_off : tensor<${BLOCKS}x32x!tile.ptr<i8>>, tensor<${BLOCKS}x32xi32>
  tile.store %q, %q_ptrs mask %mask : tensor<${BLOCKS}x32x!tile.ptr<i8>>
  %y_half = tile.bitcast %y_row : !tile.ptr<i8> to !tile.ptr<f16>
  %c18 = arith.constant dense<18> : tensor<${BLOCKS}xi32>
  %d_off = arith.muli %b, %c18 : tensor<${BLOCKS}xi32>
  %ones = arith.constant dense<1> : tensor<${BLOCKS}xi32>
  %s_off = arith.addi %d_off, %ones : tensor<${BLOCKS}xi32>
  %y_halves = tile.splat %y_half : !tile.ptr<f16> -> tensor<${BLOCKS}x!tile.ptr<f16>>
  %d_ptrs = tile.addptr %y_halves, %d_off : tensor<${BLOCKS}x!tile.ptr<f16>>, tensor<${BLOCKS}xi32>
  %s_ptrs = tile.addptr %y_halves, %s_off : tensor<${BLOCKS}x!tile.ptr<f16>>, tensor<${BLOCKS}xi32>
  %d_h = tile.cast %d rounding = rne : tensor<${BLOCKS}xf32> to tensor<${BLOCKS}xf16>
  %s_h = tile.cast %bsum rounding = rne : tensor<${BLOCKS}xf32> to tensor<${BLOCKS}xf16>
  %n_blks_1 = tile.splat %n_blocks : i32 -> tensor<${BLOCKS}xi32>
  %blk_ok = arith.cmpi slt, %b, %n_blks_1 : tensor<${BLOCKS}xi32>
  tile.store %d_h, %d_ptrs mask %blk_ok : tensor<${BLOCKS}x!tile.ptr<f16>>
  tile.store %s_h, %s_ptrs mask %blk_ok : tensor<${BLOCKS}x!tile.ptr<f16>>
  return
}
