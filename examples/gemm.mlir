// GEMM: C = A * B with A MxK, B KxN, C MxN, all of element type T (f16 or
// bf16) row-major, f32 accumulation on the tensor cores (mma.sync; wgmma on
// sm_90a), one BLOCK_M x BLOCK_N block of C per program on a 2-D grid
// (programs renumbered in groups of 8 block-rows for L2 reuse). The K loop is
// software-pipelined (cp.async into num_stages shared-memory slots; llkc
// --num-stages, default 3). Rows and columns past M and N wrap around and are
// masked at the store; the K tail is masked with zeros.
//
//   llkc examples/gemm.mlir -D T=bf16 -D BLOCK_M=128 -D BLOCK_N=128 \
//        -D BLOCK_K=32 --num-warps 4 --num-stages 3 -o gemm_bf16.ptx
//   grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))
//   needs N, K, stride_am, stride_bk and stride_cm multiples of 8 (16-byte
//   rows); M is arbitrary
func.func @gemm_kernel(%a: !tile.ptr<${T}> {tile.divisibility = 16},
                       %b: !tile.ptr<${T}> {tile.divisibility = 16},
                       %c: !tile.ptr<${T}> {tile.divisibility = 16},
                       %M: i32, %N: i32 {tile.divisibility = 8},
                       %K: i32 {tile.divisibility = 8},
                       %stride_am: i32 {tile.divisibility = 8},
                       %stride_bk: i32 {tile.divisibility = 8},
                       %stride_cm: i32 {tile.divisibility = 8}) {
  // Grouped ordering: the blocks launch x-fastest; renumbered so that
  // consecutive programs walk down 8 block-rows before moving right, so
  // those running at once share blocks of A and B in L2 (as in matmul.mlir).
  %pid_x = tile.program_id x
  %pid_y = tile.program_id y
  %num_pid_m = tile.num_programs x
  %num_pid_n = tile.num_programs y
  %row_major = arith.muli %pid_y, %num_pid_m : i32
  %pid = arith.addi %row_major, %pid_x : i32
  %group = arith.constant 8 : i32
  %num_pid_in_group = arith.muli %group, %num_pid_n : i32
  %group_id = arith.divsi %pid, %num_pid_in_group : i32
  %first_pid_m = arith.muli %group_id, %group : i32
  %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
  %group_size_m = arith.minsi %rows_left, %group : i32
  %in_group = arith.remsi %pid, %num_pid_in_group : i32
  %pid_m_off = arith.remsi %in_group, %group_size_m : i32
  %pid_m = arith.addi %first_pid_m, %pid_m_off : i32
  %pid_n = arith.divsi %in_group, %group_size_m : i32
  %c1 = arith.constant 1 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %bk = arith.constant ${BLOCK_K} : i32

  // Row and column indices, wrapped into range.
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
  %rn_b = arith.remsi %rn, %Ns : tensor<${BLOCK_N}xi32>

  // A pointers: a + rm_a[:, None] * stride_am + rk[None, :]
  %rm_col = tile.expand_dims %rm_a axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %sam = tile.splat %stride_am : i32 -> tensor<${BLOCK_M}x1xi32>
  %a_rows = arith.muli %rm_col, %sam : tensor<${BLOCK_M}x1xi32>
  %a_rows_b = tile.broadcast %a_rows : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %rk_row = tile.expand_dims %rk axis = 0 : tensor<${BLOCK_K}xi32> -> tensor<1x${BLOCK_K}xi32>
  %rk_a = tile.broadcast %rk_row : tensor<1x${BLOCK_K}xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_offs = arith.addi %a_rows_b, %rk_a : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_base = tile.splat %a : !tile.ptr<${T}> -> tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>
  %a_ptrs0 = tile.addptr %a_base, %a_offs : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>, tensor<${BLOCK_M}x${BLOCK_K}xi32>

  // B pointers: b + rk[:, None] * stride_bk + rn_b[None, :]
  %rk_col = tile.expand_dims %rk axis = 1 : tensor<${BLOCK_K}xi32> -> tensor<${BLOCK_K}x1xi32>
  %sbk = tile.splat %stride_bk : i32 -> tensor<${BLOCK_K}x1xi32>
  %b_rows = arith.muli %rk_col, %sbk : tensor<${BLOCK_K}x1xi32>
  %b_rows_b = tile.broadcast %b_rows : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %rn_row = tile.expand_dims %rn_b axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %rn_bb = tile.broadcast %rn_row : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %b_offs = arith.addi %b_rows_b, %rn_bb : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %b_base = tile.splat %b : !tile.ptr<${T}> -> tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>
  %b_ptrs0 = tile.addptr %b_base, %b_offs : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>, tensor<${BLOCK_K}x${BLOCK_N}xi32>

  // The K loop; the last step masks the tail (other = 0).
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_a = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_K}x${T}>
  %zero_b = arith.constant dense<0.0> : tensor<${BLOCK_K}x${BLOCK_N}x${T}>
  %a_step = arith.constant dense<${BLOCK_K}> : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %b_step_scalar = arith.muli %bk, %stride_bk : i32
  %b_step = tile.splat %b_step_scalar : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %c0 = arith.constant 0 : i32
  %k_round = arith.addi %K, %bk : i32
  %k_round1 = arith.subi %k_round, %c1 : i32
  %k_tiles = arith.divsi %k_round1, %bk : i32
  %acc, %ap, %bp = scf.for %kt = %c0 to %k_tiles step %c1
      iter_args(%acc_i = %zero_acc, %a_ptrs = %a_ptrs0, %b_ptrs = %b_ptrs0)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>) : i32 {
    %k_done = arith.muli %kt, %bk : i32
    %k_left = arith.subi %K, %k_done : i32
    %k_lefts_a = tile.splat %k_left : i32 -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %a_mask = arith.cmpi slt, %rk_a, %k_lefts_a : tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %k_lefts_b = tile.splat %k_left : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %rk_b = tile.broadcast %rk_col : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %b_mask = arith.cmpi slt, %rk_b, %k_lefts_b : tensor<${BLOCK_K}x${BLOCK_N}xi32>
    %av = tile.load %a_ptrs mask %a_mask other %zero_a : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>
    %bv = tile.load %b_ptrs mask %b_mask other %zero_b : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>
    %acc_next = tile.dot %av, %bv, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}x${T}>, tensor<${BLOCK_K}x${BLOCK_N}x${T}> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %a_next = tile.addptr %a_ptrs, %a_step : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>, tensor<${BLOCK_M}x${BLOCK_K}xi32>
    %b_next = tile.addptr %b_ptrs, %b_step : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
    scf.yield %acc_next, %a_next, %b_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>
  }

  %out = tile.cast %acc : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${T}>

  // C pointers and the store, masked to M x N.
  %rm_c = tile.expand_dims %rm axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %scm = tile.splat %stride_cm : i32 -> tensor<${BLOCK_M}x1xi32>
  %c_rows = arith.muli %rm_c, %scm : tensor<${BLOCK_M}x1xi32>
  %c_rows_b = tile.broadcast %c_rows : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %rn_c = tile.expand_dims %rn axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %rn_cb = tile.broadcast %rn_c : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_offs = arith.addi %c_rows_b, %rn_cb : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_base = tile.splat %c : !tile.ptr<${T}> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
  %c_ptrs = tile.addptr %c_base, %c_offs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %rm_cb = tile.broadcast %rm_c : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %Mc = tile.splat %M : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %Nc = tile.splat %N : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %row_ok = arith.cmpi slt, %rm_cb, %Mc : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %col_ok = arith.cmpi slt, %rn_cb, %Nc : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_mask = arith.andi %row_ok, %col_ok : tensor<${BLOCK_M}x${BLOCK_N}xi1>
  tile.store %out, %c_ptrs mask %c_mask : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
  return
}
