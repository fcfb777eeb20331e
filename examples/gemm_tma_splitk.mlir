// GEMM with a split-K tail and TMA: examples/gemm_splitk.mlir's schedule
// (whole waves of blocks over all of K, the last wave's blocks split along K
// among split_k programs that sum their f32 partials through work[] and
// locks[]) with examples/gemm_tma.mlir's loads: A and B come as tensor
// descriptors, their blocks arrive by cp.async.bulk.tensor, zero-filled past
// the edges, so no load needs a mask. Needs sm_90a (warpgroup MMA).
//
// args: a, b (descriptors: A M x K in BLOCK_M x BLOCK_K blocks, B K x N in
// BLOCK_K x BLOCK_N blocks), c, work, locks, M, N, K, stride_cm, num_full,
// split_k; grid = (num_full + (tiles - num_full) * split_k); work and locks
// as in gemm_splitk.mlir.
//
//   llkc examples/gemm_tma_splitk.mlir -D T=f16 -D BLOCK_M=128 -D BLOCK_N=256 \
//        -D BLOCK_K=64 --num-warps 8 --num-stages 4 --arch sm_90a -o gemm.ptx
func.func @gemm_tma_splitk_kernel(%a: !tile.tensordesc<${BLOCK_M}x${BLOCK_K}x${T}>,
                                  %b: !tile.tensordesc<${BLOCK_K}x${BLOCK_N}x${T}>,
                                  %c: !tile.ptr<${T}> {tile.divisibility = 16},
                                  %work: !tile.ptr<f32> {tile.divisibility = 16},
                                  %locks: !tile.ptr<i32>,
                                  %M: i32, %N: i32 {tile.divisibility = 8},
                                  %K: i32,
                                  %stride_cm: i32 {tile.divisibility = 8},
                                  %num_full: i32, %split_k: i32) {
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

  // Which block, and which K steps of it.
  %pid = tile.program_id x
  %split = arith.cmpi sge, %pid, %num_full : i32
  %unit = arith.subi %pid, %num_full : i32
  %unit_block = arith.divsi %unit, %split_k : i32
  %split_block = arith.addi %num_full, %unit_block : i32
  %block = arith.select %split, %split_block, %pid : i32
  %unit_part = arith.remsi %unit, %split_k : i32
  %part = arith.select %split, %unit_part, %c0 : i32
  %split_k_1 = arith.subi %split_k, %c1 : i32
  %steps_pad = arith.addi %k_tiles, %split_k_1 : i32
  %part_steps = arith.divsi %steps_pad, %split_k : i32
  %steps_each = arith.select %split, %part_steps, %k_tiles : i32
  %kt_begin = arith.muli %part, %steps_each : i32
  %kt_stop = arith.addi %kt_begin, %steps_each : i32
  %kt_end = arith.minsi %kt_stop, %k_tiles : i32
  %steps_left = arith.subi %kt_end, %kt_begin : i32
  %steps = arith.maxsi %steps_left, %c0 : i32
  %k_begin = arith.muli %kt_begin, %bk : i32

  // Grouped ordering of the blocks, as in gemm.mlir.
  %group = arith.constant 8 : i32
  %num_pid_in_group = arith.muli %group, %num_pid_n : i32
  %group_id = arith.divsi %block, %num_pid_in_group : i32
  %first_pid_m = arith.muli %group_id, %group : i32
  %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
  %group_size_m = arith.minsi %rows_left, %group : i32
  %in_group = arith.remsi %block, %num_pid_in_group : i32
  %pid_m_off = arith.remsi %in_group, %group_size_m : i32
  %pid_m = arith.addi %first_pid_m, %pid_m_off : i32
  %pid_n = arith.divsi %in_group, %group_size_m : i32

  // The K loop over this program's steps: blocks of A at (m0, k) and of B
  // at (k, n0).
  %m0 = arith.muli %pid_m, %bm : i32
  %n0 = arith.muli %pid_n, %bn : i32
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %acc = scf.for %kt = %c0 to %steps step %c1 iter_args(%acc_i = %zero_acc)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    %k_done = arith.muli %kt, %bk : i32
    %k0 = arith.addi %k_begin, %k_done : i32
    %av = tile.descriptor_load %a[%m0, %k0] : !tile.tensordesc<${BLOCK_M}x${BLOCK_K}x${T}> -> tensor<${BLOCK_M}x${BLOCK_K}x${T}>
    %bv = tile.descriptor_load %b[%k0, %n0] : !tile.tensordesc<${BLOCK_K}x${BLOCK_N}x${T}> -> tensor<${BLOCK_K}x${BLOCK_N}x${T}>
    %acc_next = tile.dot %av, %bv, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}x${T}>, tensor<${BLOCK_K}x${BLOCK_N}x${T}> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    scf.yield %acc_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  }

  %rm_range = tile.make_range 0 to ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %rn_range = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %m0s = tile.splat %m0 : i32 -> tensor<${BLOCK_M}xi32>
  %n0s = tile.splat %n0 : i32 -> tensor<${BLOCK_N}xi32>
  %rm = arith.addi %m0s, %rm_range : tensor<${BLOCK_M}xi32>
  %rn = arith.addi %n0s, %rn_range : tensor<${BLOCK_N}xi32>
  %rm_local = tile.expand_dims %rm_range axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %rn_local = tile.expand_dims %rn_range axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  scf.if %split {
    // A part: its f32 partial sum, packed, to work[unit].
    %tile_elems = arith.muli %bm, %bn : i32
    %bns = arith.constant dense<${BLOCK_N}> : tensor<${BLOCK_M}x1xi32>
    %w_rows = arith.muli %rm_local, %bns : tensor<${BLOCK_M}x1xi32>
    %w_rows_b = tile.broadcast %w_rows : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %w_cols_b = tile.broadcast %rn_local : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %w_offs = arith.addi %w_rows_b, %w_cols_b : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %unit_start = arith.muli %unit, %tile_elems : i32
    %w_start = tile.addptr %work, %unit_start : !tile.ptr<f32>, i32
    %w_base = tile.splat %w_start : !tile.ptr<f32> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
    %w_ptrs = tile.addptr %w_base, %w_offs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
    tile.store %acc, %w_ptrs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>

    // Count this part in (a program's acq_rel atomic: every thread's store
    // happens before it).
    %lock = tile.addptr %locks, %unit_block : !tile.ptr<i32>, i32
    %arrived = tile.atomic_rmw add %lock, %c1 : !tile.ptr<i32>
    %last = arith.cmpi eq, %arrived, %split_k_1 : i32
    scf.if %last {
      // The last part: the sum of all parts of the block, to C.
      %first_unit = arith.muli %unit_block, %split_k : i32
      %first_start = arith.muli %first_unit, %tile_elems : i32
      %p_start = tile.addptr %work, %first_start : !tile.ptr<f32>, i32
      %p_base = tile.splat %p_start : !tile.ptr<f32> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
      %p_ptrs0 = tile.addptr %p_base, %w_offs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %p_step = tile.splat %tile_elems : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %partial0 = tile.load %p_ptrs0 cache = cg : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
      %p_ptrs1 = tile.addptr %p_ptrs0, %p_step : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %sum, %pp = scf.for %z = %c1 to %split_k step %c1
          iter_args(%s = %partial0, %p_ptrs = %p_ptrs1)
          -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>) : i32 {
        %partial = tile.load %p_ptrs cache = cg : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
        %s_next = arith.addf %s, %partial : tensor<${BLOCK_M}x${BLOCK_N}xf32>
        %p_next = tile.addptr %p_ptrs, %p_step : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
        scf.yield %s_next, %p_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
      }
      %sum_out = tile.cast %sum : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${T}>
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
      tile.store %sum_out, %c_ptrs mask %c_mask : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
      tile.store %c0, %lock : !tile.ptr<i32>
    }
  } else {
    // A whole block: cast and store to C, masked to M x N.
    %out = tile.cast %acc : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}x${T}>
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
