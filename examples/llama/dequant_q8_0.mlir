// dequant_q8_0_trans: a q8_0 weight matrix W [N][K] in llk-llama's split
// layout (llama/lib/Engine.cpp: the quants as i8 [N][K], the blocks' f16
// scales as [N][K/32]; the bytes of block_q8_0 rows rearranged) dequantized and transposed into f16, for the prompt's GEMMs (whose B
// operand is K x N, read by TMA):
//
//   wt[k * ld + n] = f16(d * q) of weight (n, k), for n < N, k < K,
//
// d * q computed in f32 (exact) and rounded once to nearest even, as
// gemm_q8_0.mlir rounds it in registers. A program moves BLOCK_N rows of
// BLOCK_K columns, BLOCK_Q = BLOCK_N * BLOCK_K / 32 blocks: the quants as a
// [BLOCK_Q, 32] tile, a block a row, times their block's scale (broadcast from a
// [BLOCK_Q, 1] tile); reshaped to [BLOCK_N, BLOCK_K] and transposed to
// [BLOCK_K, BLOCK_N] for the store along n. The
// layout pass gives the load and the store their own coalesced layouts and
// converts the f16 tile through shared memory in between. Memory-bound: 1.06
// bytes read and 2 written a weight.
//
//   grid = (cdiv(K, BLOCK_K), cdiv(N, BLOCK_N)); constants: BLOCK_N,
//   BLOCK_K (a multiple of 32), BLOCK_Q = BLOCK_N * BLOCK_K / 32 (the
//   reshape checks it); num_warps 4
//   args: wt (f16, rows ld apart), w (i8 quants), wd (f16 scales), N (a multiple of 8),
//         K (a multiple of 32), ld (>= N, a multiple of 8)
func.func @dequant_q8_0_trans(%wt: !tile.ptr<f16> {tile.divisibility = 16},
                              %w: !tile.ptr<i8> {tile.divisibility = 16},
                              %wd: !tile.ptr<f16> {tile.divisibility = 16},
                              %N: i32 {tile.divisibility = 8},
                              %K: i32 {tile.divisibility = 32},
                              %ld: i32 {tile.divisibility = 8}) {
  %pid_k = tile.program_id x
  %pid_n = tile.program_id y
  %c32 = arith.constant 32 : i32
  %bk = arith.constant ${BLOCK_K} : i32
  %nb = arith.divsi %bk, %c32 : i32    // blocks a row
  %bn = arith.constant ${BLOCK_N} : i32
  %b0 = arith.muli %pid_k, %nb : i32   // first block of the program's columns
  %n0 = arith.muli %pid_n, %bn : i32   // first row
  %k_blocks = arith.divsi %K, %c32 : i32

  // Tile row i: block b0 + i % nb of row n0 + i / nb.
  %ri = tile.make_range 0 to ${BLOCK_Q} : tensor<${BLOCK_Q}xi32>
  %nbs = tile.splat %nb : i32 -> tensor<${BLOCK_Q}xi32>
  %ri_n = arith.divsi %ri, %nbs : tensor<${BLOCK_Q}xi32>
  %ri_b = arith.remsi %ri, %nbs : tensor<${BLOCK_Q}xi32>
  %n0s = tile.splat %n0 : i32 -> tensor<${BLOCK_Q}xi32>
  %b0s = tile.splat %b0 : i32 -> tensor<${BLOCK_Q}xi32>
  %n = arith.addi %n0s, %ri_n : tensor<${BLOCK_Q}xi32>
  %b = arith.addi %b0s, %ri_b : tensor<${BLOCK_Q}xi32>
  %Ns = tile.splat %N : i32 -> tensor<${BLOCK_Q}xi32>
  %kbs = tile.splat %k_blocks : i32 -> tensor<${BLOCK_Q}xi32>
  %n_ok = arith.cmpi slt, %n, %Ns : tensor<${BLOCK_Q}xi32>
  %b_ok = arith.cmpi slt, %b, %kbs : tensor<${BLOCK_Q}xi32>
  %ok = arith.andi %n_ok, %b_ok : tensor<${BLOCK_Q}xi1>

  // Block (n, b): its scale at wd[n * K/32 + b], its quants at bytes
  // 32 (n * K/32 + b) + j of w.
  %kbs_d = tile.splat %k_blocks : i32 -> tensor<${BLOCK_Q}xi32>
  %n_blocks = arith.muli %n, %kbs_d : tensor<${BLOCK_Q}xi32>
  %blk_index = arith.addi %n_blocks, %b : tensor<${BLOCK_Q}xi32>
  %blk_c = tile.expand_dims %blk_index axis = 1 : tensor<${BLOCK_Q}xi32> -> tensor<${BLOCK_Q}x1xi32>
  %ok_c = tile.expand_dims %ok axis = 1 : tensor<${BLOCK_Q}xi1> -> tensor<${BLOCK_Q}x1xi1>
  %d_base = tile.splat %wd : !tile.ptr<f16> -> tensor<${BLOCK_Q}x1x!tile.ptr<f16>>
  %d_ptrs = tile.addptr %d_base, %blk_c : tensor<${BLOCK_Q}x1x!tile.ptr<f16>>, tensor<${BLOCK_Q}x1xi32>
  %dv = tile.load %d_ptrs mask %ok_c evict = evict_first : tensor<${BLOCK_Q}x1x!tile.ptr<f16>>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j_r = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %j_b = tile.broadcast %j_r : tensor<1x32xi32> -> tensor<${BLOCK_Q}x32xi32>
  %c32_q = arith.constant dense<32> : tensor<${BLOCK_Q}x1xi32>
  %q_start = arith.muli %blk_c, %c32_q : tensor<${BLOCK_Q}x1xi32>
  %q_start_b = tile.broadcast %q_start : tensor<${BLOCK_Q}x1xi32> -> tensor<${BLOCK_Q}x32xi32>
  %q_offs = arith.addi %q_start_b, %j_b : tensor<${BLOCK_Q}x32xi32>
  %q_base = tile.splat %w : !tile.ptr<i8> -> tensor<${BLOCK_Q}x32x!tile.ptr<i8>>
  %q_ptrs = tile.addptr %q_base, %q_offs : tensor<${BLOCK_Q}x32x!tile.ptr<i8>>, tensor<${BLOCK_Q}x32xi32>
  %ok_b = tile.broadcast %ok_c : tensor<${BLOCK_Q}x1xi1> -> tensor<${BLOCK_Q}x32xi1>
  %qv = tile.load %q_ptrs mask %ok_b evict = evict_first : tensor<${BLOCK_Q}x32x!tile.ptr<i8>>
  %qf = tile.cast %qv : tensor<${BLOCK_Q}x32xi8> to tensor<${BLOCK_Q}x32xf32>
  %df = tile.cast %dv : tensor<${BLOCK_Q}x1xf16> to tensor<${BLOCK_Q}x1xf32>
  %df_b = tile.broadcast %df : tensor<${BLOCK_Q}x1xf32> -> tensor<${BLOCK_Q}x32xf32>
  %wf = arith.mulf %qf, %df_b : tensor<${BLOCK_Q}x32xf32>
  %wv = tile.cast %wf rounding = rne : tensor<${BLOCK_Q}x32xf32> to tensor<${BLOCK_Q}x32xf16>

  // [BLOCK_N, BLOCK_K] (row n0 + r, column 32 * b0 + c), transposed.
  %w_rows = tile.reshape %wv : tensor<${BLOCK_Q}x32xf16> -> tensor<${BLOCK_N}x${BLOCK_K}xf16>
  %w_t = tile.trans %w_rows : tensor<${BLOCK_N}x${BLOCK_K}xf16> -> tensor<${BLOCK_K}x${BLOCK_N}xf16>

  // wt[k * ld + n], contiguous along n; in range n < N and k < K (whole
  // blocks of 32).
  %k0 = arith.muli %b0, %c32 : i32
  %rk = tile.make_range 0 to ${BLOCK_K} : tensor<${BLOCK_K}xi32>
  %k0s = tile.splat %k0 : i32 -> tensor<${BLOCK_K}xi32>
  %k = arith.addi %k0s, %rk : tensor<${BLOCK_K}xi32>
  %rn = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %n0t = tile.splat %n0 : i32 -> tensor<${BLOCK_N}xi32>
  %nt = arith.addi %n0t, %rn : tensor<${BLOCK_N}xi32>
  %k_c = tile.expand_dims %k axis = 1 : tensor<${BLOCK_K}xi32> -> tensor<${BLOCK_K}x1xi32>
  %n_r = tile.expand_dims %nt axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %lds = tile.splat %ld : i32 -> tensor<${BLOCK_K}x1xi32>
  %t_rows = arith.muli %k_c, %lds : tensor<${BLOCK_K}x1xi32>
  %t_rows_b = tile.broadcast %t_rows : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %n_b = tile.broadcast %n_r : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %t_offs = arith.addi %t_rows_b, %n_b : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %t_base = tile.splat %wt : !tile.ptr<f16> -> tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
  %t_ptrs = tile.addptr %t_base, %t_offs : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %Ks = tile.splat %K : i32 -> tensor<${BLOCK_K}x1xi32>
  %Nt = tile.splat %N : i32 -> tensor<1x${BLOCK_N}xi32>
  %k_ok = arith.cmpi slt, %k_c, %Ks : tensor<${BLOCK_K}x1xi32>
  %nt_ok = arith.cmpi slt, %n_r, %Nt : tensor<1x${BLOCK_N}xi32>
  %k_ok_b = tile.broadcast %k_ok : tensor<${BLOCK_K}x1xi1> -> tensor<${BLOCK_K}x${BLOCK_N}xi1>
  %nt_ok_b = tile.broadcast %nt_ok : tensor<1x${BLOCK_N}xi1> -> tensor<${BLOCK_K}x${BLOCK_N}xi1>
  %st_ok = arith.andi %k_ok_b, %nt_ok_b : tensor<${BLOCK_K}x${BLOCK_N}xi1>
  tile.store %w_t, %t_ptrs mask %st_ok : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
  return
}
