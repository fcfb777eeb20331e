// Apex fused LayerNorm, backward, stage 1 (spec: "Normalization (Apex)";
// seed 003). One program per chunk of rows_per_chunk rows; for each row r:
//
//   x_hat = (x - mean[r]) * invvar[r]                      (default), or
//   x_hat = (y - beta) / clamp(gamma)                (MEMORY_EFFICIENT=1:
//           the saved OUTPUT y replaces x; clamp(g) = g >= 0 ? max(g, eps)
//           : min(g, -eps), Apex's clamp_by_magnitude)
//   g     = dy * gamma
//   dx    = invvar[r] / n2 * (n2 g - sum_c g - x_hat * sum_c g x_hat)
//
// and the chunk's partial sums for the weight gradients (stage 1 of the
// two-stage reduction over rows):
//   part_gamma[chunk, c] = sum_{r in chunk} dy[r, c] x_hat[r, c]
//   part_beta[chunk, c]  = sum_{r in chunk} dy[r, c]
// apex_norm_bwd_gamma.mlir (stage 2) then sums the n_chunks rows of each.
// Fusing stage 1 here reads x (or y) and dy once, where Apex reads them
// once for dx and again for the partials.
//
//   llkc examples/llama/apex_layer_norm_bwd.mlir -D T=f16 -D BLOCK=4096
//        -D MEMORY_EFFICIENT=0 --num-warps 8
//   grid = n_chunks = ceil(n1 / rows_per_chunk) programs.
//   Constants: BLOCK = n2 rounded up to a power of two (4096 for Llama-2
//   7B); MEMORY_EFFICIENT 0 or 1 (folded at compile time). num_warps 8.
//   rows_per_chunk: 4 for n1 = 512 (128 programs), 1 for decode.
//   Arguments: dx (out, [n1][n2]), part_gamma, part_beta (out, f32
//   [n_chunks][n2]), dy, saved (x, or y when MEMORY_EFFICIENT), mean
//   (unused when MEMORY_EFFICIENT), invvar (f32 [n1]), gamma, beta (read
//   only when MEMORY_EFFICIENT), n1, n2 (multiple of 16), rows_per_chunk,
//   eps.
//   Offsets are i32: n1 * n2 < 2^31 (Llama: 512 x 4096 = 2^21).
//   Element type: -D T=f32|f16|bf16 (the storage type of dx, dy, saved,
//   gamma and beta; the kernel is apex_layer_norm_bwd_${T}); all
//   arithmetic is f32, and for T=f32 the casts fold away.

func.func @apex_layer_norm_bwd_${T}(%dx: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %part_gamma: !tile.ptr<f32> {tile.divisibility = 16},
                                   %part_beta: !tile.ptr<f32> {tile.divisibility = 16},
                                   %dy: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %saved: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %mean: !tile.ptr<f32>,
                                   %invvar: !tile.ptr<f32>,
                                   %gamma: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %beta: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %n1: i32,
                                   %n2: i32 {tile.divisibility = 16},
                                   %rows_per_chunk: i32,
                                   %eps: f32) {
  %chunk = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %n2s = tile.splat %n2 : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n2s : tensor<${BLOCK}xi32>
  %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>
  %zero_s = arith.constant dense<0.0> : tensor<${BLOCK}x${T}>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %me = arith.constant ${MEMORY_EFFICIENT} : i32
  %memory_efficient = arith.cmpi ne, %me, %c0 : i32

  %g_rows = tile.splat %gamma : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %g_ptrs = tile.addptr %g_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %gv_s = tile.load %g_ptrs mask %mask other %zero_s evict = evict_last : tensor<${BLOCK}x!tile.ptr<${T}>>
  %gv = tile.cast %gv_s : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
  %b_rows = tile.splat %beta : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %b_ptrs = tile.addptr %b_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %bv_s = tile.load %b_ptrs mask %mask other %zero_s evict = evict_last : tensor<${BLOCK}x!tile.ptr<${T}>>
  %bv = tile.cast %bv_s : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
  // gamma clamped away from 0 in magnitude by eps (memory-efficient mode)
  %eps_t = tile.splat %eps : f32 -> tensor<${BLOCK}xf32>
  %neg_eps_t = arith.negf %eps_t : tensor<${BLOCK}xf32>
  %g_up = arith.maximumf %gv, %eps_t : tensor<${BLOCK}xf32>
  %g_down = arith.minimumf %gv, %neg_eps_t : tensor<${BLOCK}xf32>
  %g_pos = arith.cmpf oge, %gv, %zero : tensor<${BLOCK}xf32>
  %g_clamped = arith.select %g_pos, %g_up, %g_down : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>

  %n = arith.sitofp %n2 : i32 to f32
  %n_t = tile.splat %n : f32 -> tensor<${BLOCK}xf32>
  %row0 = arith.muli %chunk, %rows_per_chunk : i32
  %row_end = arith.addi %row0, %rows_per_chunk : i32
  %row1 = arith.minsi %row_end, %n1 : i32
  %dy_rows = tile.splat %dy : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %s_rows = tile.splat %saved : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %dx_rows = tile.splat %dx : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %acc:2 = scf.for %r = %row0 to %row1 step %c1
      iter_args(%acc_gamma = %zero, %acc_beta = %zero) -> (tensor<${BLOCK}xf32>, tensor<${BLOCK}xf32>) : i32 {
    %offset = arith.muli %r, %n2 : i32
    %offsets = tile.splat %offset : i32 -> tensor<${BLOCK}xi32>
    %row_cols = arith.addi %offsets, %cols : tensor<${BLOCK}xi32>
    %dy_ptrs = tile.addptr %dy_rows, %row_cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    %dyv_s = tile.load %dy_ptrs mask %mask other %zero_s : tensor<${BLOCK}x!tile.ptr<${T}>>
    %dyv = tile.cast %dyv_s : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
    %s_ptrs = tile.addptr %s_rows, %row_cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    %sv_s = tile.load %s_ptrs mask %mask other %zero_s : tensor<${BLOCK}x!tile.ptr<${T}>>
    %sv = tile.cast %sv_s : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
    %iv_ptr = tile.addptr %invvar, %r : !tile.ptr<f32>, i32
    %iv = tile.load %iv_ptr : !tile.ptr<f32>
    %xhat = scf.if %memory_efficient -> (tensor<${BLOCK}xf32>) {
      %centred = arith.subf %sv, %bv : tensor<${BLOCK}xf32>
      %q = arith.divf %centred, %g_clamped : tensor<${BLOCK}xf32>
      scf.yield %q : tensor<${BLOCK}xf32>
    } else {
      %m_ptr = tile.addptr %mean, %r : !tile.ptr<f32>, i32
      %m = tile.load %m_ptr : !tile.ptr<f32>
      %m_t = tile.splat %m : f32 -> tensor<${BLOCK}xf32>
      %centred = arith.subf %sv, %m_t : tensor<${BLOCK}xf32>
      %iv_t = tile.splat %iv : f32 -> tensor<${BLOCK}xf32>
      %q = arith.mulf %centred, %iv_t : tensor<${BLOCK}xf32>
      scf.yield %q : tensor<${BLOCK}xf32>
    }
    %g = arith.mulf %dyv, %gv : tensor<${BLOCK}xf32>
    %sum1 = tile.reduce sum %g axis = 0 : tensor<${BLOCK}xf32> -> f32
    %gx = arith.mulf %g, %xhat : tensor<${BLOCK}xf32>
    %sum2 = tile.reduce sum %gx axis = 0 : tensor<${BLOCK}xf32> -> f32
    %ng = arith.mulf %g, %n_t : tensor<${BLOCK}xf32>
    %sum1_t = tile.splat %sum1 : f32 -> tensor<${BLOCK}xf32>
    %t1 = arith.subf %ng, %sum1_t : tensor<${BLOCK}xf32>
    %sum2_t = tile.splat %sum2 : f32 -> tensor<${BLOCK}xf32>
    %t2 = arith.mulf %xhat, %sum2_t : tensor<${BLOCK}xf32>
    %t3 = arith.subf %t1, %t2 : tensor<${BLOCK}xf32>
    %coef = arith.divf %iv, %n : f32
    %coef_t = tile.splat %coef : f32 -> tensor<${BLOCK}xf32>
    %dxv = arith.mulf %t3, %coef_t : tensor<${BLOCK}xf32>
    %dx_ptrs = tile.addptr %dx_rows, %row_cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    %dxv_s = tile.cast %dxv rounding = rne : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
    tile.store %dxv_s, %dx_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
    %dyx = arith.mulf %dyv, %xhat : tensor<${BLOCK}xf32>
    %next_gamma = arith.addf %acc_gamma, %dyx : tensor<${BLOCK}xf32>
    %next_beta = arith.addf %acc_beta, %dyv : tensor<${BLOCK}xf32>
    scf.yield %next_gamma, %next_beta : tensor<${BLOCK}xf32>, tensor<${BLOCK}xf32>
  }

  %part_offset = arith.muli %chunk, %n2 : i32
  %pg_row = tile.addptr %part_gamma, %part_offset : !tile.ptr<f32>, i32
  %pg_rows = tile.splat %pg_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %pg_ptrs = tile.addptr %pg_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %acc#0, %pg_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %pb_row = tile.addptr %part_beta, %part_offset : !tile.ptr<f32>, i32
  %pb_rows = tile.splat %pb_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %pb_ptrs = tile.addptr %pb_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %acc#1, %pb_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
