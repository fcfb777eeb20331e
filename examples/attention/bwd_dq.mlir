// FlashAttention-2 backward, step 3 of 3 (after Triton's fused-attention
// tutorial, _attn_bwd_dq): dQ of BLOCK_M query rows of one head per program.
// Q, dO, lse and delta stay in registers while the program walks the keys
// BLOCK_N at a time, recomputing the probabilities from the forward's lse:
//
//   p = exp2(Q·Kᵀ · sm_scale·log2 e − lse · log2 e)      [BLOCK_M x BLOCK_N]
//   dp = dO·Vᵀ         ds = p ∘ (dp − delta)
//   dQ += ds·K         (dQ = sm_scale · that at the end)
//
// with delta from bwd_preprocess.mlir. K is read in both orientations (Kᵀ
// [D x BLOCK_N] for the scores, K [BLOCK_N x D] for dQ) and V as Vᵀ, each
// load feeding its dot directly so that all are pipelined. The keys come in
// the forward's two stages: those every row sees, without a mask, then the
// diagonal (causal, bottom-right as fwd.mlir) and the partial last block,
// with it. Layouts and arguments as bwd_dkdv.mlir; dQ has Q's strides.
//
//   llkc examples/attention/bwd_dq.mlir -D T=f16 -D D=128 -D BLOCK_M=128 -D BLOCK_N=32 \
//        -D CAUSAL=1 --num-warps 8 --num-stages 3
//   grid = (cdiv(n_q, BLOCK_M), B * H)
//   args: q, k, v, do, lse, delta, dq, n_q, n_k, H, group, stride_qb,
//         stride_qh, stride_qm, stride_kb, stride_kh, stride_km (strides
//         multiples of 8), sm_scale
//
// Configurations: bwd_dkdv.mlir's table.
func.func @attn_bwd_dq_kernel(%q: !tile.ptr<${T}> {tile.divisibility = 16}, %k: !tile.ptr<${T}> {tile.divisibility = 16},
    %v: !tile.ptr<${T}> {tile.divisibility = 16}, %do: !tile.ptr<${T}> {tile.divisibility = 16}, %lse: !tile.ptr<f32> {tile.divisibility = 16},
    %delta: !tile.ptr<f32> {tile.divisibility = 16}, %dq: !tile.ptr<${T}> {tile.divisibility = 16}, %n_q: i32, %n_k: i32, %heads: i32,
    %group: i32, %stride_qb: i32 {tile.divisibility = 8}, %stride_qh: i32 {tile.divisibility = 8}, %stride_qm: i32 {tile.divisibility = 8},
    %stride_kb: i32 {tile.divisibility = 8}, %stride_kh: i32 {tile.divisibility = 8}, %stride_km: i32 {tile.divisibility = 8}, %sm_scale: f32) {
  %start_m = tile.program_id x
  %bh = tile.program_id y
  %b = arith.divsi %bh, %heads : i32
  %h = arith.remsi %bh, %heads : i32
  %hk = arith.divsi %h, %group : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %causal = arith.constant ${CAUSAL} : i1
  %log2e = arith.constant 1.44269504 : f32
  %qk_scale = arith.mulf %sm_scale, %log2e : f32

  %qb_off = arith.muli %b, %stride_qb : i32
  %qh_off = arith.muli %h, %stride_qh : i32
  %q_off = arith.addi %qb_off, %qh_off : i32
  %kb_off = arith.muli %b, %stride_kb : i32
  %kh_off = arith.muli %hk, %stride_kh : i32
  %k_off = arith.addi %kb_off, %kh_off : i32
  %q_head = tile.addptr %q, %q_off : !tile.ptr<${T}>, i32
  %do_head = tile.addptr %do, %q_off : !tile.ptr<${T}>, i32
  %dq_head = tile.addptr %dq, %q_off : !tile.ptr<${T}>, i32
  %k_head = tile.addptr %k, %k_off : !tile.ptr<${T}>, i32
  %v_head = tile.addptr %v, %k_off : !tile.ptr<${T}>, i32

  // Q and dO [BLOCK_M x D] at offs_m[:, None] * stride_qm + offs_d[None, :],
  // rows past n_q masked; lse and delta of the rows.
  %m0 = arith.muli %start_m, %bm : i32
  %range_m = tile.make_range 0 to ${BLOCK_M}
  %offs_m = tile.add %m0, %range_m : i32, tensor<${BLOCK_M}xi32>
  %offs_n = tile.make_range 0 to ${BLOCK_N}
  %offs_d = tile.make_range 0 to ${D}
  %m_col = tile.expand_dims %offs_m axis = 1 : tensor<${BLOCK_M}xi32>
  %q_rows = tile.mul %m_col, %stride_qm : tensor<${BLOCK_M}x1xi32>, i32
  %q_offs = tile.add %q_rows, %offs_d : tensor<${BLOCK_M}x1xi32>, tensor<${D}xi32>
  %m_ok = tile.cmp lt %m_col, %n_q : tensor<${BLOCK_M}x1xi32>, i32
  %q_mask = tile.broadcast %m_ok : tensor<${BLOCK_M}x1xi1> -> tensor<${BLOCK_M}x${D}xi1>
  %zero_q = arith.constant dense<0.0> : tensor<${BLOCK_M}x${D}x${T}>
  %q_ptrs = tile.addptr %q_head, %q_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
  %qv = tile.load %q_ptrs mask %q_mask other %zero_q : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
  %do_ptrs = tile.addptr %do_head, %q_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
  %dov = tile.load %do_ptrs mask %q_mask other %zero_q : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
  %row_off = arith.muli %bh, %n_q : i32
  %lse_head = tile.addptr %lse, %row_off : !tile.ptr<f32>, i32
  %delta_head = tile.addptr %delta, %row_off : !tile.ptr<f32>, i32
  %row_ok = tile.cmp lt %offs_m, %n_q : tensor<${BLOCK_M}xi32>, i32
  %zero_m = arith.constant dense<0.0> : tensor<${BLOCK_M}xf32>
  %lse_ptrs = tile.addptr %lse_head, %offs_m : !tile.ptr<f32>, tensor<${BLOCK_M}xi32>
  %lse_m = tile.load %lse_ptrs mask %row_ok other %zero_m : tensor<${BLOCK_M}x!tile.ptr<f32>>
  %delta_ptrs = tile.addptr %delta_head, %offs_m : !tile.ptr<f32>, tensor<${BLOCK_M}xi32>
  %di = tile.load %delta_ptrs mask %row_ok other %zero_m : tensor<${BLOCK_M}x!tile.ptr<f32>>
  %lse2 = tile.mul %lse_m, %log2e : tensor<${BLOCK_M}xf32>, f32
  %lse2_c = tile.expand_dims %lse2 axis = 1 : tensor<${BLOCK_M}xf32>
  %lse2_b = tile.broadcast %lse2_c : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %neg_lse2 = arith.negf %lse2_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %di_c = tile.expand_dims %di axis = 1 : tensor<${BLOCK_M}xf32>
  %di_b = tile.broadcast %di_c : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>

  // Kᵀ and Vᵀ [D x BLOCK_N] at offs_d[:, None] + offs_n[None, :] * stride_km;
  // K [BLOCK_N x D] at offs_n[:, None] * stride_km + offs_d[None, :].
  %d_col = tile.expand_dims %offs_d axis = 1 : tensor<${D}xi32>
  %n_row = tile.expand_dims %offs_n axis = 0 : tensor<${BLOCK_N}xi32>
  %kt_cols = tile.mul %n_row, %stride_km : tensor<1x${BLOCK_N}xi32>, i32
  %kt_offs = tile.add %d_col, %kt_cols : tensor<${D}x1xi32>, tensor<1x${BLOCK_N}xi32>
  %kt_base = tile.addptr %k_head, %kt_offs : !tile.ptr<${T}>, tensor<${D}x${BLOCK_N}xi32>
  %vt_base = tile.addptr %v_head, %kt_offs : !tile.ptr<${T}>, tensor<${D}x${BLOCK_N}xi32>
  %n_row_t = tile.broadcast %n_row : tensor<1x${BLOCK_N}xi32> -> tensor<${D}x${BLOCK_N}xi32>
  %n_row_s = tile.broadcast %n_row : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %n_col = tile.expand_dims %offs_n axis = 1 : tensor<${BLOCK_N}xi32>
  %k_rows = tile.mul %n_col, %stride_km : tensor<${BLOCK_N}x1xi32>, i32
  %k_offs = tile.add %k_rows, %offs_d : tensor<${BLOCK_N}x1xi32>, tensor<${D}xi32>
  %k_base = tile.addptr %k_head, %k_offs : !tile.ptr<${T}>, tensor<${BLOCK_N}x${D}xi32>
  %n_col_k = tile.broadcast %n_col : tensor<${BLOCK_N}x1xi32> -> tensor<${BLOCK_N}x${D}xi32>

  // The forward's key stages (see fwd.mlir).
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

  %zero_s = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${D}xf32>
  %qk_scales = tile.splat %qk_scale : f32 -> tensor<${BLOCK_M}x${BLOCK_N}xf32>

  // Stage 1: keys every row sees, no mask.
  %dq1 = scf.for %n = %c0 to %n_mid step %bn iter_args(%dq_i = %zero_acc) -> (tensor<${BLOCK_M}x${D}xf32>) : i32 {
    %n_off = arith.muli %n, %stride_km : i32
    %kt_ptrs = tile.addptr %kt_base, %n_off : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>, i32
    %kt = tile.load %kt_ptrs : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>
    %qk = tile.dot %qv, %kt, %zero_s : tensor<${BLOCK_M}x${D}x${T}>, tensor<${D}x${BLOCK_N}x${T}>
    %s = math.fma %qk, %qk_scales, %neg_lse2 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %p = math.exp2 %s : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %vt_ptrs = tile.addptr %vt_base, %n_off : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>, i32
    %vt = tile.load %vt_ptrs : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>
    %dp = tile.dot %dov, %vt, %zero_s : tensor<${BLOCK_M}x${D}x${T}>, tensor<${D}x${BLOCK_N}x${T}>
    %dp_d = arith.subf %dp, %di_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %ds = arith.mulf %p, %dp_d : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %dst = tile.cast %ds : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${T}>
    %k_ptrs = tile.addptr %k_base, %n_off : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>, i32
    %kv = tile.load %k_ptrs : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>
    %dq_n = tile.dot %dst, %kv, %dq_i : tensor<${BLOCK_M}x${BLOCK_N}x${T}>, tensor<${BLOCK_N}x${D}x${T}>
    scf.yield %dq_n : tensor<${BLOCK_M}x${D}xf32>
  }

  // Stage 2: the diagonal and the last, partial block, masked. Masks compare
  // loop-invariant index tiles with per-step values, so that each stays in
  // its own layout and none is kept a whole [BLOCK_M x BLOCK_N] in
  // registers: row i keeps key n + c where c < n_k - n and c <= i + shift - n.
  %zero_kt = arith.constant dense<0.0> : tensor<${D}x${BLOCK_N}x${T}>
  %zero_k = arith.constant dense<0.0> : tensor<${BLOCK_N}x${D}x${T}>
  %dq_acc = scf.for %n = %n_mid to %n_end step %bn iter_args(%dq_i = %dq1) -> (tensor<${BLOCK_M}x${D}xf32>) : i32 {
    %n_off = arith.muli %n, %stride_km : i32
    %k_left = arith.subi %n_k, %n : i32
    %ok_t = tile.cmp lt %n_row_t, %k_left : tensor<${D}x${BLOCK_N}xi32>, i32
    %kt_ptrs = tile.addptr %kt_base, %n_off : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>, i32
    %kt = tile.load %kt_ptrs mask %ok_t other %zero_kt : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>
    %qk = tile.dot %qv, %kt, %zero_s : tensor<${BLOCK_M}x${D}x${T}>, tensor<${D}x${BLOCK_N}x${T}>
    %s = math.fma %qk, %qk_scales, %neg_lse2 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %p_all = math.exp2 %s : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %in_k = tile.cmp lt %n_row_s, %k_left : tensor<${BLOCK_M}x${BLOCK_N}xi32>, i32
    %diag_lim = arith.subi %shift, %n : i32
    %row_lim = tile.add %m_col, %diag_lim : tensor<${BLOCK_M}x1xi32>, i32
    %seen = tile.cmp le %n_row_s, %row_lim : tensor<${BLOCK_M}x${BLOCK_N}xi32>, tensor<${BLOCK_M}x1xi32>
    // Causal, the diagonal keeps keys past n_k from every row < n_q too
    // (i + n_k - n_q < n_k); rows past n_q are not stored.
    %keep = arith.select %causal, %seen, %in_k : tensor<${BLOCK_M}x${BLOCK_N}xi1>
    %p = tile.where %keep, %p_all, %zero_s : tensor<${BLOCK_M}x${BLOCK_N}xi1>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %vt_ptrs = tile.addptr %vt_base, %n_off : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>, i32
    %vt = tile.load %vt_ptrs mask %ok_t other %zero_kt : tensor<${D}x${BLOCK_N}x!tile.ptr<${T}>>
    %dp = tile.dot %dov, %vt, %zero_s : tensor<${BLOCK_M}x${D}x${T}>, tensor<${D}x${BLOCK_N}x${T}>
    %dp_d = arith.subf %dp, %di_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %ds = arith.mulf %p, %dp_d : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %dst = tile.cast %ds : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${T}>
    %ok_k = tile.cmp lt %n_col_k, %k_left : tensor<${BLOCK_N}x${D}xi32>, i32
    %k_ptrs = tile.addptr %k_base, %n_off : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>, i32
    %kv = tile.load %k_ptrs mask %ok_k other %zero_k : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>
    %dq_n = tile.dot %dst, %kv, %dq_i : tensor<${BLOCK_M}x${BLOCK_N}x${T}>, tensor<${BLOCK_N}x${D}x${T}>
    scf.yield %dq_n : tensor<${BLOCK_M}x${D}xf32>
  }

  // dQ = sm_scale · Σ ds·K, in T.
  %dq_s = tile.mul %dq_acc, %sm_scale : tensor<${BLOCK_M}x${D}xf32>, f32
  %dq_t = tile.cast %dq_s : tensor<${BLOCK_M}x${D}xf32> to tensor<${BLOCK_M}x${D}x${T}>
  %dq_ptrs = tile.addptr %dq_head, %q_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
  tile.store %dq_t, %dq_ptrs mask %q_mask : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
  return
}
