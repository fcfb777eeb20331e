// RUN: llk-opt %s -tile-assign-layouts -convert-tile-to-gpu | FileCheck %s

// Branches between a kernel's blocks pass tiles (each thread's registers)
// and pointers, converted like the blocks' arguments.
// CHECK-LABEL: gpu.func @branches
// CHECK: cf.cond_br %{{.*}}, ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// CHECK: cf.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : vector<4xf32>, !llvm.ptr<1>)
// CHECK: ^[[HEAD]](%{{.*}}: vector<4xf32>, %{{.*}}: !llvm.ptr<1>):
func.func @branches(%a: !tile.ptr<f32> {tile.divisibility = 16}, %out: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range 0 to 512 : tensor<512xi32>
  %as = tile.splat %a : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %ap = tile.addptr %as, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %x = tile.load %ap : tensor<512x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %go = arith.cmpi sgt, %n, %c0 : i32
  cf.cond_br %go, ^body, ^exit
^body:
  %y = arith.addf %x, %x : tensor<512xf32>
  cf.br ^head(%y, %out : tensor<512xf32>, !tile.ptr<f32>)
^head(%v: tensor<512xf32>, %p: !tile.ptr<f32>):
  %s = tile.reduce sum %v axis = 0 : tensor<512xf32> -> f32
  tile.store %s, %p : !tile.ptr<f32>
  cf.br ^exit
^exit:
  return
}
