// Attention output for one new token (llama.cpp's mul_mat_vec_nc_f16_f32):
//
//   o[h, i] = sum_t V[h/g, i, t] * p[h, t]      for t < n_kv
//
// V cache: f16, transposed [NH_kv][D][C] (kv head j, dim i, token t at
// (j*D + i)*C + t). p: f32, head h's probabilities at h*p_row_stride + t.
// o: f32 [NH][D]. g = NH / NH_kv (grouped-query).
//
// One program: BLOCK_D dims of one head; it walks the tokens BLOCK_T at a
// time over a [BLOCK_D, BLOCK_T] tile of V rows (contiguous in t: 16-byte
// loads) and sums over t once at the end. So that the loads stay 16-byte
// vectors when n_kv is not a multiple of 8, V is read up to n_kv rounded up
// to 8 tokens (inside the cache, since C is a multiple of 16) and the tokens
// past n_kv are zeroed with a select: whatever the cache holds there (even
// NaN) never reaches o.
//
//   llkc examples/llama/attn_values.mlir -D BLOCK_D=16 -D BLOCK_T=512 -D D=128 --num-warps 4
//   grid = (D / BLOCK_D, NH)
//   constants: BLOCK_D (dims per program, 16), BLOCK_T (tokens per step,
//   512), D (head dim, 128)
//   args: o, p, v, n_kv, C (cache capacity, mult. of 16), g, p_row_stride
func.func @attn_values_kernel(%o: !tile.ptr<f32> {tile.divisibility = 16},
                              %p: !tile.ptr<f32>,
                              %v: !tile.ptr<f16> {tile.divisibility = 16},
                              %n_kv: i32,
                              %cap: i32 {tile.divisibility = 16},
                              %g: i32,
                              %p_row_stride: i32) {
  %dblk = tile.program_id x
  %h = tile.program_id y
  %hk = arith.divsi %h, %g : i32
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c_bd = arith.constant ${BLOCK_D} : i32
  %c_bt = arith.constant ${BLOCK_T} : i32
  %c_d = arith.constant ${D} : i32

  // Rows of V: (hk*D + d0 + r) * C.
  %d0 = arith.muli %dblk, %c_bd : i32
  %hk_d = arith.muli %hk, %c_d : i32
  %row0 = arith.addi %hk_d, %d0 : i32
  %r = tile.make_range 0 to ${BLOCK_D} : tensor<${BLOCK_D}xi32>
  %row0s = tile.splat %row0 : i32 -> tensor<${BLOCK_D}xi32>
  %rows = arith.addi %row0s, %r : tensor<${BLOCK_D}xi32>
  %caps = tile.splat %cap : i32 -> tensor<${BLOCK_D}xi32>
  %row_off = arith.muli %rows, %caps : tensor<${BLOCK_D}xi32>
  %row_off2 = tile.expand_dims %row_off axis = 1 : tensor<${BLOCK_D}xi32> -> tensor<${BLOCK_D}x1xi32>
  %row_offb = tile.broadcast %row_off2 : tensor<${BLOCK_D}x1xi32> -> tensor<${BLOCK_D}x${BLOCK_T}xi32>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<${BLOCK_D}x${BLOCK_T}x!tile.ptr<f16>>
  %v_rows = tile.addptr %vs, %row_offb : tensor<${BLOCK_D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${BLOCK_D}x${BLOCK_T}xi32>

  %p_off = arith.muli %h, %p_row_stride : i32
  %p_row = tile.addptr %p, %p_off : !tile.ptr<f32>, i32
  %p_rows = tile.splat %p_row : !tile.ptr<f32> -> tensor<${BLOCK_T}x!tile.ptr<f32>>

  // n_kv rounded up to 8 tokens: the bound of the (vectorizable) V loads.
  %n_up = arith.addi %n_kv, %c7 : i32
  %n_div = arith.divsi %n_up, %c8 : i32
  %n_pad = arith.muli %n_div, %c8 : i32
  %n_padb = tile.splat %n_pad : i32 -> tensor<${BLOCK_D}x${BLOCK_T}xi32>
  %nb = tile.splat %n_kv : i32 -> tensor<${BLOCK_D}x${BLOCK_T}xi32>
  %ns = tile.splat %n_kv : i32 -> tensor<${BLOCK_T}xi32>
  %tr = tile.make_range 0 to ${BLOCK_T} : tensor<${BLOCK_T}xi32>
  %tr_row = tile.expand_dims %tr axis = 0 : tensor<${BLOCK_T}xi32> -> tensor<1x${BLOCK_T}xi32>
  %zero_p = arith.constant dense<0.0> : tensor<${BLOCK_T}xf32>
  %zero_v = arith.constant dense<0.0> : tensor<${BLOCK_D}x${BLOCK_T}xf32>

  %acc = scf.for %t0 = %c0 to %n_kv step %c_bt iter_args(%a = %zero_v) -> (tensor<${BLOCK_D}x${BLOCK_T}xf32>) : i32 {
    %t0s = tile.splat %t0 : i32 -> tensor<${BLOCK_T}xi32>
    %t = arith.addi %t0s, %tr : tensor<${BLOCK_T}xi32>
    %valid = arith.cmpi slt, %t, %ns : tensor<${BLOCK_T}xi32>

    // V first, so that its loads are in flight while p is read and moved
    // into V's layout. V's tokens and masks are built as a row here rather
    // than taken from %t, which would need the same trip through shared
    // memory.
    %t0r = tile.splat %t0 : i32 -> tensor<1x${BLOCK_T}xi32>
    %t_row = arith.addi %t0r, %tr_row : tensor<1x${BLOCK_T}xi32>
    %tb = tile.broadcast %t_row : tensor<1x${BLOCK_T}xi32> -> tensor<${BLOCK_D}x${BLOCK_T}xi32>
    %v_ptrs = tile.addptr %v_rows, %tb : tensor<${BLOCK_D}x${BLOCK_T}x!tile.ptr<f16>>, tensor<${BLOCK_D}x${BLOCK_T}xi32>
    %lmask = arith.cmpi slt, %tb, %n_padb : tensor<${BLOCK_D}x${BLOCK_T}xi32>
    %vh = tile.load %v_ptrs mask %lmask evict = evict_first : tensor<${BLOCK_D}x${BLOCK_T}x!tile.ptr<f16>>
    %vf = tile.cast %vh : tensor<${BLOCK_D}x${BLOCK_T}xf16> to tensor<${BLOCK_D}x${BLOCK_T}xf32>
    %vmask = arith.cmpi slt, %tb, %nb : tensor<${BLOCK_D}x${BLOCK_T}xi32>
    %vz = arith.select %vmask, %vf, %zero_v : tensor<${BLOCK_D}x${BLOCK_T}xi1>, tensor<${BLOCK_D}x${BLOCK_T}xf32>

    %p_ptrs = tile.addptr %p_rows, %t : tensor<${BLOCK_T}x!tile.ptr<f32>>, tensor<${BLOCK_T}xi32>
    %pv = tile.load %p_ptrs mask %valid other %zero_p : tensor<${BLOCK_T}x!tile.ptr<f32>>
    %p2 = tile.expand_dims %pv axis = 0 : tensor<${BLOCK_T}xf32> -> tensor<1x${BLOCK_T}xf32>
    %pb = tile.broadcast %p2 : tensor<1x${BLOCK_T}xf32> -> tensor<${BLOCK_D}x${BLOCK_T}xf32>

    %prod = arith.mulf %vz, %pb : tensor<${BLOCK_D}x${BLOCK_T}xf32>
    %next = arith.addf %a, %prod : tensor<${BLOCK_D}x${BLOCK_T}xf32>
    scf.yield %next : tensor<${BLOCK_D}x${BLOCK_T}xf32>
  }
  %out = tile.reduce sum %acc axis = 1 : tensor<${BLOCK_D}x${BLOCK_T}xf32> -> tensor<${BLOCK_D}xf32>

  %o_off = arith.muli %h, %c_d : i32
  %o_blk = arith.addi %o_off, %d0 : i32
  %o_row = tile.addptr %o, %o_blk : !tile.ptr<f32>, i32
  %o_rows = tile.splat %o_row : !tile.ptr<f32> -> tensor<${BLOCK_D}x!tile.ptr<f32>>
  %o_ptrs = tile.addptr %o_rows, %r : tensor<${BLOCK_D}x!tile.ptr<f32>>, tensor<${BLOCK_D}xi32>
  tile.store %out, %o_ptrs : tensor<${BLOCK_D}x!tile.ptr<f32>>
  return
}
