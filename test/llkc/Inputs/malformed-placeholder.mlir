func.func @k(%p: !tile.ptr<f32>) {
  %range = tile.make_range 0 to 128 : tensor<${1BLOCK}xi32>
  return
}
