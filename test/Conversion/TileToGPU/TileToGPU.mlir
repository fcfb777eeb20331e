// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s

// The pass around the op families: a kernel's blocks, branches and loops
// carry each thread's registers (the converted tiles and pointers).

// Branches between a kernel's blocks pass tiles (each thread's registers)
// and pointers, converted like the blocks' arguments.
// CHECK-LABEL: gpu.func @branches
// CHECK: cf.cond_br %{{.*}}, ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// CHECK: cf.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : vector<4xf32>, !llvm.ptr<1>)
// CHECK: ^[[HEAD]](%{{.*}}: vector<4xf32>, %{{.*}}: !llvm.ptr<1>):

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @branches(%a: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %out: !tile.ptr<f32>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 512 : tensor<512xi32, #blocked>
  %as = tile.splat %a : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #blocked>
  %ap = tile.addptr %as, %r : tensor<512x!tile.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
  %x = tile.load %ap : tensor<512x!tile.ptr<f32>, #blocked>
  %c0 = arith.constant 0 : i32
  %go = arith.cmpi sgt, %n, %c0 : i32
  cf.cond_br %go, ^bb1, ^bb3
^bb1:  // pred: ^bb0
  %y = arith.addf %x, %x : tensor<512xf32, #blocked>
  cf.br ^bb2(%y, %out : tensor<512xf32, #blocked>, !tile.ptr<f32>)
^bb2(%6: tensor<512xf32, #blocked>, %7: !tile.ptr<f32>):  // pred: ^bb1
  %s = tile.reduce sum %6 axis = 0 : tensor<512xf32, #blocked> -> f32
  tile.store %s, %7 : !tile.ptr<f32>
  cf.br ^bb3
^bb3:  // 2 preds: ^bb0, ^bb2
  return
}

// -----

// Loop-carried tiles become loop-carried vectors.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<8xf32>)
// CHECK: scf.yield %{{.*}} : vector<8xf32>

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @loop(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
  %acc = scf.for %arg2 = %c0 to %n step %c1024 iter_args(%arg3 = %zero) -> (tensor<1024xf32, #blocked>)  : i32 {
    %ks = tile.splat %arg2 : i32 -> tensor<1024xi32, #blocked>
    %off = arith.addi %ks, %r : tensor<1024xi32, #blocked>
    %p = tile.addptr %xs, %off : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tile.load %p : tensor<1024x!tile.ptr<f32>, #blocked>
    %s = arith.addf %arg3, %v : tensor<1024xf32, #blocked>
    scf.yield %s : tensor<1024xf32, #blocked>
  }
  %p0 = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  tile.store %acc, %p0 : tensor<1024x!tile.ptr<f32>, #blocked>
  return
}
