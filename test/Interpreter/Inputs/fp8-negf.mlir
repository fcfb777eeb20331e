func.func @neg_fp8(%in: !tile.ptr<f8E5M2>, %out: !tile.ptr<f8E5M2>) {
  %x = tile.load %in : !tile.ptr<f8E5M2>
  %y = arith.negf %x : f8E5M2
  tile.store %y, %out : !tile.ptr<f8E5M2>
  return
}
