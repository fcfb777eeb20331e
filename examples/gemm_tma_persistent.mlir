// Persistent GEMM with TMA: examples/gemm_tma.mlir's blocks, but a fixed
// grid (typically the programs that fit on the GPU at once) whose program p
// computes blocks p, p + P, p + 2P, ... (P programs), so that a GEMM of many
// small blocks pays one program launch per SM instead of one per block,
// and, more to the point, each block's first copies overlap the previous
// block's epilogue: tile-software-pipeline starts them as soon as the
// previous K loop is done (the K loop being the outer loop's only
// side-effecting op before the epilogue). Blocks in the grouped order of
// gemm.mlir. Needs sm_90a; the epilogue's layout exchange gets shared
// memory of its own (128x256x64 blocks fit with 3 stages, not 4).
//
//   llkc examples/gemm_tma_persistent.mlir -D T=f16 -D BLOCK_M=128 -D BLOCK_N=128 \
//        -D BLOCK_K=64 --num-warps 4 --num-stages 4 --arch sm_90a -o gemm.ptx
//   grid = (P); A's descriptor: M x K, blocks BLOCK_M x BLOCK_K; B's: K x N,
//   blocks BLOCK_K x BLOCK_N; row strides multiples of 16 bytes.
func.func @gemm_tma_persistent_kernel(%a: !tile.tensordesc<${BLOCK_M}x${BLOCK_K}x${T}>,
                                      %b: !tile.tensordesc<${BLOCK_K}x${BLOCK_N}x${T}>,
                                      %c: !tile.ptr<${T}> {tile.divisibility = 16},
                                      %M: i32, %N: i32 {tile.divisibility = 8},
                                      %K: i32,
                                      %stride_cm: i32 {tile.divisibility = 8}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %bk = arith.constant ${BLOCK_K} : i32
  %bm_1 = arith.subi %bm, %c1 : i32
  %bn_1 = arith.subi %bn, %c1 : i32
  %bk_1 = arith.subi %bk, %c1 : i32
  %m_pad = arith.addi %M, %bm_1 : i32
  %num_pid_m = arith.divsi %m_pad, %bm : i32
  %n_pad = arith.addi %N, %bn_1 : i32
  %num_pid_n = arith.divsi %n_pad, %bn : i32
  %k_pad = arith.addi %K, %bk_1 : i32
  %k_tiles = arith.divsi %k_pad, %bk : i32
  %tiles = arith.muli %num_pid_m, %num_pid_n : i32
  %group = arith.constant 8 : i32
  %num_pid_in_group = arith.muli %group, %num_pid_n : i32
  %rm_range = tile.make_range 0 to ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %rn_range = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>

  %first = tile.program_id x
  %programs = tile.num_programs x
  scf.for %block = %first to %tiles step %programs : i32 {
    // Grouped ordering of the blocks, as in gemm.mlir.
    %group_id = arith.divsi %block, %num_pid_in_group : i32
    %first_pid_m = arith.muli %group_id, %group : i32
    %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
    %group_size_m = arith.minsi %rows_left, %group : i32
    %in_group = arith.remsi %block, %num_pid_in_group : i32
    %pid_m_off = arith.remsi %in_group, %group_size_m : i32
    %pid_m = arith.addi %first_pid_m, %pid_m_off : i32
    %pid_n = arith.divsi %in_group, %group_size_m : i32
    %m0 = arith.muli %pid_m, %bm : i32
    %n0 = arith.muli %pid_n, %bn : i32

    // The K loop: blocks of A at (m0, k) and of B at (k, n0).
    %acc = scf.for %kt = %c0 to %k_tiles step %c1 iter_args(%acc_i = %zero_acc)
        -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
      %k0 = arith.muli %kt, %bk : i32
      %av = tile.descriptor_load %a[%m0, %k0] : !tile.tensordesc<${BLOCK_M}x${BLOCK_K}x${T}> -> tensor<${BLOCK_M}x${BLOCK_K}x${T}>
      %bv = tile.descriptor_load %b[%k0, %n0] : !tile.tensordesc<${BLOCK_K}x${BLOCK_N}x${T}> -> tensor<${BLOCK_K}x${BLOCK_N}x${T}>
      %acc_next = tile.dot %av, %bv, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}x${T}>, tensor<${BLOCK_K}x${BLOCK_N}x${T}> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
      scf.yield %acc_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    }
    %out = tile.cast %acc : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${T}>

    // C pointers and the store, masked to M x N.
    %m0s = tile.splat %m0 : i32 -> tensor<${BLOCK_M}xi32>
    %n0s = tile.splat %n0 : i32 -> tensor<${BLOCK_N}xi32>
    %rm = arith.addi %m0s, %rm_range : tensor<${BLOCK_M}xi32>
    %rn = arith.addi %n0s, %rn_range : tensor<${BLOCK_N}xi32>
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
  }
  return
}
