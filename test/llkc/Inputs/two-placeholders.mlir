func.func @k(%p: !tile.ptr<f32>) {
  %m = arith.constant ${BLOCK_M} : i32
  %n = arith.constant ${BLOCK_N} : i32
  return
}
