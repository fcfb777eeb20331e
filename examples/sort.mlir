// Sorts (tile.sort, tile.topk) of one ROWS x COLS block per program: rows
// [pid * ROWS, pid * ROWS + ROWS) of row-major [rows, COLS] inputs, K of
// each row for the top-k. x travels as its f32 bits (i32), so that NaNs and
// -0.0 come back exactly:
//   asc         x sorted ascending along each row           (tl.sort(x, 1))
//   desc, perm  x sorted descending along each row, carrying each element's
//               column (a key/value sort: the argsort)
//   colk, colx  k (i32) sorted down each column of the block, carrying x
//   topv, topi  the K largest of each row of x and their columns (torch.topk)
//   lowv, lowi  the K smallest of each row of k, ascending, and their columns
func.func @sort(%xbits: !tile.ptr<i32> {tile.divisibility = 16},
                %k: !tile.ptr<i32> {tile.divisibility = 16},
                %asc: !tile.ptr<i32> {tile.divisibility = 16},
                %desc: !tile.ptr<i32> {tile.divisibility = 16},
                %perm: !tile.ptr<i32> {tile.divisibility = 16},
                %colk: !tile.ptr<i32> {tile.divisibility = 16},
                %colx: !tile.ptr<i32> {tile.divisibility = 16},
                %topv: !tile.ptr<i32> {tile.divisibility = 16},
                %topi: !tile.ptr<i32> {tile.divisibility = 16},
                %lowv: !tile.ptr<i32> {tile.divisibility = 16},
                %lowi: !tile.ptr<i32> {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${ROWS} : i32
  %ncols = arith.constant ${COLS} : i32
  %nk = arith.constant ${K} : i32
  %row0 = arith.muli %pid, %block : i32
  %rows = tile.make_range 0 to ${ROWS}
  %r = tile.add %rows, %row0 : tensor<${ROWS}xi32>, i32
  %re = tile.expand_dims %r axis = 1 : tensor<${ROWS}xi32>
  %c = tile.make_range 0 to ${COLS}
  %rstart = tile.mul %re, %ncols : tensor<${ROWS}x1xi32>, i32
  %offs = tile.add %rstart, %c : tensor<${ROWS}x1xi32>, tensor<${COLS}xi32>
  %xp = tile.addptr %xbits, %offs : !tile.ptr<i32>, tensor<${ROWS}x${COLS}xi32>
  %xi = tile.load %xp : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %x = tile.bitcast %xi : tensor<${ROWS}x${COLS}xi32> to tensor<${ROWS}x${COLS}xf32>
  %kp = tile.addptr %k, %offs : !tile.ptr<i32>, tensor<${ROWS}x${COLS}xi32>
  %kv = tile.load %kp : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %ce = tile.expand_dims %c axis = 0 : tensor<${COLS}xi32>
  %col = tile.broadcast %ce : tensor<1x${COLS}xi32> -> tensor<${ROWS}x${COLS}xi32>

  %a = tile.sort %x axis = 1 : tensor<${ROWS}x${COLS}xf32>
  %d, %dp = tile.sort %x, %col axis = 1 descending : tensor<${ROWS}x${COLS}xf32>, tensor<${ROWS}x${COLS}xi32>
  %ck, %cx = tile.sort %kv, %x axis = 0 : tensor<${ROWS}x${COLS}xi32>, tensor<${ROWS}x${COLS}xf32>
  %tv, %ti = tile.topk %x : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}x${K}xf32>, tensor<${ROWS}x${K}xi32>
  %lv, %li = tile.topk %kv smallest : tensor<${ROWS}x${COLS}xi32> -> tensor<${ROWS}x${K}xi32>, tensor<${ROWS}x${K}xi32>

  %ab = tile.bitcast %a : tensor<${ROWS}x${COLS}xf32> to tensor<${ROWS}x${COLS}xi32>
  %o0 = tile.addptr %asc, %offs : !tile.ptr<i32>, tensor<${ROWS}x${COLS}xi32>
  tile.store %ab, %o0 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %db = tile.bitcast %d : tensor<${ROWS}x${COLS}xf32> to tensor<${ROWS}x${COLS}xi32>
  %o1 = tile.addptr %desc, %offs : !tile.ptr<i32>, tensor<${ROWS}x${COLS}xi32>
  tile.store %db, %o1 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %o2 = tile.addptr %perm, %offs : !tile.ptr<i32>, tensor<${ROWS}x${COLS}xi32>
  tile.store %dp, %o2 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %o3 = tile.addptr %colk, %offs : !tile.ptr<i32>, tensor<${ROWS}x${COLS}xi32>
  tile.store %ck, %o3 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %cxb = tile.bitcast %cx : tensor<${ROWS}x${COLS}xf32> to tensor<${ROWS}x${COLS}xi32>
  %o4 = tile.addptr %colx, %offs : !tile.ptr<i32>, tensor<${ROWS}x${COLS}xi32>
  tile.store %cxb, %o4 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>

  %kstart = tile.mul %re, %nk : tensor<${ROWS}x1xi32>, i32
  %j = tile.make_range 0 to ${K}
  %koffs = tile.add %kstart, %j : tensor<${ROWS}x1xi32>, tensor<${K}xi32>
  %tvb = tile.bitcast %tv : tensor<${ROWS}x${K}xf32> to tensor<${ROWS}x${K}xi32>
  %o5 = tile.addptr %topv, %koffs : !tile.ptr<i32>, tensor<${ROWS}x${K}xi32>
  tile.store %tvb, %o5 : tensor<${ROWS}x${K}x!tile.ptr<i32>>
  %o6 = tile.addptr %topi, %koffs : !tile.ptr<i32>, tensor<${ROWS}x${K}xi32>
  tile.store %ti, %o6 : tensor<${ROWS}x${K}x!tile.ptr<i32>>
  %o7 = tile.addptr %lowv, %koffs : !tile.ptr<i32>, tensor<${ROWS}x${K}xi32>
  tile.store %lv, %o7 : tensor<${ROWS}x${K}x!tile.ptr<i32>>
  %o8 = tile.addptr %lowi, %koffs : !tile.ptr<i32>, tensor<${ROWS}x${K}xi32>
  tile.store %li, %o8 : tensor<${ROWS}x${K}x!tile.ptr<i32>>
  return
}
