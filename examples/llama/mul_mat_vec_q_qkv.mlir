// mul_mat_vec_q_qkv: the decode step's Q, K and V projections in one
// launch (mul_mat_vec_q.mlir's q8_0 x q8_1 mat-vec, which says how it works,
// over the three matrices' rows stacked [Wq; Wk; Wv]), with rope and the
// KV-cache append in the epilogue, at the position held in device memory:
//
//   y = W xq                        rows [0, n_q) q, [n_q, n_q + n_kv) k, then v
//   q_out[r]                  = rope(y)[r]                    r < n_q
//   k_cache[pos][r - n_q]     = f16(rope(y)[r])               the k rows
//   v_cache[r - n_q - n_kv][pos] = f16(y[r])                  the v rows
//
// rope as rope_kv.mlir (mode 0, adjacent pairs (2i, 2i+1) of each head of D,
// theta = pos * base^(-2i/D) in f64, reduced to [-pi, pi], sin/cos in f32),
// base^(-2i/D) from a table (rope_freq, f64 [D / 2]; rope_kv computes it,
// so the two may differ by an f64 ulp, which the cast to f32 almost
// always absorbs).
// A program's ROWS rows lie in one of the three parts (ROWS divides 32, the
// parts are multiples of 32 rows) and hold whole pairs (ROWS even); a row's
// partner comes from the program's own sums (a [ROWS, ROWS] selection, ROWS
// = 4: 16 elements). Caches as attn_decode.mlir reads them: K f16
// [C][NH_kv][D], V f16 [NH_kv][D][C]; nothing is written to them unless
// 0 <= pos < C.
//
// The weights are in llk-llama's split q8_0 layout (llama/lib/Engine.cpp):
// the quants of each matrix as i8 [N][K] (w) and the blocks' scales as f16
// [N][K/32] (wd), the bytes of block_q8_0 rows rearranged, so that a
// thread's 16 quants of a block are one aligned 16-byte load, with no
// realignment (mul_mat_vec_q.mlir, on ggml's 34-byte blocks, loads the two
// windows around them and selects).
//
//   grid = (n_q + 2 n_kv) / ROWS programs, num_warps = 4
//   constants: ROWS (4), BLOCKS (32), D (the head dim)
//   args: q_out (f32, n_q), k_cache, v_cache (f16), w, wd (the stacked
//         matrix's quants and scales, split), xq (block_q8_1, n_cols / 32 blocks), pos (i32),
//         n_q, n_kv (multiples of 32), n_cols (K, a multiple of 32), cap = C,
//         rope_freq (f64 [D / 2]: base^(-2i/D))
func.func @mul_mat_vec_q_qkv(%q_out: !tile.ptr<f32> {tile.divisibility = 16},
                             %k_cache: !tile.ptr<f16> {tile.divisibility = 16},
                             %v_cache: !tile.ptr<f16> {tile.divisibility = 16},
                             %w: !tile.ptr<i8> {tile.divisibility = 16},
                             %wd: !tile.ptr<f16> {tile.divisibility = 16},
                             %xq: !tile.ptr<i8> {tile.divisibility = 16},
                             %pos_ptr: !tile.ptr<i32>,
                             %n_q: i32 {tile.divisibility = 16},
                             %n_kv: i32 {tile.divisibility = 16},
                             %n_cols: i32 {tile.divisibility = 16},
                             %cap: i32,
                             %rope_freq: !tile.ptr<f64>) {
  %pid = tile.program_id x
  %n_qk = arith.addi %n_q, %n_kv : i32
  %n_rows = arith.addi %n_qk, %n_kv : i32
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

    %kb_bytes = arith.muli %kb, %c32 : i32
    %kb_bytes_q = tile.splat %kb_bytes : i32 -> tensor<${ROWS}x${BLOCKS}x32xi32>
    %q_ptrs = tile.addptr %q_base, %kb_bytes_q : tensor<${ROWS}x${BLOCKS}x32x!tile.ptr<i8>>, tensor<${ROWS}x${BLOCKS}x32xi32>
    %kb_halves = arith.muli %kb, %unit : i32
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

  // The epilogue. This program's part: 0 q, 1 k, 2 v; its rows' indices in
  // the part.
  %is_q = arith.cmpi slt, %first_row, %n_q : i32
  %is_qk = arith.cmpi slt, %first_row, %n_qk : i32
  %c0_i = arith.constant 0 : i32
  %part_start_kv = arith.select %is_qk, %n_q, %n_qk : i32
  %part_start = arith.select %is_q, %c0_i, %part_start_kv : i32
  %first_local = arith.subi %first_row, %part_start : i32
  %first_locals = tile.splat %first_local : i32 -> tensor<${ROWS}xi32>
  %local = arith.addi %first_locals, %r : tensor<${ROWS}xi32>
  %pos = tile.load %pos_ptr : !tile.ptr<i32>

  // Each row's partner (r ^ 1) from the program's sums.
  %ones_r = arith.constant dense<1> : tensor<${ROWS}xi32>
  %partner_r = arith.xori %r, %ones_r : tensor<${ROWS}xi32>
  %partner_2 = tile.expand_dims %partner_r axis = 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %partner_b = tile.broadcast %partner_2 : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${ROWS}xi32>
  %r_row = tile.expand_dims %r axis = 0 : tensor<${ROWS}xi32> -> tensor<1x${ROWS}xi32>
  %r_b = tile.broadcast %r_row : tensor<1x${ROWS}xi32> -> tensor<${ROWS}x${ROWS}xi32>
  %pick = arith.cmpi eq, %r_b, %partner_b : tensor<${ROWS}x${ROWS}xi32>
  %sums_row = tile.expand_dims %sums axis = 0 : tensor<${ROWS}xf32> -> tensor<1x${ROWS}xf32>
  %sums_b = tile.broadcast %sums_row : tensor<1x${ROWS}xf32> -> tensor<${ROWS}x${ROWS}xf32>
  %zero_rr = arith.constant dense<0.0> : tensor<${ROWS}x${ROWS}xf32>
  %picked = arith.select %pick, %sums_b, %zero_rr : tensor<${ROWS}x${ROWS}xi1>, tensor<${ROWS}x${ROWS}xf32>
  %partner = tile.reduce sum %picked axis = 1 : tensor<${ROWS}x${ROWS}xf32> -> tensor<${ROWS}xf32>

  // theta = pos * freq[i], i = (local mod D) / 2, in f64 (freq: the
  // host's base^(-2i/D) in f64, one load of a table every program shares:
  // computing it here, every thread for every row, took a few hundred f64
  // instructions a thread), reduced to [-pi, pi].
  %dims = arith.constant dense<${D}> : tensor<${ROWS}xi32>
  %in_head = arith.remsi %local, %dims : tensor<${ROWS}xi32>
  %twos = arith.constant dense<2> : tensor<${ROWS}xi32>
  %pair = arith.divsi %in_head, %twos : tensor<${ROWS}xi32>
  %freqs = tile.splat %rope_freq : !tile.ptr<f64> -> tensor<${ROWS}x!tile.ptr<f64>>
  %freq_ptrs = tile.addptr %freqs, %pair : tensor<${ROWS}x!tile.ptr<f64>>, tensor<${ROWS}xi32>
  %freq = tile.load %freq_ptrs : tensor<${ROWS}x!tile.ptr<f64>>
  %posf = arith.sitofp %pos : i32 to f64
  %poss = tile.splat %posf : f64 -> tensor<${ROWS}xf64>
  %theta = arith.mulf %poss, %freq : tensor<${ROWS}xf64>
  %inv_two_pi = arith.constant dense<0.15915494309189535> : tensor<${ROWS}xf64>
  %two_pi = arith.constant dense<6.283185307179586> : tensor<${ROWS}xf64>
  %turns = arith.mulf %theta, %inv_two_pi : tensor<${ROWS}xf64>
  %whole = math.roundeven %turns : tensor<${ROWS}xf64>
  %wrapped = arith.mulf %whole, %two_pi : tensor<${ROWS}xf64>
  %reduced = arith.subf %theta, %wrapped : tensor<${ROWS}xf64>
  %angle = tile.cast %reduced : tensor<${ROWS}xf64> to tensor<${ROWS}xf32>
  %cos = math.cos %angle : tensor<${ROWS}xf32>
  %sin = math.sin %angle : tensor<${ROWS}xf32>
  %odd_bit = arith.andi %r, %ones_r : tensor<${ROWS}xi32>
  %is_even = arith.cmpi ne, %odd_bit, %ones_r : tensor<${ROWS}xi32>
  %neg_sin = arith.negf %sin : tensor<${ROWS}xf32>
  %signed_sin = arith.select %is_even, %neg_sin, %sin : tensor<${ROWS}xi1>, tensor<${ROWS}xf32>
  %rot = arith.mulf %partner, %signed_sin : tensor<${ROWS}xf32>
  %roped = math.fma %sums, %cos, %rot : tensor<${ROWS}xf32>

  // The stores, one a part (masks uniform in the program).
  %rows_left = arith.subi %n_rows, %first_row : i32
  %rows_left_o = tile.splat %rows_left : i32 -> tensor<${ROWS}xi32>
  %out_ok = arith.cmpi slt, %r, %rows_left_o : tensor<${ROWS}xi32>
  %in_cache = arith.cmpi ult, %pos, %cap : i32
  %true = arith.constant true
  %not_q = arith.xori %is_q, %true : i1
  %is_k_raw = arith.andi %not_q, %is_qk : i1
  %is_k = arith.andi %is_k_raw, %in_cache : i1
  %not_qk = arith.xori %is_qk, %true : i1
  %is_v = arith.andi %not_qk, %in_cache : i1
  %q_s = tile.splat %is_q : i1 -> tensor<${ROWS}xi1>
  %q_ok = arith.andi %out_ok, %q_s : tensor<${ROWS}xi1>
  %k_s = tile.splat %is_k : i1 -> tensor<${ROWS}xi1>
  %k_ok = arith.andi %out_ok, %k_s : tensor<${ROWS}xi1>
  %v_s = tile.splat %is_v : i1 -> tensor<${ROWS}xi1>
  %v_ok = arith.andi %out_ok, %v_s : tensor<${ROWS}xi1>

  %q_first = tile.addptr %q_out, %first_local : !tile.ptr<f32>, i32
  %qs = tile.splat %q_first : !tile.ptr<f32> -> tensor<${ROWS}x!tile.ptr<f32>>
  %q_ptrs = tile.addptr %qs, %r : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  tile.store %roped, %q_ptrs mask %q_ok : tensor<${ROWS}x!tile.ptr<f32>>

  %roped_h = tile.cast %roped rounding = rne : tensor<${ROWS}xf32> to tensor<${ROWS}xf16>
  %k_row = arith.muli %pos, %n_kv : i32
  %k_at = arith.addi %k_row, %first_local : i32
  %k_first = tile.addptr %k_cache, %k_at : !tile.ptr<f16>, i32
  %ks = tile.splat %k_first : !tile.ptr<f16> -> tensor<${ROWS}x!tile.ptr<f16>>
  %k_ptrs = tile.addptr %ks, %r : tensor<${ROWS}x!tile.ptr<f16>>, tensor<${ROWS}xi32>
  tile.store %roped_h, %k_ptrs mask %k_ok : tensor<${ROWS}x!tile.ptr<f16>>

  %sums_h = tile.cast %sums rounding = rne : tensor<${ROWS}xf32> to tensor<${ROWS}xf16>
  %caps = tile.splat %cap : i32 -> tensor<${ROWS}xi32>
  %v_rows = arith.muli %local, %caps : tensor<${ROWS}xi32>
  %v_col = tile.addptr %v_cache, %pos : !tile.ptr<f16>, i32
  %vs = tile.splat %v_col : !tile.ptr<f16> -> tensor<${ROWS}x!tile.ptr<f16>>
  %v_ptrs = tile.addptr %vs, %v_rows : tensor<${ROWS}x!tile.ptr<f16>>, tensor<${ROWS}xi32>
  tile.store %sums_h, %v_ptrs mask %v_ok : tensor<${ROWS}x!tile.ptr<f16>>
  return
}
