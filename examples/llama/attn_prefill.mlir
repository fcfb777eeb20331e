// attn_prefill: causal attention of a batch of new tokens (the prompt) over
// the KV cache they have just been appended to, FlashAttention-2 style on
// the tensor cores: one program per BLOCK_M tokens of one head, looping over
// the keys BLOCK_N at a time with an online softmax in base 2 (running max
// m, running sum l), Q Kᵀ and P V by `tile.dot` (f16 operands, f32
// accumulation), the output normalized and written in f16 for the output
// projection's GEMM:
//
//   o[t, h, :] = f16( sum_{u <= n_past + t} softmax_u(scale K[u, h/g] . q[t, h]) V[h/g, :, u] )
//
// q: rows of the batch (f32, q_row_stride apart: the Q columns of the QKV
// GEMM's output), rounded to f16 for the dot (the scale applies to the f32
// scores); P is rounded to f16 for P V (l sums it unrounded). Token t of the
// batch is at position n_past + t and sees keys [0, n_past + t]: the causal
// mask aligned bottom-right, as for a prompt after cached tokens. Query head
// h reads KV head h / g (grouped-query attention). The caches as
// attn_decode.mlir reads them: K f16 [C][NH_kv][D] (read as Kᵀ [D, BLOCK_N]
// tiles, contiguous along D), V f16 [NH_kv][D][C] (read as V [BLOCK_N, D]
// tiles, contiguous along the keys): both feed the dots as loaded.
//
// The keys come in two stages, as in the Triton tutorial: the blocks every
// token of the program sees whole (keys below n_past + m0 + 1), unmasked and
// software-pipelined (cp.async rings), then the blocks on the diagonal with
// the mask; keys at and past n_k = n_past + n_tokens are never read (their
// cache slots may hold anything), rows past n_tokens are not stored.
//
//   grid = (cdiv(n_tokens, BLOCK_M), NH); constants: BLOCK_M (128), BLOCK_N
//   (32: at 64 ptxas spills for D = 128), D; num_warps 8
//   args: o (f16, rows o_row_stride), q (f32, rows q_row_stride), k, v (f16
//         caches), n_past, n_tokens, q_row_stride, o_row_stride (multiples
//         of 16), k_row_stride (NH_kv * D), cap = C (multiples of 16),
//         g = NH / NH_kv, scale
func.func @attn_prefill_kernel(%o: !tile.ptr<f16> {tile.divisibility = 16},
                               %q_all: !tile.ptr<f32> {tile.divisibility = 16},
                               %k: !tile.ptr<f16> {tile.divisibility = 16},
                               %v: !tile.ptr<f16> {tile.divisibility = 16},
                               %n_past: i32,
                               %n_tokens: i32,
                               %q_row_stride: i32 {tile.divisibility = 16},
                               %o_row_stride: i32 {tile.divisibility = 16},
                               %k_row_stride: i32 {tile.divisibility = 16},
                               %cap: i32 {tile.divisibility = 16},
                               %g: i32,
                               %scale: f32) {
  %start_m = tile.program_id x
  %h = tile.program_id y
  %hk = arith.divsi %h, %g : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %c_d = arith.constant ${D} : i32
  // Scores in base 2: s * log2(e), so that exp(s - m) is exp2.
  %log2e = arith.constant 1.44269504 : f32
  %qk_scale = arith.mulf %scale, %log2e : f32

  %m0 = arith.muli %start_m, %bm : i32
  %range_m = tile.make_range 0 to ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %m0s = tile.splat %m0 : i32 -> tensor<${BLOCK_M}xi32>
  %offs_m = arith.addi %m0s, %range_m : tensor<${BLOCK_M}xi32>
  %offs_d = tile.make_range 0 to ${D} : tensor<${D}xi32>

  // Q: q_all + t * q_row_stride + h * D + d, tokens past n_tokens masked;
  // O: o + t * o_row_stride + h * D + d.
  %hd = arith.muli %h, %c_d : i32
  %m_col = tile.expand_dims %offs_m axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %d_row = tile.expand_dims %offs_d axis = 0 : tensor<${D}xi32> -> tensor<1x${D}xi32>
  %d_row_m = tile.broadcast %d_row : tensor<1x${D}xi32> -> tensor<${BLOCK_M}x${D}xi32>
  %hds = tile.splat %hd : i32 -> tensor<${BLOCK_M}x${D}xi32>
  %head_cols = arith.addi %hds, %d_row_m : tensor<${BLOCK_M}x${D}xi32>
  %sqm = tile.splat %q_row_stride : i32 -> tensor<${BLOCK_M}x1xi32>
  %q_rows = arith.muli %m_col, %sqm : tensor<${BLOCK_M}x1xi32>
  %q_rows_b = tile.broadcast %q_rows : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${D}xi32>
  %q_offs = arith.addi %q_rows_b, %head_cols : tensor<${BLOCK_M}x${D}xi32>
  %som = tile.splat %o_row_stride : i32 -> tensor<${BLOCK_M}x1xi32>
  %o_rows = arith.muli %m_col, %som : tensor<${BLOCK_M}x1xi32>
  %o_rows_b = tile.broadcast %o_rows : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${D}xi32>
  %o_offs = arith.addi %o_rows_b, %head_cols : tensor<${BLOCK_M}x${D}xi32>
  %n_toks = tile.splat %n_tokens : i32 -> tensor<${BLOCK_M}x1xi32>
  %m_ok = arith.cmpi slt, %m_col, %n_toks : tensor<${BLOCK_M}x1xi32>
  %qo_mask = tile.broadcast %m_ok : tensor<${BLOCK_M}x1xi1> -> tensor<${BLOCK_M}x${D}xi1>
  %q_base = tile.splat %q_all : !tile.ptr<f32> -> tensor<${BLOCK_M}x${D}x!tile.ptr<f32>>
  %q_ptrs = tile.addptr %q_base, %q_offs : tensor<${BLOCK_M}x${D}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${D}xi32>
  %zero_q = arith.constant dense<0.0> : tensor<${BLOCK_M}x${D}xf32>
  %q32 = tile.load %q_ptrs mask %qo_mask other %zero_q : tensor<${BLOCK_M}x${D}x!tile.ptr<f32>>
  %qv = tile.cast %q32 rounding = rne : tensor<${BLOCK_M}x${D}xf32> to tensor<${BLOCK_M}x${D}xf16>

  // Kᵀ of keys offs_n: k + offs_n[None, :] * k_row_stride + hk * D + offs_d[:, None].
  // (Each load's offsets come from their own ranges: the layout pass gives
  // every access its coalesced layout, and one shared value would carry the
  // first one's to the others.)
  %hk_d = arith.muli %hk, %c_d : i32
  %k_head = tile.addptr %k, %hk_d : !tile.ptr<f16>, i32
  %offs_n = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %offs_dk = tile.make_range 0 to ${D} : tensor<${D}xi32>
  %d_col = tile.expand_dims %offs_dk axis = 1 : tensor<${D}xi32> -> tensor<${D}x1xi32>
  %d_col_b = tile.broadcast %d_col : tensor<${D}x1xi32> -> tensor<${D}x${BLOCK_N}xi32>
  %n_row = tile.expand_dims %offs_n axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %skm = tile.splat %k_row_stride : i32 -> tensor<1x${BLOCK_N}xi32>
  %kt_cols = arith.muli %n_row, %skm : tensor<1x${BLOCK_N}xi32>
  %kt_cols_b = tile.broadcast %kt_cols : tensor<1x${BLOCK_N}xi32> -> tensor<${D}x${BLOCK_N}xi32>
  %kt_offs = arith.addi %d_col_b, %kt_cols_b : tensor<${D}x${BLOCK_N}xi32>
  %k_heads = tile.splat %k_head : !tile.ptr<f16> -> tensor<${D}x${BLOCK_N}x!tile.ptr<f16>>
  %kt_base = tile.addptr %k_heads, %kt_offs : tensor<${D}x${BLOCK_N}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_N}xi32>
  %n_row_k = tile.broadcast %n_row : tensor<1x${BLOCK_N}xi32> -> tensor<${D}x${BLOCK_N}xi32>

  // V of keys offs_n: v + (hk * D + offs_d[None, :]) * C + offs_n[:, None].
  %v_head_off = arith.muli %hk_d, %cap : i32
  %v_head = tile.addptr %v, %v_head_off : !tile.ptr<f16>, i32
  %offs_dv = tile.make_range 0 to ${D} : tensor<${D}xi32>
  %offs_nv = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %d_row_v = tile.expand_dims %offs_dv axis = 0 : tensor<${D}xi32> -> tensor<1x${D}xi32>
  %caps = tile.splat %cap : i32 -> tensor<1x${D}xi32>
  %v_cols = arith.muli %d_row_v, %caps : tensor<1x${D}xi32>
  %v_cols_b = tile.broadcast %v_cols : tensor<1x${D}xi32> -> tensor<${BLOCK_N}x${D}xi32>
  %n_col = tile.expand_dims %offs_nv axis = 1 : tensor<${BLOCK_N}xi32> -> tensor<${BLOCK_N}x1xi32>
  %n_col_v = tile.broadcast %n_col : tensor<${BLOCK_N}x1xi32> -> tensor<${BLOCK_N}x${D}xi32>
  %v_offs = arith.addi %v_cols_b, %n_col_v : tensor<${BLOCK_N}x${D}xi32>
  %v_heads = tile.splat %v_head : !tile.ptr<f16> -> tensor<${BLOCK_N}x${D}x!tile.ptr<f16>>
  %v_base = tile.addptr %v_heads, %v_offs : tensor<${BLOCK_N}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_N}x${D}xi32>

  // The stages' key ranges: every token of this program sees the keys below
  // n_past + m0 + 1 (< n_k), so the whole blocks below that need no mask;
  // the last token's keys end at n_past + m0 + BLOCK_M, at most n_k.
  %n_k = arith.addi %n_past, %n_tokens : i32
  %diag_lo = arith.addi %n_past, %m0 : i32
  %diag_lo1 = arith.addi %diag_lo, %c1 : i32
  %whole = arith.divsi %diag_lo1, %bn : i32
  %n_mid = arith.muli %whole, %bn : i32
  %diag_hi = arith.addi %diag_lo, %bm : i32
  %n_end = arith.minsi %diag_hi, %n_k : i32

  %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}xf32>
  %zero_l = arith.constant dense<0.0> : tensor<${BLOCK_M}xf32>
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${D}xf32>
  %zero_qk = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %qk_scales = tile.splat %qk_scale : f32 -> tensor<${BLOCK_M}xf32>
  %qk_scales2 = tile.splat %qk_scale : f32 -> tensor<${BLOCK_M}x${BLOCK_N}xf32>

  // Stage 1: whole blocks, no mask. m stays -inf until the first block, so
  // alpha = exp2(-inf - m_ij) = 0 there (and l, acc start at 0).
  %acc1, %l1, %m1 = scf.for %n = %c0 to %n_mid step %bn
      iter_args(%acc_i = %zero_acc, %l_i = %zero_l, %m_i = %neg_inf)
      -> (tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>) : i32 {
    %n_off = arith.muli %n, %k_row_stride : i32
    %n_offs_k = tile.splat %n_off : i32 -> tensor<${D}x${BLOCK_N}xi32>
    %kt_ptrs = tile.addptr %kt_base, %n_offs_k : tensor<${D}x${BLOCK_N}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_N}xi32>
    %kt = tile.load %kt_ptrs : tensor<${D}x${BLOCK_N}x!tile.ptr<f16>>
    %qk = tile.dot %qv, %kt, %zero_qk : tensor<${BLOCK_M}x${D}xf16>, tensor<${D}x${BLOCK_N}xf16> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %qk_max = tile.reduce max %qk axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
    %qk_max_s = arith.mulf %qk_max, %qk_scales : tensor<${BLOCK_M}xf32>
    %m_ij = arith.maximumf %m_i, %qk_max_s : tensor<${BLOCK_M}xf32>
    %m_ij_c = tile.expand_dims %m_ij axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
    %m_ij_b = tile.broadcast %m_ij_c : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %neg_m = arith.negf %m_ij_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %s = math.fma %qk, %qk_scales2, %neg_m : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %p = math.exp2 %s : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %l_ij = tile.reduce sum %p axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
    %m_diff = arith.subf %m_i, %m_ij : tensor<${BLOCK_M}xf32>
    %alpha = math.exp2 %m_diff : tensor<${BLOCK_M}xf32>
    %l_new = math.fma %l_i, %alpha, %l_ij : tensor<${BLOCK_M}xf32>
    %alpha_c = tile.expand_dims %alpha axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
    %alpha_b = tile.broadcast %alpha_c : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${D}xf32>
    %acc_s = arith.mulf %acc_i, %alpha_b : tensor<${BLOCK_M}x${D}xf32>
    %n_offs_v = tile.splat %n : i32 -> tensor<${BLOCK_N}x${D}xi32>
    %v_ptrs = tile.addptr %v_base, %n_offs_v : tensor<${BLOCK_N}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_N}x${D}xi32>
    %vv = tile.load %v_ptrs : tensor<${BLOCK_N}x${D}x!tile.ptr<f16>>
    %pt = tile.cast %p rounding = rne : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xf16>
    %acc_new = tile.dot %pt, %vv, %acc_s : tensor<${BLOCK_M}x${BLOCK_N}xf16>, tensor<${BLOCK_N}x${D}xf16> -> tensor<${BLOCK_M}x${D}xf32>
    scf.yield %acc_new, %l_new, %m_ij : tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
  }

  // Stage 2: the blocks on the diagonal. Token i keeps key j where j < n_k
  // and j <= n_past + i; K and V past n_k are not read. Every token sees key
  // 0 in the first block either stage takes, so m is finite from then on.
  %zero_kt = arith.constant dense<0.0> : tensor<${D}x${BLOCK_N}xf16>
  %zero_v = arith.constant dense<0.0> : tensor<${BLOCK_N}x${D}xf16>
  %neg_inf2 = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %n_ks_k = tile.splat %n_k : i32 -> tensor<${D}x${BLOCK_N}xi32>
  %n_ks_v = tile.splat %n_k : i32 -> tensor<${BLOCK_N}x${D}xi32>
  %range_ms = tile.make_range 0 to ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %m0ss = tile.splat %m0 : i32 -> tensor<${BLOCK_M}xi32>
  %offs_ms = arith.addi %m0ss, %range_ms : tensor<${BLOCK_M}xi32>
  %m_col_s = tile.expand_dims %offs_ms axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %n_pasts = tile.splat %n_past : i32 -> tensor<${BLOCK_M}x1xi32>
  %row_lim = arith.addi %m_col_s, %n_pasts : tensor<${BLOCK_M}x1xi32>
  %row_lim_b = tile.broadcast %row_lim : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %offs_ns = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %n_row_s = tile.expand_dims %offs_ns axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %acc, %l, %m = scf.for %n = %n_mid to %n_end step %bn
      iter_args(%acc_i = %acc1, %l_i = %l1, %m_i = %m1)
      -> (tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>) : i32 {
    %n_off = arith.muli %n, %k_row_stride : i32
    %n_offs_k = tile.splat %n_off : i32 -> tensor<${D}x${BLOCK_N}xi32>
    %kt_ptrs = tile.addptr %kt_base, %n_offs_k : tensor<${D}x${BLOCK_N}x!tile.ptr<f16>>, tensor<${D}x${BLOCK_N}xi32>
    %ns_k = tile.splat %n : i32 -> tensor<${D}x${BLOCK_N}xi32>
    %keys_k = arith.addi %n_row_k, %ns_k : tensor<${D}x${BLOCK_N}xi32>
    %k_ok = arith.cmpi slt, %keys_k, %n_ks_k : tensor<${D}x${BLOCK_N}xi32>
    %kt = tile.load %kt_ptrs mask %k_ok other %zero_kt : tensor<${D}x${BLOCK_N}x!tile.ptr<f16>>
    %qk = tile.dot %qv, %kt, %zero_qk : tensor<${BLOCK_M}x${D}xf16>, tensor<${D}x${BLOCK_N}xf16> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %ns_r = tile.splat %n : i32 -> tensor<1x${BLOCK_N}xi32>
    %keys = arith.addi %n_row_s, %ns_r : tensor<1x${BLOCK_N}xi32>
    %keys_b = tile.broadcast %keys : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %keep = arith.cmpi sle, %keys_b, %row_lim_b : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %qk_s = arith.mulf %qk, %qk_scales2 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %qk_m = arith.select %keep, %qk_s, %neg_inf2 : tensor<${BLOCK_M}x${BLOCK_N}xi1>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %qk_max = tile.reduce max %qk_m axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
    %m_ij = arith.maximumf %m_i, %qk_max : tensor<${BLOCK_M}xf32>
    %m_ij_c = tile.expand_dims %m_ij axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
    %m_ij_b = tile.broadcast %m_ij_c : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %s = arith.subf %qk_m, %m_ij_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %p = math.exp2 %s : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %l_ij = tile.reduce sum %p axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
    %m_diff = arith.subf %m_i, %m_ij : tensor<${BLOCK_M}xf32>
    %alpha = math.exp2 %m_diff : tensor<${BLOCK_M}xf32>
    %l_new = math.fma %l_i, %alpha, %l_ij : tensor<${BLOCK_M}xf32>
    %alpha_c = tile.expand_dims %alpha axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
    %alpha_b = tile.broadcast %alpha_c : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${D}xf32>
    %acc_s = arith.mulf %acc_i, %alpha_b : tensor<${BLOCK_M}x${D}xf32>
    %n_offs_v = tile.splat %n : i32 -> tensor<${BLOCK_N}x${D}xi32>
    %v_ptrs = tile.addptr %v_base, %n_offs_v : tensor<${BLOCK_N}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_N}x${D}xi32>
    %ns_v = tile.splat %n : i32 -> tensor<${BLOCK_N}x${D}xi32>
    %keys_v = arith.addi %n_col_v, %ns_v : tensor<${BLOCK_N}x${D}xi32>
    %v_ok = arith.cmpi slt, %keys_v, %n_ks_v : tensor<${BLOCK_N}x${D}xi32>
    %vv = tile.load %v_ptrs mask %v_ok other %zero_v : tensor<${BLOCK_N}x${D}x!tile.ptr<f16>>
    %pt = tile.cast %p rounding = rne : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xf16>
    %acc_new = tile.dot %pt, %vv, %acc_s : tensor<${BLOCK_M}x${BLOCK_N}xf16>, tensor<${BLOCK_N}x${D}xf16> -> tensor<${BLOCK_M}x${D}xf32>
    scf.yield %acc_new, %l_new, %m_ij : tensor<${BLOCK_M}x${D}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
  }

  // o = acc / l in f16.
  %one = arith.constant dense<1.0> : tensor<${BLOCK_M}xf32>
  %inv_l = arith.divf %one, %l : tensor<${BLOCK_M}xf32>
  %inv_l_c = tile.expand_dims %inv_l axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
  %inv_l_b = tile.broadcast %inv_l_c : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${D}xf32>
  %out = arith.mulf %acc, %inv_l_b : tensor<${BLOCK_M}x${D}xf32>
  %out_h = tile.cast %out rounding = rne : tensor<${BLOCK_M}x${D}xf32> to tensor<${BLOCK_M}x${D}xf16>
  %o_base = tile.splat %o : !tile.ptr<f16> -> tensor<${BLOCK_M}x${D}x!tile.ptr<f16>>
  %o_ptrs = tile.addptr %o_base, %o_offs : tensor<${BLOCK_M}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_M}x${D}xi32>
  tile.store %out_h, %o_ptrs mask %qo_mask : tensor<${BLOCK_M}x${D}x!tile.ptr<f16>>
  return
}
