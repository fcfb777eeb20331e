// Stores its loaded tile only when n > 0, in a block a cf.cond_br reaches.
func.func @branch_store(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %ib = tile.splat %in : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %x = tile.load %ip : tensor<64x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %n, %c0 : i32
  cf.cond_br %positive, ^store(%x : tensor<64xf32>), ^done
^store(%v: tensor<64xf32>):
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %v, %op : tensor<64x!tile.ptr<f32>>
  cf.br ^done
^done:
  return
}
