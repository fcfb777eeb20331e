// Rotary position embedding (llama.cpp's rope_f32, mode 0: adjacent pairs),
// the vectorized variant of rope.mlir (same arguments, same semantics):
//
//   theta_k = (n_past + t) * base^(-2k/D),  k = d / 2
//   dst[t, h, 2k]   = x[t, h, 2k] * cos(theta_k) - x[t, h, 2k+1] * sin(theta_k)
//   dst[t, h, 2k+1] = x[t, h, 2k] * sin(theta_k) + x[t, h, 2k+1] * cos(theta_k)
//
// A program takes QUADS quads (4 consecutive values = two pairs) of one
// token's row as a [QUADS, 4] tile: the addresses are contiguous along the
// last dimension and 16-byte aligned (pointers, strides and n_cols are
// multiples of 16), so each thread loads and stores its quads as 16-byte
// vectors, and both elements of every pair sit in the same thread. The four
// columns are taken apart with in-thread reductions over the size-4 axis
// (a select and a sum: exact), rotated as two pairs, and put back with
// selects: no partner loads.
//
// Angles, per pair (not per element): the frequency of the quad's first
// pair, k = 2m, is (ts^2)^m with ts = base^(-2/D) in f64, by binary powering
// with per-program squares (6 bits of m: D <= 256); the second pair's is that
// times ts. theta = pos * freq and its reduction to [-pi, pi] are f64 (an f32
// theta is off by up to 1e-3 rad at position 16383); sin/cos are f32.
//
// Grid: (ceil(n_cols / (4*QUADS)), n_tokens, 1). Constants: QUADS (256), D
// (128; a multiple of 4, at most 256). num_warps: 4. Arguments as rope_f32:
// dst, x (f32), dst_token_stride, x_token_stride (elements, multiples of 16),
// n_cols = heads * D (a multiple of 16), n_past, freq_base. dst may equal x.
func.func @rope_f32_vec(%dst: !tile.ptr<f32> {tile.divisibility = 16},
                        %x: !tile.ptr<f32> {tile.divisibility = 16},
                        %dst_token_stride: i32 {tile.divisibility = 16},
                        %x_token_stride: i32 {tile.divisibility = 16},
                        %n_cols: i32 {tile.divisibility = 16},
                        %n_past: i32, %freq_base: f32) {
  %bx = tile.program_id x
  %token = tile.program_id y
  %quads = arith.constant ${QUADS} : i32
  %four = arith.constant 4 : i32
  %block = arith.muli %quads, %four : i32
  %start = arith.muli %bx, %block : i32

  // c0[q]: the first column of quad q; cols[q, j] = c0[q] + j.
  %q = tile.make_range 0 to ${QUADS} : tensor<${QUADS}xi32>
  %fours = arith.constant dense<4> : tensor<${QUADS}xi32>
  %q4 = arith.muli %q, %fours : tensor<${QUADS}xi32>
  %starts = tile.splat %start : i32 -> tensor<${QUADS}xi32>
  %c0 = arith.addi %starts, %q4 : tensor<${QUADS}xi32>
  %c0e = tile.expand_dims %c0 axis = 1 : tensor<${QUADS}xi32> -> tensor<${QUADS}x1xi32>
  %c0b = tile.broadcast %c0e : tensor<${QUADS}x1xi32> -> tensor<${QUADS}x4xi32>
  %j = tile.make_range 0 to 4 : tensor<4xi32>
  %je = tile.expand_dims %j axis = 0 : tensor<4xi32> -> tensor<1x4xi32>
  %jb = tile.broadcast %je : tensor<1x4xi32> -> tensor<${QUADS}x4xi32>
  %cols = arith.addi %c0b, %jb : tensor<${QUADS}x4xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${QUADS}x4xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${QUADS}x4xi32>

  %x_offset = arith.muli %token, %x_token_stride : i32
  %x_row = tile.addptr %x, %x_offset : !tile.ptr<f32>, i32
  %x_rows = tile.splat %x_row : !tile.ptr<f32> -> tensor<${QUADS}x4x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${QUADS}x4x!tile.ptr<f32>>, tensor<${QUADS}x4xi32>
  %xv = tile.load %x_ptrs mask %mask : tensor<${QUADS}x4x!tile.ptr<f32>>

  // The four columns, each a [QUADS] tile (in-thread: the axis is a vector).
  %zeros = arith.constant dense<0.0> : tensor<${QUADS}x4xf32>
  %j0 = arith.constant dense<0> : tensor<${QUADS}x4xi32>
  %j1 = arith.constant dense<1> : tensor<${QUADS}x4xi32>
  %j2 = arith.constant dense<2> : tensor<${QUADS}x4xi32>
  %is0 = arith.cmpi eq, %jb, %j0 : tensor<${QUADS}x4xi32>
  %is1 = arith.cmpi eq, %jb, %j1 : tensor<${QUADS}x4xi32>
  %is2 = arith.cmpi eq, %jb, %j2 : tensor<${QUADS}x4xi32>
  %is3 = arith.cmpi sgt, %jb, %j2 : tensor<${QUADS}x4xi32>
  %m0 = arith.select %is0, %xv, %zeros : tensor<${QUADS}x4xi1>, tensor<${QUADS}x4xf32>
  %m1 = arith.select %is1, %xv, %zeros : tensor<${QUADS}x4xi1>, tensor<${QUADS}x4xf32>
  %m2 = arith.select %is2, %xv, %zeros : tensor<${QUADS}x4xi1>, tensor<${QUADS}x4xf32>
  %m3 = arith.select %is3, %xv, %zeros : tensor<${QUADS}x4xi1>, tensor<${QUADS}x4xf32>
  %x0 = tile.reduce sum %m0 axis = 1 : tensor<${QUADS}x4xf32> -> tensor<${QUADS}xf32>
  %x1 = tile.reduce sum %m1 axis = 1 : tensor<${QUADS}x4xf32> -> tensor<${QUADS}xf32>
  %x2 = tile.reduce sum %m2 axis = 1 : tensor<${QUADS}x4xf32> -> tensor<${QUADS}xf32>
  %x3 = tile.reduce sum %m3 axis = 1 : tensor<${QUADS}x4xf32> -> tensor<${QUADS}xf32>

  // Per-program scalars: ts = base^(-2/D) and its squares ts^2 .. ts^64.
  %base = arith.extf %freq_base : f32 to f64
  %log_base = math.log2 %base : f64
  %step = arith.constant ${D}.0 : f64
  %neg_two = arith.constant -2.0 : f64
  %ratio = arith.divf %neg_two, %step : f64
  %exp_step = arith.mulf %ratio, %log_base : f64
  %ts = math.exp2 %exp_step : f64
  %ts2 = arith.mulf %ts, %ts : f64
  %ts4 = arith.mulf %ts2, %ts2 : f64
  %ts8 = arith.mulf %ts4, %ts4 : f64
  %ts16 = arith.mulf %ts8, %ts8 : f64
  %ts32 = arith.mulf %ts16, %ts16 : f64
  %ts64 = arith.mulf %ts32, %ts32 : f64

  // m = (c0 mod D) / 4: the quad's first pair is k = 2m.
  %dims = arith.constant dense<${D}> : tensor<${QUADS}xi32>
  %d = arith.remsi %c0, %dims : tensor<${QUADS}xi32>
  %two_i = arith.constant dense<2> : tensor<${QUADS}xi32>
  %m = arith.shrsi %d, %two_i : tensor<${QUADS}xi32>
  %zero_i = arith.constant dense<0> : tensor<${QUADS}xi32>
  %one_i = arith.constant dense<1> : tensor<${QUADS}xi32>
  %ones_d = arith.constant dense<1.0> : tensor<${QUADS}xf64>
  // bit 0
  %b0 = arith.andi %m, %one_i : tensor<${QUADS}xi32>
  %s0 = arith.cmpi ne, %b0, %zero_i : tensor<${QUADS}xi32>
  %ts2s = tile.splat %ts2 : f64 -> tensor<${QUADS}xf64>
  %p0 = arith.select %s0, %ts2s, %ones_d : tensor<${QUADS}xi1>, tensor<${QUADS}xf64>
  // bit 1
  %m_1 = arith.shrsi %m, %one_i : tensor<${QUADS}xi32>
  %b1 = arith.andi %m_1, %one_i : tensor<${QUADS}xi32>
  %s1 = arith.cmpi ne, %b1, %zero_i : tensor<${QUADS}xi32>
  %ts4s = tile.splat %ts4 : f64 -> tensor<${QUADS}xf64>
  %f1 = arith.select %s1, %ts4s, %ones_d : tensor<${QUADS}xi1>, tensor<${QUADS}xf64>
  %p1 = arith.mulf %p0, %f1 : tensor<${QUADS}xf64>
  // bit 2
  %m_2 = arith.shrsi %m_1, %one_i : tensor<${QUADS}xi32>
  %b2 = arith.andi %m_2, %one_i : tensor<${QUADS}xi32>
  %s2 = arith.cmpi ne, %b2, %zero_i : tensor<${QUADS}xi32>
  %ts8s = tile.splat %ts8 : f64 -> tensor<${QUADS}xf64>
  %f2 = arith.select %s2, %ts8s, %ones_d : tensor<${QUADS}xi1>, tensor<${QUADS}xf64>
  %p2 = arith.mulf %p1, %f2 : tensor<${QUADS}xf64>
  // bit 3
  %m_3 = arith.shrsi %m_2, %one_i : tensor<${QUADS}xi32>
  %b3 = arith.andi %m_3, %one_i : tensor<${QUADS}xi32>
  %s3 = arith.cmpi ne, %b3, %zero_i : tensor<${QUADS}xi32>
  %ts16s = tile.splat %ts16 : f64 -> tensor<${QUADS}xf64>
  %f3 = arith.select %s3, %ts16s, %ones_d : tensor<${QUADS}xi1>, tensor<${QUADS}xf64>
  %p3 = arith.mulf %p2, %f3 : tensor<${QUADS}xf64>
  // bit 4
  %m_4 = arith.shrsi %m_3, %one_i : tensor<${QUADS}xi32>
  %b4 = arith.andi %m_4, %one_i : tensor<${QUADS}xi32>
  %s4 = arith.cmpi ne, %b4, %zero_i : tensor<${QUADS}xi32>
  %ts32s = tile.splat %ts32 : f64 -> tensor<${QUADS}xf64>
  %f4 = arith.select %s4, %ts32s, %ones_d : tensor<${QUADS}xi1>, tensor<${QUADS}xf64>
  %p4 = arith.mulf %p3, %f4 : tensor<${QUADS}xf64>
  // bit 5
  %m_5 = arith.shrsi %m_4, %one_i : tensor<${QUADS}xi32>
  %b5 = arith.andi %m_5, %one_i : tensor<${QUADS}xi32>
  %s5 = arith.cmpi ne, %b5, %zero_i : tensor<${QUADS}xi32>
  %ts64s = tile.splat %ts64 : f64 -> tensor<${QUADS}xf64>
  %f5 = arith.select %s5, %ts64s, %ones_d : tensor<${QUADS}xi1>, tensor<${QUADS}xf64>
  %freq_a = arith.mulf %p4, %f5 : tensor<${QUADS}xf64>
  %tss = tile.splat %ts : f64 -> tensor<${QUADS}xf64>
  %freq_b = arith.mulf %freq_a, %tss : tensor<${QUADS}xf64>

  // theta = pos * freq, reduced to [-pi, pi] in f64.
  %pos = arith.addi %n_past, %token : i32
  %posf = arith.sitofp %pos : i32 to f64
  %poss = tile.splat %posf : f64 -> tensor<${QUADS}xf64>
  %two_pi = arith.constant dense<6.283185307179586> : tensor<${QUADS}xf64>
  %inv_two_pi = arith.constant dense<0.15915494309189535> : tensor<${QUADS}xf64>
  %theta_a = arith.mulf %poss, %freq_a : tensor<${QUADS}xf64>
  %turns_a = arith.mulf %theta_a, %inv_two_pi : tensor<${QUADS}xf64>
  %whole_a = math.roundeven %turns_a : tensor<${QUADS}xf64>
  %wrap_a = arith.mulf %whole_a, %two_pi : tensor<${QUADS}xf64>
  %red_a = arith.subf %theta_a, %wrap_a : tensor<${QUADS}xf64>
  %ang_a = tile.cast %red_a : tensor<${QUADS}xf64> to tensor<${QUADS}xf32>
  %theta_b = arith.mulf %poss, %freq_b : tensor<${QUADS}xf64>
  %turns_b = arith.mulf %theta_b, %inv_two_pi : tensor<${QUADS}xf64>
  %whole_b = math.roundeven %turns_b : tensor<${QUADS}xf64>
  %wrap_b = arith.mulf %whole_b, %two_pi : tensor<${QUADS}xf64>
  %red_b = arith.subf %theta_b, %wrap_b : tensor<${QUADS}xf64>
  %ang_b = tile.cast %red_b : tensor<${QUADS}xf64> to tensor<${QUADS}xf32>
  %cos_a = math.cos %ang_a : tensor<${QUADS}xf32>
  %sin_a = math.sin %ang_a : tensor<${QUADS}xf32>
  %cos_b = math.cos %ang_b : tensor<${QUADS}xf32>
  %sin_b = math.sin %ang_b : tensor<${QUADS}xf32>

  // The rotated pairs (x0, x1) by a, (x2, x3) by b.
  %x1s = arith.mulf %x1, %sin_a : tensor<${QUADS}xf32>
  %nx1s = arith.negf %x1s : tensor<${QUADS}xf32>
  %y0 = math.fma %x0, %cos_a, %nx1s : tensor<${QUADS}xf32>
  %x0s = arith.mulf %x0, %sin_a : tensor<${QUADS}xf32>
  %y1 = math.fma %x1, %cos_a, %x0s : tensor<${QUADS}xf32>
  %x3s = arith.mulf %x3, %sin_b : tensor<${QUADS}xf32>
  %nx3s = arith.negf %x3s : tensor<${QUADS}xf32>
  %y2 = math.fma %x2, %cos_b, %nx3s : tensor<${QUADS}xf32>
  %x2s = arith.mulf %x2, %sin_b : tensor<${QUADS}xf32>
  %y3 = math.fma %x3, %cos_b, %x2s : tensor<${QUADS}xf32>

  // Back into the [QUADS, 4] tile.
  %y0e = tile.expand_dims %y0 axis = 1 : tensor<${QUADS}xf32> -> tensor<${QUADS}x1xf32>
  %y1e = tile.expand_dims %y1 axis = 1 : tensor<${QUADS}xf32> -> tensor<${QUADS}x1xf32>
  %y2e = tile.expand_dims %y2 axis = 1 : tensor<${QUADS}xf32> -> tensor<${QUADS}x1xf32>
  %y3e = tile.expand_dims %y3 axis = 1 : tensor<${QUADS}xf32> -> tensor<${QUADS}x1xf32>
  %y0b = tile.broadcast %y0e : tensor<${QUADS}x1xf32> -> tensor<${QUADS}x4xf32>
  %y1b = tile.broadcast %y1e : tensor<${QUADS}x1xf32> -> tensor<${QUADS}x4xf32>
  %y2b = tile.broadcast %y2e : tensor<${QUADS}x1xf32> -> tensor<${QUADS}x4xf32>
  %y3b = tile.broadcast %y3e : tensor<${QUADS}x1xf32> -> tensor<${QUADS}x4xf32>
  %y23 = arith.select %is2, %y2b, %y3b : tensor<${QUADS}x4xi1>, tensor<${QUADS}x4xf32>
  %y123 = arith.select %is1, %y1b, %y23 : tensor<${QUADS}x4xi1>, tensor<${QUADS}x4xf32>
  %y = arith.select %is0, %y0b, %y123 : tensor<${QUADS}x4xi1>, tensor<${QUADS}x4xf32>

  %dst_offset = arith.muli %token, %dst_token_stride : i32
  %dst_row = tile.addptr %dst, %dst_offset : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${QUADS}x4x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${QUADS}x4x!tile.ptr<f32>>, tensor<${QUADS}x4xi32>
  tile.store %y, %dst_ptrs mask %mask : tensor<${QUADS}x4x!tile.ptr<f32>>
  return
}
