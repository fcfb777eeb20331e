// prefill_gemm: the prompt's linear layers, C = [R +] A * B with A M x K
// f16 activations, B K x N f16 weights (W^T, dequant_q8_0.mlir's output) and
// C (and R) M x N f32, row-major:
//
//   ACCUMULATE = 0:  C = A B          (Q/K/V, gate, up; R is not read)
//   ACCUMULATE = 1:  C = R + A B      (the o and down projections: the
//                                      residual add in the epilogue; R may
//                                      be C itself)
//
// examples/gemm_tma.mlir's schedule (which says how it works): A and B as
// tensor descriptors, their blocks moved by TMA with zeros past the edges,
// warpgroup MMA with f32 accumulation (sm_90a; the interpreter reads the
// descriptors the same way), one BLOCK_M x BLOCK_N block of C per program,
// programs renumbered in groups of 8 block-rows so that those running at
// once share B's blocks in L2. C is f32 for the kernels after it (rope, the
// KV append, the residual stream); rows past M and columns past N are masked.
//
//   grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)); constants: BLOCK_M,
//   BLOCK_N, BLOCK_K, ACCUMULATE (0 or 1); sm_90a, num_stages 4, num_warps
//   4 at 128 x 128 blocks, 8 with ACCUMULATE = 1 (the residual's tile beside
//   the accumulator spills 4 warps' registers)
//   A's descriptor: M x K (rows may run past M: they only reach masked rows
//   of C), blocks BLOCK_M x BLOCK_K; B's: K x N, blocks BLOCK_K x BLOCK_N;
//   row strides multiples of 16 bytes (TMA's rule).
//   args: a, b (descriptors), c, r (f32, rows stride_cm apart), M, N, K,
//         stride_cm (a multiple of 4)
func.func @prefill_gemm(%a: !tile.tensordesc<${BLOCK_M}x${BLOCK_K}xf16>,
                        %b: !tile.tensordesc<${BLOCK_K}x${BLOCK_N}xf16>,
                        %c: !tile.ptr<f32> {tile.divisibility = 16},
                        %r: !tile.ptr<f32> {tile.divisibility = 16},
                        %M: i32, %N: i32 {tile.divisibility = 8},
                        %K: i32,
                        %stride_cm: i32 {tile.divisibility = 4}) {
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
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %bk = arith.constant ${BLOCK_K} : i32
  %m0 = arith.muli %pid_m, %bm : i32
  %n0 = arith.muli %pid_n, %bn : i32

  // The K loop: blocks of A at (m0, k) and of B at (k, n0).
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %k_round = arith.addi %K, %bk : i32
  %k_round1 = arith.subi %k_round, %c1 : i32
  %k_tiles = arith.divsi %k_round1, %bk : i32
  %acc = scf.for %kt = %c0 to %k_tiles step %c1 iter_args(%acc_i = %zero_acc)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    %k0 = arith.muli %kt, %bk : i32
    %av = tile.descriptor_load %a[%m0, %k0] : !tile.tensordesc<${BLOCK_M}x${BLOCK_K}xf16> -> tensor<${BLOCK_M}x${BLOCK_K}xf16>
    %bv = tile.descriptor_load %b[%k0, %n0] : !tile.tensordesc<${BLOCK_K}x${BLOCK_N}xf16> -> tensor<${BLOCK_K}x${BLOCK_N}xf16>
    %acc_next = tile.dot %av, %bv, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}xf16>, tensor<${BLOCK_K}x${BLOCK_N}xf16> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    scf.yield %acc_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  }

  // C pointers, masked to M x N.
  %rm_range = tile.make_range 0 to ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %rn_range = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
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
  %c_base = tile.splat %c : !tile.ptr<f32> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
  %c_ptrs = tile.addptr %c_base, %c_offs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %r_base = tile.splat %r : !tile.ptr<f32> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
  %r_ptrs = tile.addptr %r_base, %c_offs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %rm_cb = tile.broadcast %rm_c : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %Mc = tile.splat %M : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %Nc = tile.splat %N : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %row_ok = arith.cmpi slt, %rm_cb, %Mc : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %col_ok = arith.cmpi slt, %rn_cb, %Nc : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %c_mask = arith.andi %row_ok, %col_ok : tensor<${BLOCK_M}x${BLOCK_N}xi1>

  // The residual: each element read (and, in place, written) by the same
  // thread.
  %accumulate_c = arith.constant ${ACCUMULATE} : i32
  %accumulate = arith.cmpi ne, %accumulate_c, %c0 : i32
  %out = scf.if %accumulate -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) {
    %old = tile.load %r_ptrs mask %c_mask : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
    %sum = arith.addf %old, %acc : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    scf.yield %sum : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  } else {
    scf.yield %acc : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  }
  tile.store %out, %c_ptrs mask %c_mask : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
  return
}
