// linear_q8_0 (llama.cpp dequantize_mul_mat_vec for q8_0): the generation-phase
// linear layer, a dequantizing matrix-vector product
//
//   y[r] = sum_c W[r, c] * x[c],   W[r, 32*b + j] = d[r, b] * qs[r, b, j]
//
// with W as rows of K/32 block_q8_0 = 34 bytes { f16 d; int8 qs[32]; }, rows
// K/32*34 bytes apart, and x f32. Llama-2 7B: N x K = 4096 x 4096 (Q, K, V, O),
// 11008 x 4096 (gate, up), 4096 x 11008 (down).
//
//   grid = ceil(N / ROWS) programs, num_warps = 4
//   constants: ROWS = 2 rows a program; PAIRS = 16 * (blocks of a row an
//   iteration) = 256 (16 blocks, 512 B of quants); T = ROWS * PAIRS (the
//   tile's rows; the final reshape rejects any other value)
//   args: y (f32, N), w (block_q8_0 bytes), x (f32, K), n_rows = N,
//         n_cols = K (a multiple of 32)
//
// How the rows are read. Blocks are 34 bytes and only 2-byte aligned, so no
// 4- or 16-byte access can start at a block's quants: the widest access
// the data allows per block is 2 bytes. The tile is therefore [T, 2] with
// T = ROWS*PAIRS and row i = (row r, block b, pair t): element (i, k) is
// quant 2t+k of block b, at byte 34*b + 2 + 2t + k of row r. Every access
// of the loop uses that same [T, 2] shape and contiguity 2, so they all get
// one layout (2 elements a thread, 32 consecutive pairs a warp = 64 almost
// contiguous bytes, 2 blocks) and nothing is converted in the loop:
//   - quants: one 2-byte load a thread (ld.global.v2.u8),
//   - x[32b + 2t + k]: one 8-byte load (v2.f32), from L1/L2 (x is small),
//   - the scale d: its 2 bytes (34*b + k) as the same i8 pair, glued into an
//     f16 inside the thread ((lo | hi << 8) by a 2-element in-thread
//     reduction, i16 -> f16 bitcast); the 16 threads of a block load the same
//     word, which the warp's load serves once.
// Partial sums stay per element (acc += q * x * d) and are reduced once at
// the end: within the pair, then over the row's PAIRS pairs.
//
// Measured (H100, scratch driver, L2 flushed, 2026-11-22): 31-41% of copy
// bandwidth at the Llama shapes with ROWS = 2, PAIRS = 256, 4 warps (best of
// ROWS 1-4, PAIRS 256-1024, 4-8 warps; 1 row and PAIRS = 512 is as good):
// short of the 75% goal. Per 16 quant bytes a thread issues 8 two-byte quant
// loads, 8 two-byte scale loads and 8 x loads; the data would allow one
// 16-byte load for 16 bytes.
//
// A 16-byte formulation needs what the DSL lacks: 8 blocks (272 bytes) are
// 17 aligned 16-byte vectors, but turning a [G*17, 16] byte tile into
// [8G, 32] quants + [8G] scales is a non-power-of-two regrouping that only
// a gather/shuffle inside the program (or a shared-memory staging load that
// the compiler would have to emit: 16-byte loads into shared memory, then the
// [T, 2] layout out of it) could express.
func.func @linear_q8_0(%y: !tile.ptr<f32> {tile.divisibility = 16},
                       %w: !tile.ptr<i8> {tile.divisibility = 16},
                       %x: !tile.ptr<f32> {tile.divisibility = 16},
                       %n_rows: i32,
                       %n_cols: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c34 = arith.constant 34 : i32
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

  // Byte offsets of the block's scale (d_off) and of the pair (q_off) in the
  // first iteration, and the index of the pair's x (x_off).
  %row_bytes_t = tile.splat %row_bytes : i32 -> tensor<${T}xi32>
  %row_start = arith.muli %row, %row_bytes_t : tensor<${T}xi32>
  %c34_t = arith.constant dense<34> : tensor<${T}xi32>
  %b_bytes = arith.muli %b, %c34_t : tensor<${T}xi32>
  %d_off = arith.addi %row_start, %b_bytes : tensor<${T}xi32>
  %c2 = arith.constant dense<2> : tensor<${T}xi32>
  %t2 = arith.muli %t, %c2 : tensor<${T}xi32>
  %qs_start = arith.addi %d_off, %c2 : tensor<${T}xi32>
  %q_off = arith.addi %qs_start, %t2 : tensor<${T}xi32>
  %c32_t = arith.constant dense<32> : tensor<${T}xi32>
  %b_vals = arith.muli %b, %c32_t : tensor<${T}xi32>
  %x_off = arith.addi %b_vals, %t2 : tensor<${T}xi32>

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
  %x_off_c = tile.expand_dims %x_off axis = 1 : tensor<${T}xi32> -> tensor<${T}x1xi32>
  %x_off_b = tile.broadcast %x_off_c : tensor<${T}x1xi32> -> tensor<${T}x2xi32>
  %x_off_2d = arith.addi %x_off_b, %k_2d : tensor<${T}x2xi32>
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
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<${T}x2x!tile.ptr<f32>>
  %x_base = tile.addptr %xs, %x_off_2d : tensor<${T}x2x!tile.ptr<f32>>, tensor<${T}x2xi32>
  %n_blocks_2d = tile.splat %n_blocks : i32 -> tensor<${T}x2xi32>
  %zero_q = arith.constant dense<0> : tensor<${T}x2xi8>
  %zero_x = arith.constant dense<0.0> : tensor<${T}x2xf32>

  %acc = scf.for %kb = %c0 to %n_blocks step %c_blocks iter_args(%acc_in = %zero_x) -> (tensor<${T}x2xf32>) : i32 {
    %kbs = tile.splat %kb : i32 -> tensor<${T}x2xi32>
    %blk = arith.addi %kbs, %b_2d : tensor<${T}x2xi32>
    %blk_ok = arith.cmpi slt, %blk, %n_blocks_2d : tensor<${T}x2xi32>
    %mask = arith.andi %blk_ok, %row_ok_2d : tensor<${T}x2xi1>
    %kb_bytes = arith.muli %kb, %c34 : i32
    %kb_vals = arith.muli %kb, %c32 : i32
    %kb_bytes_2d = tile.splat %kb_bytes : i32 -> tensor<${T}x2xi32>
    %kb_vals_2d = tile.splat %kb_vals : i32 -> tensor<${T}x2xi32>
    %q_ptrs = tile.addptr %q_base, %kb_bytes_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
    %d_ptrs = tile.addptr %d_base, %kb_bytes_2d : tensor<${T}x2x!tile.ptr<i8>>, tensor<${T}x2xi32>
    %x_ptrs = tile.addptr %x_base, %kb_vals_2d : tensor<${T}x2x!tile.ptr<f32>>, tensor<${T}x2xi32>
    %q = tile.load %q_ptrs mask %mask other %zero_q evict = evict_first : tensor<${T}x2x!tile.ptr<i8>>
    %d_bytes = tile.load %d_ptrs mask %mask other %zero_q evict = evict_first : tensor<${T}x2x!tile.ptr<i8>>
    %xv = tile.load %x_ptrs mask %mask other %zero_x evict = evict_last : tensor<${T}x2x!tile.ptr<f32>>

    // d: its two bytes, glued in the thread that holds them.
    %d_wide = tile.cast %d_bytes : tensor<${T}x2xi8> to tensor<${T}x2xi32>
    %d_byte = arith.andi %d_wide, %c255 : tensor<${T}x2xi32>
    %d_part = arith.shli %d_byte, %shift : tensor<${T}x2xi32>
    %d_bits = tile.reduce sum %d_part axis = 1 : tensor<${T}x2xi32> -> tensor<${T}xi32>
    %d_bits16 = tile.cast %d_bits : tensor<${T}xi32> to tensor<${T}xi16>
    %d_half = tile.bitcast %d_bits16 : tensor<${T}xi16> to tensor<${T}xf16>
    %d = tile.cast %d_half : tensor<${T}xf16> to tensor<${T}xf32>
    %d_c = tile.expand_dims %d axis = 1 : tensor<${T}xf32> -> tensor<${T}x1xf32>
    %d_2d = tile.broadcast %d_c : tensor<${T}x1xf32> -> tensor<${T}x2xf32>

    %qf = tile.cast %q : tensor<${T}x2xi8> to tensor<${T}x2xf32>
    %qx = arith.mulf %qf, %xv : tensor<${T}x2xf32>
    %acc_out = math.fma %qx, %d_2d, %acc_in : tensor<${T}x2xf32>
    scf.yield %acc_out : tensor<${T}x2xf32>
  }

  // Sum each row's pairs: within the pair, then over its PAIRS rows.
  %pair_sums = tile.reduce sum %acc axis = 1 : tensor<${T}x2xf32> -> tensor<${T}xf32>
  %by_row = tile.reshape %pair_sums : tensor<${T}xf32> -> tensor<${ROWS}x${PAIRS}xf32>
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
