// Triton tutorial 08, grouped GEMM (python/tutorials/08-grouped-gemm.py):
// C_g = A_g * B_g for a group of GEMMs of different shapes (f16 in, f32
// accumulation, f16 out) in one launch. A fixed grid of P programs (one per
// SM, say) deals the problems' blocks out in turn: program p takes blocks
// p, p + P, ... of the blocks of all the problems numbered one after the
// other. Each problem's A, B and C addresses are read from tables of i64
// device addresses, its sizes from group_gemm_sizes[g] = {M, N, K} and its
// row strides from g_lds[g] = {lda, ldb, ldc} (i32). As in the tutorial,
// every M, N, K is a multiple of its block (no masks); the addresses are
// 16-byte aligned and the strides multiples of 8 (tile.multiple_of, as the
// tutorial's tl.multiple_of).
//
//   llkc examples/triton/08_grouped_gemm.mlir -D BLOCK_M=128 -D BLOCK_N=128 \
//        -D BLOCK_K=32 --num-warps 4
//   grid = P programs.
func.func @grouped_matmul_kernel(%group_a_ptrs: !tile.ptr<i64>, %group_b_ptrs: !tile.ptr<i64>, %group_c_ptrs: !tile.ptr<i64>,
                                 %group_gemm_sizes: !tile.ptr<i32>, %g_lds: !tile.ptr<i32>, %group_size: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %bk = arith.constant ${BLOCK_K} : i32
  %num_sm = tile.num_programs x
  %first_tile = tile.program_id x
  %rm_range = tile.make_range 0 to ${BLOCK_M}
  %rn_range = tile.make_range 0 to ${BLOCK_N}
  %rk = tile.make_range 0 to ${BLOCK_K}
  %rk_col = tile.expand_dims %rk axis = 1 : tensor<${BLOCK_K}xi32>
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %tiles_left, %problems_end = scf.for %g = %c0 to %group_size step %c1
      iter_args(%tile_idx = %first_tile, %last_problem_end = %c0) -> (i32, i32) : i32 {
    %g3 = arith.muli %g, %c3 : i32
    %gm_ptr = tile.addptr %group_gemm_sizes, %g3 : !tile.ptr<i32>, i32
    %gn_ptr = tile.addptr %gm_ptr, %c1 : !tile.ptr<i32>, i32
    %gk_ptr = tile.addptr %gn_ptr, %c1 : !tile.ptr<i32>, i32
    %gm = tile.load %gm_ptr : !tile.ptr<i32>
    %gn = tile.load %gn_ptr : !tile.ptr<i32>
    %gk = tile.load %gk_ptr : !tile.ptr<i32>
    %num_m_tiles = arith.ceildivsi %gm, %bm : i32
    %num_n_tiles = arith.ceildivsi %gn, %bn : i32
    %num_tiles = arith.muli %num_m_tiles, %num_n_tiles : i32
    %problem_end = arith.addi %last_problem_end, %num_tiles : i32
    %next_tile = scf.while (%t = %tile_idx) : (i32) -> i32 {
      %after_start = arith.cmpi sge, %t, %last_problem_end : i32
      %before_end = arith.cmpi slt, %t, %problem_end : i32
      %mine = arith.andi %after_start, %before_end : i1
      scf.condition(%mine) %t : i32
    } do {
    ^bb0(%t: i32):
      %lda_ptr = tile.addptr %g_lds, %g3 : !tile.ptr<i32>, i32
      %ldb_ptr = tile.addptr %lda_ptr, %c1 : !tile.ptr<i32>, i32
      %ldc_ptr = tile.addptr %ldb_ptr, %c1 : !tile.ptr<i32>, i32
      %lda_any = tile.load %lda_ptr : !tile.ptr<i32>
      %ldb_any = tile.load %ldb_ptr : !tile.ptr<i32>
      %ldc_any = tile.load %ldc_ptr : !tile.ptr<i32>
      // Values read from memory tell the compiler nothing: the hints promise
      // 16-byte rows (the interpreter checks them), so that the blocks move
      // in 16-byte accesses and the K loop is pipelined.
      %lda = tile.multiple_of %lda_any, [8] : i32
      %ldb = tile.multiple_of %ldb_any, [8] : i32
      %ldc = tile.multiple_of %ldc_any, [8] : i32
      %a_addr_ptr = tile.addptr %group_a_ptrs, %g : !tile.ptr<i64>, i32
      %b_addr_ptr = tile.addptr %group_b_ptrs, %g : !tile.ptr<i64>, i32
      %c_addr_ptr = tile.addptr %group_c_ptrs, %g : !tile.ptr<i64>, i32
      %a_addr = tile.load %a_addr_ptr : !tile.ptr<i64>
      %b_addr = tile.load %b_addr_ptr : !tile.ptr<i64>
      %c_addr = tile.load %c_addr_ptr : !tile.ptr<i64>
      %a_any = tile.bitcast %a_addr : i64 to !tile.ptr<f16>
      %b_any = tile.bitcast %b_addr : i64 to !tile.ptr<f16>
      %c_any = tile.bitcast %c_addr : i64 to !tile.ptr<f16>
      %a = tile.multiple_of %a_any, [16] : !tile.ptr<f16>
      %b = tile.multiple_of %b_any, [16] : !tile.ptr<f16>
      %c = tile.multiple_of %c_any, [16] : !tile.ptr<f16>
      %tile_in_gemm = arith.subi %t, %last_problem_end : i32
      %tile_m = arith.divsi %tile_in_gemm, %num_n_tiles : i32
      %tile_n = arith.remsi %tile_in_gemm, %num_n_tiles : i32
      %m0 = arith.muli %tile_m, %bm : i32
      %n0 = arith.muli %tile_n, %bn : i32
      %rm = tile.add %m0, %rm_range : i32, tensor<${BLOCK_M}xi32>
      %rn = tile.add %n0, %rn_range : i32, tensor<${BLOCK_N}xi32>
      // a + rm[:, None] * lda + rk[None, :]; b + rk[:, None] * ldb + rn[None, :]
      %rm_col = tile.expand_dims %rm axis = 1 : tensor<${BLOCK_M}xi32>
      %a_rows = tile.mul %rm_col, %lda : tensor<${BLOCK_M}x1xi32>, i32
      %a_offs = tile.add %a_rows, %rk : tensor<${BLOCK_M}x1xi32>, tensor<${BLOCK_K}xi32>
      %a_ptrs0 = tile.addptr %a, %a_offs : !tile.ptr<f16>, tensor<${BLOCK_M}x${BLOCK_K}xi32>
      %b_rows = tile.mul %rk_col, %ldb : tensor<${BLOCK_K}x1xi32>, i32
      %b_offs = tile.add %b_rows, %rn : tensor<${BLOCK_K}x1xi32>, tensor<${BLOCK_N}xi32>
      %b_ptrs0 = tile.addptr %b, %b_offs : !tile.ptr<f16>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
      %b_step = arith.muli %bk, %ldb : i32
      %k_tiles = arith.ceildivsi %gk, %bk : i32
      %acc, %ap, %bp = scf.for %kk = %c0 to %k_tiles step %c1
          iter_args(%acc_i = %zero_acc, %a_ptrs = %a_ptrs0, %b_ptrs = %b_ptrs0)
          -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>) : i32 {
        %av = tile.load %a_ptrs : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>
        %bv = tile.load %b_ptrs : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
        %acc_next = tile.dot %av, %bv, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}xf16>, tensor<${BLOCK_K}x${BLOCK_N}xf16>
        %a_next = tile.addptr %a_ptrs, %bk : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>, i32
        %b_next = tile.addptr %b_ptrs, %b_step : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>, i32
        scf.yield %acc_next, %a_next, %b_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
      }
      %out = tile.cast %acc : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xf16>
      %c_rows = tile.mul %rm_col, %ldc : tensor<${BLOCK_M}x1xi32>, i32
      %c_offs = tile.add %c_rows, %rn : tensor<${BLOCK_M}x1xi32>, tensor<${BLOCK_N}xi32>
      %c_ptrs = tile.addptr %c, %c_offs : !tile.ptr<f16>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
      tile.store %out, %c_ptrs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f16>>
      %t_next = arith.addi %t, %num_sm : i32
      scf.yield %t_next : i32
    }
    scf.yield %next_tile, %problem_end : i32, i32
  }
  return
}
