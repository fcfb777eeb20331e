// Attention scores for one new token (llama.cpp's mul_mat_p021_f16_f32):
//
//   s[h, t] = sum_i K[t, h/g, i] * q[h, i]      for t < n_kv
//
// K cache: f16 [C][NH_kv][D], token-major (token t, kv head j, dim i at
// t*k_row_stride + j*D + i, k_row_stride = NH_kv*D). q: f32 [NH][D]. s: f32,
// head h's scores at h*s_row_stride + t. g = NH / NH_kv (grouped-query).
//
// One program: BLOCK_T tokens of one head, a [BLOCK_T, D] tile of K rows
// (each row 2*D contiguous bytes: 16-byte loads) times q, summed over D.
//
//   llkc examples/llama/attn_scores.mlir -D BLOCK_T=64 -D D=128 --num-warps 4
//   grid = (ceil(n_kv / BLOCK_T), NH)
//   constants: BLOCK_T (tokens per program, 64), D (head dim, 128)
//   args: s, q, k, n_kv, k_row_stride (mult. of 16), g, s_row_stride
func.func @attn_scores_kernel(%s: !tile.ptr<f32>,
                              %q: !tile.ptr<f32> {tile.divisibility = 16},
                              %k: !tile.ptr<f16> {tile.divisibility = 16},
                              %n_kv: i32,
                              %k_row_stride: i32 {tile.divisibility = 16},
                              %g: i32,
                              %s_row_stride: i32) {
  %blk = tile.program_id x
  %h = tile.program_id y
  %hk = arith.divsi %h, %g : i32
  %c_bt = arith.constant ${BLOCK_T} : i32
  %c_d = arith.constant ${D} : i32

  // Tokens of this program and their mask.
  %t0 = arith.muli %blk, %c_bt : i32
  %tr = tile.make_range 0 to ${BLOCK_T} : tensor<${BLOCK_T}xi32>
  %t0s = tile.splat %t0 : i32 -> tensor<${BLOCK_T}xi32>
  %t = arith.addi %t0s, %tr : tensor<${BLOCK_T}xi32>
  %ns = tile.splat %n_kv : i32 -> tensor<${BLOCK_T}xi32>
  %tmask = arith.cmpi slt, %t, %ns : tensor<${BLOCK_T}xi32>

  // q[h, :]
  %i = tile.make_range 0 to ${D} : tensor<${D}xi32>
  %q_off = arith.muli %h, %c_d : i32
  %q_row = tile.addptr %q, %q_off : !tile.ptr<f32>, i32
  %q_rows = tile.splat %q_row : !tile.ptr<f32> -> tensor<${D}x!tile.ptr<f32>>
  %q_ptrs = tile.addptr %q_rows, %i : tensor<${D}x!tile.ptr<f32>>, tensor<${D}xi32>
  %qv = tile.load %q_ptrs : tensor<${D}x!tile.ptr<f32>>

  // K[t, hk, :] for the program's tokens: rows along dim 0, D along dim 1.
  // Tokens and mask are rebuilt here as columns rather than taken from %t:
  // moving %t into this layout would cost a trip through shared memory.
  %tc = tile.expand_dims %tr axis = 1 : tensor<${BLOCK_T}xi32> -> tensor<${BLOCK_T}x1xi32>
  %t0c = tile.splat %t0 : i32 -> tensor<${BLOCK_T}x1xi32>
  %t_col = arith.addi %t0c, %tc : tensor<${BLOCK_T}x1xi32>
  %strides = tile.splat %k_row_stride : i32 -> tensor<${BLOCK_T}x1xi32>
  %t_off = arith.muli %t_col, %strides : tensor<${BLOCK_T}x1xi32>
  %t_offb = tile.broadcast %t_off : tensor<${BLOCK_T}x1xi32> -> tensor<${BLOCK_T}x${D}xi32>
  %i2 = tile.expand_dims %i axis = 0 : tensor<${D}xi32> -> tensor<1x${D}xi32>
  %ib = tile.broadcast %i2 : tensor<1x${D}xi32> -> tensor<${BLOCK_T}x${D}xi32>
  %k_off = arith.addi %t_offb, %ib : tensor<${BLOCK_T}x${D}xi32>
  %head_off = arith.muli %hk, %c_d : i32
  %k_head = tile.addptr %k, %head_off : !tile.ptr<f16>, i32
  %k_heads = tile.splat %k_head : !tile.ptr<f16> -> tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>
  %k_ptrs = tile.addptr %k_heads, %k_off : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>, tensor<${BLOCK_T}x${D}xi32>
  %ns_col = tile.splat %n_kv : i32 -> tensor<${BLOCK_T}x1xi32>
  %m2 = arith.cmpi slt, %t_col, %ns_col : tensor<${BLOCK_T}x1xi32>
  %kmask = tile.broadcast %m2 : tensor<${BLOCK_T}x1xi1> -> tensor<${BLOCK_T}x${D}xi1>
  %zero = arith.constant dense<0.0> : tensor<${BLOCK_T}x${D}xf16>
  %kv = tile.load %k_ptrs mask %kmask other %zero evict = evict_first : tensor<${BLOCK_T}x${D}x!tile.ptr<f16>>
  %kf = tile.cast %kv : tensor<${BLOCK_T}x${D}xf16> to tensor<${BLOCK_T}x${D}xf32>

  %q2 = tile.expand_dims %qv axis = 0 : tensor<${D}xf32> -> tensor<1x${D}xf32>
  %qb = tile.broadcast %q2 : tensor<1x${D}xf32> -> tensor<${BLOCK_T}x${D}xf32>
  %prod = arith.mulf %kf, %qb : tensor<${BLOCK_T}x${D}xf32>
  %scores = tile.reduce sum %prod axis = 1 : tensor<${BLOCK_T}x${D}xf32> -> tensor<${BLOCK_T}xf32>

  %s_off = arith.muli %h, %s_row_stride : i32
  %s_row = tile.addptr %s, %s_off : !tile.ptr<f32>, i32
  %s_rows = tile.splat %s_row : !tile.ptr<f32> -> tensor<${BLOCK_T}x!tile.ptr<f32>>
  %s_ptrs = tile.addptr %s_rows, %t : tensor<${BLOCK_T}x!tile.ptr<f32>>, tensor<${BLOCK_T}xi32>
  tile.store %scores, %s_ptrs mask %tmask : tensor<${BLOCK_T}x!tile.ptr<f32>>
  return
}
