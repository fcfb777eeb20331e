func.func @k(%p: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %pa cache = cg evict = evict_last : tensor<128x!tile.ptr<f32>>
  tile.store %x, %pa : tensor<128x!tile.ptr<f32>>
  return
}
