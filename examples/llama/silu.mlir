// llama.cpp's silu_f32, and swiglu: silu fused with the following mul
// (the feed-forward gate), over n flat elements.
//
//   silu:   dst[i] = x[i] / (1 + exp(-x[i]))
//   swiglu: dst[i] = silu(gate[i]) * up[i]
//
// Grid: (ceil(n / BLOCK), 1, 1). Constants: BLOCK (1024). num_warps: 4.
// Decode: n = F = 11008; prompt: n = 512 * 11008.
// Arguments: silu_f32(x, dst, n), swiglu_f32(gate, up, dst, n), f32 buffers;
// n a multiple of 16 (every Llama shape; the masks then stay 16-byte uniform).
func.func @silu_f32(%x: !tile.ptr<f32> {tile.divisibility = 16},
                    %dst: !tile.ptr<f32> {tile.divisibility = 16},
                    %n: i32 {tile.divisibility = 16}) {
  // Programmatic dependent launch (llk-decode-block): the next kernel may
  // start launching now; this one waits here for the kernel before it.
  tile.launch_dependents
  tile.grid_dependency_wait
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %offsets = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<${BLOCK}xi32>

  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %xv = tile.load %xp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>

  %one = arith.constant dense<1.0> : tensor<${BLOCK}xf32>
  %neg = arith.negf %xv : tensor<${BLOCK}xf32>
  %e = math.exp %neg : tensor<${BLOCK}xf32>
  %den = arith.addf %one, %e : tensor<${BLOCK}xf32>
  %y = arith.divf %xv, %den : tensor<${BLOCK}xf32>

  %ds = tile.splat %dst : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dp = tile.addptr %ds, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %dp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}

func.func @swiglu_f32(%gate: !tile.ptr<f32> {tile.divisibility = 16},
                      %up: !tile.ptr<f32> {tile.divisibility = 16},
                      %dst: !tile.ptr<f32> {tile.divisibility = 16},
                      %n: i32 {tile.divisibility = 16}) {
  // Programmatic dependent launch (llk-decode-block): the next kernel may
  // start launching now; this one waits here for the kernel before it.
  tile.launch_dependents
  tile.grid_dependency_wait
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %offsets = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<${BLOCK}xi32>

  %gs = tile.splat %gate : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %gp = tile.addptr %gs, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %g = tile.load %gp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %us = tile.splat %up : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %upp = tile.addptr %us, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %u = tile.load %upp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>

  %one = arith.constant dense<1.0> : tensor<${BLOCK}xf32>
  %neg = arith.negf %g : tensor<${BLOCK}xf32>
  %e = math.exp %neg : tensor<${BLOCK}xf32>
  %den = arith.addf %one, %e : tensor<${BLOCK}xf32>
  %silu = arith.divf %g, %den : tensor<${BLOCK}xf32>
  %y = arith.mulf %silu, %u : tensor<${BLOCK}xf32>

  %ds = tile.splat %dst : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dp = tile.addptr %ds, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %dp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
