func.func @store_f16_to_f32(%p: !tile.ptr<f32>, %v: f16) {
  %range = tile.make_range 0 to 128 : tensor<128xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %range : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %vs = tile.splat %v : f16 -> tensor<128xf16>
  "tile.store"(%pa, %vs) : (tensor<128x!tile.ptr<f32>>, tensor<128xf16>) -> ()
  return
}
