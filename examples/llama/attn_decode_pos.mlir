// attn_decode_pos: attn_decode.mlir's partial kernel (flash-decoding over the
// KV cache, one new token; that file says how it works) with the number of
// tokens read from device memory: n_kv = min(*pos + 1, C), so that one CUDA
// graph serves every decode step, its grid fixed. The combine is
// attn_decode.mlir's attn_decode_combine_kernel with n_chunks = the grid's x.
//
// Program (c, h) takes tokens [c * chunk, min((c + 1) * chunk, n_kv)) of
// head h, with chunk = ceil(n_kv / n_chunks) rounded up to BLOCK_T (so a
// multiple of 16: V rows stay 16-byte aligned; start = c * chunk is left
// unclamped so that the compiler sees that alignment). A program with no
// tokens (start >= n_kv: its loop runs no step, its prefetch masks are empty)
// writes m = -inf, l = 0 and o = 0, which the combine weighs 0 (chunk 0 always
// has a token).
//
// The first step's K and V tiles are prefetched into L2 before the wait for
// the kernel before (which appends this token's K and V), from a position read
// there too: a prefetch is only a hint, and any position read gives addresses
// inside the cache. The position is read again after the wait for the work.
//
//   grid = (n_chunks, NH): n_chunks fixed by the host (e.g. C / 256, at most
//   the combine's MAX_CHUNKS)
//   constants: BLOCK_T (tokens per step, 64; at least 16), D (head dim)
//   num_warps 8
//   args: part_o, part_m, part_l (f32), q (f32 [NH][D]), k, v (f16 caches:
//         K [C][NH_kv][D], V [NH_kv][D][C]), pos (i32, one), k_row_stride
//         (NH_kv * D, mult. of 16), cap = C (mult. of 16), g = NH / NH_kv,
//         scale (1/sqrt(D))
func.func @attn_decode_partial_pos_kernel(%part_o: !tile.ptr<f32> {tile.divisibility = 16},
                                      %part_m: !tile.ptr<f32>,
                                      %part_l: !tile.ptr<f32>,
                                      %q: !tile.ptr<f32> {tile.divisibility = 16},
                                      %k: !tile.ptr<f16> {tile.divisibility = 16},
                                      %v: !tile.ptr<f16> {tile.divisibility = 16},
                                      %pos_ptr: !tile.ptr<i32>,
                                      %k_row_stride: i32 {tile.divisibility = 16},
                                      %cap: i32 {tile.divisibility = 16},
                                      %g: i32,
                                      %scale: f32) {
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
  return
}
