// y = x + 1, as a dependent launch: the next kernel may launch at once, and
// this one reads x only after the kernel before it has finished.
func.func @inc_kernel(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  tile.launch_dependents
  %offsets = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %xs, %offsets : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.grid_dependency_wait
  %v = tile.load %x_ptrs : tensor<128x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %w = arith.addf %v, %one : tensor<128xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %ys, %offsets : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %w, %y_ptrs : tensor<128x!tile.ptr<f32>>
  return
}
