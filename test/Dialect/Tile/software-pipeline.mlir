// RUN: llk-opt %s -split-input-file -tile-assign-layouts -tile-software-pipeline -mlir-print-local-scope | FileCheck %s
// RUN: llk-opt %s -split-input-file -tile-assign-layouts -tile-software-pipeline=num-stages=4 -mlir-print-local-scope | FileCheck %s --check-prefix=S4
// RUN: llk-opt %s -split-input-file -tile-assign-layouts -tile-software-pipeline="num-stages=3 late-copies=true" -mlir-print-local-scope | FileCheck %s --check-prefix=LATE

// The GEMM K loop of examples/gemm.mlir: pointer tiles carried and
// advanced each step, the K tail masked with other = 0. With 3 stages the
// prologue copies iterations 0 and 1 into slots 0 and 1 (each copy masked
// by its mask and by "iteration < upper bound", one group per iteration);
// the loop starts from the pointers of iteration 2, waits until one group
// is pending, copies iteration k+2 into slot (k+2) % 3, and the dot reads
// slot k % 3; after the loop every copy is waited for.
// CHECK-LABEL: func.func @carried_pointers
// CHECK: %[[RA:.*]] = tile.local_alloc : !tile.shared<3x128x32xf16, contiguous = 1>
// CHECK: %[[RB:.*]] = tile.local_alloc : !tile.shared<3x32x128xf16, contiguous = 1>
// CHECK: tile.async_copy %{{.*}}, %[[RA]][%c0_i32{{.*}}] mask
// CHECK: tile.async_copy %{{.*}}, %[[RB]][%c0_i32{{.*}}] mask
// CHECK-NEXT: tile.async_commit
// CHECK: tile.async_copy %{{.*}}, %[[RA]][%c1_i32{{.*}}] mask
// CHECK: tile.async_copy %{{.*}}, %[[RB]][%c1_i32{{.*}}] mask
// CHECK-NEXT: tile.async_commit
// CHECK-NOT: tile.async_copy
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[INDEX:.*]] = arith.subi %[[IV]], %c0_i32
// CHECK: %[[READ:.*]] = arith.remui %[[INDEX]], %c3_i32
// CHECK: %[[WRITE:.*]] = arith.remui
// CHECK: tile.async_wait pending = 1
// CHECK: tile.async_copy %{{.*}}, %[[RA]][%[[WRITE]]] mask
// CHECK: tile.async_copy %{{.*}}, %[[RB]][%[[WRITE]]] mask
// CHECK-NEXT: tile.async_commit
// CHECK-NOT: tile.load
// CHECK: %[[A:.*]] = tile.local_load %[[RA]][%[[READ]]] : !tile.shared<3x128x32xf16, contiguous = 1> -> tensor<128x32xf16, #tile.blocked
// CHECK: %[[B:.*]] = tile.local_load %[[RB]][%[[READ]]] : !tile.shared<3x32x128xf16, contiguous = 1> -> tensor<32x128xf16, #tile.blocked
// CHECK: tile.dot %[[A]], %[[B]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait pending = 0
// S4-LABEL: func.func @carried_pointers
// S4: tile.local_alloc : !tile.shared<4x128x32xf16, contiguous = 1>
// S4-COUNT-3: tile.async_commit
// S4: scf.for
// S4: tile.async_wait pending = 2
// late-copies: the same wait at the top, the dot right after it, and the
// copies of iteration k+2 at the end of the body.
// LATE-LABEL: func.func @carried_pointers
// LATE: %[[RA:.*]] = tile.local_alloc : !tile.shared<3x128x32xf16, contiguous = 1>
// LATE: %[[RB:.*]] = tile.local_alloc : !tile.shared<3x32x128xf16, contiguous = 1>
// LATE: scf.for
// LATE: %[[READ:.*]] = arith.remui %{{.*}}, %c3_i32
// LATE: %[[WRITE:.*]] = arith.remui
// LATE: tile.async_wait pending = 1
// LATE-NOT: tile.async_copy
// LATE: tile.local_load %[[RA]][%[[READ]]]
// LATE-NOT: tile.async_copy
// LATE: tile.dot
// LATE: tile.async_copy %{{.*}}, %[[RA]][%[[WRITE]]] mask
// LATE: tile.async_copy %{{.*}}, %[[RB]][%[[WRITE]]] mask
// LATE-NEXT: tile.async_commit
// LATE-NEXT: scf.yield
// LATE-NEXT: }
// LATE-NEXT: tile.async_wait pending = 0
func.func @carried_pointers(%a: !tile.ptr<f16> {tile.divisibility = 16},
                            %b: !tile.ptr<f16> {tile.divisibility = 16},
                            %c: !tile.ptr<f32> {tile.divisibility = 16},
                            %K: i32 {tile.divisibility = 8}) {
  %r128 = tile.make_range 0 to 128 : tensor<128xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %r128 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %s32 = arith.constant dense<32> : tensor<128x1xi32>
  %amr = arith.muli %am, %s32 : tensor<128x1xi32>
  %amb = tile.broadcast %amr : tensor<128x1xi32> -> tensor<128x32xi32>
  %ak = tile.expand_dims %r32 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<128x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<128x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<128x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %aoff : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
  %bk = tile.expand_dims %r32 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s128 = arith.constant dense<128> : tensor<32x1xi32>
  %bkr = arith.muli %bk, %s128 : tensor<32x1xi32>
  %bkb = tile.broadcast %bkr : tensor<32x1xi32> -> tensor<32x128xi32>
  %bn = tile.expand_dims %r128 axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %bnb = tile.broadcast %bn : tensor<1x128xi32> -> tensor<32x128xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x128xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %boff : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %zero_a = arith.constant dense<0.0> : tensor<128x32xf16>
  %zero_b = arith.constant dense<0.0> : tensor<32x128xf16>
  %astep = arith.constant dense<32> : tensor<128x32xi32>
  %bstep = arith.constant dense<4096> : tensor<32x128xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %kt = arith.divsi %K, %c32 : i32
  %acc, %ap_end, %bp_end = scf.for %i = %c0 to %kt step %c1
      iter_args(%acc_i = %zero, %ap = %ap0, %bp = %bp0)
      -> (tensor<128x128xf32>, tensor<128x32x!tile.ptr<f16>>, tensor<32x128x!tile.ptr<f16>>) : i32 {
    %done = arith.muli %i, %c32 : i32
    %left = arith.subi %K, %done : i32
    %lefta = tile.splat %left : i32 -> tensor<128x32xi32>
    %ma = arith.cmpi slt, %akb, %lefta : tensor<128x32xi32>
    %leftb = tile.splat %left : i32 -> tensor<32x128xi32>
    %bkk = tile.broadcast %bk : tensor<32x1xi32> -> tensor<32x128xi32>
    %mb = arith.cmpi slt, %bkk, %leftb : tensor<32x128xi32>
    %av = tile.load %ap mask %ma other %zero_a : tensor<128x32x!tile.ptr<f16>>
    %bv = tile.load %bp mask %mb other %zero_b : tensor<32x128x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<128x32xf16>, tensor<32x128xf16> -> tensor<128x128xf32>
    %apn = tile.addptr %ap, %astep : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
    %bpn = tile.addptr %bp, %bstep : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
    scf.yield %d, %apn, %bpn : tensor<128x128xf32>, tensor<128x32x!tile.ptr<f16>>, tensor<32x128x!tile.ptr<f16>>
  }
  %cm = tile.expand_dims %r128 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %s128c = arith.constant dense<128> : tensor<128x1xi32>
  %cmr = arith.muli %cm, %s128c : tensor<128x1xi32>
  %cmb = tile.broadcast %cmr : tensor<128x1xi32> -> tensor<128x128xi32>
  %cnb = tile.broadcast %bn : tensor<1x128xi32> -> tensor<128x128xi32>
  %coff = arith.addi %cmb, %cnb : tensor<128x128xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %coff : tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>
  tile.store %acc, %cp : tensor<128x128x!tile.ptr<f32>>
  return
}

// -----

// Addresses computed from the induction variable only: nothing is carried;
// the copies of iteration k+2 use iv + 2 * step.
// CHECK-LABEL: func.func @iv_addresses
// CHECK: tile.local_alloc : !tile.shared<3x64x32xf16, contiguous = 1>
// CHECK: tile.local_alloc : !tile.shared<3x32x64xf16, contiguous = 1>
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %[[STEP:[^ ]*]]
// CHECK: arith.divui
// CHECK: %[[TWO:.*]] = arith.muli %[[STEP]], %c2_i32
// CHECK: %[[AHEAD:.*]] = arith.addi %[[IV]], %[[TWO]]
// CHECK: tile.async_wait pending = 1
// CHECK: tile.splat %[[AHEAD]]
// CHECK: tile.local_load
// CHECK: tile.local_load
// CHECK: tile.dot
func.func @iv_addresses(%a: !tile.ptr<f16> {tile.divisibility = 16},
                        %b: !tile.ptr<f16> {tile.divisibility = 16},
                        %c: !tile.ptr<f32> {tile.divisibility = 16}, %k: i32) {
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %r64 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s32 = arith.constant dense<4096> : tensor<64x1xi32>
  %amr = arith.muli %am, %s32 : tensor<64x1xi32>
  %amb = tile.broadcast %amr : tensor<64x1xi32> -> tensor<64x32xi32>
  %ak = tile.expand_dims %r32 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %bk = tile.expand_dims %r32 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s64 = arith.constant dense<64> : tensor<32x1xi32>
  %bkr = arith.muli %bk, %s64 : tensor<32x1xi32>
  %bkb = tile.broadcast %bkr : tensor<32x1xi32> -> tensor<32x64xi32>
  %bn = tile.expand_dims %r64 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc = scf.for %i = %c0 to %k step %c32 iter_args(%acc_i = %zero) -> (tensor<64x64xf32>) : i32 {
    %aoffs = tile.splat %i : i32 -> tensor<64x32xi32>
    %ap = tile.addptr %ap0, %aoffs : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %boffs0 = arith.muli %i, %c32 : i32
    %boffs = tile.splat %boffs0 : i32 -> tensor<32x64xi32>
    %bp = tile.addptr %bp0, %boffs : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    %av = tile.load %ap : tensor<64x32x!tile.ptr<f16>>
    %bv = tile.load %bp : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cm = tile.expand_dims %r64 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cmr = arith.muli %cm, %s32 : tensor<64x1xi32>
  %cmb = tile.broadcast %cmr : tensor<64x1xi32> -> tensor<64x64xi32>
  %cnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %cmb, %cnb : tensor<64x64xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %acc, %cp : tensor<64x64x!tile.ptr<f32>>
  return
}
