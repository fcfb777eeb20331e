// RUN: llk-opt %s -split-input-file -tile-assign-layouts -tile-software-pipeline -canonicalize -convert-tile-to-gpu | FileCheck %s

// The pipelined buffers and copies in NVVM: one cp.async per 16-byte chunk
// (.cg, source size 16 or 0), a barrier before the ring's first copy, the
// wait + barrier at the top of each iteration, and the dot reading both
// operands from the ring with ldmatrix (no staging: no store to shared
// memory in the loop).
// CHECK-LABEL: gpu.func @f16
// CHECK: gpu.barrier
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} :
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: llvm.store
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-NOT: llvm.store
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK-NOT: llvm.store
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
func.func @f16(%a: !tile.ptr<f16> {tile.divisibility = 16},
    %b: !tile.ptr<f16> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s = arith.constant dense<64> : tensor<64x1xi32>
  %rows = arith.muli %row, %s : tensor<64x1xi32>
  %rowsb = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %colsb = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowsb, %colsb : tensor<64x64xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %step = arith.constant dense<64> : tensor<64x64xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res, %ap_end, %bp_end = scf.for %i = %c0 to %n step %c1
      iter_args(%acc_i = %zero, %ap = %ap0, %bp = %bp0)
      -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap : tensor<64x64x!tile.ptr<f16>>
    %bv = tile.load %bp : tensor<64x64x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %apn = tile.addptr %ap, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %bpn = tile.addptr %bp, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    scf.yield %d, %apn, %bpn : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %res, %cp : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// i8 with B contiguous along N: ldmatrix cannot transpose 8-bit matrices,
// so B is read from its slot into registers (tile.local_load) and staged
// K-contiguous for the dot, while A is still read in place.
// CHECK-LABEL: gpu.func @i8
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.cp.async.shared.global
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<16xi8>
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : i8, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: nvvm.ldmatrix
// CHECK: nvvm.mma.sync
func.func @i8(%a: !tile.ptr<i8> {tile.divisibility = 16},
    %b: !tile.ptr<i8> {tile.divisibility = 16},
    %c: !tile.ptr<i32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s = arith.constant dense<64> : tensor<64x1xi32>
  %rows = arith.muli %row, %s : tensor<64x1xi32>
  %rowsb = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %colsb = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowsb, %colsb : tensor<64x64xi32>
  %as = tile.splat %a : !tile.ptr<i8> -> tensor<64x64x!tile.ptr<i8>>
  %ap0 = tile.addptr %as, %off : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
  %bs = tile.splat %b : !tile.ptr<i8> -> tensor<64x64x!tile.ptr<i8>>
  %bp0 = tile.addptr %bs, %off : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
  %zero = arith.constant dense<0> : tensor<64x64xi32>
  %step = arith.constant dense<64> : tensor<64x64xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res, %ap_end, %bp_end = scf.for %i = %c0 to %n step %c1
      iter_args(%acc_i = %zero, %ap = %ap0, %bp = %bp0)
      -> (tensor<64x64xi32>, tensor<64x64x!tile.ptr<i8>>, tensor<64x64x!tile.ptr<i8>>) : i32 {
    %av = tile.load %ap : tensor<64x64x!tile.ptr<i8>>
    %bv = tile.load %bp : tensor<64x64x!tile.ptr<i8>>
    %d = tile.dot %av, %bv, %acc_i : tensor<64x64xi8>, tensor<64x64xi8> -> tensor<64x64xi32>
    %apn = tile.addptr %ap, %step : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
    %bpn = tile.addptr %bp, %step : tensor<64x64x!tile.ptr<i8>>, tensor<64x64xi32>
    scf.yield %d, %apn, %bpn : tensor<64x64xi32>, tensor<64x64x!tile.ptr<i8>>, tensor<64x64x!tile.ptr<i8>>
  }
  %cs = tile.splat %c : !tile.ptr<i32> -> tensor<64x64x!tile.ptr<i32>>
  %cp = tile.addptr %cs, %off : tensor<64x64x!tile.ptr<i32>>, tensor<64x64xi32>
  tile.store %res, %cp : tensor<64x64x!tile.ptr<i32>>
  return
}
