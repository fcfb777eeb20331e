// q8_0-weight GEMM for the prompt phase: C = A * W^T with A MxK f16
// activations (row-major), W an NxK weight matrix in block_q8_0 rows (K/32
// blocks of 34 bytes { f16 d; int8 qs[32]; } a row, only 2-byte aligned) and
// C MxN f32. The weights are dequantized inside the kernel, d * qs rounded
// once to f16, and multiplied on the tensor cores (mma.sync, f32
// accumulation): W is read once as int8 (1.06 bytes a weight) instead of
// being expanded to f16 in memory first, as the seed's dequantize + GEMM
// does. Programs are grouped GROUP_SIZE_M block-rows at a time (Triton's
// ordering) so that programs running together share weight blocks in L2.
// Rows of A and W past M and N wrap around and are masked at the store;
// the K tail (K a multiple of 32, not of BLOCK_K) is masked with zeros.
//
//   llkc examples/gemm_q8_0.mlir -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 \
//        -D GROUP_SIZE_M=8 --num-warps 4 -o gemm_q8_0.ptx
//   grid = cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) programs
//   constants: BLOCK_K a multiple of 32
//   args: a (f16), w (block_q8_0 bytes), c (f32), M, N, K (a multiple of
//         32), stride_am (multiple of 8), stride_cm (multiple of 4)
func.func @gemm_q8_0_kernel(%a: !tile.ptr<f16> {tile.divisibility = 16},
                            %w: !tile.ptr<i8> {tile.divisibility = 16},
                            %c: !tile.ptr<f32> {tile.divisibility = 16},
                            %M: i32, %N: i32,
                            %K: i32 {tile.divisibility = 32},
                            %stride_am: i32 {tile.divisibility = 8},
                            %stride_cm: i32 {tile.divisibility = 4}) {
  // Grouped ordering of the programs.
  %pid = tile.program_id x
  %c1 = arith.constant 1 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %bk = arith.constant ${BLOCK_K} : i32
  %group = arith.constant ${GROUP_SIZE_M} : i32
  %m_round = arith.addi %M, %bm : i32
  %m_round1 = arith.subi %m_round, %c1 : i32
  %num_pid_m = arith.divsi %m_round1, %bm : i32
  %n_round = arith.addi %N, %bn : i32
  %n_round1 = arith.subi %n_round, %c1 : i32
  %num_pid_n = arith.divsi %n_round1, %bn : i32
  %num_pid_in_group = arith.muli %group, %num_pid_n : i32
  %group_id = arith.divsi %pid, %num_pid_in_group : i32
  %first_pid_m = arith.muli %group_id, %group : i32
  %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
  %group_size_m = arith.minsi %rows_left, %group : i32
  %in_group = arith.remsi %pid, %num_pid_in_group : i32
  %pid_m_off = arith.remsi %in_group, %group_size_m : i32
  %pid_m = arith.addi %first_pid_m, %pid_m_off : i32
  %pid_n = arith.divsi %in_group, %group_size_m : i32

  // Row (of A and C) and column (of W^T and C) indices, wrapped into range.
  %m0 = arith.muli %pid_m, %bm : i32
  %n0 = arith.muli %pid_n, %bn : i32
  %rm_range = tile.make_range 0 to ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %rn_range = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %rk = tile.make_range 0 to ${BLOCK_K} : tensor<${BLOCK_K}xi32>
  %m0s = tile.splat %m0 : i32 -> tensor<${BLOCK_M}xi32>
  %n0s = tile.splat %n0 : i32 -> tensor<${BLOCK_N}xi32>
  %rm = arith.addi %m0s, %rm_range : tensor<${BLOCK_M}xi32>
  %rn = arith.addi %n0s, %rn_range : tensor<${BLOCK_N}xi32>
  %Ms = tile.splat %M : i32 -> tensor<${BLOCK_M}xi32>
  %Ns = tile.splat %N : i32 -> tensor<${BLOCK_N}xi32>
  %rm_a = arith.remsi %rm, %Ms : tensor<${BLOCK_M}xi32>
  %rn_w = arith.remsi %rn, %Ns : tensor<${BLOCK_N}xi32>

  // A pointers: a + rm_a[:, None] * stride_am + rk[None, :]
  %rm_col = tile.expand_dims %rm_a axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %sam = tile.splat %stride_am : i32 -> tensor<${BLOCK_M}x1xi32>
  %a_rows = arith.muli %rm_col, %sam : tensor<${BLOCK_M}x1xi32>
  %a_rows_b = tile.broadcast %a_rows : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %rk_row = tile.expand_dims %rk axis = 0 : tensor<${BLOCK_K}xi32> -> tensor<1x${BLOCK_K}xi32>
  %rk_a = tile.broadcast %rk_row : tensor<1x${BLOCK_K}xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_offs = arith.addi %a_rows_b, %rk_a : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_base = tile.splat %a : !tile.ptr<f16> -> tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>
  %a_ptrs0 = tile.addptr %a_base, %a_offs : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>, tensor<${BLOCK_M}x${BLOCK_K}xi32>

  // W^T as a BLOCK_K x BLOCK_N tile: element (k, n) of the first step is
  // weight (rn_w[n], k), quant k % 32 of block k / 32 of its row: byte
  //   rn_w * row_bytes + (k / 32) * 34 + 2 + k % 32,
  // and its block's scale, the f16 at half-word
  //   rn_w * row_bytes / 2 + (k / 32) * 17.
  %c32 = arith.constant 32 : i32
  %c34 = arith.constant 34 : i32
  %c17 = arith.constant 17 : i32
  %k_blocks = arith.divsi %K, %c32 : i32
  %row_bytes = arith.muli %k_blocks, %c34 : i32
  %row_halves = arith.muli %k_blocks, %c17 : i32
  %c32_k = arith.constant dense<32> : tensor<${BLOCK_K}xi32>
  %c34_k = arith.constant dense<34> : tensor<${BLOCK_K}xi32>
  %c17_k = arith.constant dense<17> : tensor<${BLOCK_K}xi32>
  %c2_k = arith.constant dense<2> : tensor<${BLOCK_K}xi32>
  %k_block = arith.divsi %rk, %c32_k : tensor<${BLOCK_K}xi32>
  %k_in_block = arith.remsi %rk, %c32_k : tensor<${BLOCK_K}xi32>
  %k_block_bytes = arith.muli %k_block, %c34_k : tensor<${BLOCK_K}xi32>
  %k_qs = arith.addi %k_block_bytes, %c2_k : tensor<${BLOCK_K}xi32>
  %q_k = arith.addi %k_qs, %k_in_block : tensor<${BLOCK_K}xi32>
  %d_k = arith.muli %k_block, %c17_k : tensor<${BLOCK_K}xi32>

  %rn_row = tile.expand_dims %rn_w axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %rbytes = tile.splat %row_bytes : i32 -> tensor<1x${BLOCK_N}xi32>
  %w_rows = arith.muli %rn_row, %rbytes : tensor<1x${BLOCK_N}xi32>
  %w_rows_b = tile.broadcast %w_rows : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %rhalves = tile.splat %row_halves : i32 -> tensor<1x${BLOCK_N}xi32>
  %d_rows = arith.muli %rn_row, %rhalves : tensor<1x${BLOCK_N}xi32>
  %d_rows_b = tile.broadcast %d_rows : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %q_k_col = tile.expand_dims %q_k axis = 1 : tensor<${BLOCK_K}xi32> -> tensor<${BLOCK_K}x1xi32>
  %q_k_b = tile.broadcast %q_k_col : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %d_k_col = tile.expand_dims %d_k axis = 1 : tensor<${BLOCK_K}xi32> -> tensor<${BLOCK_K}x1xi32>
  %d_k_b = tile.broadcast %d_k_col : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %q_offs = arith.addi %w_rows_b, %q_k_b : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %d_offs = arith.addi %d_rows_b, %d_k_b : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %w_base = tile.splat %w : !tile.ptr<i8> -> tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<i8>>
  %q_ptrs0 = tile.addptr %w_base, %q_offs : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<i8>>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %d_base = tile.bitcast %w_base : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<i8>> to tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
  %d_ptrs0 = tile.addptr %d_base, %d_offs : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>, tensor<${BLOCK_K}x${BLOCK_N}xi32>

  // The K loop: BLOCK_K / 32 blocks of every row a step; the last step
  // masks the tail (other = 0 for A and the quants).
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_a = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_K}xf16>
  %zero_q = arith.constant dense<0> : tensor<${BLOCK_K}x${BLOCK_N}xi8>
  %zero_d = arith.constant dense<0.0> : tensor<${BLOCK_K}x${BLOCK_N}xf16>
  %a_step = arith.constant dense<${BLOCK_K}> : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %step_blocks = arith.divsi %bk, %c32 : i32
  %q_step_s = arith.muli %step_blocks, %c34 : i32
  %d_step_s = arith.muli %step_blocks, %c17 : i32
  %q_step = tile.splat %q_step_s : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %d_step = tile.splat %d_step_s : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %rk_col = tile.expand_dims %rk axis = 1 : tensor<${BLOCK_K}xi32> -> tensor<${BLOCK_K}x1xi32>
  %rk_w = tile.broadcast %rk_col : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %c0 = arith.constant 0 : i32
  %k_round = arith.addi %K, %bk : i32
  %k_round1 = arith.subi %k_round, %c1 : i32
  %k_tiles = arith.divsi %k_round1, %bk : i32
  %acc, %ap, %qp, %dp = scf.for %kt = %c0 to %k_tiles step %c1
      iter_args(%acc_i = %zero_acc, %a_ptrs = %a_ptrs0, %q_ptrs = %q_ptrs0, %d_ptrs = %d_ptrs0)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>,
          tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<i8>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>) : i32 {
    %k_done = arith.muli %kt, %bk : i32
    %k_left = arith.subi %K, %k_done : i32
    %k_lefts_a = tile.splat %k_left : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %a_mask = arith.cmpi slt, %rk_a, %k_lefts_a : tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %k_lefts_w = tile.splat %k_left : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %w_mask = arith.cmpi slt, %rk_w, %k_lefts_w : tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %av = tile.load %a_ptrs mask %a_mask other %zero_a : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>
    %qv = tile.load %q_ptrs mask %w_mask other %zero_q : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<i8>>
    %dv = tile.load %d_ptrs mask %w_mask other %zero_d : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
    // d * qs, rounded once to f16 (qs and d are exact in f32).
    %qf = tile.cast %qv : tensor<${BLOCK_K}x${BLOCK_N}xi8> to tensor<${BLOCK_K}x${BLOCK_N}xf32>
    %df = tile.cast %dv : tensor<${BLOCK_K}x${BLOCK_N}xf16> to tensor<${BLOCK_K}x${BLOCK_N}xf32>
    %wf = arith.mulf %qf, %df : tensor<${BLOCK_K}x${BLOCK_N}xf32>
    %wv = tile.cast %wf : tensor<${BLOCK_K}x${BLOCK_N}xf32> to tensor<${BLOCK_K}x${BLOCK_N}xf16>
    %acc_next = tile.dot %av, %wv, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}xf16>, tensor<${BLOCK_K}x${BLOCK_N}xf16> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %a_next = tile.addptr %a_ptrs, %a_step : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>, tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %q_next = tile.addptr %q_ptrs, %q_step : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<i8>>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %d_next = tile.addptr %d_ptrs, %d_step : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
    scf.yield %acc_next, %a_next, %q_next, %d_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>,
        tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<i8>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
  }

  // C pointers and the store, masked to M x N.
  %rm_c = tile.expand_dims %rm axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %scm = tile.splat %stride_cm : i32 -> tensor<${BLOCK_M}x1xi32>
  %c_rows = arith.muli %rm_c, %scm : tensor<${BLOCK_M}x1xi32>
  %c_rows_b = tile.broadcast %c_rows : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %rn_c = tile.expand_dims %rn axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %rn_cb = tile.broadcast %rn_c : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_offs = arith.addi %c_rows_b, %rn_cb : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_base = tile.splat %c : !tile.ptr<f32> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
  %c_ptrs = tile.addptr %c_base, %c_offs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %rm_cb = tile.broadcast %rm_c : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %Mc = tile.splat %M : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %Nc = tile.splat %N : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %row_ok = arith.cmpi slt, %rm_cb, %Mc : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %col_ok = arith.cmpi slt, %rn_cb, %Nc : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_mask = arith.andi %row_ok, %col_ok : tensor<${BLOCK_M}x${BLOCK_N}xi1>
  tile.store %acc, %c_ptrs mask %c_mask : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
  return
}
