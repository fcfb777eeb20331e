// A case whose spec gives the input one element too few: the interpreter
// stops at the load that reads past it.
// DIFFTEST: kernel k grid 2 1 1 warps 1 seed 7
// DIFFTEST: buffer x f32 127 grid -8 8 0.5
// DIFFTEST: buffer y f32 128 poison check exact
func.func @k(%x: !tile.ptr<f32> {tile.divisibility = 16},
             %y: !tile.ptr<f32> {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %c64 = arith.constant 64 : i32
  %base = arith.muli %pid, %c64 : i32
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %bs = tile.splat %base : i32 -> tensor<64xi32>
  %off = arith.addi %bs, %r : tensor<64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %off : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %off : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %v, %yp : tensor<64x!tile.ptr<f32>>
  return
}
