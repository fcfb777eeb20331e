// Apex fused LayerNorm, forward (spec: "Normalization (Apex)"; seed 003).
// One program per row of n2 values:
//
//   mean, var = Welford/Chan statistics of x[r, :]   (var biased: M2 / n2)
//   invvar    = rsqrt(var + eps)
//   y[r, c]   = gamma[c] * (x[r, c] - mean) * invvar + beta[c]
//   saves mean[r] and invvar[r] (f32) for the backward pass.
//
// Welford/Chan in the DSL. tile.generic_reduce combines two elements of ONE
// type, and the triple (count, mean, M2) does not fit losslessly in one
// 64-bit element, so the statistics are formed the way Apex forms them,
// with the tile's groups in place of Apex's threads:
//   1. the row is loaded as a [G, 8] tile: group g = columns 8g .. 8g+7,
//      i.e. one or two 16-byte vectors of a single thread. Each group gives
//      its partial statistics (n_g, mean_g, M2_g) with
//      M2_g = sum (x - mean_g)^2 over its valid elements: exactly what
//      Apex's per-thread cuWelfordOnlineSum leaves after 8 updates (equal in
//      exact arithmetic; the centred two-pass form is at least as accurate).
//   2. the G partials are merged by Chan's formula. The pairwise rule
//      (cuChanOnlineSum) n = nA + nB, mean = (nA meanA + nB meanB) / n,
//      M2 = M2A + M2B + (meanB - meanA)^2 nA nB / n, applied over any tree,
//      gives by induction the k-way closed form
//        n = sum n_g,  mean = sum n_g mean_g / n,
//        M2 = sum M2_g + sum n_g (mean_g - mean)^2,
//      which is three ordinary sum reductions (n is n2 itself). Every term
//      is a non-negative centred square, so there is none of the
//      cancellation of the naive sum(x^2) - n mean^2.
//
//   llkc examples/llama/apex_layer_norm_fwd.mlir -D T=f16 -D G=512 --num-warps 8
//   grid = n1 programs (rows); G = 512 groups of 8 columns covers n2 <= 4096.
//   Constants: G = ceil(n2 / 8) rounded up to a power of two (512 for the
//   Llama-2 7B hidden size 4096). num_warps 8 (4 for n2 <= 1024).
//   Arguments: y, mean, invvar (outputs), x, gamma, beta (inputs; x and y
//   rows contiguous, n2 values each), n2 (multiple of 16), eps.
//   Offsets are i32: n1 * n2 < 2^31 (Llama: 512 x 4096 = 2^21).
//   Element type: -D T=f32|f16|bf16, the storage type of x, y, gamma and
//   beta (the kernel is apex_layer_norm_fwd_${T}). It widens to f32 after
//   loading and rounds (rne) before storing, computing in f32 as Apex does;
//   for T=f32 those casts are to the same type and fold away.

func.func @apex_layer_norm_fwd_${T}(%y: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %mean_out: !tile.ptr<f32>,
                                   %invvar_out: !tile.ptr<f32>,
                                   %x: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %gamma: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %beta: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %n2: i32 {tile.divisibility = 16},
                                   %eps: f32) {
  %row = tile.program_id x
  // cols[g, k] = 8 g + k
  %g1 = tile.make_range 0 to ${G} : tensor<${G}xi32>
  %g2 = tile.expand_dims %g1 axis = 1 : tensor<${G}xi32> -> tensor<${G}x1xi32>
  %eight = arith.constant dense<8> : tensor<${G}x1xi32>
  %g8 = arith.muli %g2, %eight : tensor<${G}x1xi32>
  %gb = tile.broadcast %g8 : tensor<${G}x1xi32> -> tensor<${G}x8xi32>
  %k1 = tile.make_range 0 to 8 : tensor<8xi32>
  %k2 = tile.expand_dims %k1 axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %kb = tile.broadcast %k2 : tensor<1x8xi32> -> tensor<${G}x8xi32>
  %cols = arith.addi %gb, %kb : tensor<${G}x8xi32>
  %n2s = tile.splat %n2 : i32 -> tensor<${G}x8xi32>
  %mask = arith.cmpi slt, %cols, %n2s : tensor<${G}x8xi32>
  %zero = arith.constant dense<0.0> : tensor<${G}x8xf32>
  %zero_s = arith.constant dense<0.0> : tensor<${G}x8x${T}>
  %one = arith.constant dense<1.0> : tensor<${G}x8xf32>

  %offset = arith.muli %row, %n2 : i32
  %x_row = tile.addptr %x, %offset : !tile.ptr<${T}>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<${T}> -> tensor<${G}x8x!tile.ptr<${T}>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${G}x8x!tile.ptr<${T}>>, tensor<${G}x8xi32>
  %xv_s = tile.load %x_ptrs mask %mask other %zero_s : tensor<${G}x8x!tile.ptr<${T}>>
  %xv = tile.cast %xv_s : tensor<${G}x8x${T}> to tensor<${G}x8xf32>

  // 1. per-group partials (n_g, mean_g, M2_g)
  %valid = arith.select %mask, %one, %zero : tensor<${G}x8xi1>, tensor<${G}x8xf32>
  %n_g = tile.reduce sum %valid axis = 1 : tensor<${G}x8xf32> -> tensor<${G}xf32>
  %s_g = tile.reduce sum %xv axis = 1 : tensor<${G}x8xf32> -> tensor<${G}xf32>
  %one_g = arith.constant dense<1.0> : tensor<${G}xf32>
  %n_g1 = arith.maximumf %n_g, %one_g : tensor<${G}xf32>
  %mean_g = arith.divf %s_g, %n_g1 : tensor<${G}xf32>
  %mean_g2 = tile.expand_dims %mean_g axis = 1 : tensor<${G}xf32> -> tensor<${G}x1xf32>
  %mean_gb = tile.broadcast %mean_g2 : tensor<${G}x1xf32> -> tensor<${G}x8xf32>
  %d_g = arith.subf %xv, %mean_gb : tensor<${G}x8xf32>
  %d_gm = arith.select %mask, %d_g, %zero : tensor<${G}x8xi1>, tensor<${G}x8xf32>
  %d_g2 = arith.mulf %d_gm, %d_gm : tensor<${G}x8xf32>
  %m2_g = tile.reduce sum %d_g2 axis = 1 : tensor<${G}x8xf32> -> tensor<${G}xf32>

  // 2. Chan's merge of the G partials (k-way closed form)
  %n = arith.sitofp %n2 : i32 to f32
  %nm_g = arith.mulf %n_g, %mean_g : tensor<${G}xf32>
  %sum = tile.reduce sum %nm_g axis = 0 : tensor<${G}xf32> -> f32
  %mean = arith.divf %sum, %n : f32
  %means = tile.splat %mean : f32 -> tensor<${G}xf32>
  %delta = arith.subf %mean_g, %means : tensor<${G}xf32>
  %delta2 = arith.mulf %delta, %delta : tensor<${G}xf32>
  %between = arith.mulf %n_g, %delta2 : tensor<${G}xf32>
  %m2_t = arith.addf %m2_g, %between : tensor<${G}xf32>
  %m2 = tile.reduce sum %m2_t axis = 0 : tensor<${G}xf32> -> f32
  %var = arith.divf %m2, %n : f32
  %var_eps = arith.addf %var, %eps : f32
  %invvar = math.rsqrt %var_eps : f32

  %mean_ptr = tile.addptr %mean_out, %row : !tile.ptr<f32>, i32
  tile.store %mean, %mean_ptr : !tile.ptr<f32>
  %invvar_ptr = tile.addptr %invvar_out, %row : !tile.ptr<f32>, i32
  tile.store %invvar, %invvar_ptr : !tile.ptr<f32>

  %g_rows = tile.splat %gamma : !tile.ptr<${T}> -> tensor<${G}x8x!tile.ptr<${T}>>
  %g_ptrs = tile.addptr %g_rows, %cols : tensor<${G}x8x!tile.ptr<${T}>>, tensor<${G}x8xi32>
  %gv_s = tile.load %g_ptrs mask %mask other %zero_s evict = evict_last : tensor<${G}x8x!tile.ptr<${T}>>
  %gv = tile.cast %gv_s : tensor<${G}x8x${T}> to tensor<${G}x8xf32>
  %b_rows = tile.splat %beta : !tile.ptr<${T}> -> tensor<${G}x8x!tile.ptr<${T}>>
  %b_ptrs = tile.addptr %b_rows, %cols : tensor<${G}x8x!tile.ptr<${T}>>, tensor<${G}x8xi32>
  %bv_s = tile.load %b_ptrs mask %mask other %zero_s evict = evict_last : tensor<${G}x8x!tile.ptr<${T}>>
  %bv = tile.cast %bv_s : tensor<${G}x8x${T}> to tensor<${G}x8xf32>

  %mean_t = tile.splat %mean : f32 -> tensor<${G}x8xf32>
  %invvar_t = tile.splat %invvar : f32 -> tensor<${G}x8xf32>
  %centred = arith.subf %xv, %mean_t : tensor<${G}x8xf32>
  %xhat = arith.mulf %centred, %invvar_t : tensor<${G}x8xf32>
  %scaled = arith.mulf %gv, %xhat : tensor<${G}x8xf32>
  %yv = arith.addf %scaled, %bv : tensor<${G}x8xf32>

  %y_row = tile.addptr %y, %offset : !tile.ptr<${T}>, i32
  %y_rows = tile.splat %y_row : !tile.ptr<${T}> -> tensor<${G}x8x!tile.ptr<${T}>>
  %y_ptrs = tile.addptr %y_rows, %cols : tensor<${G}x8x!tile.ptr<${T}>>, tensor<${G}x8xi32>
  %yv_s = tile.cast %yv rounding = rne : tensor<${G}x8xf32> to tensor<${G}x8x${T}>
  tile.store %yv_s, %y_ptrs mask %mask : tensor<${G}x8x!tile.ptr<${T}>>
  return
}
