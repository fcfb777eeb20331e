// rope_kv: the decode step's rotary embedding and KV-cache append in one
// launch, at the position held in device memory (so that one CUDA graph
// serves every step). With pos = *pos_ptr and, per column c of a head's D,
// k = (c mod D) / 2 and theta = pos * base^(-2k/D) (rope.mlir's mode 0:
// adjacent pairs (2k, 2k+1) rotate, as llama.cpp's converter permutes
// attn_q/attn_k for):
//
//   q_out[c]           = rope(q)[c]                          c < n_q  (NH * D)
//   k_cache[pos][c]    = f16(rope(k)[c])                     c < n_kv (NH_kv * D)
//   v_cache[c][pos]    = f16(v[c])                           c < n_kv
//   rope(x)[2k]   = x[2k] cos(theta) - x[2k+1] sin(theta)
//   rope(x)[2k+1] = x[2k] sin(theta) + x[2k+1] cos(theta)
//
// Caches as attn_decode.mlir reads them: K f16 [C][NH_kv][D], V f16
// transposed [NH_kv][D][C]; f32 -> f16 rounds to nearest even. Nothing is
// written unless 0 <= pos < C (the host never steps past the cache; this keeps a
// bad position from writing outside it). theta and its reduction to
// [-pi, pi] are f64 and sin/cos f32, as in rope.mlir; the partner x[c ^ 1] is
// a second (L1-resident) load.
//
//   grid = ceil(n_q / BLOCK) programs; each takes columns [BLOCK pid, BLOCK
//   (pid + 1)) of q, and of k and v where they exist (n_kv <= n_q)
//   constants: BLOCK (1024), D (the head dim, even); num_warps 4
//   args: q_out, q, k, v (f32), k_cache, v_cache (f16), pos (i32, one),
//         n_q, n_kv (multiples of 16), cap = C, freq_base
func.func @rope_kv(%q_out: !tile.ptr<f32> {tile.divisibility = 16},
                   %q: !tile.ptr<f32> {tile.divisibility = 16},
                   %k: !tile.ptr<f32> {tile.divisibility = 16},
                   %v: !tile.ptr<f32> {tile.divisibility = 16},
                   %k_cache: !tile.ptr<f16> {tile.divisibility = 16},
                   %v_cache: !tile.ptr<f16> {tile.divisibility = 16},
                   %pos_ptr: !tile.ptr<i32>,
                   %n_q: i32 {tile.divisibility = 16},
                   %n_kv: i32 {tile.divisibility = 16},
                   %cap: i32,
                   %freq_base: f32) {
  tile.launch_dependents
  tile.grid_dependency_wait
  %pid = tile.program_id x
  %pos = tile.load %pos_ptr : !tile.ptr<i32>
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %cols = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ones = arith.constant dense<1> : tensor<${BLOCK}xi32>
  %partner = arith.xori %cols, %ones : tensor<${BLOCK}xi32>
  %nq = tile.splat %n_q : i32 -> tensor<${BLOCK}xi32>
  %q_mask = arith.cmpi slt, %cols, %nq : tensor<${BLOCK}xi32>
  %nkv = tile.splat %n_kv : i32 -> tensor<${BLOCK}xi32>
  %kv_cols = arith.cmpi slt, %cols, %nkv : tensor<${BLOCK}xi32>
  %in_cache = arith.cmpi ult, %pos, %cap : i32
  %in_caches = tile.splat %in_cache : i1 -> tensor<${BLOCK}xi1>
  %kv_mask = arith.andi %kv_cols, %in_caches : tensor<${BLOCK}xi1>

  // theta = pos * 2^(k * (-2/D) * log2(base)), in f64, reduced to [-pi, pi].
  %dims = arith.constant dense<${D}> : tensor<${BLOCK}xi32>
  %d = arith.remsi %cols, %dims : tensor<${BLOCK}xi32>
  %twos = arith.constant dense<2> : tensor<${BLOCK}xi32>
  %kk = arith.divsi %d, %twos : tensor<${BLOCK}xi32>
  %kf = tile.cast %kk : tensor<${BLOCK}xi32> to tensor<${BLOCK}xf64>
  %base = arith.extf %freq_base : f32 to f64
  %log_base = math.log2 %base : f64
  %step = arith.constant ${D}.0 : f64
  %neg_two = arith.constant -2.0 : f64
  %ratio = arith.divf %neg_two, %step : f64
  %exp_step = arith.mulf %ratio, %log_base : f64
  %exp_steps = tile.splat %exp_step : f64 -> tensor<${BLOCK}xf64>
  %exponent = arith.mulf %kf, %exp_steps : tensor<${BLOCK}xf64>
  %freq = math.exp2 %exponent : tensor<${BLOCK}xf64>
  %posf = arith.sitofp %pos : i32 to f64
  %poss = tile.splat %posf : f64 -> tensor<${BLOCK}xf64>
  %theta = arith.mulf %poss, %freq : tensor<${BLOCK}xf64>
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

  // q: rotated into q_out.
  %qs = tile.splat %q : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %q_ptrs = tile.addptr %qs, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %qv = tile.load %q_ptrs mask %q_mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %qp_ptrs = tile.addptr %qs, %partner : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %qp = tile.load %qp_ptrs mask %q_mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %q_rot = arith.mulf %qp, %signed_sin : tensor<${BLOCK}xf32>
  %q_new = math.fma %qv, %cos, %q_rot : tensor<${BLOCK}xf32>
  %qos = tile.splat %q_out : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %qo_ptrs = tile.addptr %qos, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %q_new, %qo_ptrs mask %q_mask : tensor<${BLOCK}x!tile.ptr<f32>>

  // k: rotated into the K cache's row pos.
  %ks = tile.splat %k : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %k_ptrs = tile.addptr %ks, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %kv = tile.load %k_ptrs mask %kv_cols : tensor<${BLOCK}x!tile.ptr<f32>>
  %kp_ptrs = tile.addptr %ks, %partner : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %kp = tile.load %kp_ptrs mask %kv_cols : tensor<${BLOCK}x!tile.ptr<f32>>
  %k_rot = arith.mulf %kp, %signed_sin : tensor<${BLOCK}xf32>
  %k_new = math.fma %kv, %cos, %k_rot : tensor<${BLOCK}xf32>
  %k_h = tile.cast %k_new rounding = rne : tensor<${BLOCK}xf32> to tensor<${BLOCK}xf16>
  %k_row_off = arith.muli %pos, %n_kv : i32
  %k_row = tile.addptr %k_cache, %k_row_off : !tile.ptr<f16>, i32
  %kcs = tile.splat %k_row : !tile.ptr<f16> -> tensor<${BLOCK}x!tile.ptr<f16>>
  %kc_ptrs = tile.addptr %kcs, %cols : tensor<${BLOCK}x!tile.ptr<f16>>, tensor<${BLOCK}xi32>
  tile.store %k_h, %kc_ptrs mask %kv_mask : tensor<${BLOCK}x!tile.ptr<f16>>

  // v: into the V cache's column pos.
  %vs = tile.splat %v : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %v_ptrs = tile.addptr %vs, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %vv = tile.load %v_ptrs mask %kv_cols : tensor<${BLOCK}x!tile.ptr<f32>>
  %v_h = tile.cast %vv rounding = rne : tensor<${BLOCK}xf32> to tensor<${BLOCK}xf16>
  %caps = tile.splat %cap : i32 -> tensor<${BLOCK}xi32>
  %v_rows = arith.muli %cols, %caps : tensor<${BLOCK}xi32>
  %v_col = tile.addptr %v_cache, %pos : !tile.ptr<f16>, i32
  %vcs = tile.splat %v_col : !tile.ptr<f16> -> tensor<${BLOCK}x!tile.ptr<f16>>
  %vc_ptrs = tile.addptr %vcs, %v_rows : tensor<${BLOCK}x!tile.ptr<f16>>, tensor<${BLOCK}xi32>
  tile.store %v_h, %vc_ptrs mask %kv_mask : tensor<${BLOCK}x!tile.ptr<f16>>
  return
}
