// Vector add that forgets its mask: out of bounds when n % BLOCK != 0.
func.func @add_unmasked(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>,
                        %out: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %offsets = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %xv = tile.load %xp : tensor<${BLOCK}x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %yv = tile.load %yp : tensor<${BLOCK}x!tile.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<${BLOCK}xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %op = tile.addptr %os, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %sum, %op : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
