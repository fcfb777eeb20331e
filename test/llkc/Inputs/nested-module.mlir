module {
  module @inner {
    func.func @k(%x: !tile.ptr<f32>, %s: f32) {
      tile.store %s, %x : !tile.ptr<f32>
      return
    }
  }
}
