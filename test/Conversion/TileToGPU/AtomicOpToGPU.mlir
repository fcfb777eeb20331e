// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s

// tile.atomic_rmw and tile.atomic_cas: one predicated atom per element an
// owner thread holds, ordered by the op's semantics.

// Atomics: one predicated instruction per element, only from the thread
// that owns it; f32 max goes through the integer order of IEEE bits.
// Ordered acq_rel at GPU scope unless `sem` says otherwise (relaxed: PTX's
// default, no qualifier). The result register starts at 0, what a thread
// whose predicate is off returns.
// CHECK-LABEL: gpu.func @atomics
// CHECK: "mov.f32 $0, 0f00000000;\0A\09@$3 atom.acq_rel.gpu.global.add.f32 $0, [$1], $2;", "=f,l,f,b"
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.max.s32 $0, [$1], $2;", "=r,l,r,b"
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.min.u32 $0, [$1], $2;", "=r,l,r,b"
// CHECK: "mov.b32 $0, 0;\0A\09@$4 atom.release.gpu.global.cas.b32 $0, [$1], $2, $3;", "=r,l,r,r,b"

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @atomics(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %c: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
  %p = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
  %one = arith.constant dense<1.000000e+00> : tensor<128xf32, #blocked>
  %a = tile.atomic_rmw add %p, %one : tensor<128x!tile.ptr<f32>, #blocked>
  %b = tile.atomic_rmw max %p, %a sem = relaxed : tensor<128x!tile.ptr<f32>, #blocked>
  %cs = tile.splat %c : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>, #blocked>
  %q = tile.addptr %cs, %r : tensor<128x!tile.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
  %old = tile.atomic_cas %q, %r, %r sem = release : tensor<128x!tile.ptr<i32>, #blocked>
  return
}

// -----

// A scalar atomic is the program's: thread 0 issues it and hands the old
// value to every thread through shared memory. With release ordering (the
// default acq_rel) a barrier comes first, so every thread's earlier stores
// precede it; a relaxed one needs none.
// CHECK-LABEL: gpu.func @scalar_atomics
// CHECK: "@$2 st.global.b32 [$0], $1;"
// CHECK-NEXT: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[OLD:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.add.s32 $0, [$1], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[FIRST]]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.store %[[OLD]]
// CHECK: gpu.barrier
// CHECK-NEXT: llvm.load
// CHECK-NOT: gpu.barrier
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.exch.b32 $0, [$1], $2;"
func.func @scalar_atomics(%out: !tile.ptr<f32>, %lock: !tile.ptr<i32>, %v: f32) attributes {tile.num_warps = 4 : i32} {
  %one = arith.constant 1 : i32
  tile.store %v, %out : !tile.ptr<f32>
  %old = tile.atomic_rmw add %lock, %one : !tile.ptr<i32>
  %prev = tile.atomic_rmw xchg %lock, %old sem = relaxed : !tile.ptr<i32>
  return
}

// -----

// Masked-off elements return 0 (the register's start value). Where the
// layout replicates elements (32 of them over 4 warps), only the owning
// thread does the atomic; the others take its old value through shared
// memory, so every copy of the result holds the same value.
// CHECK-LABEL: gpu.func @masked_replicated_atomic
// CHECK: %[[OWNER:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: %[[PRED:.*]] = arith.andi %[[OWNER]], %{{.*}} : i1
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$3 atom.global.add.s32 $0, [$1], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[PRED]]
// CHECK: gpu.barrier
// CHECK: scf.if %[[OWNER]] {
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32

#blocked = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @masked_replicated_atomic(%c: !tile.ptr<i32>, %out: !tile.ptr<i32>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32, #blocked>
  %cs = tile.splat %c : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>, #blocked>
  %p = tile.addptr %cs, %r : tensor<32x!tile.ptr<i32>, #blocked>, tensor<32xi32, #blocked>
  %ns = tile.splat %n : i32 -> tensor<32xi32, #blocked>
  %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #blocked>
  %one = arith.constant dense<1> : tensor<32xi32, #blocked>
  %old = tile.atomic_rmw add %p, %one mask %m sem = relaxed : tensor<32x!tile.ptr<i32>, #blocked>
  %s = tile.reduce sum %old axis = 0 : tensor<32xi32, #blocked> -> i32
  tile.store %s, %out : !tile.ptr<i32>
  return
}

// -----

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

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @old_values_used(%arg0: !tile.ptr<i32> {tile.divisibility = 16 : i64}, %arg1: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %cst = arith.constant dense<1> : tensor<32xi32, #blocked>
  %r = tile.make_range 0 to 32 : tensor<32xi32, #blocked>
  %ps = tile.splat %arg0 : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>, #blocked>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #blocked>, tensor<32xi32, #blocked>
  %old = tile.atomic_rmw add %pp, %cst : tensor<32x!tile.ptr<i32>, #blocked>
  %s = tile.reduce sum %old axis = 0 : tensor<32xi32, #blocked> -> i32
  tile.store %s, %arg1 : !tile.ptr<i32>
  return
}

// -----

// Unused old values need no exchange.
// CHECK-LABEL: gpu.func @old_values_unused
// CHECK: atom.acq_rel.gpu.global.add.s32
// CHECK-NOT: scf.if
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @old_values_unused(%p: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %cst = arith.constant dense<1> : tensor<32xi32, #blocked>
  %r = tile.make_range 0 to 32 : tensor<32xi32, #blocked>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>, #blocked>
  %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #blocked>, tensor<32xi32, #blocked>
  %old = tile.atomic_rmw add %pp, %cst : tensor<32x!tile.ptr<i32>, #blocked>
  return
}
