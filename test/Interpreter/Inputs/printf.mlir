func.func @debug(%out: !tile.ptr<i32>, %n: i32) {
  gpu.printf "n = %d\n", %n : i32
  tile.store %n, %out : !tile.ptr<i32>
  return
}
