func.func @k(%p: !tile.ptr<f32>) {
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %range : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %x = tile.load %pa : tensor<${BLOCK}x!tile.ptr<f32>>
  tile.store %x, %pa : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
