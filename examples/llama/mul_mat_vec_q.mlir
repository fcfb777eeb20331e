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
//   constants: ROWS = 4 rows a program, BLOCKS = 32 blocks of a row an
//   iteration (powers of two)
//   args: y (f32, N), w (block_q8_0 bytes), xq (block_q8_1 bytes),
//         n_rows = N, n_cols = K (a multiple of 32)
//
// The tile and its layout are linear_q8_0's
// (examples/llama/linear_q8_0.mlir): [ROWS, BLOCKS, 32], each thread holding
// 16 quants of a block (two aligned 16-byte loads, realigned in registers)
// for ROWS / 2 rows. The q8_1 quants ([1, BLOCKS, 32], 4-byte aligned:
// realigned by whole words) are loaded once a thread and broadcast over its
// rows; both scales are f16 loads. The integer dot product of a block is an
// i32 sum of products of sign-extended i8, which the compiler lowers to dp4a
// (4 for a thread's 16 quants), then one shuffle joins the block's two
// halves; d0 * d1 scales it into a [ROWS, BLOCKS, 1] f32 accumulator summed
// once at the end.
//
// Measured (H100, bench/llama/bench.py, weights rotated out of L2, 2026-11-24,
// bench/results/2026-11-24-h100/llama-matvec*.csv), at
// 4096x4096 / 11008x4096 / 4096x11008: 70.5 / 88.6 / 87.1% of the bandwidth
// floor as stream launches, 78.9 / 92.5 / 90.2% replayed as a CUDA graph
// and 81.1 / 94.9 / 89.2% as a graph of dependent launches; against the
// seed's dp4a mmvq (one warp a row) 1.44 / 1.54 / 1.45x, 1.48 / 1.54 /
// 1.44x and 1.53 / 1.59 / 1.43x; 2.8-3.2x Triton. The L2 prefetch of the
// first iteration before the wait gave 3-7% in a graph (docs/perf-history.md).
func.func @mul_mat_vec_q(%y: !tile.ptr<f32> {tile.divisibility = 16},
                       %w: !tile.ptr<i8> {tile.divisibility = 16},
                       %xq: !tile.ptr<i8> {tile.divisibility = 16},
                       %n_rows: i32,
                       %n_cols: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %c0 = arith.constant 0 : i32
  %c17 = arith.constant 17 : i32
  %c32 = arith.constant 32 : i32
  %c34 = arith.constant 34 : i32
  %c18 = arith.constant 18 : i32
  %c36 = arith.constant 36 : i32
  %c_rows = arith.constant ${ROWS} : i32
  %c_blocks = arith.constant ${BLOCKS} : i32
  %n_blocks = arith.divsi %n_cols, %c32 : i32
  %row_bytes = arith.muli %n_blocks, %c34 : i32
  %row_halves = arith.muli %n_blocks, %c17 : i32
  %first_row = arith.muli %pid, %c_rows : i32

  // Rows (dimension 0), blocks (1) and quants (2), each expanded to 3-D.
  %r = tile.make_range 0 to ${ROWS} : tensor<${ROWS}xi32>
  %first_rows = tile.splat %first_row : i32 -> tensor<${ROWS}xi32>
  %rows = arith.addi %first_rows, %r : tensor<${ROWS}xi32>
  %rows_a = tile.expand_dims %rows axis = 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %rows_3 = tile.expand_dims %rows_a axis = 2 : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x1x1xi32>
  %b = tile.make_range 0 to ${BLOCKS} : tensor<${BLOCKS}xi32>
  %b_a = tile.expand_dims %b axis = 0 : tensor<${BLOCKS}xi32> -> tensor<1x${BLOCKS}xi32>
  %b_3 = tile.expand_dims %b_a axis = 2 : tensor<1x${BLOCKS}xi32> -> tensor<1x${BLOCKS}x1xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j_a = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %j_3 = tile.expand_dims %j_a axis = 0 : tensor<1x32xi32> -> tensor<1x1x32xi32>

  // Per (row, block): whether the row exists, the byte offset of the block's
  // d and the f16 index of d, in the first iteration.
  %n_rows_r = tile.splat %n_rows : i32 -> tensor<${ROWS}x1x1xi32>
  %row_ok_r = arith.cmpi slt, %rows_3, %n_rows_r : tensor<${ROWS}x1x1xi32>
  %row_ok = tile.broadcast %row_ok_r : tensor<${ROWS}x1x1xi1> -> tensor<${ROWS}x${BLOCKS}x1xi1>
  %row_bytes_r = tile.splat %row_bytes : i32 -> tensor<${ROWS}x1x1xi32>
  %row_start_r = arith.muli %rows_3, %row_bytes_r : tensor<${ROWS}x1x1xi32>
  %row_start = tile.broadcast %row_start_r : tensor<${ROWS}x1x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %row_halves_r = tile.splat %row_halves : i32 -> tensor<${ROWS}x1x1xi32>
  %row_d_r = arith.muli %rows_3, %row_halves_r : tensor<${ROWS}x1x1xi32>
  %row_d = tile.broadcast %row_d_r : tensor<${ROWS}x1x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %c34_b = arith.constant dense<34> : tensor<1x${BLOCKS}x1xi32>
  %b_bytes_b = arith.muli %b_3, %c34_b : tensor<1x${BLOCKS}x1xi32>
  %b_bytes = tile.broadcast %b_bytes_b : tensor<1x${BLOCKS}x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %c17_b = arith.constant dense<17> : tensor<1x${BLOCKS}x1xi32>
  %b_d_b = arith.muli %b_3, %c17_b : tensor<1x${BLOCKS}x1xi32>
  %b_d = tile.broadcast %b_d_b : tensor<1x${BLOCKS}x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %block_off = arith.addi %row_start, %b_bytes : tensor<${ROWS}x${BLOCKS}x1xi32>
  %d_idx = arith.addi %row_d, %b_d : tensor<${ROWS}x${BLOCKS}x1xi32>
  %b_rb = tile.broadcast %b_3 : tensor<1x${BLOCKS}x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>

  // Quant (r, b, j) at block_off + 2 + j; x (b, j) at 32 b + j.
  %c2_q = arith.constant dense<2> : tensor<1x1x32xi32>
  %j_bytes = arith.addi %j_3, %c2_q : tensor<1x1x32xi32>
  %j_q = tile.broadcast %j_bytes : tensor<1x1x32xi32> -> tensor<${ROWS}x${BLOCKS}x32xi32>
  %block_q = tile.broadcast %block_off : tensor<${ROWS}x${BLOCKS}x1xi32> -> tensor<${ROWS}x${BLOCKS}x32xi32>
  %q_off = arith.addi %block_q, %j_q : tensor<${ROWS}x${BLOCKS}x32xi32>
  // q8_1 quant (b, j) at 36 b + 4 + j, its d at f16 index 18 b.
  %c36_x = arith.constant dense<36> : tensor<1x${BLOCKS}x1xi32>
  %b_bytes1 = arith.muli %b_3, %c36_x : tensor<1x${BLOCKS}x1xi32>
  %b_bytes1_x = tile.broadcast %b_bytes1 : tensor<1x${BLOCKS}x1xi32> -> tensor<1x${BLOCKS}x32xi32>
  %c4_x = arith.constant dense<4> : tensor<1x1x32xi32>
  %j4 = arith.addi %j_3, %c4_x : tensor<1x1x32xi32>
  %j4_x = tile.broadcast %j4 : tensor<1x1x32xi32> -> tensor<1x${BLOCKS}x32xi32>
  %x_off = arith.addi %b_bytes1_x, %j4_x : tensor<1x${BLOCKS}x32xi32>
  %c18_x = arith.constant dense<18> : tensor<1x${BLOCKS}x1xi32>
  %d1_idx = arith.muli %b_3, %c18_x : tensor<1x${BLOCKS}x1xi32>

  %ws = tile.splat %w : !tile.ptr<i8> -> tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>
  %q_base = tile.addptr %ws, %q_off : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>, tensor<${ROWS}x${BLOCKS}x32xi32>
  %w_half = tile.bitcast %w : !tile.ptr<i8> to !tile.ptr<f16>
  %wds = tile.splat %w_half : !tile.ptr<f16> -> tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>
  %d_base = tile.addptr %wds, %d_idx : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>, tensor<${ROWS}x${BLOCKS}x1xi32>
  %xs = tile.splat %xq : !tile.ptr<i8> -> tensor<1x${BLOCKS}x32x!tile.ptr<i8>>
  %x_base = tile.addptr %xs, %x_off : tensor<1x${BLOCKS}x32x!tile.ptr<i8>>, tensor<1x${BLOCKS}x32xi32>
  %xq_half = tile.bitcast %xq : !tile.ptr<i8> to !tile.ptr<f16>
  %xds = tile.splat %xq_half : !tile.ptr<f16> -> tensor<1x${BLOCKS}x1x!tile.ptr<f16>>
  %d1_base = tile.addptr %xds, %d1_idx : tensor<1x${BLOCKS}x1x!tile.ptr<f16>>, tensor<1x${BLOCKS}x1xi32>
  %n_blocks_d1 = tile.splat %n_blocks : i32 -> tensor<1x${BLOCKS}x1xi32>
  %n_blocks_rb = tile.splat %n_blocks : i32 -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %n_blocks_x = tile.splat %n_blocks : i32 -> tensor<1x${BLOCKS}x32xi32>
  %b_x = tile.broadcast %b_3 : tensor<1x${BLOCKS}x1xi32> -> tensor<1x${BLOCKS}x32xi32>
  %zero_q = arith.constant dense<0> : tensor<${ROWS}x${BLOCKS}x32xi8>
  %zero_x = arith.constant dense<0> : tensor<1x${BLOCKS}x32xi8>
  %zero_d1 = arith.constant dense<0.0> : tensor<1x${BLOCKS}x1xf16>
  %zero_d = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCKS}x1xf16>
  %zero_acc = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCKS}x1xf32>

  // The first iteration's quants into L2, then wait for the kernel before
  // this one, then let the next launch: as in linear_q8_0.mlir, which says why.
  %blk0_ok = arith.cmpi slt, %b_rb, %n_blocks_rb : tensor<${ROWS}x${BLOCKS}x1xi32>
  %ok0 = arith.andi %blk0_ok, %row_ok : tensor<${ROWS}x${BLOCKS}x1xi1>
  %ok0_q = tile.broadcast %ok0 : tensor<${ROWS}x${BLOCKS}x1xi1> -> tensor<${ROWS}x${BLOCKS}x32xi1>
  tile.prefetch %q_base mask %ok0_q : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>
  tile.grid_dependency_wait
  tile.launch_dependents

  %acc = scf.for %kb = %c0 to %n_blocks step %c_blocks iter_args(%acc_in = %zero_acc) -> (tensor<${ROWS}x${BLOCKS}x1xf32>) : i32 {
    // Blocks kb + b that exist, in rows that exist.
    %kbs = tile.splat %kb : i32 -> tensor<${ROWS}x${BLOCKS}x1xi32>
    %blk = arith.addi %kbs, %b_rb : tensor<${ROWS}x${BLOCKS}x1xi32>
    %blk_ok = arith.cmpi slt, %blk, %n_blocks_rb : tensor<${ROWS}x${BLOCKS}x1xi32>
    %ok = arith.andi %blk_ok, %row_ok : tensor<${ROWS}x${BLOCKS}x1xi1>
    %ok_q = tile.broadcast %ok : tensor<${ROWS}x${BLOCKS}x1xi1> -> tensor<${ROWS}x${BLOCKS}x32xi1>
    %kbs_x = tile.splat %kb : i32 -> tensor<1x${BLOCKS}x32xi32>
    %blk_x = arith.addi %kbs_x, %b_x : tensor<1x${BLOCKS}x32xi32>
    %ok_x = arith.cmpi slt, %blk_x, %n_blocks_x : tensor<1x${BLOCKS}x32xi32>

    %kb_bytes = arith.muli %kb, %c34 : i32
    %kb_bytes_q = tile.splat %kb_bytes : i32 -> tensor<${ROWS}x${BLOCKS}x32xi32>
    %q_ptrs = tile.addptr %q_base, %kb_bytes_q : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>, tensor<${ROWS}x${BLOCKS}x32xi32>
    %kb_halves = arith.muli %kb, %c17 : i32
    %kb_halves_d = tile.splat %kb_halves : i32 -> tensor<${ROWS}x${BLOCKS}x1xi32>
    %d_ptrs = tile.addptr %d_base, %kb_halves_d : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>, tensor<${ROWS}x${BLOCKS}x1xi32>
    %kb_bytes1 = arith.muli %kb, %c36 : i32
    %kb_bytes1_x = tile.splat %kb_bytes1 : i32 -> tensor<1x${BLOCKS}x32xi32>
    %x_ptrs = tile.addptr %x_base, %kb_bytes1_x : tensor<1x${BLOCKS}x32x!tile.ptr<i8>>, tensor<1x${BLOCKS}x32xi32>
    %kb_halves1 = arith.muli %kb, %c18 : i32
    %kb_halves1_d = tile.splat %kb_halves1 : i32 -> tensor<1x${BLOCKS}x1xi32>
    %d1_ptrs = tile.addptr %d1_base, %kb_halves1_d : tensor<1x${BLOCKS}x1x!tile.ptr<f16>>, tensor<1x${BLOCKS}x1xi32>
    %kbs_d1 = tile.splat %kb : i32 -> tensor<1x${BLOCKS}x1xi32>
    %blk_d1 = arith.addi %kbs_d1, %b_3 : tensor<1x${BLOCKS}x1xi32>
    %ok_d1 = arith.cmpi slt, %blk_d1, %n_blocks_d1 : tensor<1x${BLOCKS}x1xi32>

    // The small loads first, then the quants: every load is in flight before
    // the first use of quant data (their realignment) waits for it.
    %d_h = tile.load %d_ptrs mask %ok other %zero_d evict = evict_first : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>
    %q1 = tile.load %x_ptrs mask %ok_x other %zero_x evict = evict_last : tensor<1x${BLOCKS}x32x!tile.ptr<i8>>
    %d1_h = tile.load %d1_ptrs mask %ok_d1 other %zero_d1 evict = evict_last : tensor<1x${BLOCKS}x1x!tile.ptr<f16>>
    %q = tile.load %q_ptrs mask %ok_q other %zero_q evict = evict_first : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>

    // The blocks' integer dot products (dp4a), then d0 * d1 * dot.
    %q1b = tile.broadcast %q1 : tensor<1x${BLOCKS}x32xi8> -> tensor<${ROWS}x${BLOCKS}x32xi8>
    %q0i = tile.cast %q : tensor<${ROWS}x${BLOCKS}x32xi8> to tensor<${ROWS}x${BLOCKS}x32xi32>
    %q1i = tile.cast %q1b : tensor<${ROWS}x${BLOCKS}x32xi8> to tensor<${ROWS}x${BLOCKS}x32xi32>
    %prod = arith.muli %q0i, %q1i : tensor<${ROWS}x${BLOCKS}x32xi32>
    %dot = tile.reduce sum %prod axis = 2 : tensor<${ROWS}x${BLOCKS}x32xi32> -> tensor<${ROWS}x${BLOCKS}xi32>
    %dot_3 = tile.expand_dims %dot axis = 2 : tensor<${ROWS}x${BLOCKS}xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
    %dotf = tile.cast %dot_3 : tensor<${ROWS}x${BLOCKS}x1xi32> to tensor<${ROWS}x${BLOCKS}x1xf32>
    %d0 = tile.cast %d_h : tensor<${ROWS}x${BLOCKS}x1xf16> to tensor<${ROWS}x${BLOCKS}x1xf32>
    %d1_b = tile.broadcast %d1_h : tensor<1x${BLOCKS}x1xf16> -> tensor<${ROWS}x${BLOCKS}x1xf16>
    %d1 = tile.cast %d1_b : tensor<${ROWS}x${BLOCKS}x1xf16> to tensor<${ROWS}x${BLOCKS}x1xf32>
    %dd = arith.mulf %d0, %d1 : tensor<${ROWS}x${BLOCKS}x1xf32>
    %acc_out = math.fma %dotf, %dd, %acc_in : tensor<${ROWS}x${BLOCKS}x1xf32>
    scf.yield %acc_out : tensor<${ROWS}x${BLOCKS}x1xf32>
  }

  // Sum each row's blocks.
  %acc_2 = tile.reduce sum %acc axis = 2 : tensor<${ROWS}x${BLOCKS}x1xf32> -> tensor<${ROWS}x${BLOCKS}xf32>
  %sums = tile.reduce sum %acc_2 axis = 1 : tensor<${ROWS}x${BLOCKS}xf32> -> tensor<${ROWS}xf32>

  // The program's outputs: y[first_row + r] for r < n_rows - first_row (the
  // 3-D index tiles above are not reused: this store has its own layout).
  %rows_left = arith.subi %n_rows, %first_row : i32
  %rows_left_o = tile.splat %rows_left : i32 -> tensor<${ROWS}xi32>
  %out_ok = arith.cmpi slt, %r, %rows_left_o : tensor<${ROWS}xi32>
  %y_first = tile.addptr %y, %first_row : !tile.ptr<f32>, i32
  %ys = tile.splat %y_first : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %ys, %r : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  tile.store %sums, %y_ptrs mask %out_ok : tensor<${ROWS}x!tile.ptr<f32>>
  return
}
