func.func @k(%x: !tile.ptr<f32>) {
  %r = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %s = tile.splat %x : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %q = tile.addptr %s, %r : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi64>
  return
}
