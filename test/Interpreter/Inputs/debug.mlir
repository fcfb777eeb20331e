// tile.print and tile.assert with device debug (device-debug.test).
func.func @debug(%x: !tile.ptr<f32>, %n: i32, %limit: i32) {
  %pid = tile.program_id x
  %range = tile.make_range 0 to 8 : tensor<8xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %range : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %v = tile.load %xp : tensor<8x!tile.ptr<f32>>
  %m = tile.reshape %v : tensor<8xf32> -> tensor<2x4xf32>
  tile.print "m = ", %m : tensor<2x4xf32>
  tile.print "n and pid: ", %n, %pid : i32, i32
  %limits = tile.splat %limit : i32 -> tensor<8xi32>
  %ok = arith.cmpi slt, %range, %limits : tensor<8xi32>
  tile.assert %ok, "100% below the limit" : tensor<8xi1>
  tile.print "done"
  return
}
