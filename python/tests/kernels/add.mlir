// out[i] = x[i] + y[i] for i < n, of element type T, BLOCK a program.
func.func @add(%x: !tile.ptr<${T}>, %y: !tile.ptr<${T}>, %out: !tile.ptr<${T}>, %n: i32) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %i = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<${BLOCK}xi32>
  %xs = tile.splat %x : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %xp = tile.addptr %xs, %i : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %xv = tile.load %xp mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %ys = tile.splat %y : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %yp = tile.addptr %ys, %i : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %yv = tile.load %yp mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %s = arith.addf %xv, %yv : tensor<${BLOCK}x${T}>
  %os = tile.splat %out : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %op = tile.addptr %os, %i : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  tile.store %s, %op mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  return
}
