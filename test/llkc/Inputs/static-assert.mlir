// tile.static_assert on ${BLOCK} (static-assert.test).
func.func @copy(%out: !tile.ptr<f32> {tile.divisibility = 16}, %in: !tile.ptr<f32> {tile.divisibility = 16}) {
  %block = arith.constant ${BLOCK} : i32
  %max = arith.constant 1024 : i32
  %fits = arith.cmpi sle, %block, %max : i32
  tile.static_assert %fits, "BLOCK must be at most 1024"
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %ins = tile.splat %in : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %inp = tile.addptr %ins, %range : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %x = tile.load %inp : tensor<${BLOCK}x!tile.ptr<f32>>
  %outs = tile.splat %out : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %outp = tile.addptr %outs, %range : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %x, %outp : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
