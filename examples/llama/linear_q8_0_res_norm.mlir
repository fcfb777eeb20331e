// linear_q8_0_res_norm: the decode step's attention-output and down
// projections with what follows them up to the next mat-vec: linear_q8_0.mlir's
// dequantizing mat-vec (which says how it works), the residual add in its
// epilogue, and the next RMS norm with its q8_1 quantization
// (rms_norm_q8_1.mlir's), spread over the programs:
//
//   y[r] = res[r] + sum_c W[r, c] * a[c]                 (y may be res)
//   xq = q8_1(y * rsqrt(mean(y^2) + eps) * gamma)
//
// Each program stores its rows of y and the sum of their squares
// (partials[pid]), then counts itself in its q8_1 block's block_count (a
// program's acq_rel atomic: every thread's store happens before it). The
// block's last program quantizes the block's y * gamma without the norm's
// scale (q8_1's quants are the same for v and c v, c > 0), keeps d' =
// amax / 127 and the block's sum in block_scratch, and counts the block in
// `count`; the last block's program sums the partials (in a fixed order:
// reproducible), and writes every block's d = scale d' and s = scale sum.
// The counts go back to 0 for the next launch. No launch of its own, and no
// pass over the whole vector by one program: only the scale waits for all
// of y. (One program doing the whole norm made the kernel 116 registers and
// its last program 3 us on a 7B's 4096 rows.)
//
// The weights are in llk-llama's split q8_0 layout (llama/lib/Engine.cpp):
// the quants of each matrix as i8 [N][K] (w) and the blocks' scales as f16
// [N][K/32] (wd), the bytes of block_q8_0 rows rearranged, so that a
// thread's 16 quants of a block are one aligned 16-byte load, with no
// realignment (mul_mat_vec_q.mlir, on ggml's 34-byte blocks, loads the two
// windows around them and selects).
//
//   grid = N / ROWS programs, num_warps = 4
//   constants: ROWS (8; it divides 32), BLOCKS (32), NORM_CHUNK (q8_1
//   blocks whose d and s the last program writes a step: 128, a 7B's 4096
//   values in one step)
//   args: y, res (f32, N), w, wd (quants and scales, split), a (f32, K),
//         n_rows = N (a multiple of 32), n_cols = K (a multiple of 32),
//         gamma (f32, N), xq (q8_1, N / 32 blocks), count (i32, 0 before
//         the launch and after it), partials (f32 scratch, one a program),
//         block_count (i32 [N / 32], 0 before and after), block_scratch
//         (f32 scratch [2 N / 32]), eps
func.func @linear_q8_0_res_norm(%y: !tile.ptr<f32> {tile.divisibility = 16},
                                %res: !tile.ptr<f32> {tile.divisibility = 16},
                                %w: !tile.ptr<i8> {tile.divisibility = 16},
                                %wd: !tile.ptr<f16> {tile.divisibility = 16},
                                %x: !tile.ptr<f32> {tile.divisibility = 16},
                                %n_rows: i32 {tile.divisibility = 16},
                                %n_cols: i32 {tile.divisibility = 16},
                                %gamma: !tile.ptr<f32> {tile.divisibility = 16},
                                %xq: !tile.ptr<i8> {tile.divisibility = 16},
                                %count: !tile.ptr<i32>,
                                %partials: !tile.ptr<f32> {tile.divisibility = 16},
                                %block_count: !tile.ptr<i32>,
                                %block_scratch: !tile.ptr<f32> {tile.divisibility = 16},
                                %eps: f32) {
  %pid = tile.program_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c_rows = arith.constant ${ROWS} : i32
  %c_blocks = arith.constant ${BLOCKS} : i32
  %n_blocks = arith.divsi %n_cols, %c32 : i32
  // A program's rows lie in one q8_1 block of 32 (see the end).
  %rows_rem = arith.remsi %c32, %c_rows : i32
  %rows_divide = arith.cmpi eq, %rows_rem, %c0 : i32
  tile.static_assert %rows_divide, "ROWS must divide 32"
  %row_bytes = arith.muli %n_blocks, %c32 : i32
  // 1, in a form the contiguity analysis cannot see through: the scales'
  // loads then take the quants' layout (a thread's rows' scales of its
  // block) instead of a vectorized one of their own, converted through
  // shared memory every iteration.
  %unit = arith.divsi %n_cols, %n_cols : i32
  %row_halves = arith.muli %n_blocks, %unit : i32
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
  // quants and the f16 index of its d, in the first iteration.
  %n_rows_r = tile.splat %n_rows : i32 -> tensor<${ROWS}x1x1xi32>
  %row_ok_r = arith.cmpi slt, %rows_3, %n_rows_r : tensor<${ROWS}x1x1xi32>
  %row_ok = tile.broadcast %row_ok_r : tensor<${ROWS}x1x1xi1> -> tensor<${ROWS}x${BLOCKS}x1xi1>
  %row_bytes_r = tile.splat %row_bytes : i32 -> tensor<${ROWS}x1x1xi32>
  %row_start_r = arith.muli %rows_3, %row_bytes_r : tensor<${ROWS}x1x1xi32>
  %row_start = tile.broadcast %row_start_r : tensor<${ROWS}x1x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %row_halves_r = tile.splat %row_halves : i32 -> tensor<${ROWS}x1x1xi32>
  %row_d_r = arith.muli %rows_3, %row_halves_r : tensor<${ROWS}x1x1xi32>
  %row_d = tile.broadcast %row_d_r : tensor<${ROWS}x1x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %c32_b = arith.constant dense<32> : tensor<1x${BLOCKS}x1xi32>
  %b_bytes_b = arith.muli %b_3, %c32_b : tensor<1x${BLOCKS}x1xi32>
  %b_bytes = tile.broadcast %b_bytes_b : tensor<1x${BLOCKS}x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %unit_b = tile.splat %unit : i32 -> tensor<1x${BLOCKS}x1xi32>
  %b_d_b = arith.muli %b_3, %unit_b : tensor<1x${BLOCKS}x1xi32>
  %b_d = tile.broadcast %b_d_b : tensor<1x${BLOCKS}x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %block_off = arith.addi %row_start, %b_bytes : tensor<${ROWS}x${BLOCKS}x1xi32>
  %d_idx = arith.addi %row_d, %b_d : tensor<${ROWS}x${BLOCKS}x1xi32>
  %b_rb = tile.broadcast %b_3 : tensor<1x${BLOCKS}x1xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>

  // Quant (r, b, j) at block_off + j = r K + 32 b + j (split layout); x (b, j) at 32 b + j.
  %j_q = tile.broadcast %j_3 : tensor<1x1x32xi32> -> tensor<${ROWS}x${BLOCKS}x32xi32>
  %block_q = tile.broadcast %block_off : tensor<${ROWS}x${BLOCKS}x1xi32> -> tensor<${ROWS}x${BLOCKS}x32xi32>
  %q_off = arith.addi %block_q, %j_q : tensor<${ROWS}x${BLOCKS}x32xi32>
  %c32_x = arith.constant dense<32> : tensor<1x${BLOCKS}x1xi32>
  %b_vals = arith.muli %b_3, %c32_x : tensor<1x${BLOCKS}x1xi32>
  %b_vals_x = tile.broadcast %b_vals : tensor<1x${BLOCKS}x1xi32> -> tensor<1x${BLOCKS}x32xi32>
  %j_x = tile.broadcast %j_3 : tensor<1x1x32xi32> -> tensor<1x${BLOCKS}x32xi32>
  %x_off = arith.addi %b_vals_x, %j_x : tensor<1x${BLOCKS}x32xi32>

  %ws = tile.splat %w : !tile.ptr<i8> -> tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>
  %q_base = tile.addptr %ws, %q_off : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>, tensor<${ROWS}x${BLOCKS}x32xi32>
  %wds = tile.splat %wd : !tile.ptr<f16> -> tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>
  %d_base = tile.addptr %wds, %d_idx : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>, tensor<${ROWS}x${BLOCKS}x1xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1x${BLOCKS}x32x!tile.ptr<f32>>
  %x_base = tile.addptr %xs, %x_off : tensor<1x${BLOCKS}x32x!tile.ptr<f32>>, tensor<1x${BLOCKS}x32xi32>
  %n_blocks_rb = tile.splat %n_blocks : i32 -> tensor<${ROWS}x${BLOCKS}x1xi32>
  %n_blocks_x = tile.splat %n_blocks : i32 -> tensor<1x${BLOCKS}x32xi32>
  %b_x = tile.broadcast %b_3 : tensor<1x${BLOCKS}x1xi32> -> tensor<1x${BLOCKS}x32xi32>
  %zero_q = arith.constant dense<0> : tensor<${ROWS}x${BLOCKS}x32xi8>
  %zero_x = arith.constant dense<0.0> : tensor<1x${BLOCKS}x32xf32>
  %zero_d = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCKS}x1xf16>
  %zero_acc = arith.constant dense<0.0> : tensor<${ROWS}x${BLOCKS}x1xf32>

  // The first iteration's quants start moving into L2 before this program
  // waits for the kernel before it (a dependent launch; in a plain launch
  // the wait does nothing): no kernel writes the weights, so their DRAM
  // latency overlaps that kernel's tail, and even alone the first requests
  // leave before the x loads. A prefetch is only a hint, so this holds even
  // if the kernel before did write them. Then the next kernel may launch:
  // one kernel ahead, whose own prefetches overlap this one's tail.
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

    %kb_bytes = arith.muli %kb, %c32 : i32
    %kb_bytes_q = tile.splat %kb_bytes : i32 -> tensor<${ROWS}x${BLOCKS}x32xi32>
    %q_ptrs = tile.addptr %q_base, %kb_bytes_q : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>, tensor<${ROWS}x${BLOCKS}x32xi32>
    %kb_halves = arith.muli %kb, %unit : i32
    %kb_halves_d = tile.splat %kb_halves : i32 -> tensor<${ROWS}x${BLOCKS}x1xi32>
    %d_ptrs = tile.addptr %d_base, %kb_halves_d : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>, tensor<${ROWS}x${BLOCKS}x1xi32>
    %kb_vals = arith.muli %kb, %c32 : i32
    %kb_vals_x = tile.splat %kb_vals : i32 -> tensor<1x${BLOCKS}x32xi32>
    %x_ptrs = tile.addptr %x_base, %kb_vals_x : tensor<1x${BLOCKS}x32x!tile.ptr<f32>>, tensor<1x${BLOCKS}x32xi32>

    // The small loads first, then the quants: every load is in flight before
    // the first use of quant data (their realignment) waits for it.
    %d_h = tile.load %d_ptrs mask %ok other %zero_d evict = evict_first : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>
    %xv = tile.load %x_ptrs mask %ok_x other %zero_x evict = evict_last : tensor<1x${BLOCKS}x32x!tile.ptr<f32>>
    %q = tile.load %q_ptrs mask %ok_q other %zero_q evict = evict_first : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>

    %qf = tile.cast %q : tensor<${ROWS}x${BLOCKS}x32xi8> to tensor<${ROWS}x${BLOCKS}x32xf32>
    %xb = tile.broadcast %xv : tensor<1x${BLOCKS}x32xf32> -> tensor<${ROWS}x${BLOCKS}x32xf32>
    %qx = arith.mulf %qf, %xb fastmath<contract> : tensor<${ROWS}x${BLOCKS}x32xf32>
    %dot = tile.reduce sum %qx axis = 2 : tensor<${ROWS}x${BLOCKS}x32xf32> -> tensor<${ROWS}x${BLOCKS}xf32>
    %dot_3 = tile.expand_dims %dot axis = 2 : tensor<${ROWS}x${BLOCKS}xf32> -> tensor<${ROWS}x${BLOCKS}x1xf32>
    %d = tile.cast %d_h : tensor<${ROWS}x${BLOCKS}x1xf16> to tensor<${ROWS}x${BLOCKS}x1xf32>
    %acc_out = math.fma %dot_3, %d, %acc_in : tensor<${ROWS}x${BLOCKS}x1xf32>
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
  %res_first = tile.addptr %res, %first_row : !tile.ptr<f32>, i32
  %res_s = tile.splat %res_first : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %res_ptrs = tile.addptr %res_s, %r : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  %resv = tile.load %res_ptrs mask %out_ok : tensor<${ROWS}x!tile.ptr<f32>>
  %out = arith.addf %resv, %sums : tensor<${ROWS}xf32>
  tile.store %out, %y_ptrs mask %out_ok : tensor<${ROWS}x!tile.ptr<f32>>

  // This program's rows' squares into partials[pid], then count the
  // program in its q8_1 block of 32 rows (the counts are acq_rel atomics:
  // every thread's store happens before them). The norm's scale is one
  // number for the whole vector, and q8_1's quants do not depend on it
  // (round(v / (amax(v) / 127)) is the same for v and c v, c > 0): so the
  // last program of each block quantizes y * gamma of its 32 rows at once,
  // keeping amax / 127 and the block's sum in f32 (scratch), and only the
  // block that finishes last waits for the whole vector, to sum the
  // programs' squares (in a fixed order: the same sum whatever order the
  // programs finish in) and put the scale into every block's d and s.
  %zero_rows = arith.constant dense<0.0> : tensor<${ROWS}xf32>
  %out_sq = arith.mulf %out, %out : tensor<${ROWS}xf32>
  %out_sq_ok = arith.select %out_ok, %out_sq, %zero_rows : tensor<${ROWS}xi1>, tensor<${ROWS}xf32>
  %program_squares = tile.reduce sum %out_sq_ok axis = 0 : tensor<${ROWS}xf32> -> f32
  %my_partial = tile.addptr %partials, %pid : !tile.ptr<f32>, i32
  tile.store %program_squares, %my_partial : !tile.ptr<f32>
  %c1_n = arith.constant 1 : i32
  %programs = tile.num_programs x
  %n_out_blocks = arith.divsi %n_rows, %c32 : i32
  %blk = arith.divsi %first_row, %c32 : i32
  %per_block = arith.divsi %c32, %c_rows : i32
  %per_block_last = arith.subi %per_block, %c1_n : i32
  %blk_count = tile.addptr %block_count, %blk : !tile.ptr<i32>, i32
  %blk_arrived = tile.atomic_rmw add %blk_count, %c1_n : !tile.ptr<i32>
  %blk_last = arith.cmpi eq, %blk_arrived, %per_block_last : i32
  scf.if %blk_last {
    // The block's 32 values of y (from L2, cache = cg: other programs
    // wrote them) times gamma, quantized as rms_norm_q8_1.mlir does but
    // for the scale: q = round(v / d'), d' = amax(v) / 127.
    tile.store %c0, %blk_count : !tile.ptr<i32>
    %bq_j = tile.make_range 0 to 32 : tensor<32xi32>
    %bq_first = arith.muli %blk, %c32 : i32
    %bq_y0 = tile.addptr %y, %bq_first : !tile.ptr<f32>, i32
    %bq_ys = tile.splat %bq_y0 : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
    %bq_y_ptrs = tile.addptr %bq_ys, %bq_j : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
    %bq_y = tile.load %bq_y_ptrs cache = cg : tensor<32x!tile.ptr<f32>>
    %bq_g0 = tile.addptr %gamma, %bq_first : !tile.ptr<f32>, i32
    %bq_gs = tile.splat %bq_g0 : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
    %bq_g_ptrs = tile.addptr %bq_gs, %bq_j : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
    %bq_g = tile.load %bq_g_ptrs : tensor<32x!tile.ptr<f32>>
    %bq_v = arith.mulf %bq_y, %bq_g : tensor<32xf32>
    %bq_abs = math.absf %bq_v : tensor<32xf32>
    %bq_amax = tile.reduce max %bq_abs axis = 0 : tensor<32xf32> -> f32
    %bq_sum = tile.reduce sum %bq_v axis = 0 : tensor<32xf32> -> f32
    %bq_c127 = arith.constant 127.0 : f32
    %bq_d = arith.divf %bq_amax, %bq_c127 : f32
    %bq_ds = tile.splat %bq_d : f32 -> tensor<32xf32>
    %bq_scaled = arith.divf %bq_v, %bq_ds : tensor<32xf32>
    %bq_rounded = math.round %bq_scaled : tensor<32xf32>
    %bq_zero = arith.constant 0.0 : f32
    %bq_is_zero = arith.cmpf oeq, %bq_amax, %bq_zero : f32
    %bq_zeros = arith.constant dense<0.0> : tensor<32xf32>
    %bq_qf = arith.select %bq_is_zero, %bq_zeros, %bq_rounded : tensor<32xf32>
    %bq_q = tile.cast %bq_qf rounding = rtz : tensor<32xf32> to tensor<32xi8>
    // qs of block blk at byte 36 blk + 4 + j.
    %bq_c36 = arith.constant 36 : i32
    %bq_c4 = arith.constant 4 : i32
    %bq_blk_bytes = arith.muli %blk, %bq_c36 : i32
    %bq_qs_start = arith.addi %bq_blk_bytes, %bq_c4 : i32
    %bq_xq0 = tile.addptr %xq, %bq_qs_start : !tile.ptr<i8>, i32
    %bq_xqs = tile.splat %bq_xq0 : !tile.ptr<i8> -> tensor<32x!tile.ptr<i8>>
    %bq_q_ptrs = tile.addptr %bq_xqs, %bq_j : tensor<32x!tile.ptr<i8>>, tensor<32xi32>
    tile.store %bq_q, %bq_q_ptrs : tensor<32x!tile.ptr<i8>>
    // d' at scratch[blk], the sum at scratch[n_out_blocks + blk].
    %bq_d_ptr = tile.addptr %block_scratch, %blk : !tile.ptr<f32>, i32
    tile.store %bq_d, %bq_d_ptr : !tile.ptr<f32>
    %bq_sum_at = arith.addi %n_out_blocks, %blk : i32
    %bq_sum_ptr = tile.addptr %block_scratch, %bq_sum_at : !tile.ptr<f32>, i32
    tile.store %bq_sum, %bq_sum_ptr : !tile.ptr<f32>

    %last_index = arith.subi %n_out_blocks, %c1_n : i32
    %arrived = tile.atomic_rmw add %count, %c1_n : !tile.ptr<i32>
    %last = arith.cmpi eq, %arrived, %last_index : i32
    scf.if %last {
      // The squares' sum: the programs' partials (from L2), 256 a step.
      tile.store %c0, %count : !tile.ptr<i32>
      %nq_p = tile.make_range 0 to 256 : tensor<256xi32>
      %nq_p_zeros = arith.constant dense<0.0> : tensor<256xf32>
      %nq_p_base = tile.splat %partials : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
      %nq_p_ptrs0 = tile.addptr %nq_p_base, %nq_p : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
      %nq_programs = tile.splat %programs : i32 -> tensor<256xi32>
      %nq_c256 = arith.constant 256 : i32
      %nq_p_acc = scf.for %nq_i = %c0 to %programs step %nq_c256 iter_args(%nq_pa = %nq_p_zeros) -> (tensor<256xf32>) : i32 {
        %nq_is = tile.splat %nq_i : i32 -> tensor<256xi32>
        %nq_pi = arith.addi %nq_is, %nq_p : tensor<256xi32>
        %nq_p_ok = arith.cmpi slt, %nq_pi, %nq_programs : tensor<256xi32>
        %nq_p_ptrs = tile.addptr %nq_p_ptrs0, %nq_is : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
        %nq_pv = tile.load %nq_p_ptrs mask %nq_p_ok other %nq_p_zeros cache = cg : tensor<256x!tile.ptr<f32>>
        %nq_pa_next = arith.addf %nq_pa, %nq_pv : tensor<256xf32>
        scf.yield %nq_pa_next : tensor<256xf32>
      }
      %nq_sum = tile.reduce sum %nq_p_acc axis = 0 : tensor<256xf32> -> f32
      %nq_count = arith.sitofp %n_rows : i32 to f32
      %nq_mean = arith.divf %nq_sum, %nq_count : f32
      %nq_shifted = arith.addf %nq_mean, %eps : f32
      %nq_scale = math.rsqrt %nq_shifted : f32
      %nq_scales = tile.splat %nq_scale : f32 -> tensor<${NORM_CHUNK}xf32>

      // Every block's d = scale d' and s = scale sum, as f16 words 18 blk
      // and 18 blk + 1 of xq, NORM_CHUNK blocks a step.
      %nq_chunk = arith.constant ${NORM_CHUNK} : i32
      %nq_b = tile.make_range 0 to ${NORM_CHUNK} : tensor<${NORM_CHUNK}xi32>
      %nq_n_blks = tile.splat %n_out_blocks : i32 -> tensor<${NORM_CHUNK}xi32>
      %nq_c18 = arith.constant dense<18> : tensor<${NORM_CHUNK}xi32>
      %nq_ones = arith.constant dense<1> : tensor<${NORM_CHUNK}xi32>
      %nq_zeros = arith.constant dense<0.0> : tensor<${NORM_CHUNK}xf32>
      %nq_xq_half = tile.bitcast %xq : !tile.ptr<i8> to !tile.ptr<f16>
      %nq_xq_halves = tile.splat %nq_xq_half : !tile.ptr<f16> -> tensor<${NORM_CHUNK}x!tile.ptr<f16>>
      %nq_scratch = tile.splat %block_scratch : !tile.ptr<f32> -> tensor<${NORM_CHUNK}x!tile.ptr<f32>>
      scf.for %nq_kb = %c0 to %n_out_blocks step %nq_chunk : i32 {
        %nq_kbs = tile.splat %nq_kb : i32 -> tensor<${NORM_CHUNK}xi32>
        %nq_blk = arith.addi %nq_kbs, %nq_b : tensor<${NORM_CHUNK}xi32>
        %nq_ok = arith.cmpi slt, %nq_blk, %nq_n_blks : tensor<${NORM_CHUNK}xi32>
        %nq_d_src = tile.addptr %nq_scratch, %nq_blk : tensor<${NORM_CHUNK}x!tile.ptr<f32>>, tensor<${NORM_CHUNK}xi32>
        %nq_sum_idx = arith.addi %nq_blk, %nq_n_blks : tensor<${NORM_CHUNK}xi32>
        %nq_sum_src = tile.addptr %nq_scratch, %nq_sum_idx : tensor<${NORM_CHUNK}x!tile.ptr<f32>>, tensor<${NORM_CHUNK}xi32>
        %nq_d1 = tile.load %nq_d_src mask %nq_ok other %nq_zeros cache = cg : tensor<${NORM_CHUNK}x!tile.ptr<f32>>
        %nq_s1 = tile.load %nq_sum_src mask %nq_ok other %nq_zeros cache = cg : tensor<${NORM_CHUNK}x!tile.ptr<f32>>
        %nq_d = arith.mulf %nq_d1, %nq_scales : tensor<${NORM_CHUNK}xf32>
        %nq_s = arith.mulf %nq_s1, %nq_scales : tensor<${NORM_CHUNK}xf32>
        %nq_d_off = arith.muli %nq_blk, %nq_c18 : tensor<${NORM_CHUNK}xi32>
        %nq_s_off = arith.addi %nq_d_off, %nq_ones : tensor<${NORM_CHUNK}xi32>
        %nq_d_ptrs = tile.addptr %nq_xq_halves, %nq_d_off : tensor<${NORM_CHUNK}x!tile.ptr<f16>>, tensor<${NORM_CHUNK}xi32>
        %nq_s_ptrs = tile.addptr %nq_xq_halves, %nq_s_off : tensor<${NORM_CHUNK}x!tile.ptr<f16>>, tensor<${NORM_CHUNK}xi32>
        %nq_d_h = tile.cast %nq_d rounding = rne : tensor<${NORM_CHUNK}xf32> to tensor<${NORM_CHUNK}xf16>
        %nq_s_h = tile.cast %nq_s rounding = rne : tensor<${NORM_CHUNK}xf32> to tensor<${NORM_CHUNK}xf16>
        tile.store %nq_d_h, %nq_d_ptrs mask %nq_ok : tensor<${NORM_CHUNK}x!tile.ptr<f16>>
        tile.store %nq_s_h, %nq_s_ptrs mask %nq_ok : tensor<${NORM_CHUNK}x!tile.ptr<f16>>
      }
    }
  }
  return
}
