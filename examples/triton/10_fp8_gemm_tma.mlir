// 10_fp8_gemm.mlir's @fp8_gemm with its operands as tensor descriptors, as
// Triton 3.6 writes an fp8 GEMM on Hopper (`a_desc.load([m0, k0])`,
// `tl.dot(a, b_desc.load([n0, k0]).T, acc)`): C = (A * B^T) scaled,
// A M x K and B N x K fp8 (f8E4M3FN or f8E5M2, -D T; row-major, both
// K-major), f32 accumulation, C M x N bf16, C[m, n] scaled by
// sa[m * stride_sa] * sb[n * stride_sb] (stride 0: per tensor, 1: per row).
//
// Both blocks arrive by TMA (cp.async.bulk.tensor from one thread, zeros
// past the tensor's edges, so neither the M/N edges nor the K tail need
// masks); B's N x K block lands as TMA writes it and the dot reads it as its
// transpose, K-major, which fp8 warpgroup MMA (wgmma m64nNk32) requires of
// both operands. sm_90a only, BLOCK_K = 128 (a 128-byte row of K: TMA's
// 128-byte swizzle); the interpreter reads the descriptors the same way.
//
//   llkc examples/triton/10_fp8_gemm_tma.mlir -D T=f8E4M3FN -D BLOCK_M=128 \
//        -D BLOCK_N=128 -D BLOCK_K=128 --num-stages 4 --arch sm_90a
//   grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)), the programs in 03's groups
//   of 8 block-rows. A's descriptor: M x K, blocks BLOCK_M x BLOCK_K; B's:
//   N x K, blocks BLOCK_N x BLOCK_K; K a multiple of 16 (TMA's 16-byte rows),
//   N of 8 (C's rows stored 16 bytes at a time).
func.func @fp8_gemm_tma(%a: !tile.tensordesc<${BLOCK_M}x${BLOCK_K}x${T}>,
                        %b: !tile.tensordesc<${BLOCK_N}x${BLOCK_K}x${T}>,
                        %c: !tile.ptr<bf16> {tile.divisibility = 16},
                        %sa: !tile.ptr<f32>, %sb: !tile.ptr<f32>, %stride_sa: i32, %stride_sb: i32,
                        %M: i32, %N: i32 {tile.divisibility = 8}, %K: i32,
                        %stride_cm: i32 {tile.divisibility = 8}) {
  %px = tile.program_id x
  %py = tile.program_id y
  %num_pid_m = tile.num_programs x
  %num_pid_n = tile.num_programs y
  %pyx = arith.muli %py, %num_pid_m : i32
  %pid = arith.addi %pyx, %px : i32
  %group = arith.constant 8 : i32
  %num_pid_in_group = arith.muli %group, %num_pid_n : i32
  %group_id = arith.divsi %pid, %num_pid_in_group : i32
  %first_pid_m = arith.muli %group_id, %group : i32
  %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
  %group_size_m = arith.minsi %rows_left, %group : i32
  %in_group = arith.remsi %pid, %num_pid_in_group : i32
  %pid_m_in_group = arith.remsi %in_group, %group_size_m : i32
  %pid_m = arith.addi %first_pid_m, %pid_m_in_group : i32
  %pid_n = arith.divsi %in_group, %group_size_m : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %bk = arith.constant ${BLOCK_K} : i32
  %m0 = arith.muli %pid_m, %bm : i32
  %n0 = arith.muli %pid_n, %bn : i32

  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %k_tiles = arith.ceildivsi %K, %bk : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %kt = %c0 to %k_tiles step %c1
      iter_args(%acc_i = %zero_acc) -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    %k0 = arith.muli %kt, %bk : i32
    %av = tile.descriptor_load %a[%m0, %k0] : !tile.tensordesc<${BLOCK_M}x${BLOCK_K}x${T}>
    %bv = tile.descriptor_load %b[%n0, %k0] : !tile.tensordesc<${BLOCK_N}x${BLOCK_K}x${T}>
    %bt = tile.trans %bv : tensor<${BLOCK_N}x${BLOCK_K}x${T}> -> tensor<${BLOCK_K}x${BLOCK_N}x${T}>
    %acc_next = tile.dot %av, %bt, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}x${T}>, tensor<${BLOCK_K}x${BLOCK_N}x${T}>
    scf.yield %acc_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  }

  // acc * sa[rm * stride_sa][:, None] * sb[rn * stride_sb][None, :], rows
  // past M and columns past N reading the scales of row and column 0.
  %rm_range = tile.make_range 0 to ${BLOCK_M}
  %rn_range = tile.make_range 0 to ${BLOCK_N}
  %rm = tile.add %m0, %rm_range : i32, tensor<${BLOCK_M}xi32>
  %rn = tile.add %n0, %rn_range : i32, tensor<${BLOCK_N}xi32>
  %offs_am = tile.rem %rm, %M : tensor<${BLOCK_M}xi32>, i32
  %offs_bn = tile.rem %rn, %N : tensor<${BLOCK_N}xi32>, i32
  %sa_offs = tile.mul %offs_am, %stride_sa : tensor<${BLOCK_M}xi32>, i32
  %sa_ptrs = tile.addptr %sa, %sa_offs : !tile.ptr<f32>, tensor<${BLOCK_M}xi32>
  %sa_v = tile.load %sa_ptrs : tensor<${BLOCK_M}x!tile.ptr<f32>>
  %sb_offs = tile.mul %offs_bn, %stride_sb : tensor<${BLOCK_N}xi32>, i32
  %sb_ptrs = tile.addptr %sb, %sb_offs : !tile.ptr<f32>, tensor<${BLOCK_N}xi32>
  %sb_v = tile.load %sb_ptrs : tensor<${BLOCK_N}x!tile.ptr<f32>>
  %sa_col = tile.expand_dims %sa_v axis = 1 : tensor<${BLOCK_M}xf32>
  %sb_row = tile.expand_dims %sb_v axis = 0 : tensor<${BLOCK_N}xf32>
  %scaled_rows = tile.mul %acc, %sa_col : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x1xf32>
  %scaled = tile.mul %scaled_rows, %sb_row : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<1x${BLOCK_N}xf32>
  %out = tile.cast %scaled : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xbf16>

  // c + rm[:, None] * stride_cm + rn[None, :], masked to M x N.
  %cm = tile.expand_dims %rm axis = 1 : tensor<${BLOCK_M}xi32>
  %cn = tile.expand_dims %rn axis = 0 : tensor<${BLOCK_N}xi32>
  %c_rows = tile.mul %cm, %stride_cm : tensor<${BLOCK_M}x1xi32>, i32
  %c_offs = tile.add %c_rows, %cn : tensor<${BLOCK_M}x1xi32>, tensor<1x${BLOCK_N}xi32>
  %m_ok = tile.cmp lt %cm, %M : tensor<${BLOCK_M}x1xi32>, i32
  %n_ok = tile.cmp lt %cn, %N : tensor<1x${BLOCK_N}xi32>, i32
  %c_mask = tile.and %m_ok, %n_ok : tensor<${BLOCK_M}x1xi1>, tensor<1x${BLOCK_N}xi1>
  %c_ptrs = tile.addptr %c, %c_offs : !tile.ptr<bf16>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
  tile.store %out, %c_ptrs mask %c_mask : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<bf16>>
  return
}
