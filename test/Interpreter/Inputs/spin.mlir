// Never finishes: its loop's condition does not change.
func.func @spin(%out: !tile.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %i = scf.while (%i = %c0) : (i32) -> i32 {
    %go = arith.cmpi sge, %n, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  tile.store %i, %out : !tile.ptr<i32>
  return
}
