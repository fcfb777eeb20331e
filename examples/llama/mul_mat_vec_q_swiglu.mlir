// mul_mat_vec_q_swiglu: the decode step's feed-forward gate and up
// projections and SiLU * mul in one launch: mul_mat_vec_q.mlir's q8_0 x q8_1
// mat-vec (which says how it works) over two matrices of the same shape at
// once, each row of both in the same program:
//
//   g = Wg xq,  u = Wu xq,  y[r] = silu(g[r]) * u[r] = g / (1 + exp(-g)) * u
//
// Both weights' first iteration is prefetched before the wait.
//
// The weights are in llk-llama's split q8_0 layout (llama/lib/Engine.cpp):
// the quants of each matrix as i8 [N][K] (w) and the blocks' scales as f16
// [N][K/32] (wd), the bytes of block_q8_0 rows rearranged, so that a
// thread's 16 quants of a block are one aligned 16-byte load, with no
// realignment (mul_mat_vec_q.mlir, on ggml's 34-byte blocks, loads the two
// windows around them and selects).
//
//   grid = ceil(N / ROWS) programs, num_warps = 4
//   constants: ROWS (4), BLOCKS (32)
//   args: y (f32, N), wg, wgd, wu, wud (each matrix's quants and scales,
//         split), xq (block_q8_1, K/32 blocks),
//         n_rows = N, n_cols = K (a multiple of 32)
func.func @mul_mat_vec_q_swiglu(%y: !tile.ptr<f32> {tile.divisibility = 16},
                       %w: !tile.ptr<i8> {tile.divisibility = 16},
                       %wd: !tile.ptr<f16> {tile.divisibility = 16},
                       %wu: !tile.ptr<i8> {tile.divisibility = 16},
                       %wud: !tile.ptr<f16> {tile.divisibility = 16},
                       %xq: !tile.ptr<i8> {tile.divisibility = 16},
                       %n_rows: i32,
                       %n_cols: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c18 = arith.constant 18 : i32
  %c36 = arith.constant 36 : i32
  %c_rows = arith.constant ${ROWS} : i32
  %c_blocks = arith.constant ${BLOCKS} : i32
  %n_blocks = arith.divsi %n_cols, %c32 : i32
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
  %wds = tile.splat %wd : !tile.ptr<f16> -> tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>
  %d_base = tile.addptr %wds, %d_idx : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>, tensor<${ROWS}x${BLOCKS}x1xi32>
  %wus = tile.splat %wu : !tile.ptr<i8> -> tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>
  %qu_base = tile.addptr %wus, %q_off : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>, tensor<${ROWS}x${BLOCKS}x32xi32>
  %wuds = tile.splat %wud : !tile.ptr<f16> -> tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>
  %du_base = tile.addptr %wuds, %d_idx : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>, tensor<${ROWS}x${BLOCKS}x1xi32>
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
  tile.prefetch %qu_base mask %ok0_q : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>
  tile.grid_dependency_wait
  tile.launch_dependents

  %acc, %acc_u = scf.for %kb = %c0 to %n_blocks step %c_blocks iter_args(%acc_in = %zero_acc, %acc_u_in = %zero_acc) -> (tensor<${ROWS}x${BLOCKS}x1xf32>, tensor<${ROWS}x${BLOCKS}x1xf32>) : i32 {
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
    %qu_ptrs = tile.addptr %qu_base, %kb_bytes_q : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>, tensor<${ROWS}x${BLOCKS}x32xi32>
    %du_ptrs = tile.addptr %du_base, %kb_halves_d : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>, tensor<${ROWS}x${BLOCKS}x1xi32>
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
    %du_h = tile.load %du_ptrs mask %ok other %zero_d evict = evict_first : tensor<${ROWS}x${BLOCKS}x1x!tile.ptr<f16>>
    %q = tile.load %q_ptrs mask %ok_q other %zero_q evict = evict_first : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>
    %qu = tile.load %qu_ptrs mask %ok_q other %zero_q evict = evict_first : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>

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
    %qui = tile.cast %qu : tensor<${ROWS}x${BLOCKS}x32xi8> to tensor<${ROWS}x${BLOCKS}x32xi32>
    %prod_u = arith.muli %qui, %q1i : tensor<${ROWS}x${BLOCKS}x32xi32>
    %dot_u = tile.reduce sum %prod_u axis = 2 : tensor<${ROWS}x${BLOCKS}x32xi32> -> tensor<${ROWS}x${BLOCKS}xi32>
    %dot_u3 = tile.expand_dims %dot_u axis = 2 : tensor<${ROWS}x${BLOCKS}xi32> -> tensor<${ROWS}x${BLOCKS}x1xi32>
    %dotf_u = tile.cast %dot_u3 : tensor<${ROWS}x${BLOCKS}x1xi32> to tensor<${ROWS}x${BLOCKS}x1xf32>
    %d0_u = tile.cast %du_h : tensor<${ROWS}x${BLOCKS}x1xf16> to tensor<${ROWS}x${BLOCKS}x1xf32>
    %dd_u = arith.mulf %d0_u, %d1 : tensor<${ROWS}x${BLOCKS}x1xf32>
    %acc_u_out = math.fma %dotf_u, %dd_u, %acc_u_in : tensor<${ROWS}x${BLOCKS}x1xf32>
    scf.yield %acc_out, %acc_u_out : tensor<${ROWS}x${BLOCKS}x1xf32>, tensor<${ROWS}x${BLOCKS}x1xf32>
  }

  // Sum each row's blocks, of both.
  %acc_2 = tile.reduce sum %acc axis = 2 : tensor<${ROWS}x${BLOCKS}x1xf32> -> tensor<${ROWS}x${BLOCKS}xf32>
  %g = tile.reduce sum %acc_2 axis = 1 : tensor<${ROWS}x${BLOCKS}xf32> -> tensor<${ROWS}xf32>
  %acc_u2 = tile.reduce sum %acc_u axis = 2 : tensor<${ROWS}x${BLOCKS}x1xf32> -> tensor<${ROWS}x${BLOCKS}xf32>
  %u = tile.reduce sum %acc_u2 axis = 1 : tensor<${ROWS}x${BLOCKS}xf32> -> tensor<${ROWS}xf32>
  // silu(g) * u.
  %one = arith.constant dense<1.0> : tensor<${ROWS}xf32>
  %neg = arith.negf %g : tensor<${ROWS}xf32>
  %e = math.exp %neg : tensor<${ROWS}xf32>
  %den = arith.addf %one, %e : tensor<${ROWS}xf32>
  %silu = arith.divf %g, %den : tensor<${ROWS}xf32>
  %sums = arith.mulf %silu, %u : tensor<${ROWS}xf32>

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
