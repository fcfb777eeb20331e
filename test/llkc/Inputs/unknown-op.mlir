func.func @frob(%p: !tile.ptr<f32>) {
  %range = tile.make_range 0 to 128 : tensor<128xi32>
  %x = tile.frobnicate %range : tensor<128xi32>
  return
}
