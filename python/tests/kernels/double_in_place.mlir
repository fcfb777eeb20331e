// x[i] *= 2 for i < n, in place: what autotuning must restore (the runtime's
// and the Python package's tests).
func.func @double_in_place(%x: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
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
  %c2 = arith.constant 2.0 : f32
  %two = tile.splat %c2 : f32 -> tensor<${BLOCK}xf32>
  %y = arith.mulf %xv, %two : tensor<${BLOCK}xf32>
  tile.store %y, %xp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
