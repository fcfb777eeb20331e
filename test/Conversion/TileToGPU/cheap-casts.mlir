// RUN: llk-opt %s -split-input-file -tile-assign-layouts -canonicalize -convert-tile-to-gpu -canonicalize | FileCheck %s

// i8 -> f32 avoids the slow conversion unit: per word one xor with
// 0x80808080, then per byte a prmt that puts it under the exponent byte 0x4B
// (selectors 0x7540 + k) and an fsub of 2^23 + 128 (an add of -8388736).
// Other integer conversions stay sitofp.
// CHECK-LABEL: gpu.func @bytes
// CHECK-NOT: arith.sitofp {{.*}} vector<16xi8>
// CHECK: %[[X:.*]] = arith.xori %{{.*}}, %c-2139062144_i32 : i32
// CHECK: nvvm.prmt <default> %c30016_i32, %[[X]], %c1258291200_i32 : i32
// CHECK: arith.subf %{{.*}}, %cst{{.*}} : f32
// CHECK: nvvm.prmt <default> %c30017_i32, %[[X]], %c1258291200_i32 : i32
// CHECK: nvvm.prmt <default> %c30018_i32, %[[X]], %c1258291200_i32 : i32
// CHECK: nvvm.prmt <default> %c30019_i32, %[[X]], %c1258291200_i32 : i32
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: gpu.return
func.func @bytes(%a: !tile.ptr<i8> {tile.divisibility = 16}, %b: !tile.ptr<i32> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32>
  %as = tile.splat %a : !tile.ptr<i8> -> tensor<2048x!tile.ptr<i8>>
  %ap = tile.addptr %as, %r : tensor<2048x!tile.ptr<i8>>, tensor<2048xi32>
  %av = tile.load %ap : tensor<2048x!tile.ptr<i8>>
  %af = tile.cast %av : tensor<2048xi8> to tensor<2048xf32>
  %bs = tile.splat %b : !tile.ptr<i32> -> tensor<2048x!tile.ptr<i32>>
  %bp = tile.addptr %bs, %r : tensor<2048x!tile.ptr<i32>>, tensor<2048xi32>
  %bv = tile.load %bp : tensor<2048x!tile.ptr<i32>>
  %bf = tile.cast %bv : tensor<2048xi32> to tensor<2048xf32>
  %s = arith.addf %af, %bf : tensor<2048xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %r : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  tile.store %s, %yp : tensor<2048x!tile.ptr<f32>>
  return
}
