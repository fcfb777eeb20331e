// Triton tutorial 03, matrix multiplication
// (python/tutorials/03-matrix-multiplication.py): C = leaky_relu(A * B), A
// M x K, B K x N (f16, row-major), C M x N f16, f32 accumulation on the
// tensor cores; programs grouped GROUP_SIZE_M block-rows at a time so that
// those running together share blocks of B in L2. Rows of A and columns of
// B past M and N wrap around (their results are masked at the store); the K
// tail is masked with zeros. examples/matmul.mlir is the same kernel in the
// explicit forms.
//
//   llkc examples/triton/03_matrix_multiplication.mlir -D BLOCK_M=128 -D BLOCK_N=128 \
//        -D BLOCK_K=32 -D GROUP_SIZE_M=8 --num-warps 4
//   grid = cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) programs; N, K and the row
//   strides multiples of 8 (16-byte rows).
func.func @matmul_kernel(%a: !tile.ptr<f16> {tile.divisibility = 16}, %b: !tile.ptr<f16> {tile.divisibility = 16},
                         %c: !tile.ptr<f16> {tile.divisibility = 16}, %M: i32, %N: i32 {tile.divisibility = 8},
                         %K: i32 {tile.divisibility = 8}, %stride_am: i32 {tile.divisibility = 8},
                         %stride_bk: i32 {tile.divisibility = 8}, %stride_cm: i32 {tile.divisibility = 8}) {
  %pid = tile.program_id x
  %bm = arith.constant ${BLOCK_M} : i32
  %bn = arith.constant ${BLOCK_N} : i32
  %bk = arith.constant ${BLOCK_K} : i32
  %group = arith.constant ${GROUP_SIZE_M} : i32
  %num_pid_m = arith.ceildivsi %M, %bm : i32
  %num_pid_n = arith.ceildivsi %N, %bn : i32
  %num_pid_in_group = arith.muli %group, %num_pid_n : i32
  %group_id = arith.divsi %pid, %num_pid_in_group : i32
  %first_pid_m = arith.muli %group_id, %group : i32
  %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
  %group_size_m = arith.minsi %rows_left, %group : i32
  %in_group = arith.remsi %pid, %num_pid_in_group : i32
  %pid_m_in_group = arith.remsi %in_group, %group_size_m : i32
  %pid_m = arith.addi %first_pid_m, %pid_m_in_group : i32
  %pid_n = arith.divsi %in_group, %group_size_m : i32

  // offs_am = (pid_m * BLOCK_M + arange(BLOCK_M)) % M, offs_bn likewise.
  %m0 = arith.muli %pid_m, %bm : i32
  %n0 = arith.muli %pid_n, %bn : i32
  %rm_range = tile.make_range 0 to ${BLOCK_M}
  %rn_range = tile.make_range 0 to ${BLOCK_N}
  %rm = tile.add %m0, %rm_range : i32, tensor<${BLOCK_M}xi32>
  %rn = tile.add %n0, %rn_range : i32, tensor<${BLOCK_N}xi32>
  %offs_am = tile.rem %rm, %M : tensor<${BLOCK_M}xi32>, i32
  %offs_bn = tile.rem %rn, %N : tensor<${BLOCK_N}xi32>, i32
  %offs_k = tile.make_range 0 to ${BLOCK_K}
  // a + offs_am[:, None] * stride_am + offs_k[None, :]; b + offs_k[:, None] * stride_bk + offs_bn[None, :]
  %am = tile.expand_dims %offs_am axis = 1 : tensor<${BLOCK_M}xi32>
  %a_rows = tile.mul %am, %stride_am : tensor<${BLOCK_M}x1xi32>, i32
  %a_offs = tile.add %a_rows, %offs_k : tensor<${BLOCK_M}x1xi32>, tensor<${BLOCK_K}xi32>
  %a_ptrs0 = tile.addptr %a, %a_offs : !tile.ptr<f16>, tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %bk_col = tile.expand_dims %offs_k axis = 1 : tensor<${BLOCK_K}xi32>
  %b_rows = tile.mul %bk_col, %stride_bk : tensor<${BLOCK_K}x1xi32>, i32
  %b_offs = tile.add %b_rows, %offs_bn : tensor<${BLOCK_K}x1xi32>, tensor<${BLOCK_N}xi32>
  %b_ptrs0 = tile.addptr %b, %b_offs : !tile.ptr<f16>, tensor<${BLOCK_K}x${BLOCK_N}xi32>
  // The k index of each element of the A and B blocks, for the K tail's masks.
  %k_row = tile.expand_dims %offs_k axis = 0 : tensor<${BLOCK_K}xi32>
  %k_of_a = tile.broadcast %k_row : tensor<1x${BLOCK_K}xi32> -> tensor<${BLOCK_M}x${BLOCK_K}xi32>
  %k_of_b = tile.broadcast %bk_col : tensor<${BLOCK_K}x1xi32> -> tensor<${BLOCK_K}x${BLOCK_N}xi32>

  // The K loop; the last step masks the tail (other = 0).
  %zero_acc = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_a = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_K}xf16>
  %zero_b = arith.constant dense<0.0> : tensor<${BLOCK_K}x${BLOCK_N}xf16>
  %b_step = arith.muli %bk, %stride_bk : i32
  %k_tiles = arith.ceildivsi %K, %bk : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap, %bp = scf.for %kt = %c0 to %k_tiles step %c1
      iter_args(%acc_i = %zero_acc, %a_ptrs = %a_ptrs0, %b_ptrs = %b_ptrs0)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>) : i32 {
    %k_done = arith.muli %kt, %bk : i32
    %k_left = arith.subi %K, %k_done : i32
    %a_mask = tile.cmp lt %k_of_a, %k_left : tensor<${BLOCK_M}x${BLOCK_K}xi32>, i32
    %b_mask = tile.cmp lt %k_of_b, %k_left : tensor<${BLOCK_K}x${BLOCK_N}xi32>, i32
    %av = tile.load %a_ptrs mask %a_mask other %zero_a : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>
    %bv = tile.load %b_ptrs mask %b_mask other %zero_b : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
    %acc_next = tile.dot %av, %bv, %acc_i : tensor<${BLOCK_M}x${BLOCK_K}xf16>, tensor<${BLOCK_K}x${BLOCK_N}xf16>
    %a_next = tile.addptr %a_ptrs, %bk : tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>, i32
    %b_next = tile.addptr %b_ptrs, %b_step : tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>, i32
    scf.yield %acc_next, %a_next, %b_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_K}x!tile.ptr<f16>>, tensor<${BLOCK_K}x${BLOCK_N}x!tile.ptr<f16>>
  }

  // leaky_relu: where(x >= 0, x, 0.01 * x), then f16.
  %zero = arith.constant 0.0 : f32
  %alpha = arith.constant 0.01 : f32
  %pos = tile.cmp ge %acc, %zero : tensor<${BLOCK_M}x${BLOCK_N}xf32>, f32
  %scaled = tile.mul %acc, %alpha : tensor<${BLOCK_M}x${BLOCK_N}xf32>, f32
  %act = tile.where %pos, %acc, %scaled : tensor<${BLOCK_M}x${BLOCK_N}xi1>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %out = tile.cast %act : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xf16>

  // c + stride_cm * offs_cm[:, None] + offs_cn[None, :], masked to M x N.
  %cm = tile.expand_dims %rm axis = 1 : tensor<${BLOCK_M}xi32>
  %c_rows = tile.mul %cm, %stride_cm : tensor<${BLOCK_M}x1xi32>, i32
  %c_offs = tile.add %c_rows, %rn : tensor<${BLOCK_M}x1xi32>, tensor<${BLOCK_N}xi32>
  %c_ptrs = tile.addptr %c, %c_offs : !tile.ptr<f16>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %row_ok = tile.cmp lt %cm, %M : tensor<${BLOCK_M}x1xi32>, i32
  %col_ok = tile.cmp lt %rn, %N : tensor<${BLOCK_N}xi32>, i32
  %c_mask = tile.and %row_ok, %col_ok : tensor<${BLOCK_M}x1xi1>, tensor<${BLOCK_N}xi1>
  tile.store %out, %c_ptrs mask %c_mask : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f16>>
  return
}
