// attn_decode_fused: the decode step's attention in one launch: the
// partial kernel of attn_decode_pos.mlir (flash-decoding over the KV cache at
// the position in device memory, chunks of the context in parallel; that file
// and attn_decode.mlir say how it works) and, for each head, the combine of
// attn_decode.mlir's attn_decode_combine_kernel done by the head's chunk that
// finishes last:
//
//   o[h, :] = sum_c w_c o_c / sum_c w_c l_c,  w_c = exp(m_c - max_c m_c)
//
// Each program stores its chunk's m, l and o, then counts itself in
// count[h] (a program's acq_rel atomic: every thread's store happens before
// it); the last of the head's n_chunks programs reads the partials back (from
// L2: cache = cg), merges them, writes o[h] and sets count[h] back to 0.
//
//   grid = (n_chunks <= MAX_CHUNKS, NH); constants: BLOCK_T (64), D,
//   MAX_CHUNKS (a power of two); num_warps 8
//   args: o (f32 [NH][D]), part_o, part_m, part_l (f32 scratch:
//         [NH][n_chunks][D], [NH][n_chunks]), q, k, v, pos (as
//         attn_decode_pos.mlir), k_row_stride, cap, g, scale, count (i32
//         [NH], 0 before the launch and after it)
func.func @attn_decode_fused_kernel(%o: !tile.ptr<f32> {tile.divisibility = 16},
                                      %part_o: !tile.ptr<f32> {tile.divisibility = 16},
                                      %part_m: !tile.ptr<f32>,
                                      %part_l: !tile.ptr<f32>,
                                      %q: !tile.ptr<f32> {tile.divisibility = 16},
                                      %k: !tile.ptr<f16> {tile.divisibility = 16},
                                      %v: !tile.ptr<f16> {tile.divisibility = 16},
                                      %pos_ptr: !tile.ptr<i32>,
                                      %k_row_stride: i32 {tile.divisibility = 16},
                                      %cap: i32 {tile.divisibility = 16},
                                      %g: i32,
                                      %scale: f32,
                                      %count: !tile.ptr<i32>) {
  %c = tile.program_id x
  %h = tile.program_id y
  %n_chunks = tile.num_programs x
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %hk = arith.divsi %h, %g : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c_bt = arith.constant ${BLOCK_T} : i32
  %c_d = arith.constant ${D} : i32

  // The prefetch's token range [start0, end0), from the position as it reads
  // before the wait (see above).
  %pos0 = tile.load %pos_ptr : !tile.ptr<i32>
  %pos_c0 = arith.maxsi %pos0, %c0 : i32
  %pos10 = arith.addi %pos_c0, %c1 : i32
  %n_kv0 = arith.minsi %pos10, %cap : i32
  %per0_up = arith.addi %n_kv0, %n_chunks : i32
  %per0_up1 = arith.subi %per0_up, %c1 : i32
  %per0 = arith.divsi %per0_up1, %n_chunks : i32
  %chunk0_up = arith.addi %per0, %c_bt : i32
  %chunk0_up1 = arith.subi %chunk0_up, %c1 : i32
  %chunk0_n = arith.divsi %chunk0_up1, %c_bt : i32
  %chunk0 = arith.muli %chunk0_n, %c_bt : i32
  %start0 = arith.muli %c, %chunk0 : i32
  %start_chunk0 = arith.addi %start0, %chunk0 : i32
  %end0 = arith.minsi %start_chunk0, %n_kv0 : i32
  %end_up0 = arith.addi %end0, %c7 : i32
  %end_div0 = arith.divsi %end_up0, %c8 : i32
  %end_pad0 = arith.muli %end_div0, %c8 : i32
  %ends0 = tile.splat %end0 : i32 -> tensor<${BLOCK_T}xi32>

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
  %t0f = tile.splat %start0 : i32 -> tensor<${BLOCK_T}xi32>
  %tf = arith.addi %t0f, %tr : tensor<${BLOCK_T}xi32>
  %validf = arith.cmpi slt, %tf, %ends0 : tensor<${BLOCK_T}xi32>
  %tf_off = arith.muli %tf, %k_strides : tensor<${BLOCK_T}xi32>
  %tf_off2 = tile.expand_dims %tf_off axis = 1 : tensor<${BLOCK_T}xi32> -> tensor<${BLOCK_T}x1xi32>
  %tf_offb = tile.broadcast %tf_off2 : tensor<${BLOCK_T}x1xi32> -> tensor<${BLOCK_T}x${D}xi32>
  %kf_ptrs = tile.addptr %k_cols, %tf_offb : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_T}x${D}xi32>
  %kfm2 = tile.expand_dims %validf axis = 1 : tensor<${BLOCK_T}xi1> -> tensor<${BLOCK_T}x1xi1>
  %kfmask = tile.broadcast %kfm2 : tensor<${BLOCK_T}x1xi1> -> tensor<${BLOCK_T}x${D}xi1>
  tile.prefetch %kf_ptrs mask %kfmask : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>
  %startb = tile.splat %start0 : i32 -> tensor<${D}x${BLOCK_T}xi32>
  %vf_blk = tile.addptr %v_base, %startb : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_T}xi32>
  %vf_ptrs = tile.addptr %vf_blk, %trb : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_T}xi32>
  %vf_left = arith.subi %end_pad0, %start0 : i32
  %vf_lefts = tile.splat %vf_left : i32 -> tensor<${D}x${BLOCK_T}xi32>
  %vfmask = arith.cmpi slt, %trb, %vf_lefts : tensor<${D}x${BLOCK_T}xi32>
  tile.prefetch %vf_ptrs mask %vfmask : tensor<${D}x${BLOCK_T}x!tile.ptr<f16>>
  tile.grid_dependency_wait
  tile.launch_dependents
  // This program's tokens: [start, end); V loads run to `end` rounded up to
  // 8 tokens (attn_decode.mlir says why).
  %pos = tile.load %pos_ptr : !tile.ptr<i32>
  %pos_c = arith.maxsi %pos, %c0 : i32
  %pos1 = arith.addi %pos_c, %c1 : i32
  %n_kv = arith.minsi %pos1, %cap : i32
  %per_up = arith.addi %n_kv, %n_chunks : i32
  %per_up1 = arith.subi %per_up, %c1 : i32
  %per = arith.divsi %per_up1, %n_chunks : i32
  %chunk_up = arith.addi %per, %c_bt : i32
  %chunk_up1 = arith.subi %chunk_up, %c1 : i32
  %chunk_n = arith.divsi %chunk_up1, %c_bt : i32
  %chunk = arith.muli %chunk_n, %c_bt : i32
  %start = arith.muli %c, %chunk : i32
  %start_chunk = arith.addi %start, %chunk : i32
  %end = arith.minsi %start_chunk, %n_kv : i32
  %end_up = arith.addi %end, %c7 : i32
  %end_div = arith.divsi %end_up, %c8 : i32
  %end_pad = arith.muli %end_div, %c8 : i32
  %ends = tile.splat %end : i32 -> tensor<${BLOCK_T}xi32>
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

  // Count this chunk in; the head's last one merges the chunks into o[h].
  %one = arith.constant 1 : i32
  %last_index = arith.subi %n_chunks, %one : i32
  %count_h = tile.addptr %count, %h : !tile.ptr<i32>, i32
  %arrived = tile.atomic_rmw add %count_h, %one : !tile.ptr<i32>
  %last = arith.cmpi eq, %arrived, %last_index : i32
  scf.if %last {
    %cb_hn = arith.muli %h, %n_chunks : i32
    %cb_cr = tile.make_range 0 to ${MAX_CHUNKS} : tensor<${MAX_CHUNKS}xi32>
    %cb_ncs = tile.splat %n_chunks : i32 -> tensor<${MAX_CHUNKS}xi32>
    %cb_cmask = arith.cmpi slt, %cb_cr, %cb_ncs : tensor<${MAX_CHUNKS}xi32>
    %cb_neg_infs = arith.constant dense<0xFF800000> : tensor<${MAX_CHUNKS}xf32>
    %cb_zeros = arith.constant dense<0.0> : tensor<${MAX_CHUNKS}xf32>

    %cb_m_row = tile.addptr %part_m, %cb_hn : !tile.ptr<f32>, i32
    %cb_m_rows = tile.splat %cb_m_row : !tile.ptr<f32> -> tensor<${MAX_CHUNKS}x!tile.ptr<f32>>
    %cb_m_ptrs = tile.addptr %cb_m_rows, %cb_cr : tensor<${MAX_CHUNKS}x!tile.ptr<f32>>, tensor<${MAX_CHUNKS}xi32>
    %cb_m = tile.load %cb_m_ptrs mask %cb_cmask other %cb_neg_infs cache = cg : tensor<${MAX_CHUNKS}x!tile.ptr<f32>>
    %cb_l_row = tile.addptr %part_l, %cb_hn : !tile.ptr<f32>, i32
    %cb_l_rows = tile.splat %cb_l_row : !tile.ptr<f32> -> tensor<${MAX_CHUNKS}x!tile.ptr<f32>>
    %cb_l_ptrs = tile.addptr %cb_l_rows, %cb_cr : tensor<${MAX_CHUNKS}x!tile.ptr<f32>>, tensor<${MAX_CHUNKS}xi32>
    %cb_l = tile.load %cb_l_ptrs mask %cb_cmask other %cb_zeros cache = cg : tensor<${MAX_CHUNKS}x!tile.ptr<f32>>

    // Weights: chunks past n_chunks have m = -inf, so w = 0.
    %cb_m_max = tile.reduce max %cb_m axis = 0 : tensor<${MAX_CHUNKS}xf32> -> f32
    %cb_m_maxs = tile.splat %cb_m_max : f32 -> tensor<${MAX_CHUNKS}xf32>
    %cb_m_shift = arith.subf %cb_m, %cb_m_maxs : tensor<${MAX_CHUNKS}xf32>
    %cb_w = math.exp %cb_m_shift : tensor<${MAX_CHUNKS}xf32>
    %cb_wl = arith.mulf %cb_w, %cb_l : tensor<${MAX_CHUNKS}xf32>
    %cb_den = tile.reduce sum %cb_wl axis = 0 : tensor<${MAX_CHUNKS}xf32> -> f32

    // part_o rows of head h: [MAX_CHUNKS, D], contiguous along D.
    %cb_i = tile.make_range 0 to ${D} : tensor<${D}xi32>
    %cb_hn_d = arith.muli %cb_hn, %c_d : i32
    %cb_po_head = tile.addptr %part_o, %cb_hn_d : !tile.ptr<f32>, i32
    %cb_cs = tile.splat %c_d : i32 -> tensor<${MAX_CHUNKS}xi32>
    %cb_c_off = arith.muli %cb_cr, %cb_cs : tensor<${MAX_CHUNKS}xi32>
    %cb_c_off2 = tile.expand_dims %cb_c_off axis = 1 : tensor<${MAX_CHUNKS}xi32> -> tensor<${MAX_CHUNKS}x1xi32>
    %cb_c_offb = tile.broadcast %cb_c_off2 : tensor<${MAX_CHUNKS}x1xi32> -> tensor<${MAX_CHUNKS}x${D}xi32>
    %cb_i2 = tile.expand_dims %cb_i axis = 0 : tensor<${D}xi32> -> tensor<1x${D}xi32>
    %cb_ib = tile.broadcast %cb_i2 : tensor<1x${D}xi32> -> tensor<${MAX_CHUNKS}x${D}xi32>
    %cb_po_off = arith.addi %cb_c_offb, %cb_ib : tensor<${MAX_CHUNKS}x${D}xi32>
    %cb_po_heads = tile.splat %cb_po_head : !tile.ptr<f32> -> tensor<${MAX_CHUNKS}x${D}x!tile.ptr<f32>>
    %cb_po_ptrs = tile.addptr %cb_po_heads, %cb_po_off : tensor<${MAX_CHUNKS}x${D}x!tile.ptr<f32>>, tensor<${MAX_CHUNKS}x${D}xi32>
    %cb_cm2 = tile.expand_dims %cb_cmask axis = 1 : tensor<${MAX_CHUNKS}xi1> -> tensor<${MAX_CHUNKS}x1xi1>
    %cb_pomask = tile.broadcast %cb_cm2 : tensor<${MAX_CHUNKS}x1xi1> -> tensor<${MAX_CHUNKS}x${D}xi1>
    %cb_zero_o = arith.constant dense<0.0> : tensor<${MAX_CHUNKS}x${D}xf32>
    %cb_po = tile.load %cb_po_ptrs mask %cb_pomask other %cb_zero_o cache = cg : tensor<${MAX_CHUNKS}x${D}x!tile.ptr<f32>>

    %cb_w2 = tile.expand_dims %cb_w axis = 1 : tensor<${MAX_CHUNKS}xf32> -> tensor<${MAX_CHUNKS}x1xf32>
    %cb_wb = tile.broadcast %cb_w2 : tensor<${MAX_CHUNKS}x1xf32> -> tensor<${MAX_CHUNKS}x${D}xf32>
    %cb_wpo = arith.mulf %cb_po, %cb_wb : tensor<${MAX_CHUNKS}x${D}xf32>
    %cb_num = tile.reduce sum %cb_wpo axis = 0 : tensor<${MAX_CHUNKS}x${D}xf32> -> tensor<${D}xf32>
    %cb_dens = tile.splat %cb_den : f32 -> tensor<${D}xf32>
    %cb_out = arith.divf %cb_num, %cb_dens : tensor<${D}xf32>

    %cb_o_off = arith.muli %h, %c_d : i32
    %cb_o_row = tile.addptr %o, %cb_o_off : !tile.ptr<f32>, i32
    %cb_o_rows = tile.splat %cb_o_row : !tile.ptr<f32> -> tensor<${D}x!tile.ptr<f32>>
    %cb_o_ptrs = tile.addptr %cb_o_rows, %cb_i : tensor<${D}x!tile.ptr<f32>>, tensor<${D}xi32>
    tile.store %cb_out, %cb_o_ptrs : tensor<${D}x!tile.ptr<f32>>
    %cb_zero = arith.constant 0 : i32
    tile.store %cb_zero, %count_h : !tile.ptr<i32>
  }
  return
}
