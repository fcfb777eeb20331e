// FlashAttention-2 backward, step 1 of 3 (after Triton's fused-attention
// tutorial, _attn_bwd_preprocess): the row sums of O ∘ dO that the gradient
// of the softmax needs,
//
//   delta[b, h, i] = Σ_d o[b, h, i, d] · do[b, h, i, d]      (f32)
//
// one program per BLOCK_M rows of one head. O and dO (T: f16 or bf16) have
// the layout and strides of fwd.mlir's Q and O; delta [B][H][n_q] packed,
// like the forward's lse. Rows past n_q are masked.
//
//   llkc examples/attention/bwd_preprocess.mlir -D T=f16 -D D=128 -D BLOCK_M=128 --num-warps 4
//   grid = (cdiv(n_q, BLOCK_M), B * H)
//   args: o, do, delta, n_q, H, stride_qb, stride_qh, stride_qm (multiples of 8)
//
// Configurations: bwd_dkdv.mlir's table.
func.func @attn_bwd_preprocess_kernel(%o: !tile.ptr<${T}> {tile.divisibility = 16}, %do: !tile.ptr<${T}> {tile.divisibility = 16},
    %delta: !tile.ptr<f32> {tile.divisibility = 16}, %n_q: i32, %heads: i32, %stride_qb: i32 {tile.divisibility = 8},
    %stride_qh: i32 {tile.divisibility = 8}, %stride_qm: i32 {tile.divisibility = 8}) {
  %start_m = tile.program_id x
  %bh = tile.program_id y
  %b = arith.divsi %bh, %heads : i32
  %h = arith.remsi %bh, %heads : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %qb_off = arith.muli %b, %stride_qb : i32
  %qh_off = arith.muli %h, %stride_qh : i32
  %q_off = arith.addi %qb_off, %qh_off : i32
  %o_head = tile.addptr %o, %q_off : !tile.ptr<${T}>, i32
  %do_head = tile.addptr %do, %q_off : !tile.ptr<${T}>, i32

  // o + offs_m[:, None] * stride_qm + offs_d[None, :], rows past n_q masked.
  %m0 = arith.muli %start_m, %bm : i32
  %range_m = tile.make_range 0 to ${BLOCK_M}
  %offs_m = tile.add %m0, %range_m : i32, tensor<${BLOCK_M}xi32>
  %offs_d = tile.make_range 0 to ${D}
  %m_col = tile.expand_dims %offs_m axis = 1 : tensor<${BLOCK_M}xi32>
  %rows = tile.mul %m_col, %stride_qm : tensor<${BLOCK_M}x1xi32>, i32
  %offs = tile.add %rows, %offs_d : tensor<${BLOCK_M}x1xi32>, tensor<${D}xi32>
  %m_ok = tile.cmp lt %m_col, %n_q : tensor<${BLOCK_M}x1xi32>, i32
  %mask = tile.broadcast %m_ok : tensor<${BLOCK_M}x1xi1> -> tensor<${BLOCK_M}x${D}xi1>
  %o_ptrs = tile.addptr %o_head, %offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
  %ov = tile.load %o_ptrs mask %mask : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
  %do_ptrs = tile.addptr %do_head, %offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${D}xi32>
  %dov = tile.load %do_ptrs mask %mask : tensor<${BLOCK_M}x${D}x!tile.ptr<${T}>>
  %of = tile.cast %ov : tensor<${BLOCK_M}x${D}x${T}> to tensor<${BLOCK_M}x${D}xf32>
  %dof = tile.cast %dov : tensor<${BLOCK_M}x${D}x${T}> to tensor<${BLOCK_M}x${D}xf32>
  %prod = arith.mulf %of, %dof fastmath<contract> : tensor<${BLOCK_M}x${D}xf32>
  %dsum = tile.reduce sum %prod axis = 1 : tensor<${BLOCK_M}x${D}xf32>

  %delta_off = arith.muli %bh, %n_q : i32
  %delta_head = tile.addptr %delta, %delta_off : !tile.ptr<f32>, i32
  %delta_ptrs = tile.addptr %delta_head, %offs_m : !tile.ptr<f32>, tensor<${BLOCK_M}xi32>
  %row_ok = tile.cmp lt %offs_m, %n_q : tensor<${BLOCK_M}xi32>, i32
  tile.store %dsum, %delta_ptrs mask %row_ok : tensor<${BLOCK_M}x!tile.ptr<f32>>
  return
}
