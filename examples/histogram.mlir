// tile.histogram (tl.histogram): counts[pid, b] = how many of
// x[pid * BLOCK .. + BLOCK) equal b, for b in [0, BINS) (values outside are
// not counted).
func.func @histogram(%x: !tile.ptr<i32> {tile.divisibility = 16},
                     %counts: !tile.ptr<i32> {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %offs = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<${BLOCK}x!tile.ptr<i32>>
  %xp = tile.addptr %xs, %offs : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  %v = tile.load %xp : tensor<${BLOCK}x!tile.ptr<i32>>
  %h = tile.histogram %v : tensor<${BLOCK}xi32> -> tensor<${BINS}xi32>
  %bins = arith.constant ${BINS} : i32
  %hstart = arith.muli %pid, %bins : i32
  %b = tile.make_range 0 to ${BINS} : tensor<${BINS}xi32>
  %hs = tile.splat %hstart : i32 -> tensor<${BINS}xi32>
  %hoffs = arith.addi %hs, %b : tensor<${BINS}xi32>
  %cs = tile.splat %counts : !tile.ptr<i32> -> tensor<${BINS}x!tile.ptr<i32>>
  %cp = tile.addptr %cs, %hoffs : tensor<${BINS}x!tile.ptr<i32>>, tensor<${BINS}xi32>
  tile.store %h, %cp : tensor<${BINS}x!tile.ptr<i32>>
  return
}
