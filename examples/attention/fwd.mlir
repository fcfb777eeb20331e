// FlashAttention-2 forward, after Triton's fused-attention tutorial
// (python/tutorials/06-fused-attention.py): one program per BLOCK_M query
// rows of one head, looping over the keys BLOCK_N at a time with an online
// softmax in base 2 (running max m, running sum l), Q·Kᵀ and P·V on the
// tensor cores (`tile.dot`), f32 accumulation.
//
//   s_ij = sm_scale · q_i·k_j            (masked: j ≥ n_k, and j > i + n_k - n_q if causal)
//   o_i  = Σ_j softmax_j(s_i·) v_j       (T: f16 or bf16, as the inputs)
//   lse_i = log Σ_j exp(s_ij)            (f32, natural log: the backward's input)
//
// Layouts: Q, O [B][H][n_q][D] and K, V [B][H_kv][n_k][D] by their strides
// (elements; the last dimension contiguous; K and V share theirs, and so
// do Q and O), lse [B][H][n_q] packed. Query head h reads KV head h / group
// (grouped-query attention: group = H / H_kv query heads per KV head).
// Causal masking is aligned bottom-right, as for a prompt after cached
// tokens: query i sees keys j <= i + n_k - n_q (so causal needs n_q <= n_k;
// with n_q = n_k it is the usual lower triangle). Any n_q, n_k ≥ 1: the
// tails are masked; offsets are 32-bit, so each tensor has fewer than 2^31
// elements.
//
// The keys come in two stages, as the tutorial's: the blocks every query
// row of the program sees whole (all keys before the diagonal; for
// non-causal attention all whole blocks), without any mask, then the blocks
// that need one (the diagonal for causal; the last, partial block), with
// the mask. Both loops are pipelined (`--num-stages`: K and V by cp.async
// into shared-memory rings). K is read as its transpose [D x BLOCK_N]
// directly (addresses contiguous along D), so that the load feeds the dot.
//
//   llkc examples/attention/fwd.mlir -D T=f16 -D D=128 -D BLOCK_M=128 -D BLOCK_N=64 \
//        -D CAUSAL=1 --num-warps 8 --num-stages 3 [--arch sm_80|sm_90|sm_90a]
//   grid = (cdiv(n_q, BLOCK_M), B * H)
//   args: q, k, v, o, lse, n_q, n_k, H, group, stride_qb, stride_qh,
//         stride_qm, stride_kb, stride_kh, stride_km (strides multiples of
//         8), sm_scale (> 0)
//
// The configurations (the benchmark's too, bench/attention/configs.py reads
// this table), for T ∈ {f16, bf16}, CAUSAL ∈ {0, 1} and group ∈ {1, 4} (a
// runtime value): the tutorial's blocks, 8 warps (two warpgroups of 64
// rows each on sm_90a's wgmma; at D = 64 with 4 warps a thread's S, O, Q
// and P exceed its 255 registers and ptxas spills). Programs: those that
// should fit on one SM (--min-programs-per-sm; `a/b`: a on sm_80 and sm_90,
// b on sm_90a, `-` none): at D = 64 on sm_90a two of 8 warps fit in 128
// registers a thread without spills, and run 1.6x (1.7x causal) faster
// than one.
//
//   kernel  D    BLOCK_M  BLOCK_N  warps  stages  programs
//   fwd     64   128      64       8      3       -/2
//   fwd     128  128      64       8      3       -
func.func @attn_fwd_kernel(%q: !tile.ptr<${T}> {tile.divisibility = 16}, %k: !tile.ptr<${T}> {tile.divisibility = 16}, %v: !tile.ptr<${T}> {tile.divisibility = 16},
    %o: !tile.ptr<${T}> {tile.divisibility = 16}, %lse: !tile.ptr<f32> {tile.divisibility = 16}, %n_q: i32, %n_k: i32, %heads: i32, %group: i32,
    %stride_qb: i32 {tile.divisibility = 8}, %stride_qh: i32 {tile.divisibility = 8}, %stride_qm: i32 {tile.divisibility = 8},
    %stride_kb: i32 {tile.divisibility = 8}, %stride_kh: i32 {tile.divisibility = 8}, %stride_km: i32 {tile.divisibility = 8}, %sm_scale: f32) {
  %start_m = tile.program_id x
  %bh = tile.program_id y
  %b = arith.divsi %bh, %heads : i32
  %h = arith.remsi %bh, %heads : i32
  %hk = arith.divsi %h, %group : i32
  %c1 = arith.constant 1 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %causal = arith.constant ${CAUSAL} : i1
  %c0 = arith.constant 0 : i32
  // Scores in base 2: s · log2(e), so that exp(s - m) is exp2.
  %log2e = arith.constant 1.44269504 : f32
  %qk_scale = arith.mulf %sm_scale, %log2e : f32

  // This head's Q, O, K and V.
  %qb_off = arith.muli %b, %stride_qb : i32
  %qh_off = arith.muli %h, %stride_qh : i32
  %q_off = arith.addi %qb_off, %qh_off : i32
  %kb_off = arith.muli %b, %stride_kb : i32
  %kh_off = arith.muli %hk, %stride_kh : i32
  %k_off = arith.addi %kb_off, %kh_off : i32
  %q_head = tile.addptr %q, %q_off : !tile.ptr<${T}>, i32
  %o_head = tile.addptr %o, %q_off : !tile.ptr<${T}>, i32
  %k_head = tile.addptr %k, %k_off : !tile.ptr<${T}>, i32
  %v_head = tile.addptr %v, %k_off : !tile.ptr<${T}>, i32

  // Query rows offs_m = m0 + arange(BLOCK_M), keys offs_n (+ the block's
  // start), head dimension offs_d.
  %m0 = arith.muli %start_m, %bm : i32
  %range_m = tile.make_range 0 to ${BLOCK_M}
  %offs_m = tile.add %m0, %range_m : i32, tensor<${BLOCK_M}xi32>
  %offs_n = tile.make_range 0 to ${BLOCK_N}
  %offs_d = tile.make_range 0 to ${D}

  // Q (and O): q_head + offs_m[:, None] * stride_qm + offs_d[None, :], rows
  // past n_q masked.
  %m_col = tile.expand_dims %offs_m axis = 1 : tensor<${BLOCK_M}xi32>
  %q_rows = tile.mul %m_col, %stride_qm : tensor<${BLOCK_M}x1xi32>, i32
  %qo_offs = tile.add %q_rows, %offs_d : tensor<${BLOCK_M}x1xi32>, tensor<${D}xi32>
  %m_ok = tile.cmp lt %m_col, %n_q : tensor<${BLOCK_M}x1xi32>, i32
  %qo_mask = tile.broadcast %m_ok : tensor<${BLOCK_M}x1xi1> -> tensor<${BLOCK_M}x${D}xi1>
  %q_ptrs = tile.addptr %q_head, %qo_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
  %zero_q = arith.constant dense<0.0> : tensor<${BLOCK_M}x${D}x${T}>
  %qv = tile.load %q_ptrs mask %qo_mask other %zero_q : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>

  // Kᵀ of keys offs_n: k_head + offs_d[:, None] + offs_n[None, :] * stride_km.
  %d_col = tile.expand_dims %offs_d axis = 1 : tensor<${D}xi32>
  %n_row = tile.expand_dims %offs_n axis = 0 : tensor<${BLOCK_N}xi32>
  %kt_cols = tile.mul %n_row, %stride_km : tensor<1x${BLOCK_N}xi32>, i32
  %kt_offs = tile.add %d_col, %kt_cols : tensor<${D}x1xi32>, tensor<1x${BLOCK_N}xi32>
  %kt_base = tile.addptr %k_head, %kt_offs : !tile.ptr<${T}>, tensor<${D}x${BLOCK_N}xi32>
  %n_row_k = tile.broadcast %n_row : tensor<1x${BLOCK_N}xi32> -> tensor<${D}x${BLOCK_N}xi32>
  %n_row_s = tile.broadcast %n_row : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>

  // V of keys offs_n: v_head + offs_n[:, None] * stride_km + offs_d[None, :].
  %n_col = tile.expand_dims %offs_n axis = 1 : tensor<${BLOCK_N}xi32>
  %v_rows = tile.mul %n_col, %stride_km : tensor<${BLOCK_N}x1xi32>, i32
  %v_offs = tile.add %v_rows, %offs_d : tensor<${BLOCK_N}x1xi32>, tensor<${D}xi32>
  %v_base = tile.addptr %v_head, %v_offs : !tile.ptr<${T}>, tensor<${BLOCK_N}x${D}xi32>
  %n_col_v = tile.broadcast %n_col : tensor<${BLOCK_N}x1xi32> -> tensor<${BLOCK_N}x${D}xi32>

  // The stages' key ranges. shift = n_k - n_q aligns the causal diagonal
  // bottom-right; every row of this program sees keys < m0 + shift + 1 (all
  // of them without causality), so the whole blocks below that need no mask.
  %shift = arith.subi %n_k, %n_q : i32
  %m0_shift = arith.addi %m0, %shift : i32
  %diag_lo = arith.addi %m0_shift, %c1 : i32
  %diag_lo_k = arith.minsi %diag_lo, %n_k : i32
  %unmasked_keys = arith.select %causal, %diag_lo_k, %n_k : i32
  %whole = arith.divsi %unmasked_keys, %bn : i32
  %n_mid = arith.muli %whole, %bn : i32
  %diag_hi = arith.addi %m0_shift, %bm : i32
  %diag_hi_k = arith.minsi %diag_hi, %n_k : i32
  %n_end = arith.select %causal, %diag_hi_k, %n_k : i32

  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}xf32>
  %zero_l = arith.constant dense<0.0> : tensor<${BLOCK_M}xf32>
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${D}xf32>
  %zero_qk = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  // qk_scale as tiles, splat once outside the loops (math.fma takes no scalar).
  %qk_scales1 = tile.splat %qk_scale : f32 -> tensor<${BLOCK_M}xf32>
  %qk_scales = tile.splat %qk_scale : f32 -> tensor<${BLOCK_M}x${BLOCK_N}xf32>

  // Stage 1: whole blocks, no mask. m stays -inf until the first block, so
  // alpha = exp2(-inf - m_ij) = 0 there (and l, acc start at 0).
  %acc1, %l1, %m1 = scf.for %n = %c0 to %n_mid step %bn iter_args(%acc_i = %zero_acc, %l_i = %zero_l, %m_i = %neg_inf)
      -> (tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>) : i32 {
    %n_off = arith.muli %n, %stride_km : i32
    %kt_ptrs = tile.addptr %kt_base, %n_off : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>, i32
    %kt = tile.load %kt_ptrs : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>
    %qk = tile.dot %qv, %kt, %zero_qk : tensor<${BLOCK_M}x${D}x${T}>, tensor<${D}x${BLOCK_N}x${T}>
    // m_ij = max(m_i, max(qk, 1) * qk_scale); p = exp2(qk * qk_scale - m_ij[:, None]).
    %qk_max = tile.reduce max %qk axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %qk_max_s = arith.mulf %qk_max, %qk_scales1 : tensor<${BLOCK_M}xf32>
    %m_ij = arith.maximumf %m_i, %qk_max_s : tensor<${BLOCK_M}xf32>
    %m_ij_c = tile.expand_dims %m_ij axis = 1 : tensor<${BLOCK_M}xf32>
    %m_ij_b = tile.broadcast %m_ij_c : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %neg_m = arith.negf %m_ij_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %s = math.fma %qk, %qk_scales, %neg_m : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %p = math.exp2 %s : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    // alpha = exp2(m_i - m_ij); l = l * alpha + sum(p, 1); acc = acc * alpha[:, None] + p·v.
    %l_ij = tile.reduce sum %p axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %m_diff = arith.subf %m_i, %m_ij : tensor<${BLOCK_M}xf32>
    %alpha = math.exp2 %m_diff : tensor<${BLOCK_M}xf32>
    %l_new = math.fma %l_i, %alpha, %l_ij : tensor<${BLOCK_M}xf32>
    %alpha_c = tile.expand_dims %alpha axis = 1 : tensor<${BLOCK_M}xf32>
    %acc_s = tile.mul %acc_i, %alpha_c : tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}x1xf32>
    %v_ptrs = tile.addptr %v_base, %n_off : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>, i32
    %vv = tile.load %v_ptrs : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>
    %pt = tile.cast %p : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${T}>
    %acc_new = tile.dot %pt, %vv, %acc_s : tensor<${BLOCK_M}x${BLOCK_N}x${T}>, tensor<${BLOCK_N}x${D}x${T}>
    scf.yield %acc_new, %l_new, %m_ij : tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
  }

  // Stage 2: the blocks that need a mask (keys past n_k, and past the
  // diagonal when causal). Every row sees key 0 in the first block either
  // stage takes, so m is finite from then on and exp2(-inf - m) = 0.
  %zero_kt = arith.constant dense<0.0> : tensor<${D}x${BLOCK_N}x${T}>
  %zero_v = arith.constant dense<0.0> : tensor<${BLOCK_N}x${D}x${T}>
  %neg_inf2 = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  // Masks compare loop-invariant index tiles with per-step values, so that
  // each stays in its own layout and none is kept a whole [BLOCK_M x
  // BLOCK_N] in registers: key c of the block at n is in range where
  // c < n_k - n, and row i sees it where c <= i + shift - n.
  %acc, %l, %m = scf.for %n = %n_mid to %n_end step %bn iter_args(%acc_i = %acc1, %l_i = %l1, %m_i = %m1)
      -> (tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>) : i32 {
    %n_off = arith.muli %n, %stride_km : i32
    %kt_ptrs = tile.addptr %kt_base, %n_off : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>, i32
    %k_left = arith.subi %n_k, %n : i32
    %k_ok = tile.cmp lt %n_row_k, %k_left : tensor<${D}x${BLOCK_N}xi32>, i32
    %kt = tile.load %kt_ptrs mask %k_ok other %zero_kt : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>
    %qk = tile.dot %qv, %kt, %zero_qk : tensor<${BLOCK_M}x${D}x${T}>, tensor<${D}x${BLOCK_N}x${T}>
    %in_k = tile.cmp lt %n_row_s, %k_left : tensor<${BLOCK_M}x${BLOCK_N}xi32>, i32
    %diag_lim = arith.subi %shift, %n : i32
    %row_lim = tile.add %m_col, %diag_lim : tensor<${BLOCK_M}x1xi32>, i32
    %seen = tile.cmp le %n_row_s, %row_lim : tensor<${BLOCK_M}x${BLOCK_N}xi32>, tensor<${BLOCK_M}x1xi32>
    // Causal, the diagonal keeps keys past n_k from every row < n_q too
    // (i + n_k - n_q < n_k); rows past n_q are not stored.
    %keep = arith.select %causal, %seen, %in_k : tensor<${BLOCK_M}x${BLOCK_N}xi1>
    %qk_s = arith.mulf %qk, %qk_scales : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %qk_m = arith.select %keep, %qk_s, %neg_inf2 : tensor<${BLOCK_M}x${BLOCK_N}xi1>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %qk_max = tile.reduce max %qk_m axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %m_ij = arith.maximumf %m_i, %qk_max : tensor<${BLOCK_M}xf32>
    %m_ij_c = tile.expand_dims %m_ij axis = 1 : tensor<${BLOCK_M}xf32>
    %s = tile.sub %qk_m, %m_ij_c : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x1xf32>
    %p = math.exp2 %s : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %l_ij = tile.reduce sum %p axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %m_diff = arith.subf %m_i, %m_ij : tensor<${BLOCK_M}xf32>
    %alpha = math.exp2 %m_diff : tensor<${BLOCK_M}xf32>
    %l_new = math.fma %l_i, %alpha, %l_ij : tensor<${BLOCK_M}xf32>
    %alpha_c = tile.expand_dims %alpha axis = 1 : tensor<${BLOCK_M}xf32>
    %acc_s = tile.mul %acc_i, %alpha_c : tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}x1xf32>
    %v_ptrs = tile.addptr %v_base, %n_off : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>, i32
    %v_ok = tile.cmp lt %n_col_v, %k_left : tensor<${BLOCK_N}x${D}xi32>, i32
    %vv = tile.load %v_ptrs mask %v_ok other %zero_v : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>
    %pt = tile.cast %p : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${T}>
    %acc_new = tile.dot %pt, %vv, %acc_s : tensor<${BLOCK_M}x${BLOCK_N}x${T}>, tensor<${BLOCK_N}x${D}x${T}>
    scf.yield %acc_new, %l_new, %m_ij : tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
  }

  // Epilogue: o = acc / l in T; lse = ln 2 · (m + log2 l).
  %one = arith.constant dense<1.0> : tensor<${BLOCK_M}xf32>
  %inv_l = arith.divf %one, %l : tensor<${BLOCK_M}xf32>
  %inv_l_c = tile.expand_dims %inv_l axis = 1 : tensor<${BLOCK_M}xf32>
  %out = tile.mul %acc, %inv_l_c : tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}x1xf32>
  %out_t = tile.cast %out : tensor<${BLOCK_M}x${D}xf32> to tensor<${BLOCK_M}x${D}x${T}>
  %o_ptrs = tile.addptr %o_head, %qo_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
  tile.store %out_t, %o_ptrs mask %qo_mask : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>

  %log2_l = math.log2 %l : tensor<${BLOCK_M}xf32>
  %lse2 = arith.addf %m, %log2_l : tensor<${BLOCK_M}xf32>
  %ln2 = arith.constant dense<0.693147182> : tensor<${BLOCK_M}xf32>
  %lse_v = arith.mulf %lse2, %ln2 : tensor<${BLOCK_M}xf32>
  %lse_off = arith.muli %bh, %n_q : i32
  %lse_head = tile.addptr %lse, %lse_off : !tile.ptr<f32>, i32
  %lse_ptrs = tile.addptr %lse_head, %offs_m : !tile.ptr<f32>, tensor<${BLOCK_M}xi32>
  %lse_mask = tile.cmp lt %offs_m, %n_q : tensor<${BLOCK_M}xi32>, i32
  tile.store %lse_v, %lse_ptrs mask %lse_mask : tensor<${BLOCK_M}x!tile.ptr<f32>>
  return
}
