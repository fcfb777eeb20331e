// DIFFTEST: kernel k grid 1 1 1 warps 1 seed 1
// DIFFTEST: buffer x f32 16 gaussian 0 1
func.func @k(%x: !tile.ptr<f32>) {
  return
}
