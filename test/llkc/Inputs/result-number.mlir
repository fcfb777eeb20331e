// %acc#4294967296 in a comment is not a use.
func.func @k(%p: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i32
  %acc:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %c0, %b = %c0) -> (i32, i32) : i32 {
    scf.yield %a, %b : i32, i32
  }
  %s = arith.addi %acc#${N}, %n : i32
  return
}
