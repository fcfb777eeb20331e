func.func @k(%p: !tile.ptr<f32>) {
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK