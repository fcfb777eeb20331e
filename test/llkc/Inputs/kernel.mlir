// A complete kernel; BLOCK is a placeholder.
func.func @copy(%src: !tile.ptr<f32> {tile.divisibility = 16},
                %dst: !tile.ptr<f32> {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %offsets = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %sp = tile.splat %src : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %sa = tile.addptr %sp, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %v = tile.load %sa : tensor<${BLOCK}x!tile.ptr<f32>>
  %dp = tile.splat %dst : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %da = tile.addptr %dp, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %v, %da : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
