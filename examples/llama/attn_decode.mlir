// Fused attention for one new token, split over the context
// (flash-decoding). Per head h, with s_t = scale * sum_i K[t, h/g, i] q[h, i]:
//
//   o[h, :] = sum_{t < n_kv} softmax(s)_t V[h/g, :, t]
//
// Caches as in attn_scores.mlir / attn_values.mlir: K f16 [C][NH_kv][D]
// (t*k_row_stride + j*D + i), V f16 transposed [NH_kv][D][C]
// ((j*D + i)*C + t); q, o f32 [NH][D]; g = NH / NH_kv; scale = 1/sqrt(D).
//
// Two kernels:
//
// attn_decode_partial_kernel: program (c, h) takes the tokens
//   [c*chunk, min((c+1)*chunk, n_kv)) of head h, BLOCK_T at a time: scores
//   from a [BLOCK_T, D] tile of K rows (16-byte loads along D), an online
//   softmax (running max m, running sum l), and a [D, BLOCK_T] tile of V
//   rows (16-byte loads along t) weighted by exp(s - m). It writes the
//   chunk's m, l and unnormalized o_c = sum_t exp(s_t - m) V[:, t] to
//   part_m/part_l [NH][n_chunks] and part_o [NH][n_chunks][D].
//   V is read up to the chunk end rounded up to 8 tokens (inside the cache:
//   C is a multiple of 16); a select drops those tokens, whatever they hold.
//   grid = (n_chunks = ceil(n_kv / chunk), NH); chunk: a multiple of 16,
//   best of BLOCK_T (e.g. 256 for n_kv = 4096, 64 for n_kv = 512).
//   args: part_o, part_m, part_l, q, k, v, n_kv, chunk, k_row_stride
//   (NH_kv*D, mult. of 16), C (mult. of 16), g, scale
//
// attn_decode_combine_kernel: program h merges the n_chunks <= MAX_CHUNKS
//   partials of head h: M = max_c m_c, w_c = exp(m_c - M),
//   o = sum_c w_c o_c / sum_c w_c l_c.
//   grid = (NH); args: o, part_o, part_m, part_l, n_chunks
//
//   llkc examples/llama/attn_decode.mlir -D BLOCK_T=64 -D D=128 -D MAX_CHUNKS=32 --num-warps 8
//   (8 warps for the partial kernel: 110 registers a thread instead of 214
//   with 4; the combine is small either way, 4 warps)
//   constants: BLOCK_T (tokens per step, 64), D (head dim, 128), MAX_CHUNKS
//   (largest n_chunks the combine takes, 32)
//
// Measured (H100, bench/llama/bench.py, 32 heads x 128, a 4096-token f16
// cache, 2026-11-24, bench/results/2026-11-24-h100/llama-attention*.csv):
// 27.67 us = 81.3% of the bandwidth floor as stream launches and 88.2-88.6%
// in a CUDA graph (75.9% and 81.0-81.1% without the first step's L2
// prefetch before the wait); 1.14x Triton, 6.96x the seed's four kernels.
func.func @attn_decode_partial_kernel(%part_o: !tile.ptr<f32> {tile.divisibility = 16},
                                      %part_m: !tile.ptr<f32>,
                                      %part_l: !tile.ptr<f32>,
                                      %q: !tile.ptr<f32> {tile.divisibility = 16},
                                      %k: !tile.ptr<f16> {tile.divisibility = 16},
                                      %v: !tile.ptr<f16> {tile.divisibility = 16},
                                      %n_kv: i32,
                                      %chunk: i32 {tile.divisibility = 16},
                                      %k_row_stride: i32 {tile.divisibility = 16},
                                      %cap: i32 {tile.divisibility = 16},
                                      %g: i32,
                                      %scale: f32) {
  %c = tile.program_id x
  %h = tile.program_id y
  %n_chunks = tile.num_programs x
  %hk = arith.divsi %h, %g : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c_bt = arith.constant ${BLOCK_T} : i32
  %c_d = arith.constant ${D} : i32

  // This program's tokens: [start, end).
  %start = arith.muli %c, %chunk : i32
  %start_chunk = arith.addi %start, %chunk : i32
  %end = arith.minsi %start_chunk, %n_kv : i32
  %ends = tile.splat %end : i32 -> tensor<${BLOCK_T}xi32>
  // V loads run to `end` rounded up to 8 tokens (see above).
  %end_up = arith.addi %end, %c7 : i32
  %end_div = arith.divsi %end_up, %c8 : i32
  %end_pad = arith.muli %end_div, %c8 : i32

  // q[h, :] * scale, so that K rows times it are the scaled scores.
  %i = tile.make_range 0 to ${D} : tensor<${D}xi32>
  %q_off = arith.muli %h, %c_d : i32
  %q_row = tile.addptr %q, %q_off : !tile.ptr<f32>, i32
  %q_rows = tile.splat %q_row : !tile.ptr<f32> -> tensor<${D}x!tile.ptr<f32>>
  %q_ptrs = tile.addptr %q_rows, %i : tensor<${D}x!tile.ptr<f32>>, tensor<${D}xi32>

  // K: head hk's row of token t at k + t*k_row_stride + hk*D, [BLOCK_T, D].
  %hk_d = arith.muli %hk, %c_d : i32
  %k_head = tile.addptr %k, %hk_d : !tile.ptr<f16>, i32
  %k_heads = tile.splat %k_head : !tile.ptr<f16> -> tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>
  %i2 = tile.expand_dims %i axis = 0 : tensor<${D}xi32> -> tensor<1x${D}xi32>
  %ib = tile.broadcast %i2 : tensor<1x${D}xi32> -> tensor<${BLOCK_T}x${D}xi32>
  %k_cols = tile.addptr %k_heads, %ib : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_T}x${D}xi32>
  %k_strides = tile.splat %k_row_stride : i32 -> tensor<${BLOCK_T}xi32>

  // V: head hk's dim i at v + (hk*D + i)*C + t, [D, BLOCK_T].
  %hk_ds = tile.splat %hk_d : i32 -> tensor<${D}xi32>
  %v_rows = arith.addi %hk_ds, %i : tensor<${D}xi32>
  %caps = tile.splat %cap : i32 -> tensor<${D}xi32>
  %v_row_off = arith.muli %v_rows, %caps : tensor<${D}xi32>
  %v_row_off2 = tile.expand_dims %v_row_off axis = 1 : tensor<${D}xi32> -> tensor<${D}x1xi32>
  %v_row_offb = tile.broadcast %v_row_off2 : tensor<${D}x1xi32> -> tensor<${D}x${BLOCK_T}xi32>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>
  %v_base = tile.addptr %vs, %v_row_offb : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_T}xi32>

  %tr = tile.make_range 0 to ${BLOCK_T} : tensor<${BLOCK_T}xi32>
  %tr2 = tile.expand_dims %tr axis = 0 : tensor<${BLOCK_T}xi32> -> tensor<1x${BLOCK_T}xi32>
  %trb = tile.broadcast %tr2 : tensor<1x${BLOCK_T}xi32> -> tensor<${D}x${BLOCK_T}xi32>
  // The first step's K and V tiles start moving into L2 before this program
  // waits for the kernel before it (which may be appending this token's K
  // and V: a prefetch is only a hint); q comes after the wait.
  %t0f = tile.splat %start : i32 -> tensor<${BLOCK_T}xi32>
  %tf = arith.addi %t0f, %tr : tensor<${BLOCK_T}xi32>
  %validf = arith.cmpi slt, %tf, %ends : tensor<${BLOCK_T}xi32>
  %tf_off = arith.muli %tf, %k_strides : tensor<${BLOCK_T}xi32>
  %tf_off2 = tile.expand_dims %tf_off axis = 1 : tensor<${BLOCK_T}xi32> -> tensor<${BLOCK_T}x1xi32>
  %tf_offb = tile.broadcast %tf_off2 : tensor<${BLOCK_T}x1xi32> -> tensor<${BLOCK_T}x${D}xi32>
  %kf_ptrs = tile.addptr %k_cols, %tf_offb : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_T}x${D}xi32>
  %kfm2 = tile.expand_dims %validf axis = 1 : tensor<${BLOCK_T}xi1> -> tensor<${BLOCK_T}x1xi1>
  %kfmask = tile.broadcast %kfm2 : tensor<${BLOCK_T}x1xi1> -> tensor<${BLOCK_T}x${D}xi1>
  tile.prefetch %kf_ptrs mask %kfmask : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>
  %startb = tile.splat %start : i32 -> tensor<${D}x${BLOCK_T}xi32>
  %vf_blk = tile.addptr %v_base, %startb : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_T}xi32>
  %vf_ptrs = tile.addptr %vf_blk, %trb : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_T}xi32>
  %vf_left = arith.subi %end_pad, %start : i32
  %vf_lefts = tile.splat %vf_left : i32 -> tensor<${D}x${BLOCK_T}xi32>
  %vfmask = arith.cmpi slt, %trb, %vf_lefts : tensor<${D}x${BLOCK_T}xi32>
  tile.prefetch %vf_ptrs mask %vfmask : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>
  tile.grid_dependency_wait
  tile.launch_dependents
  %qv = tile.load %q_ptrs : tensor<${D}x!tile.ptr<f32>>
  %scales = tile.splat %scale : f32 -> tensor<${D}xf32>
  %qs = arith.mulf %qv, %scales : tensor<${D}xf32>
  %q2 = tile.expand_dims %qs axis = 0 : tensor<${D}xf32> -> tensor<1x${D}xf32>
  %qb = tile.broadcast %q2 : tensor<1x${D}xf32> -> tensor<${BLOCK_T}x${D}xf32>
  %neg_inf = arith.constant 0xFF800000 : f32
  %neg_infs = arith.constant dense<0xFF800000> : tensor<${BLOCK_T}xf32>
  %zero_s = arith.constant 0.0 : f32
  %zero_k = arith.constant dense<0.0> : tensor<${BLOCK_T}x${D}xf16>
  %zero_v = arith.constant dense<0.0> : tensor<${D}x${BLOCK_T}xf32>

  // Online softmax over the chunk; the first step always has a valid token,
  // so m is finite after it and exp(m_old - m_new) never sees inf - inf.
  %m, %l, %acc = scf.for %t0 = %start to %end step %c_bt
      iter_args(%m_i = %neg_inf, %l_i = %zero_s, %a = %zero_v)
      -> (f32, f32, tensor<${D}x${BLOCK_T}xf32>) : i32 {
    // Both loads first, so that V's latency hides behind the scores. V's
    // offsets and masks are computed apart from K's (relative to t0): shared
    // ones would need a layout conversion (shared memory, barriers) first.
    %t0s = tile.splat %t0 : i32 -> tensor<${BLOCK_T}xi32>
    %t = arith.addi %t0s, %tr : tensor<${BLOCK_T}xi32>
    %valid = arith.cmpi slt, %t, %ends : tensor<${BLOCK_T}xi32>
    %t_off = arith.muli %t, %k_strides : tensor<${BLOCK_T}xi32>
    %t_off2 = tile.expand_dims %t_off axis = 1 : tensor<${BLOCK_T}xi32> -> tensor<${BLOCK_T}x1xi32>
    %t_offb = tile.broadcast %t_off2 : tensor<${BLOCK_T}x1xi32> -> tensor<${BLOCK_T}x${D}xi32>
    %k_ptrs = tile.addptr %k_cols, %t_offb : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_T}x${D}xi32>
    %km2 = tile.expand_dims %valid axis = 1 : tensor<${BLOCK_T}xi1> -> tensor<${BLOCK_T}x1xi1>
    %kmask = tile.broadcast %km2 : tensor<${BLOCK_T}x1xi1> -> tensor<${BLOCK_T}x${D}xi1>
    %kh = tile.load %k_ptrs mask %kmask other %zero_k evict = evict_first : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>

    %t0b = tile.splat %t0 : i32 -> tensor<${D}x${BLOCK_T}xi32>
    %v_blk = tile.addptr %v_base, %t0b : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_T}xi32>
    %v_ptrs = tile.addptr %v_blk, %trb : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_T}xi32>
    %v_left = arith.subi %end, %t0 : i32
    %v_lefts = tile.splat %v_left : i32 -> tensor<${D}x${BLOCK_T}xi32>
    %v_left_pad = arith.subi %end_pad, %t0 : i32
    %v_left_pads = tile.splat %v_left_pad : i32 -> tensor<${D}x${BLOCK_T}xi32>
    %lmask = arith.cmpi slt, %trb, %v_left_pads : tensor<${D}x${BLOCK_T}xi32>
    %vh = tile.load %v_ptrs mask %lmask evict = evict_first : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>

    // Scores of BLOCK_T tokens.
    %kf = tile.cast %kh : tensor<${BLOCK_T}x${D}xf16> to tensor<${BLOCK_T}x${D}xf32>
    %kq = arith.mulf %kf, %qb : tensor<${BLOCK_T}x${D}xf32>
    %s_all = tile.reduce sum %kq axis = 1 : tensor<${BLOCK_T}x${D}xf32> -> tensor<${BLOCK_T}xf32>
    %s = arith.select %valid, %s_all, %neg_infs : tensor<${BLOCK_T}xi1>, tensor<${BLOCK_T}xf32>

    // Online softmax step.
    %m_blk = tile.reduce max %s axis = 0 : tensor<${BLOCK_T}xf32> -> f32
    %m_new = arith.maximumf %m_i, %m_blk : f32
    %m_diff = arith.subf %m_i, %m_new : f32
    %alpha = math.exp %m_diff : f32
    %m_news = tile.splat %m_new : f32 -> tensor<${BLOCK_T}xf32>
    %s_shift = arith.subf %s, %m_news : tensor<${BLOCK_T}xf32>
    %pexp = math.exp %s_shift : tensor<${BLOCK_T}xf32>
    %p_sum = tile.reduce sum %pexp axis = 0 : tensor<${BLOCK_T}xf32> -> f32
    %l_scaled = arith.mulf %l_i, %alpha : f32
    %l_new = arith.addf %l_scaled, %p_sum : f32

    // acc = acc * alpha + V[:, t] * p[t]; tokens past `end` (read only to
    // keep the loads 16 bytes wide) are dropped.
    %vf = tile.cast %vh : tensor<${D}x${BLOCK_T}xf16> to tensor<${D}x${BLOCK_T}xf32>
    %vmask = arith.cmpi slt, %trb, %v_lefts : tensor<${D}x${BLOCK_T}xi32>
    %vz = arith.select %vmask, %vf, %zero_v : tensor<${D}x${BLOCK_T}xi1>, tensor<${D}x${BLOCK_T}xf32>
    %p2 = tile.expand_dims %pexp axis = 0 : tensor<${BLOCK_T}xf32> -> tensor<1x${BLOCK_T}xf32>
    %pb = tile.broadcast %p2 : tensor<1x${BLOCK_T}xf32> -> tensor<${D}x${BLOCK_T}xf32>
    %alphas = tile.splat %alpha : f32 -> tensor<${D}x${BLOCK_T}xf32>
    %a_scaled = arith.mulf %a, %alphas : tensor<${D}x${BLOCK_T}xf32>
    %a_new = math.fma %vz, %pb, %a_scaled : tensor<${D}x${BLOCK_T}xf32>
    scf.yield %m_new, %l_new, %a_new : f32, f32, tensor<${D}x${BLOCK_T}xf32>
  }
  %o_c = tile.reduce sum %acc axis = 1 : tensor<${D}x${BLOCK_T}xf32> -> tensor<${D}xf32>

  // Partials of (h, c) at index h*n_chunks + c.
  %hn = arith.muli %h, %n_chunks : i32
  %part = arith.addi %hn, %c : i32
  %m_ptr = tile.addptr %part_m, %part : !tile.ptr<f32>, i32
  tile.store %m, %m_ptr : !tile.ptr<f32>
  %l_ptr = tile.addptr %part_l, %part : !tile.ptr<f32>, i32
  tile.store %l, %l_ptr : !tile.ptr<f32>
  %o_off = arith.muli %part, %c_d : i32
  %o_row = tile.addptr %part_o, %o_off : !tile.ptr<f32>, i32
  %o_rows = tile.splat %o_row : !tile.ptr<f32> -> tensor<${D}x!tile.ptr<f32>>
  %o_ptrs = tile.addptr %o_rows, %i : tensor<${D}x!tile.ptr<f32>>, tensor<${D}xi32>
  tile.store %o_c, %o_ptrs : tensor<${D}x!tile.ptr<f32>>
  return
}

func.func @attn_decode_combine_kernel(%o: !tile.ptr<f32> {tile.divisibility = 16},
                                      %part_o: !tile.ptr<f32> {tile.divisibility = 16},
                                      %part_m: !tile.ptr<f32>,
                                      %part_l: !tile.ptr<f32>,
                                      %n_chunks: i32) {
  // Programmatic dependent launch (llk-decode-block): the next kernel may
  // start launching now; this one waits here for the kernel before it.
  tile.launch_dependents
  tile.grid_dependency_wait
  %h = tile.program_id x
  %c_d = arith.constant ${D} : i32
  %hn = arith.muli %h, %n_chunks : i32
  %cr = tile.make_range 0 to ${MAX_CHUNKS} : tensor<${MAX_CHUNKS}xi32>
  %ncs = tile.splat %n_chunks : i32 -> tensor<${MAX_CHUNKS}xi32>
  %cmask = arith.cmpi slt, %cr, %ncs : tensor<${MAX_CHUNKS}xi32>
  %neg_infs = arith.constant dense<0xFF800000> : tensor<${MAX_CHUNKS}xf32>
  %zeros = arith.constant dense<0.0> : tensor<${MAX_CHUNKS}xf32>

  %m_row = tile.addptr %part_m, %hn : !tile.ptr<f32>, i32
  %m_rows = tile.splat %m_row : !tile.ptr<f32> -> tensor<${MAX_CHUNKS}x!tile.ptr<f32>>
  %m_ptrs = tile.addptr %m_rows, %cr : tensor<${MAX_CHUNKS}x!tile.ptr<f32>>, tensor<${MAX_CHUNKS}xi32>
  %m = tile.load %m_ptrs mask %cmask other %neg_infs : tensor<${MAX_CHUNKS}x!tile.ptr<f32>>
  %l_row = tile.addptr %part_l, %hn : !tile.ptr<f32>, i32
  %l_rows = tile.splat %l_row : !tile.ptr<f32> -> tensor<${MAX_CHUNKS}x!tile.ptr<f32>>
  %l_ptrs = tile.addptr %l_rows, %cr : tensor<${MAX_CHUNKS}x!tile.ptr<f32>>, tensor<${MAX_CHUNKS}xi32>
  %l = tile.load %l_ptrs mask %cmask other %zeros : tensor<${MAX_CHUNKS}x!tile.ptr<f32>>

  // Weights: chunks past n_chunks have m = -inf, so w = 0.
  %m_max = tile.reduce max %m axis = 0 : tensor<${MAX_CHUNKS}xf32> -> f32
  %m_maxs = tile.splat %m_max : f32 -> tensor<${MAX_CHUNKS}xf32>
  %m_shift = arith.subf %m, %m_maxs : tensor<${MAX_CHUNKS}xf32>
  %w = math.exp %m_shift : tensor<${MAX_CHUNKS}xf32>
  %wl = arith.mulf %w, %l : tensor<${MAX_CHUNKS}xf32>
  %den = tile.reduce sum %wl axis = 0 : tensor<${MAX_CHUNKS}xf32> -> f32

  // part_o rows of head h: [MAX_CHUNKS, D], contiguous along D.
  %i = tile.make_range 0 to ${D} : tensor<${D}xi32>
  %hn_d = arith.muli %hn, %c_d : i32
  %po_head = tile.addptr %part_o, %hn_d : !tile.ptr<f32>, i32
  %cs = tile.splat %c_d : i32 -> tensor<${MAX_CHUNKS}xi32>
  %c_off = arith.muli %cr, %cs : tensor<${MAX_CHUNKS}xi32>
  %c_off2 = tile.expand_dims %c_off axis = 1 : tensor<${MAX_CHUNKS}xi32> -> tensor<${MAX_CHUNKS}x1xi32>
  %c_offb = tile.broadcast %c_off2 : tensor<${MAX_CHUNKS}x1xi32> -> tensor<${MAX_CHUNKS}x${D}xi32>
  %i2 = tile.expand_dims %i axis = 0 : tensor<${D}xi32> -> tensor<1x${D}xi32>
  %ib = tile.broadcast %i2 : tensor<1x${D}xi32> -> tensor<${MAX_CHUNKS}x${D}xi32>
  %po_off = arith.addi %c_offb, %ib : tensor<${MAX_CHUNKS}x${D}xi32>
  %po_heads = tile.splat %po_head : !tile.ptr<f32> -> tensor<${MAX_CHUNKS}x${D}x!tile.ptr<f32>>
  %po_ptrs = tile.addptr %po_heads, %po_off : tensor<${MAX_CHUNKS}x${D}x!tile.ptr<f32>>, tensor<${MAX_CHUNKS}x${D}xi32>
  %cm2 = tile.expand_dims %cmask axis = 1 : tensor<${MAX_CHUNKS}xi1> -> tensor<${MAX_CHUNKS}x1xi1>
  %pomask = tile.broadcast %cm2 : tensor<${MAX_CHUNKS}x1xi1> -> tensor<${MAX_CHUNKS}x${D}xi1>
  %zero_o = arith.constant dense<0.0> : tensor<${MAX_CHUNKS}x${D}xf32>
  %po = tile.load %po_ptrs mask %pomask other %zero_o : tensor<${MAX_CHUNKS}x${D}x!tile.ptr<f32>>

  %w2 = tile.expand_dims %w axis = 1 : tensor<${MAX_CHUNKS}xf32> -> tensor<${MAX_CHUNKS}x1xf32>
  %wb = tile.broadcast %w2 : tensor<${MAX_CHUNKS}x1xf32> -> tensor<${MAX_CHUNKS}x${D}xf32>
  %wpo = arith.mulf %po, %wb : tensor<${MAX_CHUNKS}x${D}xf32>
  %num = tile.reduce sum %wpo axis = 0 : tensor<${MAX_CHUNKS}x${D}xf32> -> tensor<${D}xf32>
  %dens = tile.splat %den : f32 -> tensor<${D}xf32>
  %out = arith.divf %num, %dens : tensor<${D}xf32>

  %o_off = arith.muli %h, %c_d : i32
  %o_row = tile.addptr %o, %o_off : !tile.ptr<f32>, i32
  %o_rows = tile.splat %o_row : !tile.ptr<f32> -> tensor<${D}x!tile.ptr<f32>>
  %o_ptrs = tile.addptr %o_rows, %i : tensor<${D}x!tile.ptr<f32>>, tensor<${D}xi32>
  tile.store %out, %o_ptrs : tensor<${D}x!tile.ptr<f32>>
  return
}
