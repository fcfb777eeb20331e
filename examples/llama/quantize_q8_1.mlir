// quantize_q8_1 (llama.cpp): f32 rows -> block_q8_1 rows, BLOCKS blocks of 32
// values per program.
//
//   block_q8_1 = 36 bytes { f16 d; f16 s; int8 qs[32]; }
//   amax = max_j |x[j]|,  d = amax / 127 (f32, stored as f16, rne),
//   qs[j] = roundf(x[j] / d) (half away from zero; 0 when amax = 0),
//   s = sum_j x[j] (f32, stored as f16).
//
// Each row of `kx` inputs is padded with zeros to `kx_padded` (a multiple of
// 512) values, i.e. kx_padded/32 output blocks; input rows are `kx` floats
// apart, output rows kx_padded/32*36 bytes apart.
//
//   grid  = (ceil(kx_padded / (32*BLOCKS)), n_rows, 1)   (decode: n_rows = 1)
//   BLOCKS = 16 (512 values a program), num_warps = 4
//   args: y (q8_1 bytes out), x (f32 in), kx (multiple of 16), kx_padded
//
// The program's tile is [BLOCKS, 32]: a block per row, so amax and the sum are
// row reductions. x is read with 16-byte loads; the quants go out as 4-byte
// stores (a block's qs start at 36*b + 4: only 4-byte aligned); d and s are
// two f16 stores through the byte pointer bitcast to !tile.ptr<f16>.
func.func @quantize_q8_1(%y: !tile.ptr<i8> {tile.divisibility = 16},
                         %x: !tile.ptr<f32> {tile.divisibility = 16},
                         %kx: i32 {tile.divisibility = 16},
                         %kx_padded: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %row = tile.program_id y
  %c32 = arith.constant 32 : i32
  %c36 = arith.constant 36 : i32
  %c_blocks = arith.constant ${BLOCKS} : i32

  // This row's input and output.
  %x_off = arith.muli %row, %kx : i32
  %x_row = tile.addptr %x, %x_off : !tile.ptr<f32>, i32
  %n_blocks = arith.divsi %kx_padded, %c32 : i32
  %y_row_bytes = arith.muli %n_blocks, %c36 : i32
  %y_off = arith.muli %row, %y_row_bytes : i32
  %y_row = tile.addptr %y, %y_off : !tile.ptr<i8>, i32

  // Block indices (rows of the tile) and positions in a block (columns).
  %first = arith.muli %pid, %c_blocks : i32
  %firsts = tile.splat %first : i32 -> tensor<${BLOCKS}xi32>
  %range = tile.make_range 0 to ${BLOCKS} : tensor<${BLOCKS}xi32>
  %blk = arith.addi %firsts, %range : tensor<${BLOCKS}xi32>
  %n_blks = tile.splat %n_blocks : i32 -> tensor<${BLOCKS}xi32>
  %blk_ok = arith.cmpi slt, %blk, %n_blks : tensor<${BLOCKS}xi32>
  %blk_col = tile.expand_dims %blk axis = 1 : tensor<${BLOCKS}xi32> -> tensor<${BLOCKS}x1xi32>
  %blk_2d = tile.broadcast %blk_col : tensor<${BLOCKS}x1xi32> -> tensor<${BLOCKS}x32xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j_row = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %j_2d = tile.broadcast %j_row : tensor<1x32xi32> -> tensor<${BLOCKS}x32xi32>

  // x, zero past kx (the padding).
  %c32s = arith.constant dense<32> : tensor<${BLOCKS}x32xi32>
  %blk_base = arith.muli %blk_2d, %c32s : tensor<${BLOCKS}x32xi32>
  %idx = arith.addi %blk_base, %j_2d : tensor<${BLOCKS}x32xi32>
  %kxs = tile.splat %kx : i32 -> tensor<${BLOCKS}x32xi32>
  %in_x = arith.cmpi slt, %idx, %kxs : tensor<${BLOCKS}x32xi32>
  %zeros = arith.constant dense<0.0> : tensor<${BLOCKS}x32xf32>
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCKS}x32x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %idx : tensor<${BLOCKS}x32x!tile.ptr<f32>>, tensor<${BLOCKS}x32xi32>
  %xv = tile.load %x_ptrs mask %in_x other %zeros evict = evict_first : tensor<${BLOCKS}x32x!tile.ptr<f32>>

  // amax, d = amax / 127 and the sum, per block.
  %abs = math.absf %xv : tensor<${BLOCKS}x32xf32>
  %amax = tile.reduce max %abs axis = 1 : tensor<${BLOCKS}x32xf32> -> tensor<${BLOCKS}xf32>
  %sum = tile.reduce sum %xv axis = 1 : tensor<${BLOCKS}x32xf32> -> tensor<${BLOCKS}xf32>
  %c127 = arith.constant dense<127.0> : tensor<${BLOCKS}xf32>
  %d = arith.divf %amax, %c127 : tensor<${BLOCKS}xf32>

  // qs = round(x / d), 0 where amax = 0 (x / d would be NaN there).
  %d_col = tile.expand_dims %d axis = 1 : tensor<${BLOCKS}xf32> -> tensor<${BLOCKS}x1xf32>
  %d_2d = tile.broadcast %d_col : tensor<${BLOCKS}x1xf32> -> tensor<${BLOCKS}x32xf32>
  %scaled = arith.divf %xv, %d_2d : tensor<${BLOCKS}x32xf32>
  %rounded = math.round %scaled : tensor<${BLOCKS}x32xf32>
  %zero_blk = arith.constant dense<0.0> : tensor<${BLOCKS}xf32>
  %is_zero = arith.cmpf oeq, %amax, %zero_blk : tensor<${BLOCKS}xf32>
  %is_zero_col = tile.expand_dims %is_zero axis = 1 : tensor<${BLOCKS}xi1> -> tensor<${BLOCKS}x1xi1>
  %is_zero_2d = tile.broadcast %is_zero_col : tensor<${BLOCKS}x1xi1> -> tensor<${BLOCKS}x32xi1>
  %qf = arith.select %is_zero_2d, %zeros, %rounded : tensor<${BLOCKS}x32xi1>, tensor<${BLOCKS}x32xf32>
  %q = tile.cast %qf rounding = rtz : tensor<${BLOCKS}x32xf32> to tensor<${BLOCKS}x32xi8>

  // qs at byte 36*blk + 4 + j.
  %c36s = arith.constant dense<36> : tensor<${BLOCKS}x32xi32>
  %blk_bytes = arith.muli %blk_2d, %c36s : tensor<${BLOCKS}x32xi32>
  %c4s = arith.constant dense<4> : tensor<${BLOCKS}x32xi32>
  %qs_start = arith.addi %blk_bytes, %c4s : tensor<${BLOCKS}x32xi32>
  %q_off = arith.addi %qs_start, %j_2d : tensor<${BLOCKS}x32xi32>
  %y_rows = tile.splat %y_row : !tile.ptr<i8> -> tensor<${BLOCKS}x32x!tile.ptr<i8>>
  %q_ptrs = tile.addptr %y_rows, %q_off : tensor<${BLOCKS}x32x!tile.ptr<i8>>, tensor<${BLOCKS}x32xi32>
  %n_blks_2d = tile.splat %n_blocks : i32 -> tensor<${BLOCKS}x32xi32>
  %store_ok = arith.cmpi slt, %blk_2d, %n_blks_2d : tensor<${BLOCKS}x32xi32>
  tile.store %q, %q_ptrs mask %store_ok : tensor<${BLOCKS}x32x!tile.ptr<i8>>

  // d and s: f16 words 18*blk and 18*blk + 1.
  %y_half = tile.bitcast %y_row : !tile.ptr<i8> to !tile.ptr<f16>
  %c18 = arith.constant dense<18> : tensor<${BLOCKS}xi32>
  %d_off = arith.muli %blk, %c18 : tensor<${BLOCKS}xi32>
  %ones = arith.constant dense<1> : tensor<${BLOCKS}xi32>
  %s_off = arith.addi %d_off, %ones : tensor<${BLOCKS}xi32>
  %y_halves = tile.splat %y_half : !tile.ptr<f16> -> tensor<${BLOCKS}x!tile.ptr<f16>>
  %d_ptrs = tile.addptr %y_halves, %d_off : tensor<${BLOCKS}x!tile.ptr<f16>>, tensor<${BLOCKS}xi32>
  %s_ptrs = tile.addptr %y_halves, %s_off : tensor<${BLOCKS}x!tile.ptr<f16>>, tensor<${BLOCKS}xi32>
  %d_h = tile.cast %d rounding = rne : tensor<${BLOCKS}xf32> to tensor<${BLOCKS}xf16>
  %s_h = tile.cast %sum rounding = rne : tensor<${BLOCKS}xf32> to tensor<${BLOCKS}xf16>
  tile.store %d_h, %d_ptrs mask %blk_ok : tensor<${BLOCKS}x!tile.ptr<f16>>
  tile.store %s_h, %s_ptrs mask %blk_ok : tensor<${BLOCKS}x!tile.ptr<f16>>
  return
}
