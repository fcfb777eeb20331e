// RUN: llk-opt %s -split-input-file -tile-assign-layouts -canonicalize -convert-tile-to-gpu | FileCheck %s

// A tile atomic whose layout replicates elements (32 elements over 128
// threads) runs once per element, in the elements' owners; the old values
// must reach the other threads that hold those elements too. They got
// whatever the predicated-off atom left (0 on the GPU), so a reduction or a
// store of the old values read garbage: found by the differential test
// (scripts/gen-tile-kernel.py, seeds 1039, 1047 and 1161; the GPU's
// results differed from the interpreter's). The owners write the old values
// to shared memory and every thread reads its elements back.
// CHECK-LABEL: gpu.func @old_values_used
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.add.s32 $0, [$1], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[OWNER:[0-9]+]]
// CHECK: gpu.barrier
// CHECK: scf.if %[[OWNER]] {
// CHECK: llvm.store {{.*}} : vector<{{[0-9]+}}xi32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<{{[0-9]+}}xi32>
func.func @old_values_used(%p: !tile.ptr<i32> {tile.divisibility = 16},
                           %out: !tile.ptr<i32> {tile.divisibility = 16})
    attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  %one = arith.constant dense<1> : tensor<32xi32>
  %old = tile.atomic_rmw add %pp, %one : tensor<32x!tile.ptr<i32>>
  %s = tile.reduce sum %old axis = 0 : tensor<32xi32> -> i32
  tile.store %s, %out : !tile.ptr<i32>
  return
}

// -----

// Unused old values need no exchange.
// CHECK-LABEL: gpu.func @old_values_unused
// CHECK: atom.acq_rel.gpu.global.add.s32
// CHECK-NOT: scf.if
// CHECK: gpu.return
func.func @old_values_unused(%p: !tile.ptr<i32> {tile.divisibility = 16})
    attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  %one = arith.constant dense<1> : tensor<32xi32>
  %old = tile.atomic_rmw add %pp, %one : tensor<32x!tile.ptr<i32>>
  return
}
