// A copy of 256 elements of the element type bound to T.
func.func @copy(%src: !tile.ptr<${T}>, %dst: !tile.ptr<${T}>) {
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %sp = tile.splat %src : !tile.ptr<${T}> -> tensor<256x!tile.ptr<${T}>>
  %sa = tile.addptr %sp, %range : tensor<256x!tile.ptr<${T}>>, tensor<256xi32>
  %v = tile.load %sa : tensor<256x!tile.ptr<${T}>>
  %dp = tile.splat %dst : !tile.ptr<${T}> -> tensor<256x!tile.ptr<${T}>>
  %da = tile.addptr %dp, %range : tensor<256x!tile.ptr<${T}>>, tensor<256xi32>
  tile.store %v, %da : tensor<256x!tile.ptr<${T}>>
  return
}
