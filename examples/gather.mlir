// tile.gather (tl.gather): out[r, j] = table[r, idx[r, j]] for the ROWS rows
// of program pid (row-major [rows, COLS] table, [rows, K] indices and output).
func.func @gather(%table: !tile.ptr<f32> {tile.divisibility = 16},
                  %idx: !tile.ptr<i32> {tile.divisibility = 16},
                  %out: !tile.ptr<f32> {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %rows = arith.constant ${ROWS} : i32
  %row0 = arith.muli %pid, %rows : i32
  %rr = tile.make_range 0 to ${ROWS} : tensor<${ROWS}xi32>
  %r0 = tile.splat %row0 : i32 -> tensor<${ROWS}xi32>
  %r = arith.addi %r0, %rr : tensor<${ROWS}xi32>
  %re = tile.expand_dims %r axis = 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>

  %cols = arith.constant dense<${COLS}> : tensor<${ROWS}x1xi32>
  %tstart = arith.muli %re, %cols : tensor<${ROWS}x1xi32>
  %tb = tile.broadcast %tstart : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${COLS}xi32>
  %c = tile.make_range 0 to ${COLS} : tensor<${COLS}xi32>
  %ce = tile.expand_dims %c axis = 0 : tensor<${COLS}xi32> -> tensor<1x${COLS}xi32>
  %cb = tile.broadcast %ce : tensor<1x${COLS}xi32> -> tensor<${ROWS}x${COLS}xi32>
  %toffs = arith.addi %tb, %cb : tensor<${ROWS}x${COLS}xi32>
  %ts = tile.splat %table : !tile.ptr<f32> -> tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %tp = tile.addptr %ts, %toffs : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  %t = tile.load %tp : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>

  %ks = arith.constant dense<${K}> : tensor<${ROWS}x1xi32>
  %kstart = arith.muli %re, %ks : tensor<${ROWS}x1xi32>
  %kb = tile.broadcast %kstart : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${K}xi32>
  %j = tile.make_range 0 to ${K} : tensor<${K}xi32>
  %je = tile.expand_dims %j axis = 0 : tensor<${K}xi32> -> tensor<1x${K}xi32>
  %jb = tile.broadcast %je : tensor<1x${K}xi32> -> tensor<${ROWS}x${K}xi32>
  %koffs = arith.addi %kb, %jb : tensor<${ROWS}x${K}xi32>
  %is = tile.splat %idx : !tile.ptr<i32> -> tensor<${ROWS}x${K}x!tile.ptr<i32>>
  %ip = tile.addptr %is, %koffs : tensor<${ROWS}x${K}x!tile.ptr<i32>>, tensor<${ROWS}x${K}xi32>
  %i = tile.load %ip : tensor<${ROWS}x${K}x!tile.ptr<i32>>

  %g = tile.gather %t[%i] axis = 1 : tensor<${ROWS}x${COLS}xf32>, tensor<${ROWS}x${K}xi32> -> tensor<${ROWS}x${K}xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<${ROWS}x${K}x!tile.ptr<f32>>
  %op = tile.addptr %os, %koffs : tensor<${ROWS}x${K}x!tile.ptr<f32>>, tensor<${ROWS}x${K}xi32>
  tile.store %g, %op : tensor<${ROWS}x${K}x!tile.ptr<f32>>
  return
}
