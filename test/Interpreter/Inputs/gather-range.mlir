// tile.gather with indices range + shift (gather.test).
func.func @shifted(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %shift: i32) {
  %range = tile.make_range 0 to 8 : tensor<8xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %range : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %v = tile.load %xp : tensor<8x!tile.ptr<f32>>
  %shifts = tile.splat %shift : i32 -> tensor<8xi32>
  %idx = arith.addi %range, %shifts : tensor<8xi32>
  %g = tile.gather %v[%idx] axis = 0 : tensor<8xf32>, tensor<8xi32> -> tensor<8xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %op = tile.addptr %os, %range : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %g, %op : tensor<8x!tile.ptr<f32>>
  return
}
