func.func @scale(%p: !tile.ptr<f32>, %s: f32) {
  %range = tile.make_range 0 to 128 : tensor<128xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %range : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %pa : tensor<128x!tile.ptr<f32>>
  %ss = tile.splat %s : f32 -> tensor<128xf32>
  %y = arith.mulf %x, %ss : tensor<128xf32>
  tile.store %y, %pa : tensor<128x!tile.ptr<f32>>
  return
}
