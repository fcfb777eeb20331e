// Copies x to out, prefetching the block after this one: masked by `n` the
// prefetch stays in bounds; unmasked (MASKED = 0) the last program's
// prefetch runs past x.
func.func @copy_prefetch(%x: !tile.ptr<f32> {tile.divisibility = 16},
                         %out: !tile.ptr<f32> {tile.divisibility = 16},
                         %n: i32) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %r = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %offs = arith.addi %starts, %r : tensor<${BLOCK}xi32>
  %blocks = tile.splat %block : i32 -> tensor<${BLOCK}xi32>
  %next = arith.addi %offs, %blocks : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %next_ok = arith.cmpi slt, %next, %ns : tensor<${BLOCK}xi32>
  %masked = arith.constant ${MASKED} : i32
  %c0 = arith.constant 0 : i32
  %use_mask = arith.cmpi ne, %masked, %c0 : i32
  %all = arith.constant dense<true> : tensor<${BLOCK}xi1>
  %pmask = arith.select %use_mask, %next_ok, %all : tensor<${BLOCK}xi1>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %np = tile.addptr %xs, %next : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.prefetch %np mask %pmask : tensor<${BLOCK}x!tile.ptr<f32>>
  %ok = arith.cmpi slt, %offs, %ns : tensor<${BLOCK}xi32>
  %p = tile.addptr %xs, %offs : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %v = tile.load %p mask %ok : tensor<${BLOCK}x!tile.ptr<f32>>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %q = tile.addptr %os, %offs : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %v, %q mask %ok : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
