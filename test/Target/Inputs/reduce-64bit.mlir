// Reductions of 64-bit elements (T = f64 or i64): every built-in kind of a
// 1-D tile over all the program's warps (lanes, then warps through shared
// memory), a row reduction of a 2-D tile, and a generic combiner (xor of the bits).
func.func @reduce_kinds(%x: !tile.ptr<${T}>, %out: !tile.ptr<${T}>,
                        %index: !tile.ptr<i32>) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<${T}> -> tensor<1024x!tile.ptr<${T}>>
  %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<${T}>>, tensor<1024xi32>
  %v = tile.load %xp : tensor<1024x!tile.ptr<${T}>>
  %sum = tile.reduce sum %v axis = 0 : tensor<1024x${T}> -> ${T}
  %max = tile.reduce max %v axis = 0 : tensor<1024x${T}> -> ${T}
  %min = tile.reduce min %v axis = 0 : tensor<1024x${T}> -> ${T}
  %argmax = tile.reduce argmax %v axis = 0 : tensor<1024x${T}> -> i32
  %argmin = tile.reduce argmin %v axis = 0 : tensor<1024x${T}> -> i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %o1 = tile.addptr %out, %c1 : !tile.ptr<${T}>, i32
  %o2 = tile.addptr %out, %c2 : !tile.ptr<${T}>, i32
  tile.store %sum, %out : !tile.ptr<${T}>
  tile.store %max, %o1 : !tile.ptr<${T}>
  tile.store %min, %o2 : !tile.ptr<${T}>
  %i1 = tile.addptr %index, %c1 : !tile.ptr<i32>, i32
  tile.store %argmax, %index : !tile.ptr<i32>
  tile.store %argmin, %i1 : !tile.ptr<i32>
  return
}

func.func @reduce_rows(%x: !tile.ptr<${T}>, %out: !tile.ptr<${T}>,
                       %bits_out: !tile.ptr<${T}>) {
  %cols = tile.make_range 0 to 128 : tensor<128xi32>
  %rows = tile.make_range 0 to 16 : tensor<16xi32>
  %c = tile.expand_dims %cols axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %r = tile.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %width = arith.constant dense<128> : tensor<16x1xi32>
  %starts = arith.muli %r, %width : tensor<16x1xi32>
  %sb = tile.broadcast %starts : tensor<16x1xi32> -> tensor<16x128xi32>
  %cb = tile.broadcast %c : tensor<1x128xi32> -> tensor<16x128xi32>
  %offsets = arith.addi %sb, %cb : tensor<16x128xi32>
  %xs = tile.splat %x : !tile.ptr<${T}> -> tensor<16x128x!tile.ptr<${T}>>
  %xp = tile.addptr %xs, %offsets : tensor<16x128x!tile.ptr<${T}>>, tensor<16x128xi32>
  %v = tile.load %xp : tensor<16x128x!tile.ptr<${T}>>
  %sums = tile.reduce sum %v axis = 1 : tensor<16x128x${T}> -> tensor<16x${T}>
  %bits = tile.generic_reduce %v axis = 0 : tensor<16x128x${T}> -> tensor<128x${T}> {
  ^bb0(%a: ${T}, %b: ${T}):
    %ai = tile.bitcast %a : ${T} to i64
    %bi = tile.bitcast %b : ${T} to i64
    %m = arith.xori %ai, %bi : i64
    %mt = tile.bitcast %m : i64 to ${T}
    tile.yield %mt : ${T}
  }
  %os = tile.splat %out : !tile.ptr<${T}> -> tensor<16x!tile.ptr<${T}>>
  %op = tile.addptr %os, %rows : tensor<16x!tile.ptr<${T}>>, tensor<16xi32>
  tile.store %sums, %op : tensor<16x!tile.ptr<${T}>>
  %cs = tile.splat %bits_out : !tile.ptr<${T}> -> tensor<128x!tile.ptr<${T}>>
  %cp = tile.addptr %cs, %cols : tensor<128x!tile.ptr<${T}>>, tensor<128xi32>
  tile.store %bits, %cp : tensor<128x!tile.ptr<${T}>>
  return
}
