// Rotary position embedding (llama.cpp's rope_f32, mode 0: adjacent pairs),
// applied to Q or K laid out [tokens][heads][D]:
//
//   theta_k = (n_past + t) * base^(-2k/D),  k = d / 2
//   dst[t, h, 2k]   = x[t, h, 2k] * cos(theta_k) - x[t, h, 2k+1] * sin(theta_k)
//   dst[t, h, 2k+1] = x[t, h, 2k] * sin(theta_k) + x[t, h, 2k+1] * cos(theta_k)
//
// i.e. dst[i] = x[i] * cos + x[i ^ 1] * (i even ? -sin : sin). The row of
// one token (heads * D values) is loaded as 16-byte vectors; the partner
// x[i ^ 1] is a second, L1-resident load. theta grows to ~4096 rad at long
// contexts, where an f32 product alone is off by up to 2.4e-4 rad: theta and
// its reduction to [-pi, pi] are computed in f64, sin/cos in f32.
//
// Grid: (ceil(n_cols / BLOCK), n_tokens, 1). Constants: D (128, the head
// dim), BLOCK (1024; a multiple of D is not needed). num_warps: 4.
// Arguments: dst, x (f32), dst_token_stride, x_token_stride (elements),
// n_cols = heads * D, n_past, freq_base (10000). dst may equal x.
func.func @rope_f32(%dst: !tile.ptr<f32> {tile.divisibility = 16},
                    %x: !tile.ptr<f32> {tile.divisibility = 16},
                    %dst_token_stride: i32 {tile.divisibility = 16},
                    %x_token_stride: i32 {tile.divisibility = 16},
                    %n_cols: i32 {tile.divisibility = 16},
                    %n_past: i32, %freq_base: f32) {
  // Programmatic dependent launch (llk-decode-block): the next kernel may
  // start launching now; this one waits here for the kernel before it.
  tile.launch_dependents
  tile.grid_dependency_wait
  %bx = tile.program_id x
  %token = tile.program_id y
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %bx, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %cols = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>

  %x_offset = arith.muli %token, %x_token_stride : i32
  %x_row = tile.addptr %x, %x_offset : !tile.ptr<f32>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %ones = arith.constant dense<1> : tensor<${BLOCK}xi32>
  %partner = arith.xori %cols, %ones : tensor<${BLOCK}xi32>
  %p_ptrs = tile.addptr %x_rows, %partner : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %xp = tile.load %p_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>

  // theta = pos * 2^(k * (-2/D) * log2(base)), in f64.
  %dims = arith.constant dense<${D}> : tensor<${BLOCK}xi32>
  %d = arith.remsi %cols, %dims : tensor<${BLOCK}xi32>
  %twos = arith.constant dense<2> : tensor<${BLOCK}xi32>
  %k = arith.divsi %d, %twos : tensor<${BLOCK}xi32>
  %kf = tile.cast %k : tensor<${BLOCK}xi32> to tensor<${BLOCK}xf64>
  %base = arith.extf %freq_base : f32 to f64
  %log_base = math.log2 %base : f64
  %step = arith.constant ${D}.0 : f64
  %neg_two = arith.constant -2.0 : f64
  %ratio = arith.divf %neg_two, %step : f64
  %exp_step = arith.mulf %ratio, %log_base : f64
  %exp_steps = tile.splat %exp_step : f64 -> tensor<${BLOCK}xf64>
  %exponent = arith.mulf %kf, %exp_steps : tensor<${BLOCK}xf64>
  %freq = math.exp2 %exponent : tensor<${BLOCK}xf64>
  %pos = arith.addi %n_past, %token : i32
  %posf = arith.sitofp %pos : i32 to f64
  %poss = tile.splat %posf : f64 -> tensor<${BLOCK}xf64>
  %theta = arith.mulf %poss, %freq : tensor<${BLOCK}xf64>
  // Reduce to [-pi, pi] before leaving f64.
  %two_pi = arith.constant dense<6.283185307179586> : tensor<${BLOCK}xf64>
  %turns = arith.divf %theta, %two_pi : tensor<${BLOCK}xf64>
  %whole = math.roundeven %turns : tensor<${BLOCK}xf64>
  %wrapped = arith.mulf %whole, %two_pi : tensor<${BLOCK}xf64>
  %reduced = arith.subf %theta, %wrapped : tensor<${BLOCK}xf64>
  %angle = tile.cast %reduced : tensor<${BLOCK}xf64> to tensor<${BLOCK}xf32>
  %cos = math.cos %angle : tensor<${BLOCK}xf32>
  %sin = math.sin %angle : tensor<${BLOCK}xf32>

  // Even columns take -sin, odd ones +sin.
  %odd_bit = arith.andi %cols, %ones : tensor<${BLOCK}xi32>
  %is_even = arith.cmpi ne, %odd_bit, %ones : tensor<${BLOCK}xi32>
  %neg_sin = arith.negf %sin : tensor<${BLOCK}xf32>
  %signed_sin = arith.select %is_even, %neg_sin, %sin : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>
  %rot = arith.mulf %xp, %signed_sin : tensor<${BLOCK}xf32>
  %y = math.fma %xv, %cos, %rot : tensor<${BLOCK}xf32>

  %dst_offset = arith.muli %token, %dst_token_stride : i32
  %dst_row = tile.addptr %dst, %dst_offset : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
