// mul_mat_vec_q for q8_0 x q8_1 (llama.cpp mul_mat_vec_q with
// vec_dot_q8_0_q8_1): the generation-phase linear layer on an activation
// quantized by quantize_q8_1, with integer dot products:
//
//   y[r] = sum_b d0[r, b] * d1[b] * sum_j q0[r, b, j] * q1[b, j]
//
// W: rows of K/32 block_q8_0 = 34 bytes { f16 d; int8 qs[32]; } (rows K/32*34
// bytes apart); xq: block_q8_1 = 36 bytes { f16 d; f16 s; int8 qs[32]; } (at
// least K/32 blocks; s is not needed here). Llama-2 7B: N x K = 4096 x 4096,
// 11008 x 4096, 4096 x 11008.
//
//   grid = ceil(N / ROWS) programs, num_warps = 4
//   constants: ROWS = 2 rows a program; PAIRS = 16 * (blocks of a row an
//   iteration) = 256 (16 blocks); T = ROWS * PAIRS (the tile's rows; the final
//   reshape rejects any other value)
//   args: y (f32, N), w (block_q8_0 bytes), xq (block_q8_1 bytes),
//         n_rows = N, n_cols = K (a multiple of 32)
//
// The tile and its reasons are linear_q8_0's (examples/llama/linear_q8_0.mlir):
// [T, 2] with row i = (row r, block b, pair t) and element (i, k) = quant
// 2t+k, because a q8_0 block's quants are only 2-byte aligned; the q8_1 quants
// (4-byte aligned) and both f16 scales are read as the same byte pairs so
// that every access shares one layout. Each thread multiplies its pair in
// i32 (q0*q1 + q0'*q1', the in-thread half of the seed's dp4a) and adds it,
// scaled by d0*d1, to a per-pair f32 accumulator; the pairs are summed once
// at the end. Measured (H100, L2 flushed, 2026-11-22): 26-31% of copy
// bandwidth at the Llama shapes (ROWS = 2, PAIRS = 256, 4 warps), below
// linear_q8_0 (it also reads the q8_1 pairs and glues a second scale).
func.func @mul_mat_vec_q(%y: !tile.ptr<f32> {tile.divisibility = 16},
                       %w: !tile.ptr<i8> {tile.divisibility = 16},
                       %xq: !tile.ptr<i8> {tile.divisibility = 16},
                       %n_rows: i32,
                       %n_cols: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c34 = arith.constant 34 : i32
  %c36 = arith.constant 36 : i32
  %c_rows = arith.constant ${ROWS} : i32
  %c_pairs = arith.constant ${PAIRS} : i32
  %c16_s = arith.constant 16 : i32
  %c_blocks = arith.divsi %c_pairs, %c16_s : i32
  %n_blocks = arith.divsi %n_cols, %c32 : i32
  %row_bytes = arith.muli %n_blocks, %c34 : i32
  %first_row = arith.muli %pid, %c_rows : i32

  // Row i of the tile: (r, b, t) = (i / PAIRS, i % PAIRS / 16, i % 16).
  %i = tile.make_range 0 to ${T} : tensor<${T}xi32>
  %c_per_row = arith.constant dense<${PAIRS}> : tensor<${T}xi32>
  %c16 = arith.constant dense<16> : tensor<${T}xi32>
  %r = arith.divsi %i, %c_per_row : tensor<${T}xi32>
  %in_row = arith.remsi %i, %c_per_row : tensor<${T}xi32>
  %b = arith.divsi %in_row, %c16 : tensor<${T}xi32>
  %t = arith.remsi %i, %c16 : tensor<${T}xi32>
  %first_rows = tile.splat %first_row : i32 -> tensor<${T}xi32>
  %row = arith.addi %first_rows, %r : tensor<${T}xi32>
  %n_rows_t = tile.splat %n_rows : i32 -> tensor<${T}xi32>
  %row_ok = arith.cmpi slt, %row, %n_rows_t : tensor<${T}xi32>

  // Byte offsets, in the first iteration, of the weight block's scale (d_off)
  // and pair (q_off), and of the q8_1 block's scale (d1_off) and pair (q1_off).
  %row_bytes_t = tile.splat %row_bytes : i32 -> tensor<${T}xi32>
  %row_start = arith.muli %row, %row_bytes_t : tensor<${T}xi32>
  %c34_t = arith.constant dense<34> : tensor<${T}xi32>
  %b_bytes = arith.muli %b, %c34_t : tensor<${T}xi32>
  %d_off = arith.addi %row_start, %b_bytes : tensor<${T}xi32>
  %c2 = arith.constant dense<2> : tensor<${T}xi32>
  %t2 = arith.muli %t, %c2 : tensor<${T}xi32>
  %qs_start = arith.addi %d_off, %c2 : tensor<${T}xi32>
  %q_off = arith.addi %qs_start, %t2 : tensor<${T}xi32>
  %c36_t = arith.constant dense<36> : tensor<${T}xi32>
  %d1_off = arith.muli %b, %c36_t : tensor<${T}xi32>
  %c4 = arith.constant dense<4> : tensor<${T}xi32>
  %qs1_start = arith.addi %d1_off, %c4 : tensor<${T}xi32>
  %q1_off = arith.addi %qs1_start, %t2 : tensor<${T}xi32>

  // The pair's two elements (columns k = 0, 1).
  %k = tile.make_range 0 to 2 : tensor<2xi32>
  %k_row = tile.expand_dims %k axis = 0 : tensor<2xi32> -> tensor<1x2xi32>
  %k_2d = tile.broadcast %k_row : tensor<1x2xi32> -> tensor<${T}x2xi32>
  %d_off_c = tile.expand_dims %d_off axis = 1 : tensor<${T}xi32> -> tensor<${T}x1xi32>
  %d_off_b = tile.broadcast %d_off_c : tensor<${T}x1xi32> -> tensor<${T}x2xi32>
  %d_off_2d = arith.addi %d_off_b, %k_2d : tensor<${T}x2xi32>
  %q_off_c = tile.expand_dims %q_off axis = 1 : tensor<${T}xi32> -> tensor<${T}x1xi32>
  %q_off_b = tile.broadcast %q_off_c : tensor<${T}x1xi32> -> tensor<${T}x2xi32>
  %q_off_2d = arith.addi %q_off_b, %k_2d : tensor<${T}x2xi32>
  %d1_off_c = tile.expand_dims %d1_off axis = 1 : tensor<${T}xi32> -> tensor<${T}x1xi32>
  %d1_off_b = tile.broadcast %d1_off_c : tensor<${T}x1xi32> -> tensor<${T}x2xi32>
  %d1_off_2d = arith.addi %d1_off_b, %k_2d : tensor<${T}x2xi32>
  %q1_off_c = tile.expand_dims %q1_off axis = 1 : tensor<${T}xi32> -> tensor<${T}x1xi32>
  %q1_off_b = tile.broadcast %q1_off_c : tensor<${T}x1xi32> -> tensor<${T}x2xi32>
  %q1_off_2d = arith.addi %q1_off_b, %k_2d : tensor<${T}x2xi32>
  %row_ok_c = tile.expand_dims %row_ok axis = 1 : tensor<${T}xi1> -> tensor<${T}x1xi1>
  %row_ok_2d = tile.broadcast %row_ok_c : tensor<${T}x1xi1> -> tensor<${T}x2xi1>
  %b_c = tile.expand_dims %b axis = 1 : tensor<${T}xi32> -> tensor<${T}x1xi32>
  %b_2d = tile.broadcast %b_c : tensor<${T}x1xi32> -> tensor<${T}x2xi32>
  // Shift of byte k in the f16 scale: lo | hi << 8.
  %c8 = arith.constant dense<8> : tensor<${T}x2xi32>
  %shift = arith.muli %k_2d, %c8 : tensor<${T}x2xi32>
  %c255 = arith.constant dense<255> : tensor<${T}x2xi32>

  %ws = tile.splat %w : !tile.ptr<i8> -> tensor<${T}x2x!tile.ptr<i8>>
  %q_base = tile.addptr %ws, %q_off_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
  %d_base = tile.addptr %ws, %d_off_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
  %xqs = tile.splat %xq : !tile.ptr<i8> -> tensor<${T}x2x!tile.ptr<i8>>
  %q1_base = tile.addptr %xqs, %q1_off_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
  %d1_base = tile.addptr %xqs, %d1_off_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
  %n_blocks_2d = tile.splat %n_blocks : i32 -> tensor<${T}x2xi32>
  %zero_q = arith.constant dense<0> : tensor<${T}x2xi8>
  %zero_acc = arith.constant dense<0.0> : tensor<${T}xf32>

  %acc = scf.for %kb = %c0 to %n_blocks step %c_blocks iter_args(%acc_in = %zero_acc) -> (tensor<${T}xf32>) : i32 {
    %kbs = tile.splat %kb : i32 -> tensor<${T}x2xi32>
    %blk = arith.addi %kbs, %b_2d : tensor<${T}x2xi32>
    %blk_ok = arith.cmpi slt, %blk, %n_blocks_2d : tensor<${T}x2xi32>
    %mask = arith.andi %blk_ok, %row_ok_2d : tensor<${T}x2xi1>
    %kb_bytes = arith.muli %kb, %c34 : i32
    %kb_bytes1 = arith.muli %kb, %c36 : i32
    %kb_bytes_2d = tile.splat %kb_bytes : i32 -> tensor<${T}x2xi32>
    %kb_bytes1_2d = tile.splat %kb_bytes1 : i32 -> tensor<${T}x2xi32>
    %q_ptrs = tile.addptr %q_base, %kb_bytes_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
    %d_ptrs = tile.addptr %d_base, %kb_bytes_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
    %q1_ptrs = tile.addptr %q1_base, %kb_bytes1_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
    %d1_ptrs = tile.addptr %d1_base, %kb_bytes1_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
    %q = tile.load %q_ptrs mask %mask other %zero_q evict = evict_first : tensor<${T}x2x!tile.ptr<i8>>
    %d_bytes = tile.load %d_ptrs mask %mask other %zero_q evict = evict_first : tensor<${T}x2x!tile.ptr<i8>>
    %q1 = tile.load %q1_ptrs mask %mask other %zero_q evict = evict_last : tensor<${T}x2x!tile.ptr<i8>>
    %d1_bytes = tile.load %d1_ptrs mask %mask other %zero_q evict = evict_last : tensor<${T}x2x!tile.ptr<i8>>

    // d0 * d1: each scale's two bytes glued in the thread that holds them.
    %d_wide = tile.cast %d_bytes : tensor<${T}x2xi8> to tensor<${T}x2xi32>
    %d_byte = arith.andi %d_wide, %c255 : tensor<${T}x2xi32>
    %d_part = arith.shli %d_byte, %shift : tensor<${T}x2xi32>
    %d_bits = tile.reduce sum %d_part axis = 1 : tensor<${T}x2xi32> -> tensor<${T}xi32>
    %d_bits16 = tile.cast %d_bits : tensor<${T}xi32> to tensor<${T}xi16>
    %d_half = tile.bitcast %d_bits16 : tensor<${T}xi16> to tensor<${T}xf16>
    %d = tile.cast %d_half : tensor<${T}xf16> to tensor<${T}xf32>
    %d1_wide = tile.cast %d1_bytes : tensor<${T}x2xi8> to tensor<${T}x2xi32>
    %d1_byte = arith.andi %d1_wide, %c255 : tensor<${T}x2xi32>
    %d1_part = arith.shli %d1_byte, %shift : tensor<${T}x2xi32>
    %d1_bits = tile.reduce sum %d1_part axis = 1 : tensor<${T}x2xi32> -> tensor<${T}xi32>
    %d1_bits16 = tile.cast %d1_bits : tensor<${T}xi32> to tensor<${T}xi16>
    %d1_half = tile.bitcast %d1_bits16 : tensor<${T}xi16> to tensor<${T}xf16>
    %d1 = tile.cast %d1_half : tensor<${T}xf16> to tensor<${T}xf32>
    %dd = arith.mulf %d, %d1 : tensor<${T}xf32>

    // The pair's integer dot product, in i32.
    %q0i = tile.cast %q : tensor<${T}x2xi8> to tensor<${T}x2xi32>
    %q1i = tile.cast %q1 : tensor<${T}x2xi8> to tensor<${T}x2xi32>
    %prod = arith.muli %q0i, %q1i : tensor<${T}x2xi32>
    %dot = tile.reduce sum %prod axis = 1 : tensor<${T}x2xi32> -> tensor<${T}xi32>
    %dotf = tile.cast %dot : tensor<${T}xi32> to tensor<${T}xf32>
    %acc_out = math.fma %dotf, %dd, %acc_in : tensor<${T}xf32>
    scf.yield %acc_out : tensor<${T}xf32>
  }

  // Sum each row's PAIRS pair sums.
  %by_row = tile.reshape %acc : tensor<${T}xf32> -> tensor<${ROWS}x${PAIRS}xf32>
  %sums = tile.reduce sum %by_row axis = 1 : tensor<${ROWS}x${PAIRS}xf32> -> tensor<${ROWS}xf32>

  %rr = tile.make_range 0 to ${ROWS} : tensor<${ROWS}xi32>
  %first_rows_r = tile.splat %first_row : i32 -> tensor<${ROWS}xi32>
  %out_rows = arith.addi %first_rows_r, %rr : tensor<${ROWS}xi32>
  %n_rows_r = tile.splat %n_rows : i32 -> tensor<${ROWS}xi32>
  %out_ok = arith.cmpi slt, %out_rows, %n_rows_r : tensor<${ROWS}xi32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %ys, %out_rows : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  tile.store %sums, %y_ptrs mask %out_ok : tensor<${ROWS}x!tile.ptr<f32>>
  return
}
