// Scans (tile.scan, tile.generic_scan) of one ROWS x COLS block per program,
// rows [pid * ROWS, pid * ROWS + ROWS) of row-major [rows, COLS] inputs:
//   cumsum    cumulative sum of x along each row       (tl.cumsum(x, 1))
//   rcumsum   the same from the row's end              (tl.cumsum(x, 1, reverse=True))
//   cumprod   cumulative product of y down each column (tl.cumprod(y, 0))
//   cummax    cumulative max of k down each column     (tl.cummax(k, 0))
//   rcummin   cumulative min of k from each row's end
//   ffill     k with each zero replaced by the last nonzero before it in its
//             row (a combiner that is associative but not commutative)
//   bfill     each zero replaced by the next nonzero below it in its column
func.func @scan(%x: !tile.ptr<f32> {tile.divisibility = 16},
                %y: !tile.ptr<f32> {tile.divisibility = 16},
                %k: !tile.ptr<i32> {tile.divisibility = 16},
                %cumsum: !tile.ptr<f32> {tile.divisibility = 16},
                %rcumsum: !tile.ptr<f32> {tile.divisibility = 16},
                %cumprod: !tile.ptr<f32> {tile.divisibility = 16},
                %cummax: !tile.ptr<i32> {tile.divisibility = 16},
                %rcummin: !tile.ptr<i32> {tile.divisibility = 16},
                %ffill: !tile.ptr<i32> {tile.divisibility = 16},
                %bfill: !tile.ptr<i32> {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${ROWS} : i32
  %cols = arith.constant ${COLS} : i32
  %row0 = arith.muli %pid, %block : i32
  %rows = tile.make_range 0 to ${ROWS} : tensor<${ROWS}xi32>
  %r0 = tile.splat %row0 : i32 -> tensor<${ROWS}xi32>
  %r = arith.addi %r0, %rows : tensor<${ROWS}xi32>
  %rc = tile.splat %cols : i32 -> tensor<${ROWS}xi32>
  %rstart = arith.muli %r, %rc : tensor<${ROWS}xi32>
  %re = tile.expand_dims %rstart axis = 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %rb = tile.broadcast %re : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${COLS}xi32>
  %c = tile.make_range 0 to ${COLS} : tensor<${COLS}xi32>
  %ce = tile.expand_dims %c axis = 0 : tensor<${COLS}xi32> -> tensor<1x${COLS}xi32>
  %cb = tile.broadcast %ce : tensor<1x${COLS}xi32> -> tensor<${ROWS}x${COLS}xi32>
  %offs = arith.addi %rb, %cb : tensor<${ROWS}x${COLS}xi32>

  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  %xv = tile.load %xp : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  %yv = tile.load %yp : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %ks = tile.splat %k : !tile.ptr<i32> -> tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %kp = tile.addptr %ks, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>, tensor<${ROWS}x${COLS}xi32>
  %kv = tile.load %kp : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>

  %s = tile.scan sum %xv axis = 1 : tensor<${ROWS}x${COLS}xf32>
  %rs = tile.scan sum %xv axis = 1 reverse : tensor<${ROWS}x${COLS}xf32>
  %p = tile.scan prod %yv axis = 0 : tensor<${ROWS}x${COLS}xf32>
  %m = tile.scan max %kv axis = 0 : tensor<${ROWS}x${COLS}xi32>
  %rm = tile.scan min %kv axis = 1 reverse : tensor<${ROWS}x${COLS}xi32>
  %ff = tile.generic_scan %kv axis = 1 : tensor<${ROWS}x${COLS}xi32> {
  ^bb0(%before: i32, %next: i32):
    %zero = arith.constant 0 : i32
    %set = arith.cmpi ne, %next, %zero : i32
    %v = arith.select %set, %next, %before : i32
    tile.yield %v : i32
  }
  %bf = tile.generic_scan %kv axis = 0 reverse : tensor<${ROWS}x${COLS}xi32> {
  ^bb0(%after: i32, %next: i32):
    %zero = arith.constant 0 : i32
    %set = arith.cmpi ne, %next, %zero : i32
    %v = arith.select %set, %next, %after : i32
    tile.yield %v : i32
  }

  %o0 = tile.splat %cumsum : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %a0 = tile.addptr %o0, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %s, %a0 : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o1 = tile.splat %rcumsum : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %a1 = tile.addptr %o1, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %rs, %a1 : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o2 = tile.splat %cumprod : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %a2 = tile.addptr %o2, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %p, %a2 : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o3 = tile.splat %cummax : !tile.ptr<i32> -> tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %a3 = tile.addptr %o3, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %m, %a3 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %o4 = tile.splat %rcummin : !tile.ptr<i32> -> tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %a4 = tile.addptr %o4, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %rm, %a4 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %o5 = tile.splat %ffill : !tile.ptr<i32> -> tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %a5 = tile.addptr %o5, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %ff, %a5 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %o6 = tile.splat %bfill : !tile.ptr<i32> -> tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %a6 = tile.addptr %o6, %offs : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %bf, %a6 : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  return
}
