// Apex LayerNorm/RMSNorm backward, stage 2 of the weight gradients (spec:
// "Normalization (Apex)"; seed 003): sums the per-chunk partials that
// stage 1 (apex_layer_norm_bwd / apex_rms_norm_bwd) wrote.
//
//   out[c] = sum_{k < n_chunks} part[k, c]        (f32 sums, then stored)
//
// grad_gamma = this over part_gamma; grad_beta = this over part_beta (one
// launch each). Each program owns BLOCK columns and walks the chunks CHUNKS
// rows at a time, so that CHUNKS x BLOCK loads are in flight per step.
//
//   llkc examples/llama/apex_norm_bwd_gamma.mlir -D T=f16 -D CHUNKS=8 -D BLOCK=256
//        --num-warps 4
//   grid = ceil(n2 / BLOCK) programs (16 for n2 = 4096).
//   Constants: CHUNKS = 8, BLOCK = 256 (any powers of two; n2 need not fit
//   in BLOCK). num_warps 4.
//   Arguments: out (grad, [n2], the weight's type), part (f32
//   [n_chunks][n2]), n_chunks, n2 (multiple of 16).
//   Element type: -D T=f32|f16|bf16 for the output (the kernel is
//   apex_norm_bwd_gamma_${T}; for T=f32 the final cast folds away).

func.func @apex_norm_bwd_gamma_${T}(%out: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %part: !tile.ptr<f32> {tile.divisibility = 16},
                                   %n_chunks: i32,
                                   %n2: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %col0 = arith.muli %pid, %block : i32
  %c1 = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %col0s = tile.splat %col0 : i32 -> tensor<${BLOCK}xi32>
  %cols1 = arith.addi %col0s, %c1 : tensor<${BLOCK}xi32>
  %cols2 = tile.expand_dims %cols1 axis = 0 : tensor<${BLOCK}xi32> -> tensor<1x${BLOCK}xi32>
  %cols = tile.broadcast %cols2 : tensor<1x${BLOCK}xi32> -> tensor<${CHUNKS}x${BLOCK}xi32>
  %n2s = tile.splat %n2 : i32 -> tensor<${CHUNKS}x${BLOCK}xi32>
  %col_mask = arith.cmpi slt, %cols, %n2s : tensor<${CHUNKS}x${BLOCK}xi32>
  %k1 = tile.make_range 0 to ${CHUNKS} : tensor<${CHUNKS}xi32>
  %k2 = tile.expand_dims %k1 axis = 1 : tensor<${CHUNKS}xi32> -> tensor<${CHUNKS}x1xi32>
  %ks = tile.broadcast %k2 : tensor<${CHUNKS}x1xi32> -> tensor<${CHUNKS}x${BLOCK}xi32>
  %zero = arith.constant dense<0.0> : tensor<${CHUNKS}x${BLOCK}xf32>
  %zero_s = arith.constant dense<0.0> : tensor<${CHUNKS}x${BLOCK}x${T}>
  %c0 = arith.constant 0 : i32
  %step = arith.constant ${CHUNKS} : i32
  %n_chunks_t = tile.splat %n_chunks : i32 -> tensor<${CHUNKS}x${BLOCK}xi32>
  %parts = tile.splat %part : !tile.ptr<f32> -> tensor<${CHUNKS}x${BLOCK}x!tile.ptr<f32>>
  %acc = scf.for %k = %c0 to %n_chunks step %step
      iter_args(%a = %zero) -> (tensor<${CHUNKS}x${BLOCK}xf32>) : i32 {
    %k_t = tile.splat %k : i32 -> tensor<${CHUNKS}x${BLOCK}xi32>
    %chunk = arith.addi %k_t, %ks : tensor<${CHUNKS}x${BLOCK}xi32>
    %in_range = arith.cmpi slt, %chunk, %n_chunks_t : tensor<${CHUNKS}x${BLOCK}xi32>
    %mask = arith.andi %in_range, %col_mask : tensor<${CHUNKS}x${BLOCK}xi1>
    %row = arith.muli %chunk, %n2s : tensor<${CHUNKS}x${BLOCK}xi32>
    %offsets = arith.addi %row, %cols : tensor<${CHUNKS}x${BLOCK}xi32>
    %ptrs = tile.addptr %parts, %offsets : tensor<${CHUNKS}x${BLOCK}x!tile.ptr<f32>>, tensor<${CHUNKS}x${BLOCK}xi32>
    %v = tile.load %ptrs mask %mask other %zero cache = cg : tensor<${CHUNKS}x${BLOCK}x!tile.ptr<f32>>
    %next = arith.addf %a, %v : tensor<${CHUNKS}x${BLOCK}xf32>
    scf.yield %next : tensor<${CHUNKS}x${BLOCK}xf32>
  }
  %sum = tile.reduce sum %acc axis = 0 : tensor<${CHUNKS}x${BLOCK}xf32> -> tensor<${BLOCK}xf32>
  %outs = tile.splat %out : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %out_ptrs = tile.addptr %outs, %cols1 : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %n2_1 = tile.splat %n2 : i32 -> tensor<${BLOCK}xi32>
  %out_mask = arith.cmpi slt, %cols1, %n2_1 : tensor<${BLOCK}xi32>
  %sum_s = tile.cast %sum rounding = rne : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
  tile.store %sum_s, %out_ptrs mask %out_mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  return
}
