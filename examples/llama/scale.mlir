// llama.cpp's scale_f32 (attention scores times 1/sqrt(D)), n flat elements:
//
//   dst[i] = scale * x[i]
//
// Grid: (ceil(n / BLOCK), 1, 1). Constants: BLOCK (1024). num_warps: 4.
// Decode: n = NH * n_kv; prompt: n = NH * T * n_kv.
// Arguments: x, dst (f32), scale (f32, 1/sqrt(128)), n (a multiple of 16).
func.func @scale_f32(%x: !tile.ptr<f32> {tile.divisibility = 16},
                     %dst: !tile.ptr<f32> {tile.divisibility = 16},
                     %scale: f32, %n: i32 {tile.divisibility = 16}) {
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
  %scales = tile.splat %scale : f32 -> tensor<${BLOCK}xf32>
  %y = arith.mulf %xv, %scales : tensor<${BLOCK}xf32>

  %ds = tile.splat %dst : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dp = tile.addptr %ds, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %y, %dp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
