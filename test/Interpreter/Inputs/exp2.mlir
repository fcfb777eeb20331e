// exp2 of x (f32) and of x as f64, stored.
func.func @exp2_flush(%out32: !tile.ptr<f32>, %out64: !tile.ptr<f64>, %x: f32) {
  %e = math.exp2 %x : f32
  tile.store %e, %out32 : !tile.ptr<f32>
  %xd = arith.extf %x : f32 to f64
  %ed = math.exp2 %xd : f64
  tile.store %ed, %out64 : !tile.ptr<f64>
  return
}
