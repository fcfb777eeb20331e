// One descriptor read as both A (rows reordered for warpgroups: 8-row
// boxes) and B (64-row boxes): one CUtensorMap has one box (tma-errors.test).
func.func @one_descriptor_two_boxes(%d: !tile.tensordesc<64x64xf16>,
                                    %c: !tile.ptr<f32> {tile.divisibility = 16},
                                    %K: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %kt = arith.divsi %K, %c64 : i32
  %acc = scf.for %i = %c0 to %kt step %c1 iter_args(%acc_i = %zero) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %i, %c64 : i32
    %av = tile.descriptor_load %d[%c0, %k0] : !tile.tensordesc<64x64xf16> -> tensor<64x64xf16>
    %bv = tile.descriptor_load %d[%k0, %c0] : !tile.tensordesc<64x64xf16> -> tensor<64x64xf16>
    %r = tile.dot %av, %bv, %acc_i : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %r : tensor<64x64xf32>
  }
  %range = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = tile.expand_dims %range axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s64 = arith.constant dense<64> : tensor<64x1xi32>
  %rowoff = arith.muli %rows, %s64 : tensor<64x1xi32>
  %rowb = tile.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tile.expand_dims %range axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %acc, %cp : tensor<64x64x!tile.ptr<f32>>
  return
}
