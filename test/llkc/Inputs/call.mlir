func.func @store(%x: !tile.ptr<f32>, %s: f32) {
  tile.store %s, %x : !tile.ptr<f32>
  return
}
func.func @k(%x: !tile.ptr<f32>, %s: f32) {
  func.call @store(%x, %s) : (!tile.ptr<f32>, f32) -> ()
  return
}
