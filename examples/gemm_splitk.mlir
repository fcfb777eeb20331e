// GEMM with a split-K tail: C = A * B as examples/gemm.mlir computes it (A
// MxK, B KxN, C MxN, element type T = f16 or bf16, row-major, f32
// accumulation on the tensor cores), scheduled so that the last wave of
// blocks does not leave the GPU mostly idle.
//
// With `tiles` BLOCK_M x BLOCK_N blocks of C and `slots` programs resident
// on the GPU at once, a plain grid runs ceil(tiles / slots) waves and the
// last one is only (tiles mod slots) / slots full (512x11008 in 128x128
// blocks: 344 blocks on 264 slots of an H100, the second wave 30% full).
// Here the first `num_full` blocks (whole waves) are computed over all of K
// as usual, and each remaining block is split along K among `split_k`
// programs, which fill the last wave with shorter work.
//
// Program p < num_full computes block p (blocks in the grouped order of
// gemm.mlir) and stores it to C. Program p >= num_full is unit
// u = p - num_full: part z = u mod split_k of block j = num_full + u / split_k
// (split block i = u / split_k), the K steps [z*s, min(K steps, (z+1)*s))
// with s = ceil(K steps / split_k). It stores its f32 partial sum, a packed
// BLOCK_M x BLOCK_N tile, to work[u], and counts itself in locks[i] (a
// scalar acq_rel atomic: all the program's stores happen before it).
// The part that counts last reads all split_k partials of the block back
// (from L2: cache = cg), sums them, stores the block to C and sets locks[i]
// back to 0 for the next launch.
//
// args: a, b, c, work, locks, M, N, K, stride_am, stride_bk, stride_cm,
// num_full, split_k; grid = (num_full + (tiles - num_full) * split_k).
// work holds (tiles - num_full) * split_k * BLOCK_M * BLOCK_N f32; locks
// (tiles - num_full) i32, zero before the first launch (each launch leaves
// them zero).
//
// The host picks num_full and split_k from the occupancy (slots): num_full
// the blocks of the whole waves, split_k = min(slots / (tiles - num_full),
// K steps); num_full = tiles, split_k = 1 is gemm.mlir's schedule.
//
//   llkc examples/gemm_splitk.mlir -D T=f16 -D BLOCK_M=128 -D BLOCK_N=128 \
//        -D BLOCK_K=32 --num-warps 4 --num-stages 4 -o gemm_splitk.ptx
//   needs N, K, stride_am, stride_bk and stride_cm multiples of 8; M is
//   arbitrary.
func.func @gemm_splitk_kernel(%a: !tile.ptr<${T}> {tile.divisibility = 16},
                              %b: !tile.ptr<${T}> {tile.divisibility = 16},
                              %c: !tile.ptr<${T}> {tile.divisibility = 16},
                              %work: !tile.ptr<f32> {tile.divisibility = 16},
                              %locks: !tile.ptr<i32>,
                              %M: i32, %N: i32 {tile.divisibility = 8},
                              %K: i32 {tile.divisibility = 8},
                              %stride_am: i32 {tile.divisibility = 8},
                              %stride_bk: i32 {tile.divisibility = 8},
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

  // A pointers: a + rm_a[:, None] * stride_am + (k_begin + rk)[None, :]
  %rm_col = tile.expand_dims %rm_a axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
  %sam = tile.splat %stride_am : i32 -> tensor<${BLOCK_M}x1xi32>
  %a_rows = arith.muli %rm_col, %sam : tensor<${BLOCK_M}x1xi32>
  %a_rows_b = tile.broadcast %a_rows : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %rk_row = tile.expand_dims %rk axis = 0 : tensor<${BLOCK_K}xi32> -> tensor<1x${BLOCK_K}xi32>
  %rk_a = tile.broadcast %rk_row : tensor<1x${BLOCK_K}xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_offs = arith.addi %a_rows_b, %rk_a : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %a_start = tile.addptr %a, %k_begin : !tile.ptr<${T}>, i32
  %a_base = tile.splat %a_start : !tile.ptr<${T}> -> tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>
  %a_ptrs0 = tile.addptr %a_base, %a_offs : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>, tensor<${BLOCK_M}x${BLOCK_K}xi32>

  // B pointers: b + (k_begin + rk)[:, None] * stride_bk + rn_b[None, :]
  %rk_col = tile.expand_dims %rk axis = 1 : tensor<${BLOCK_K}xi32> -> tensor<${BLOCK_K}x1xi32>
  %sbk = tile.splat %stride_bk : i32 -> tensor<${BLOCK_K}x1xi32>
  %b_rows = arith.muli %rk_col, %sbk : tensor<${BLOCK_K}x1xi32>
  %b_rows_b = tile.broadcast %b_rows : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %rn_row = tile.expand_dims %rn_b axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %rn_bb = tile.broadcast %rn_row : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %b_offs = arith.addi %b_rows_b, %rn_bb : tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %b_skip = arith.muli %k_begin, %stride_bk : i32
  %b_start = tile.addptr %b, %b_skip : !tile.ptr<${T}>, i32
  %b_base = tile.splat %b_start : !tile.ptr<${T}> -> tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>
  %b_ptrs0 = tile.addptr %b_base, %b_offs : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>, tensor<${BLOCK_K}x${BLOCK_N}xi32>

  // The K loop over this program's steps; the last step of K masks the
  // tail (other = 0).
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_a = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_K}x${T}>
  %zero_b = arith.constant dense<0.0> : tensor<${BLOCK_K}x${BLOCK_N}x${T}>
  %a_step = arith.constant dense<${BLOCK_K}> : tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %b_step_scalar = arith.muli %bk, %stride_bk : i32
  %b_step = tile.splat %b_step_scalar : i32 -> tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %k_rest = arith.subi %K, %k_begin : i32
  %acc, %ap, %bp = scf.for %kt = %c0 to %steps step %c1
      iter_args(%acc_i = %zero_acc, %a_ptrs = %a_ptrs0, %b_ptrs = %b_ptrs0)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>) : i32 {
    %k_done = arith.muli %kt, %bk : i32
    %k_left = arith.subi %k_rest, %k_done : i32
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
