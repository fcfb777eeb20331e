// A descriptor nothing reads: no TMA copy chooses its box, so the host could
// not encode it (tma-errors.test).
func.func @unused_descriptor(%d: !tile.tensordesc<64x64xf16>, %c: !tile.ptr<f16>) {
  return
}
