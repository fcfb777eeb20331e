// FlashAttention-2 backward, step 2 of 3 (after Triton's fused-attention
// tutorial, _attn_bwd_dkdv): dK and dV of BLOCK_N keys of one KV head per
// program. K and V stay in registers while the program walks the query
// rows BLOCK_M at a time — of every query head that reads this KV head
// (group of them: grouped-query attention sums their gradients here, so no
// atomics) — recomputing the probabilities from the forward's lse:
//
//   pᵀ = exp2(K·Qᵀ · sm_scale·log2 e − lse · log2 e)     [BLOCK_N x BLOCK_M]
//   dV += pᵀ·dO        dpᵀ = V·dOᵀ       dsᵀ = pᵀ ∘ (dpᵀ − delta)
//   dK += dsᵀ·Q        (dK = sm_scale · that at the end)
//
// with delta from bwd_preprocess.mlir. Q and dO are read in both
// orientations (Qᵀ and dOᵀ [D x BLOCK_M] with addresses contiguous along D,
// Q and dO [BLOCK_M x D]), each load feeding its dot directly, so that all
// four are pipelined (cp.async into shared memory, --num-stages) rather
// than transposed through shared memory.
//
// Causal (bottom-right, as fwd.mlir: query i sees keys j <= i + n_k - n_q),
// the query blocks come in two stages as the tutorial's: those that cut the
// diagonal, with the mask, then those below it, without. Rows past n_q are
// read as zeros and contribute nothing (q = dO = 0); key rows past n_k are
// read as zeros and not stored.
//
// Layouts as fwd.mlir: Q, dO [B][H][n_q][D] by Q's strides, K, V, dK, dV
// [B][H_kv][n_k][D] by K's strides, lse and delta [B][H][n_q]; H = group ·
// H_kv, and this program's KV head hk serves query heads hk·group ..
// hk·group + group − 1.
//
//   llkc examples/attention/bwd_dkdv.mlir -D T=f16 -D D=128 -D BLOCK_M=32 -D BLOCK_N=128 \
//        -D CAUSAL=1 --num-warps 8 --num-stages 3
//   grid = (cdiv(n_k, BLOCK_N), B * H_kv)
//   args: q, k, v, do, lse, delta, dk, dv, n_q, n_k, H, group, stride_qb,
//         stride_qh, stride_qm, stride_kb, stride_kh, stride_km (strides
//         multiples of 8), sm_scale
//
// The backward's configurations (bench/attention/configs.py reads this
// table), for T ∈ {f16, bf16}, CAUSAL ∈ {0, 1} and group ∈ {1, 4}: the
// tutorial's blocks, 8 warps (at D = 128 4 would hold dK and dV in 256
// registers a thread; at D = 64 8 warps run the backward 1.4x faster than
// 4 on sm_90a and 1.2x on sm_90, and spill 0-16 bytes where 4 spill
// 700-1100). Programs as fwd.mlir's table.
//
//   kernel          D    BLOCK_M  BLOCK_N  warps  stages  programs
//   bwd_preprocess  64   128      -        4      -       -
//   bwd_preprocess  128  128      -        4      -       -
//   bwd_dkdv        64   32       128      8      3       -
//   bwd_dkdv        128  32       128      8      3       -
//   bwd_dq          64   128      32       8      3       -
//   bwd_dq          128  128      32       8      3       -
func.func @attn_bwd_dkdv_kernel(%q: !tile.ptr<${T}> {tile.divisibility = 16}, %k: !tile.ptr<${T}> {tile.divisibility = 16},
    %v: !tile.ptr<${T}> {tile.divisibility = 16}, %do: !tile.ptr<${T}> {tile.divisibility = 16}, %lse: !tile.ptr<f32> {tile.divisibility = 16},
    %delta: !tile.ptr<f32> {tile.divisibility = 16}, %dk: !tile.ptr<${T}> {tile.divisibility = 16},
    %dv: !tile.ptr<${T}> {tile.divisibility = 16}, %n_q: i32, %n_k: i32, %heads: i32, %group: i32,
    %stride_qb: i32 {tile.divisibility = 8}, %stride_qh: i32 {tile.divisibility = 8}, %stride_qm: i32 {tile.divisibility = 8},
    %stride_kb: i32 {tile.divisibility = 8}, %stride_kh: i32 {tile.divisibility = 8}, %stride_km: i32 {tile.divisibility = 8}, %sm_scale: f32) {
  %start_n = tile.program_id x
  %bhk = tile.program_id y
  %heads_kv = arith.divsi %heads, %group : i32
  %b = arith.divsi %bhk, %heads_kv : i32
  %hk = arith.remsi %bhk, %heads_kv : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %causal = arith.constant ${CAUSAL} : i1
  %log2e = arith.constant 1.44269504 : f32
  %qk_scale = arith.mulf %sm_scale, %log2e : f32

  // This KV head's K, V, dK, dV.
  %kb_off = arith.muli %b, %stride_kb : i32
  %kh_off = arith.muli %hk, %stride_kh : i32
  %k_off = arith.addi %kb_off, %kh_off : i32
  %k_head = tile.addptr %k, %k_off : !tile.ptr<${T}>, i32
  %v_head = tile.addptr %v, %k_off : !tile.ptr<${T}>, i32
  %dk_head = tile.addptr %dk, %k_off : !tile.ptr<${T}>, i32
  %dv_head = tile.addptr %dv, %k_off : !tile.ptr<${T}>, i32
  %qb_off = arith.muli %b, %stride_qb : i32

  // Keys n0 .. n0 + BLOCK_N - 1 (rows of K, V, dK, dV), rows past n_k masked.
  %n0 = arith.muli %start_n, %bn : i32
  %range_n = tile.make_range 0 to ${BLOCK_N}
  %offs_n = tile.add %n0, %range_n : i32, tensor<${BLOCK_N}xi32>
  %offs_m = tile.make_range 0 to ${BLOCK_M}
  %offs_d = tile.make_range 0 to ${D}
  %n_col = tile.expand_dims %offs_n axis = 1 : tensor<${BLOCK_N}xi32>
  %kv_rows = tile.mul %n_col, %stride_km : tensor<${BLOCK_N}x1xi32>, i32
  %kv_offs = tile.add %kv_rows, %offs_d : tensor<${BLOCK_N}x1xi32>, tensor<${D}xi32>
  %n_ok = tile.cmp lt %n_col, %n_k : tensor<${BLOCK_N}x1xi32>, i32
  %kv_mask = tile.broadcast %n_ok : tensor<${BLOCK_N}x1xi1> -> tensor<${BLOCK_N}x${D}xi1>
  %zero_kv = arith.constant dense<0.0> : tensor<${BLOCK_N}x${D}x${T}>
  %k_ptrs = tile.addptr %k_head, %kv_offs : !tile.ptr<${T}>, tensor<${BLOCK_N}x${D}xi32>
  %kv = tile.load %k_ptrs mask %kv_mask other %zero_kv : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>
  %v_ptrs = tile.addptr %v_head, %kv_offs : !tile.ptr<${T}>, tensor<${BLOCK_N}x${D}xi32>
  %vv = tile.load %v_ptrs mask %kv_mask other %zero_kv : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>

  // Query-row offsets of a block (m added per step): Qᵀ / dOᵀ [D x BLOCK_M]
  // at offs_d[:, None] + offs_m[None, :] * stride_qm, Q / dO [BLOCK_M x D]
  // at offs_m[:, None] * stride_qm + offs_d[None, :].
  %d_col = tile.expand_dims %offs_d axis = 1 : tensor<${D}xi32>
  %m_row = tile.expand_dims %offs_m axis = 0 : tensor<${BLOCK_M}xi32>
  %qt_cols = tile.mul %m_row, %stride_qm : tensor<1x${BLOCK_M}xi32>, i32
  %qt_offs = tile.add %d_col, %qt_cols : tensor<${D}x1xi32>, tensor<1x${BLOCK_M}xi32>
  %m_row_t = tile.broadcast %m_row : tensor<1x${BLOCK_M}xi32> -> tensor<${D}x${BLOCK_M}xi32>
  %m_col = tile.expand_dims %offs_m axis = 1 : tensor<${BLOCK_M}xi32>
  %q_rows = tile.mul %m_col, %stride_qm : tensor<${BLOCK_M}x1xi32>, i32
  %q_offs = tile.add %q_rows, %offs_d : tensor<${BLOCK_M}x1xi32>, tensor<${D}xi32>
  %m_col_q = tile.broadcast %m_col : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${D}xi32>
  %zero_qt = arith.constant dense<0.0> : tensor<${D}x${BLOCK_M}x${T}>
  %zero_q = arith.constant dense<0.0> : tensor<${BLOCK_M}x${D}x${T}>
  %zero_m = arith.constant dense<0.0> : tensor<${BLOCK_M}xf32>
  %zero_st = arith.constant dense<0.0> : tensor<${BLOCK_N}x${BLOCK_M}xf32>
  // -lse2[None, :] as -0.0 - lse2: exactly the negation (LLVM makes it fneg).
  %mzero_st = arith.constant dense<-0.0> : tensor<${BLOCK_N}x${BLOCK_M}xf32>
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_N}x${D}xf32>
  %qk_scales = tile.splat %qk_scale : f32 -> tensor<${BLOCK_N}x${BLOCK_M}xf32>

  // The query blocks (aligned to BLOCK_M) that see any of these keys start
  // at m_lo (row n0 - shift sees key n0); those from m_mid on (row
  // n0 + BLOCK_N - 1 - shift sees them all) need no mask. Without
  // causality all blocks see all keys: m_lo = m_mid = 0.
  %shift = arith.subi %n_k, %n_q : i32
  %first = arith.subi %n0, %shift : i32
  %first_c = arith.maxsi %first, %c0 : i32
  %first_blk = arith.divsi %first_c, %bm : i32
  %m_lo_c = arith.muli %first_blk, %bm : i32
  %all = arith.addi %first, %bn : i32
  %all1 = arith.subi %all, %c1 : i32
  %all_c = arith.maxsi %all1, %c0 : i32
  %bm1 = arith.subi %bm, %c1 : i32
  %all_up = arith.addi %all_c, %bm1 : i32
  %all_blk = arith.divsi %all_up, %bm : i32
  %m_mid_c = arith.muli %all_blk, %bm : i32
  %m_lo = arith.select %causal, %m_lo_c, %c0 : i32
  %m_mid = arith.select %causal, %m_mid_c, %c0 : i32
  %m_diag_end = arith.minsi %m_mid, %n_q : i32
  // Masks compare loop-invariant index tiles with per-step values, so that
  // each stays in its own layout and none is kept a whole [BLOCK_N x
  // BLOCK_M] in registers: query row m + c is in range where c < n_q - m,
  // and sees key n0 + r where n0 + r <= c + shift + m.
  %n_col_s = tile.broadcast %n_col : tensor<${BLOCK_N}x1xi32> -> tensor<${BLOCK_N}x${BLOCK_M}xi32>
  %dk_acc, %dv_acc = scf.for %g = %c0 to %group step %c1 iter_args(%dk_g = %zero_acc, %dv_g = %zero_acc)
      -> (tensor<${BLOCK_N}x${D}xf32>, tensor<${BLOCK_N}x${D}xf32>) : i32 {
    // Query head h of this KV head, its Q, dO, lse and delta.
    %hk_g = arith.muli %hk, %group : i32
    %h = arith.addi %hk_g, %g : i32
    %qh_off = arith.muli %h, %stride_qh : i32
    %q_off = arith.addi %qb_off, %qh_off : i32
    %q_head = tile.addptr %q, %q_off : !tile.ptr<${T}>, i32
    %do_head = tile.addptr %do, %q_off : !tile.ptr<${T}>, i32
    %bh_b = arith.muli %b, %heads : i32
    %bh = arith.addi %bh_b, %h : i32
    %row_off = arith.muli %bh, %n_q : i32
    %lse_head = tile.addptr %lse, %row_off : !tile.ptr<f32>, i32
    %delta_head = tile.addptr %delta, %row_off : !tile.ptr<f32>, i32
    %qt_base = tile.addptr %q_head, %qt_offs : !tile.ptr<${T}>, tensor<${D}x${BLOCK_M}xi32>
    %dot_base = tile.addptr %do_head, %qt_offs : !tile.ptr<${T}>, tensor<${D}x${BLOCK_M}xi32>
    %q_base = tile.addptr %q_head, %q_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
    %do_base = tile.addptr %do_head, %q_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
    %lse_base = tile.addptr %lse_head, %offs_m : !tile.ptr<f32>, tensor<${BLOCK_M}xi32>
    %delta_base = tile.addptr %delta_head, %offs_m : !tile.ptr<f32>, tensor<${BLOCK_M}xi32>

    // Stage 1: the query blocks across the diagonal, masked.
    %dk_1, %dv_1 = scf.for %m = %m_lo to %m_diag_end step %bm iter_args(%dk_i = %dk_g, %dv_i = %dv_g)
        -> (tensor<${BLOCK_N}x${D}xf32>, tensor<${BLOCK_N}x${D}xf32>) : i32 {
      %m_off = arith.muli %m, %stride_qm : i32
      %q_left = arith.subi %n_q, %m : i32
      %ok_t = tile.cmp lt %m_row_t, %q_left : tensor<${D}x${BLOCK_M}xi32>, i32
      %qt_ptrs = tile.addptr %qt_base, %m_off : tensor<${D}x${BLOCK_M}x!tile.ptr<${T}>>, i32
      %qt = tile.load %qt_ptrs mask %ok_t other %zero_qt : tensor<${D}x${BLOCK_M}x!tile.ptr<${T}>>
      %ok_v = tile.cmp lt %offs_m, %q_left : tensor<${BLOCK_M}xi32>, i32
      %lse_ptrs = tile.addptr %lse_base, %m : tensor<${BLOCK_M}x!tile.ptr<f32>>, i32
      %lse_m = tile.load %lse_ptrs mask %ok_v other %zero_m : tensor<${BLOCK_M}x!tile.ptr<f32>>
      %qkt = tile.dot %kv, %qt, %zero_st : tensor<${BLOCK_N}x${D}x${T}>, tensor<${D}x${BLOCK_M}x${T}>
      %lse2 = tile.mul %lse_m, %log2e : tensor<${BLOCK_M}xf32>, f32
      %neg_lse2 = tile.sub %mzero_st, %lse2 : tensor<${BLOCK_N}x${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
      %s = math.fma %qkt, %qk_scales, %neg_lse2 : tensor<${BLOCK_N}x${BLOCK_M}xf32>
      %p_all = math.exp2 %s : tensor<${BLOCK_N}x${BLOCK_M}xf32>
      %col_shift = arith.addi %shift, %m : i32
      %col_lim = tile.add %m_row, %col_shift : tensor<1x${BLOCK_M}xi32>, i32
      %seen = tile.cmp le %n_col_s, %col_lim : tensor<${BLOCK_N}x${BLOCK_M}xi32>, tensor<1x${BLOCK_M}xi32>
      %pt = arith.select %seen, %p_all, %zero_st : tensor<${BLOCK_N}x${BLOCK_M}xi1>, tensor<${BLOCK_N}x${BLOCK_M}xf32>
      %ok_q = tile.cmp lt %m_col_q, %q_left : tensor<${BLOCK_M}x${D}xi32>, i32
      %do_ptrs = tile.addptr %do_base, %m_off : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>, i32
      %dov = tile.load %do_ptrs mask %ok_q other %zero_q : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
      %ptt = tile.cast %pt : tensor<${BLOCK_N}x${BLOCK_M}xf32> to tensor<${BLOCK_N}x${BLOCK_M}x${T}>
      %dv_n = tile.dot %ptt, %dov, %dv_i : tensor<${BLOCK_N}x${BLOCK_M}x${T}>, tensor<${BLOCK_M}x${D}x${T}>
      %delta_ptrs = tile.addptr %delta_base, %m : tensor<${BLOCK_M}x!tile.ptr<f32>>, i32
      %di = tile.load %delta_ptrs mask %ok_v other %zero_m : tensor<${BLOCK_M}x!tile.ptr<f32>>
      %dot_ptrs = tile.addptr %dot_base, %m_off : tensor<${D}x${BLOCK_M}x!tile.ptr<${T}>>, i32
      %dotv = tile.load %dot_ptrs mask %ok_t other %zero_qt : tensor<${D}x${BLOCK_M}x!tile.ptr<${T}>>
      %dpt = tile.dot %vv, %dotv, %zero_st : tensor<${BLOCK_N}x${D}x${T}>, tensor<${D}x${BLOCK_M}x${T}>
      %dp_d = tile.sub %dpt, %di : tensor<${BLOCK_N}x${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
      %dst = arith.mulf %pt, %dp_d : tensor<${BLOCK_N}x${BLOCK_M}xf32>
      %dstt = tile.cast %dst : tensor<${BLOCK_N}x${BLOCK_M}xf32> to tensor<${BLOCK_N}x${BLOCK_M}x${T}>
      %q_ptrs = tile.addptr %q_base, %m_off : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>, i32
      %qv = tile.load %q_ptrs mask %ok_q other %zero_q : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
      %dk_n = tile.dot %dstt, %qv, %dk_i : tensor<${BLOCK_N}x${BLOCK_M}x${T}>, tensor<${BLOCK_M}x${D}x${T}>
      scf.yield %dk_n, %dv_n : tensor<${BLOCK_N}x${D}xf32>, tensor<${BLOCK_N}x${D}xf32>
    }

    // Stage 2: the query blocks below the diagonal (all of them without
    // causality), no mask but the rows past n_q, which read as zeros.
    %dk_2, %dv_2 = scf.for %m = %m_mid to %n_q step %bm iter_args(%dk_i = %dk_1, %dv_i = %dv_1)
        -> (tensor<${BLOCK_N}x${D}xf32>, tensor<${BLOCK_N}x${D}xf32>) : i32 {
      %m_off = arith.muli %m, %stride_qm : i32
      %q_left = arith.subi %n_q, %m : i32
      %ok_t = tile.cmp lt %m_row_t, %q_left : tensor<${D}x${BLOCK_M}xi32>, i32
      %qt_ptrs = tile.addptr %qt_base, %m_off : tensor<${D}x${BLOCK_M}x!tile.ptr<${T}>>, i32
      %qt = tile.load %qt_ptrs mask %ok_t other %zero_qt : tensor<${D}x${BLOCK_M}x!tile.ptr<${T}>>
      %ok_v = tile.cmp lt %offs_m, %q_left : tensor<${BLOCK_M}xi32>, i32
      %lse_ptrs = tile.addptr %lse_base, %m : tensor<${BLOCK_M}x!tile.ptr<f32>>, i32
      %lse_m = tile.load %lse_ptrs mask %ok_v other %zero_m : tensor<${BLOCK_M}x!tile.ptr<f32>>
      %qkt = tile.dot %kv, %qt, %zero_st : tensor<${BLOCK_N}x${D}x${T}>, tensor<${D}x${BLOCK_M}x${T}>
      %lse2 = tile.mul %lse_m, %log2e : tensor<${BLOCK_M}xf32>, f32
      %neg_lse2 = tile.sub %mzero_st, %lse2 : tensor<${BLOCK_N}x${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
      %s = math.fma %qkt, %qk_scales, %neg_lse2 : tensor<${BLOCK_N}x${BLOCK_M}xf32>
      %pt = math.exp2 %s : tensor<${BLOCK_N}x${BLOCK_M}xf32>
      %ok_q = tile.cmp lt %m_col_q, %q_left : tensor<${BLOCK_M}x${D}xi32>, i32
      %do_ptrs = tile.addptr %do_base, %m_off : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>, i32
      %dov = tile.load %do_ptrs mask %ok_q other %zero_q : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
      %ptt = tile.cast %pt : tensor<${BLOCK_N}x${BLOCK_M}xf32> to tensor<${BLOCK_N}x${BLOCK_M}x${T}>
      %dv_n = tile.dot %ptt, %dov, %dv_i : tensor<${BLOCK_N}x${BLOCK_M}x${T}>, tensor<${BLOCK_M}x${D}x${T}>
      %delta_ptrs = tile.addptr %delta_base, %m : tensor<${BLOCK_M}x!tile.ptr<f32>>, i32
      %di = tile.load %delta_ptrs mask %ok_v other %zero_m : tensor<${BLOCK_M}x!tile.ptr<f32>>
      %dot_ptrs = tile.addptr %dot_base, %m_off : tensor<${D}x${BLOCK_M}x!tile.ptr<${T}>>, i32
      %dotv = tile.load %dot_ptrs mask %ok_t other %zero_qt : tensor<${D}x${BLOCK_M}x!tile.ptr<${T}>>
      %dpt = tile.dot %vv, %dotv, %zero_st : tensor<${BLOCK_N}x${D}x${T}>, tensor<${D}x${BLOCK_M}x${T}>
      %dp_d = tile.sub %dpt, %di : tensor<${BLOCK_N}x${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
      %dst = arith.mulf %pt, %dp_d : tensor<${BLOCK_N}x${BLOCK_M}xf32>
      %dstt = tile.cast %dst : tensor<${BLOCK_N}x${BLOCK_M}xf32> to tensor<${BLOCK_N}x${BLOCK_M}x${T}>
      %q_ptrs = tile.addptr %q_base, %m_off : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>, i32
      %qv = tile.load %q_ptrs mask %ok_q other %zero_q : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
      %dk_n = tile.dot %dstt, %qv, %dk_i : tensor<${BLOCK_N}x${BLOCK_M}x${T}>, tensor<${BLOCK_M}x${D}x${T}>
      scf.yield %dk_n, %dv_n : tensor<${BLOCK_N}x${D}xf32>, tensor<${BLOCK_N}x${D}xf32>
    }
    scf.yield %dk_2, %dv_2 : tensor<${BLOCK_N}x${D}xf32>, tensor<${BLOCK_N}x${D}xf32>
  }

  // dK = sm_scale · Σ dsᵀ·Q (the scores' scale), dV as summed; in T.
  %dk_s = tile.mul %dk_acc, %sm_scale : tensor<${BLOCK_N}x${D}xf32>, f32
  %dk_t = tile.cast %dk_s : tensor<${BLOCK_N}x${D}xf32> to tensor<${BLOCK_N}x${D}x${T}>
  %dv_t = tile.cast %dv_acc : tensor<${BLOCK_N}x${D}xf32> to tensor<${BLOCK_N}x${D}x${T}>
  %dk_ptrs = tile.addptr %dk_head, %kv_offs : !tile.ptr<${T}>, tensor<${BLOCK_N}x${D}xi32>
  tile.store %dk_t, %dk_ptrs mask %kv_mask : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>
  %dv_ptrs = tile.addptr %dv_head, %kv_offs : !tile.ptr<${T}>, tensor<${BLOCK_N}x${D}xi32>
  tile.store %dv_t, %dv_ptrs mask %kv_mask : tensor<${BLOCK_N}x${D}x!tile.ptr<${T}>>
  return
}
