func.func @sum_fp8(%in: !tile.ptr<f8E4M3FN>, %out: !tile.ptr<f8E4M3FN>) {
  %r = tile.make_range 0 to 8 : tensor<8xi32>
  %b = tile.splat %in : !tile.ptr<f8E4M3FN> -> tensor<8x!tile.ptr<f8E4M3FN>>
  %p = tile.addptr %b, %r : tensor<8x!tile.ptr<f8E4M3FN>>, tensor<8xi32>
  %x = tile.load %p : tensor<8x!tile.ptr<f8E4M3FN>>
  %s = tile.reduce sum %x axis = 0 : tensor<8xf8E4M3FN> -> f8E4M3FN
  tile.store %s, %out : !tile.ptr<f8E4M3FN>
  return
}
