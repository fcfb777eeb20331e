// Apex fused RMSNorm, forward (spec: "Normalization (Apex)"; seed 003).
// One program per row of n2 values:
//
//   invvar  = rsqrt(sum_c x[r, c]^2 / n2 + eps)   (Apex's cuRMSOnlineSum /
//             cuChanRMSOnlineSum: the partial sums of squares just add)
//   y[r, c] = gamma[c] * x[r, c] * invvar
//   saves invvar[r] (f32) for the backward pass.
//
//   llkc examples/llama/apex_rms_norm_fwd.mlir -D T=f16 -D BLOCK=4096 --num-warps 8
//   grid = n1 programs (rows). Constants: BLOCK = n2 rounded up to a power
//   of two (4096 for Llama-2 7B). num_warps 8 (4 for n2 <= 1024).
//   Arguments: y, invvar (outputs), x, gamma (inputs; rows contiguous, n2
//   values each), n2 (multiple of 16), eps.
//   Offsets are i32: n1 * n2 < 2^31 (Llama: 512 x 4096 = 2^21).
//   Element type: -D T=f32|f16|bf16, the storage type of x, y and gamma
//   (the kernel is apex_rms_norm_fwd_${T}): it widens to f32 after loading
//   and rounds (rne) before storing, statistics in f32; for T=f32 those
//   casts are to the same type and fold away.

func.func @apex_rms_norm_fwd_${T}(%y: !tile.ptr<${T}> {tile.divisibility = 16},
                                 %invvar_out: !tile.ptr<f32>,
                                 %x: !tile.ptr<${T}> {tile.divisibility = 16},
                                 %gamma: !tile.ptr<${T}> {tile.divisibility = 16},
                                 %n2: i32 {tile.divisibility = 16},
                                 %eps: f32) {
  %row = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %n2s = tile.splat %n2 : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n2s : tensor<${BLOCK}xi32>
  %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>
  %zero_s = arith.constant dense<0.0> : tensor<${BLOCK}x${T}>

  %offset = arith.muli %row, %n2 : i32
  %x_row = tile.addptr %x, %offset : !tile.ptr<${T}>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %xv_s = tile.load %x_ptrs mask %mask other %zero_s : tensor<${BLOCK}x!tile.ptr<${T}>>
  %xv = tile.cast %xv_s : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>

  %squares = arith.mulf %xv, %xv : tensor<${BLOCK}xf32>
  %sum = tile.reduce sum %squares axis = 0 : tensor<${BLOCK}xf32> -> f32
  %n = arith.sitofp %n2 : i32 to f32
  %ms = arith.divf %sum, %n : f32
  %ms_eps = arith.addf %ms, %eps : f32
  %invvar = math.rsqrt %ms_eps : f32
  %invvar_ptr = tile.addptr %invvar_out, %row : !tile.ptr<f32>, i32
  tile.store %invvar, %invvar_ptr : !tile.ptr<f32>

  %g_rows = tile.splat %gamma : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %g_ptrs = tile.addptr %g_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %gv_s = tile.load %g_ptrs mask %mask other %zero_s evict = evict_last : tensor<${BLOCK}x!tile.ptr<${T}>>
  %gv = tile.cast %gv_s : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
  %invvar_t = tile.splat %invvar : f32 -> tensor<${BLOCK}xf32>
  %xhat = arith.mulf %xv, %invvar_t : tensor<${BLOCK}xf32>
  %yv = arith.mulf %gv, %xhat : tensor<${BLOCK}xf32>

  %y_row = tile.addptr %y, %offset : !tile.ptr<${T}>, i32
  %y_rows = tile.splat %y_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %y_ptrs = tile.addptr %y_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %yv_s = tile.cast %yv rounding = rne : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
  tile.store %yv_s, %y_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  return
}
