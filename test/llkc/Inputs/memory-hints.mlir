// One load and one store per cache modifier, eviction policy and volatile.
func.func @hints(%p: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %a = tile.load %pa mask %m cache = ca : tensor<128x!tile.ptr<f32>>
  %b = tile.load %pa mask %m cache = cg : tensor<128x!tile.ptr<f32>>
  %c = tile.load %pa mask %m cache = cs : tensor<128x!tile.ptr<f32>>
  %d = tile.load %pa mask %m cache = cv : tensor<128x!tile.ptr<f32>>
  %e = tile.load %pa mask %m evict = evict_first : tensor<128x!tile.ptr<f32>>
  %f = tile.load %pa mask %m evict = evict_last : tensor<128x!tile.ptr<f32>>
  %g = tile.load %pa mask %m volatile : tensor<128x!tile.ptr<f32>>
  tile.store %a, %pa mask %m cache = wb : tensor<128x!tile.ptr<f32>>
  tile.store %b, %pa mask %m cache = cg : tensor<128x!tile.ptr<f32>>
  tile.store %c, %pa mask %m cache = cs : tensor<128x!tile.ptr<f32>>
  tile.store %d, %pa mask %m cache = wt : tensor<128x!tile.ptr<f32>>
  tile.store %e, %pa mask %m evict = evict_first : tensor<128x!tile.ptr<f32>>
  tile.store %f, %pa mask %m evict = evict_last : tensor<128x!tile.ptr<f32>>
  tile.store %g, %pa mask %m : tensor<128x!tile.ptr<f32>>
  return
}
