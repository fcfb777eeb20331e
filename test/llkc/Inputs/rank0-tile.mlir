func.func @k(%p: !tile.ptr<f32>, %x: f32) {
  %0 = tile.splat %x : f32 -> tensor<f32>
  %1 = tile.splat %p : !tile.ptr<f32> -> tensor<!tile.ptr<f32>>
  tile.store %0, %1 : tensor<!tile.ptr<f32>>
  return
}
