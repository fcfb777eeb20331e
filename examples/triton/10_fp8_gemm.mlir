// The fp8 GEMM that stands in for Triton tutorial 10 (block-scaled matmul,
// which needs sm_100): C = (A * B^T) scaled, A M x K and B N x K fp8
// (f8E4M3FN or f8E5M2, -D T; row-major, so both K-major, as
// torch._scaled_mm and DeepSeek-V3's weights take them), f32 accumulation,
// C M x N bf16.
//
// @fp8_gemm scales C[m, n] by sa[m * stride_sa] * sb[n * stride_sb]:
// stride 0 is a per-tensor scale, 1 per row of A / per row of B (per column
// of C), torch._scaled_mm's two recipes.
// @fp8_gemm_blockwise scales each K block's partial sums as DeepSeek-V3:
// sa[m, k / 128] (1x128 activation blocks, M x K/128) and
// sb[n / 128, k / 128] (128x128 weight blocks, N/128 x K/128), both f32
// row-major; BLOCK_K divides 128.
//
// On sm_90a with BLOCK_K = 128 (a 128-byte row of K in each operand's
// swizzled slot; 64: the 64-byte swizzle) the dots are fp8 warpgroup MMA (wgmma m64nNk32 .e4m3 /
// .e5m2), both operands read K-major from their cp.async-filled slots; the
// loads already give that layout (A's rows and B's columns are K-contiguous
// in memory). Elsewhere they run as exact f16 dots on mma.sync.
//
//   llkc examples/triton/10_fp8_gemm.mlir -D T=f8E4M3FN -D BLOCK_M=128 \
//        -D BLOCK_N=128 -D BLOCK_K=128 --arch sm_90a
// The programs run in 03's groups of 8 block-rows, numbered from the 2-D
// grid; the K loop offsets loop-invariant pointer tiles instead of carrying
// them. H200, 4096^3, per-tensor, 128x128x128, 4 warps, 3 stages: 168.3 ->
// 155.1 us grouped, 150.2 with both (0.60x -> 0.67x torch._scaled_mm; at 4
// stages both are slower, 163.5 -> 168.9; bench/results/2026-12-03-h200/
// fp8-gemm-variants.md).
//
//   grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)) programs; K and the row
//   strides multiples of 16 (16-byte rows), N of 8 (C's rows stored 16
//   bytes at a time, as Triton specializes N; without it every bf16 was a
//   store of its own: 128 a thread). Rows of A and B past M and N
//   wrap around (their results are masked at the store); the K tail reads
//   zeros.
func.func @fp8_gemm(%a: !tile.ptr<${T}> {tile.divisibility = 16}, %b: !tile.ptr<${T}> {tile.divisibility = 16},
                    %c: !tile.ptr<bf16> {tile.divisibility = 16},
                    %sa: !tile.ptr<f32>, %sb: !tile.ptr<f32>, %stride_sa: i32, %stride_sb: i32,
                    %M: i32, %N: i32 {tile.divisibility = 8}, %K: i32 {tile.divisibility = 16},
                    %stride_am: i32 {tile.divisibility = 16}, %stride_bn: i32 {tile.divisibility = 16},
                    %stride_cm: i32 {tile.divisibility = 8}) {
  // The programs in groups of 8 block-rows (03's order, for L2 reuse).
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
  %rm_range = tile.make_range 0 to ${BLOCK_M}
  %rn_range = tile.make_range 0 to ${BLOCK_N}
  %rm = tile.add %m0, %rm_range : i32, tensor<${BLOCK_M}xi32>
  %rn = tile.add %n0, %rn_range : i32, tensor<${BLOCK_N}xi32>
  %offs_am = tile.rem %rm, %M : tensor<${BLOCK_M}xi32>, i32
  %offs_bn = tile.rem %rn, %N : tensor<${BLOCK_N}xi32>, i32
  %offs_k = tile.make_range 0 to ${BLOCK_K}
  // a + offs_am[:, None] * stride_am + offs_k[None, :]; b + offs_k[:, None] + offs_bn[None, :] * stride_bn
  %am = tile.expand_dims %offs_am axis = 1 : tensor<${BLOCK_M}xi32>
  %a_rows = tile.mul %am, %stride_am : tensor<${BLOCK_M}x1xi32>, i32
  %a_offs = tile.add %a_rows, %offs_k : tensor<${BLOCK_M}x1xi32>, tensor<${BLOCK_K}xi32>
  %a_ptrs0 = tile.addptr %a, %a_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %bn_row = tile.expand_dims %offs_bn axis = 0 : tensor<${BLOCK_N}xi32>
  %b_cols = tile.mul %bn_row, %stride_bn : tensor<1x${BLOCK_N}xi32>, i32
  %k_col = tile.expand_dims %offs_k axis = 1 : tensor<${BLOCK_K}xi32>
  %b_offs = tile.add %k_col, %b_cols : tensor<${BLOCK_K}x1xi32>, tensor<1x${BLOCK_N}xi32>
  %b_ptrs0 = tile.addptr %b, %b_offs : !tile.ptr<${T}>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %k_row = tile.expand_dims %offs_k axis = 0 : tensor<${BLOCK_K}xi32>
  %k_of_a = tile.broadcast %k_row : tensor<1x${BLOCK_K}xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %k_of_b = tile.broadcast %k_col : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>

  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_a = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_K}x${T}>
  %zero_b = arith.constant dense<0.0> : tensor<${BLOCK_K}x${BLOCK_N}x${T}>
  %k_tiles = arith.ceildivsi %K, %bk : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %kt = %c0 to %k_tiles step %c1
      iter_args(%acc_i = %zero_acc) -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    %k_done = arith.muli %kt, %bk : i32
    %a_ptrs = tile.addptr %a_ptrs0, %k_done : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>, i32
    %b_ptrs = tile.addptr %b_ptrs0, %k_done : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>, i32
    %k_left = arith.subi %K, %k_done : i32
    %a_mask = tile.cmp lt %k_of_a, %k_left : tensor<${BLOCK_M}x${BLOCK_K}xi32>, i32
    %b_mask = tile.cmp lt %k_of_b, %k_left : tensor<${BLOCK_K}x${BLOCK_N}xi32>, i32
    %av = tile.load %a_ptrs mask %a_mask other %zero_a : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>
    %bv = tile.load %b_ptrs mask %b_mask other %zero_b : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>
    %acc_next = tile.dot %av, %bv, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}x${T}>, tensor<${BLOCK_K}x${BLOCK_N}x${T}>
    scf.yield %acc_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  }

  // acc * sa[offs_am * stride_sa][:, None] * sb[offs_bn * stride_sb][None, :]
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

func.func @fp8_gemm_blockwise(%a: !tile.ptr<${T}> {tile.divisibility = 16}, %b: !tile.ptr<${T}> {tile.divisibility = 16},
                    %c: !tile.ptr<bf16> {tile.divisibility = 16},
                              %sa: !tile.ptr<f32>, %sb: !tile.ptr<f32>, %stride_sa: i32, %stride_sb: i32,
                    %M: i32, %N: i32 {tile.divisibility = 8}, %K: i32 {tile.divisibility = 16},
                    %stride_am: i32 {tile.divisibility = 16}, %stride_bn: i32 {tile.divisibility = 16},
                    %stride_cm: i32 {tile.divisibility = 8}) {
  // The programs in groups of 8 block-rows (03's order, for L2 reuse).
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
  %rm_range = tile.make_range 0 to ${BLOCK_M}
  %rn_range = tile.make_range 0 to ${BLOCK_N}
  %rm = tile.add %m0, %rm_range : i32, tensor<${BLOCK_M}xi32>
  %rn = tile.add %n0, %rn_range : i32, tensor<${BLOCK_N}xi32>
  %offs_am = tile.rem %rm, %M : tensor<${BLOCK_M}xi32>, i32
  %offs_bn = tile.rem %rn, %N : tensor<${BLOCK_N}xi32>, i32
  %offs_k = tile.make_range 0 to ${BLOCK_K}
  // a + offs_am[:, None] * stride_am + offs_k[None, :]; b + offs_k[:, None] + offs_bn[None, :] * stride_bn
  %am = tile.expand_dims %offs_am axis = 1 : tensor<${BLOCK_M}xi32>
  %a_rows = tile.mul %am, %stride_am : tensor<${BLOCK_M}x1xi32>, i32
  %a_offs = tile.add %a_rows, %offs_k : tensor<${BLOCK_M}x1xi32>, tensor<${BLOCK_K}xi32>
  %a_ptrs0 = tile.addptr %a, %a_offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %bn_row = tile.expand_dims %offs_bn axis = 0 : tensor<${BLOCK_N}xi32>
  %b_cols = tile.mul %bn_row, %stride_bn : tensor<1x${BLOCK_N}xi32>, i32
  %k_col = tile.expand_dims %offs_k axis = 1 : tensor<${BLOCK_K}xi32>
  %b_offs = tile.add %k_col, %b_cols : tensor<${BLOCK_K}x1xi32>, tensor<1x${BLOCK_N}xi32>
  %b_ptrs0 = tile.addptr %b, %b_offs : !tile.ptr<${T}>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
  %k_row = tile.expand_dims %offs_k axis = 0 : tensor<${BLOCK_K}xi32>
  %k_of_a = tile.broadcast %k_row : tensor<1x${BLOCK_K}xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %k_of_b = tile.broadcast %k_col : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>

  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_a = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_K}x${T}>
  %zero_b = arith.constant dense<0.0> : tensor<${BLOCK_K}x${BLOCK_N}x${T}>
  %k_tiles = arith.ceildivsi %K, %bk : i32
  // Row offsets of the scales: sa[offs_am, :], sb[offs_bn / 128, :].
  %c128 = arith.constant 128 : i32
  %sa_rows = tile.mul %offs_am, %stride_sa : tensor<${BLOCK_M}xi32>, i32
  %bn_group = tile.div %offs_bn, %c128 : tensor<${BLOCK_N}xi32>, i32
  %sb_rows = tile.mul %bn_group, %stride_sb : tensor<${BLOCK_N}xi32>, i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %kt = %c0 to %k_tiles step %c1
      iter_args(%acc_i = %zero_acc) -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    %k_done = arith.muli %kt, %bk : i32
    %a_ptrs = tile.addptr %a_ptrs0, %k_done : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>, i32
    %b_ptrs = tile.addptr %b_ptrs0, %k_done : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>, i32
    %k_left = arith.subi %K, %k_done : i32
    %a_mask = tile.cmp lt %k_of_a, %k_left : tensor<${BLOCK_M}x${BLOCK_K}xi32>, i32
    %b_mask = tile.cmp lt %k_of_b, %k_left : tensor<${BLOCK_K}x${BLOCK_N}xi32>, i32
    %av = tile.load %a_ptrs mask %a_mask other %zero_a : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<${T}>>
    %bv = tile.load %b_ptrs mask %b_mask other %zero_b : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<${T}>>
    // This K block's partial sums, scaled by sa[m, kb] * sb[n / 128, kb].
    %partial = tile.dot %av, %bv, %zero_acc : tensor<${BLOCK_M}x${BLOCK_K}x${T}>, tensor<${BLOCK_K}x${BLOCK_N}x${T}>
    %kb = arith.divsi %k_done, %c128 : i32
    %sa_offs = tile.add %sa_rows, %kb : tensor<${BLOCK_M}xi32>, i32
    %sa_ptrs = tile.addptr %sa, %sa_offs : !tile.ptr<f32>, tensor<${BLOCK_M}xi32>
    %sa_v = tile.load %sa_ptrs : tensor<${BLOCK_M}x!tile.ptr<f32>>
    %sb_offs = tile.add %sb_rows, %kb : tensor<${BLOCK_N}xi32>, i32
    %sb_ptrs = tile.addptr %sb, %sb_offs : !tile.ptr<f32>, tensor<${BLOCK_N}xi32>
    %sb_v = tile.load %sb_ptrs : tensor<${BLOCK_N}x!tile.ptr<f32>>
    %sa_col = tile.expand_dims %sa_v axis = 1 : tensor<${BLOCK_M}xf32>
    %sb_row = tile.expand_dims %sb_v axis = 0 : tensor<${BLOCK_N}xf32>
    %scale = tile.mul %sa_col, %sb_row : tensor<${BLOCK_M}x1xf32>, tensor<1x${BLOCK_N}xf32>
    %acc_next = math.fma %partial, %scale, %acc_i : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    scf.yield %acc_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  }

  %out = tile.cast %acc : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xbf16>

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
