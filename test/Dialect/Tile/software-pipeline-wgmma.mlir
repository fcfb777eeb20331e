// RUN: llk-opt %s -tile-assign-layouts=wgmma=true -tile-software-pipeline="num-stages=4 wgmma=true" -mlir-print-local-scope | FileCheck %s
// RUN: llk-opt %s -tile-assign-layouts -tile-software-pipeline=num-stages=4 -mlir-print-local-scope | FileCheck %s --check-prefix=SYNC
// RUN: llk-opt %s -tile-assign-layouts=wgmma=true -tile-software-pipeline="num-stages=3 wgmma=true" -mlir-print-local-scope | FileCheck %s --check-prefix=S3
// RUN: llk-opt %s -tile-assign-layouts=wgmma=true -tile-software-pipeline="num-stages=4 wgmma=true" -canonicalize -cse -tile-allocate-shared -mlir-print-local-scope | FileCheck %s --check-prefix=ALLOC

// For sm_90a (wgmma), the accumulator puts all four warps along M, 16 rows
// each (warpRepeat: the rows warpgroup MMA gives a warp), and the
// K loop lets the dot run asynchronously: each iteration waits for its
// slot (which synchronizes the program: every warpgroup has by then waited
// for step k-2), starts its dot, and then starts the copies of iteration
// k+2 into slot (k+2) % 4, the one step k-2 read, with no barrier of their
// own; a tile.dot_wait after the loop waits for the last step before
// anything reads the accumulator.
// Then tile-allocate-shared gives both rings the wgmma swizzle (1024-byte
// aligned; 4 slots of 128x64 f16 are 65536 bytes) and marks the dot async.
// ALLOC-LABEL: func.func @wgmma_loop
// ALLOC: tile.local_alloc {offset = 0 : i64} : !tile.shared<4x128x64xf16, contiguous = 1, swizzle = wgmma>
// ALLOC: tile.local_alloc {offset = 65536 : i64} : !tile.shared<4x64x128xf16, contiguous = 1, swizzle = wgmma>
// ALLOC: tile.dot {{.*}} {async, mma = #tile.mma<version = 3, instrShape = [64, 128, 16], warpsPerCTA = [4, 1]>}
// CHECK-LABEL: func.func @wgmma_loop
// CHECK: %[[RA:.*]] = tile.local_alloc : !tile.shared<4x128x64xf16, contiguous = 1>
// CHECK: %[[RB:.*]] = tile.local_alloc : !tile.shared<4x64x128xf16, contiguous = 1>
// CHECK-COUNT-2: tile.async_commit
// CHECK-NOT: tile.async_commit
// CHECK: %[[LOOP:.*]]:3 = scf.for
// CHECK: tile.async_wait pending = 1
// CHECK-NOT: tile.async_copy
// CHECK: tile.local_load %[[RA]]
// CHECK: tile.local_load %[[RB]]
// CHECK: %[[D:.*]] = tile.dot {{.*}} -> tensor<128x128xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>>
// CHECK-NOT: tile.barrier
// CHECK: tile.async_copy %{{.*}}, %[[RA]]
// CHECK: tile.async_copy %{{.*}}, %[[RB]]
// CHECK-NEXT: tile.async_commit
// CHECK: scf.yield %[[D]]
// CHECK: tile.async_wait pending = 0
// CHECK-NEXT: %[[DONE:.*]] = tile.dot_wait %[[LOOP]]#0
// CHECK: tile.convert_layout %[[DONE]]
// With 3 stages, refilling the slot of step k-2 would leave the copies one
// step to land: they refill that of step k-1 instead, two steps ahead,
// behind a barrier after the dot.
// S3-LABEL: func.func @wgmma_loop
// S3-COUNT-2: tile.async_commit
// S3: scf.for
// S3: tile.async_wait pending = 1
// S3: tile.dot
// S3-NEXT: tile.barrier
// S3: tile.async_copy
// S3: scf.yield
// S3: tile.dot_wait

// Without wgmma: the copies come before the dot, no barrier after it, no
// dot_wait; warps split over M and N.
// SYNC-LABEL: func.func @wgmma_loop
// SYNC: tile.async_wait pending = 2
// SYNC: tile.async_copy
// SYNC: tile.async_copy
// SYNC-NEXT: tile.async_commit
// SYNC: tile.dot {{.*}} warpsPerCTA = [2, 2]
// SYNC-NOT: tile.barrier
// SYNC-NOT: tile.dot_wait
func.func @wgmma_loop(%a: !tile.ptr<f16> {tile.divisibility = 16},
                            %b: !tile.ptr<f16> {tile.divisibility = 16},
                            %c: !tile.ptr<f32> {tile.divisibility = 16},
                            %K: i32 {tile.divisibility = 8}) {
  %r128 = tile.make_range 0 to 128 : tensor<128xi32>
  %r32 = tile.make_range 0 to 64 : tensor<64xi32>
  %am = tile.expand_dims %r128 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %s32 = arith.constant dense<64> : tensor<128x1xi32>
  %amr = arith.muli %am, %s32 : tensor<128x1xi32>
  %amb = tile.broadcast %amr : tensor<128x1xi32> -> tensor<128x64xi32>
  %ak = tile.expand_dims %r32 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %akb = tile.broadcast %ak : tensor<1x64xi32> -> tensor<128x64xi32>
  %aoff = arith.addi %amb, %akb : tensor<128x64xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %aoff : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %bk = tile.expand_dims %r32 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s128 = arith.constant dense<128> : tensor<64x1xi32>
  %bkr = arith.muli %bk, %s128 : tensor<64x1xi32>
  %bkb = tile.broadcast %bkr : tensor<64x1xi32> -> tensor<64x128xi32>
  %bn = tile.expand_dims %r128 axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %bnb = tile.broadcast %bn : tensor<1x128xi32> -> tensor<64x128xi32>
  %boff = arith.addi %bkb, %bnb : tensor<64x128xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<64x128x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %boff : tensor<64x128x!tile.ptr<f16>>, tensor<64x128xi32>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %zero_a = arith.constant dense<0.0> : tensor<128x64xf16>
  %zero_b = arith.constant dense<0.0> : tensor<64x128xf16>
  %astep = arith.constant dense<64> : tensor<128x64xi32>
  %bstep = arith.constant dense<8192> : tensor<64x128xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 64 : i32
  %kt = arith.divsi %K, %c32 : i32
  %acc, %ap_end, %bp_end = scf.for %i = %c0 to %kt step %c1
      iter_args(%acc_i = %zero, %ap = %ap0, %bp = %bp0)
      -> (tensor<128x128xf32>, tensor<128x64x!tile.ptr<f16>>, tensor<64x128x!tile.ptr<f16>>) : i32 {
    %done = arith.muli %i, %c32 : i32
    %left = arith.subi %K, %done : i32
    %lefta = tile.splat %left : i32 -> tensor<128x64xi32>
    %ma = arith.cmpi slt, %akb, %lefta : tensor<128x64xi32>
    %leftb = tile.splat %left : i32 -> tensor<64x128xi32>
    %bkk = tile.broadcast %bk : tensor<64x1xi32> -> tensor<64x128xi32>
    %mb = arith.cmpi slt, %bkk, %leftb : tensor<64x128xi32>
    %av = tile.load %ap mask %ma other %zero_a : tensor<128x64x!tile.ptr<f16>>
    %bv = tile.load %bp mask %mb other %zero_b : tensor<64x128x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
    %apn = tile.addptr %ap, %astep : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %bpn = tile.addptr %bp, %bstep : tensor<64x128x!tile.ptr<f16>>, tensor<64x128xi32>
    scf.yield %d, %apn, %bpn : tensor<128x128xf32>, tensor<128x64x!tile.ptr<f16>>, tensor<64x128x!tile.ptr<f16>>
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

// Descriptor loads (TMA) on sm_90a: the copies are tile.async_tma_copy,
// predicated on the iteration being in range, three ahead (4 stages); each
// iteration waits on its slot's barrier with phase (k / 4) % 2 instead of
// waiting for cp.async groups; the dot runs asynchronously as above.
// Without wgmma nothing is pipelined (TMA needs sm_90a).
// ALLOC-LABEL: func.func @tma_loop
// ALLOC: tile.local_alloc {barrier_offset = 0 : i64, offset = 1024 : i64} : !tile.shared<4x128x64xf16, contiguous = 1, swizzle = wgmma>
// ALLOC: tile.local_alloc {barrier_offset = 32 : i64, offset = 66560 : i64} : !tile.shared<4x64x128xf16, contiguous = 1, swizzle = wgmma>
// ALLOC: tile.dot {{.*}} {async, mma = #tile.mma<version = 3, instrShape = [64, 128, 16], warpsPerCTA = [4, 1]>}
// CHECK-LABEL: func.func @tma_loop
// CHECK: %[[TA:.*]] = tile.local_alloc : !tile.shared<4x128x64xf16, contiguous = 1>
// CHECK: %[[TB:.*]] = tile.local_alloc : !tile.shared<4x64x128xf16, contiguous = 1>
// CHECK-COUNT-3: tile.async_tma_copy %arg1
// CHECK-NOT: tile.async_commit
// CHECK: scf.for
// CHECK: %[[INDEX:.*]] = arith.subi
// CHECK: %[[READ:.*]] = arith.remui %[[INDEX]], %c4_i32
// CHECK-NOT: tile.async_wait
// CHECK: %[[ROUND:.*]] = arith.divui %[[INDEX]], %c4_i32
// CHECK: %[[PHASE:.*]] = arith.andi %[[ROUND]], %c1_i32
// CHECK: tile.async_tma_wait %[[TA]][%[[READ]]] phase %[[PHASE]]
// CHECK: tile.async_tma_wait %[[TB]][%[[READ]]] phase %[[PHASE]]
// CHECK: tile.dot
// CHECK-NEXT: tile.barrier
// CHECK: tile.async_tma_copy %arg0[%{{.*}}], %[[TA]][%{{.*}}] if %{{.*}}
// CHECK: tile.async_tma_copy %arg1[%{{.*}}], %[[TB]][%{{.*}}] if %{{.*}}
// CHECK: scf.yield
// CHECK-NOT: tile.async_wait
// CHECK: tile.dot_wait
// SYNC-LABEL: func.func @tma_loop
// SYNC-NOT: tile.async_tma_copy
// SYNC: tile.descriptor_load
func.func @tma_loop(%a: !tile.tensordesc<128x64xf16>, %b: !tile.tensordesc<64x128xf16>,
                    %K: i32, %c: !tile.ptr<f32> {tile.divisibility = 16}) {
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %kt = arith.divsi %K, %c64 : i32
  %acc = scf.for %i = %c0 to %kt step %c1 iter_args(%acc_i = %zero) -> (tensor<128x128xf32>) : i32 {
    %k0 = arith.muli %i, %c64 : i32
    %av = tile.descriptor_load %a[%c0, %k0] : !tile.tensordesc<128x64xf16> -> tensor<128x64xf16>
    %bv = tile.descriptor_load %b[%k0, %c0] : !tile.tensordesc<64x128xf16> -> tensor<64x128xf16>
    %d = tile.dot %av, %bv, %acc_i : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %rows = tile.expand_dims %r axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %s128 = arith.constant dense<128> : tensor<128x1xi32>
  %rowoff = arith.muli %rows, %s128 : tensor<128x1xi32>
  %rowb = tile.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x128xi32>
  %cols = tile.expand_dims %r axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %colb = tile.broadcast %cols : tensor<1x128xi32> -> tensor<128x128xi32>
  %off = arith.addi %rowb, %colb : tensor<128x128xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>
  tile.store %acc, %cp : tensor<128x128x!tile.ptr<f32>>
  return
}

// B as the transpose of an N x K descriptor block (K-major B, Triton's
// `b_desc.load([n, k]).T`; fp8 wgmma reads nothing else): the copies fill a
// buffer of K x N slots with K innermost (contiguous = 0, the block's bytes
// as TMA writes them), the dot reads it through tile.local_load, and the
// tile.trans goes; allocation gives both buffers the wgmma swizzle and the
// dot fp8 warpgroup MMA.
// ALLOC-LABEL: func.func @tma_trans_loop
// ALLOC: tile.local_alloc {barrier_offset = 0 : i64, offset = 1024 : i64} : !tile.shared<4x128x128xf8E4M3FN, contiguous = 1, swizzle = wgmma>
// ALLOC: tile.local_alloc {barrier_offset = 32 : i64, offset = 66560 : i64} : !tile.shared<4x128x128xf8E4M3FN, contiguous = 0, swizzle = wgmma>
// ALLOC: tile.dot {{.*}} {async, mma = #tile.mma<version = 3, instrShape = [64, 128, 32], warpsPerCTA = [4, 1]>}
// CHECK-LABEL: func.func @tma_trans_loop
// CHECK: %[[TB:.*]] = tile.local_alloc : !tile.shared<4x128x128xf8E4M3FN, contiguous = 0>
// CHECK: tile.async_tma_copy %arg1[%{{.*}}], %[[TB]][%{{.*}}] if %{{.*}} : !tile.tensordesc<128x128xf8E4M3FN> -> !tile.shared<4x128x128xf8E4M3FN, contiguous = 0>
// CHECK: scf.for
// CHECK: tile.async_tma_wait %[[TB]]
// CHECK-NOT: tile.trans
// CHECK: %[[BT:.*]] = tile.local_load %[[TB]][%{{.*}}] : !tile.shared<4x128x128xf8E4M3FN, contiguous = 0> -> tensor<128x128xf8E4M3FN
// CHECK: tile.dot %{{.*}}, %[[BT]]
// SYNC-LABEL: func.func @tma_trans_loop
// SYNC-NOT: tile.async_tma_copy
// SYNC: tile.trans
func.func @tma_trans_loop(%a: !tile.tensordesc<128x128xf8E4M3FN>, %b: !tile.tensordesc<128x128xf8E4M3FN>,
                          %K: i32, %c: !tile.ptr<f32> {tile.divisibility = 16}) {
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c128 = arith.constant 128 : i32
  %kt = arith.divsi %K, %c128 : i32
  %acc = scf.for %i = %c0 to %kt step %c1 iter_args(%acc_i = %zero) -> (tensor<128x128xf32>) : i32 {
    %k0 = arith.muli %i, %c128 : i32
    %av = tile.descriptor_load %a[%c0, %k0] : !tile.tensordesc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %bv = tile.descriptor_load %b[%c0, %k0] : !tile.tensordesc<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %bt = tile.trans %bv : tensor<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %d = tile.dot %av, %bt, %acc_i : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %rows = tile.expand_dims %r axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %s128 = arith.constant dense<128> : tensor<128x1xi32>
  %rowoff = arith.muli %rows, %s128 : tensor<128x1xi32>
  %rowb = tile.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x128xi32>
  %cols = tile.expand_dims %r axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %colb = tile.broadcast %cols : tensor<1x128xi32> -> tensor<128x128xi32>
  %off = arith.addi %rowb, %colb : tensor<128x128xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>
  tile.store %acc, %cp : tensor<128x128x!tile.ptr<f32>>
  return
}

// A K loop of TMA copies inside a loop over blocks (a persistent program):
// the buffers live across the outer loop, which counts the K steps of the
// blocks before (its new iter arg) so that slots and barrier phases run on
// from block to block; the first block's copies start before the outer
// loop (if it runs), each next block's as soon as this block's dot is done
// (every warpgroup past it: a barrier), before this block's epilogue.
// CHECK-LABEL: func.func @tma_persistent
// CHECK: %[[TA:.*]] = tile.local_alloc : !tile.shared<4x128x64xf16, contiguous = 1>
// CHECK-NEXT: %[[TB:.*]] = tile.local_alloc : !tile.shared<4x64x128xf16, contiguous = 1>
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %{{.*}}, %arg3 : i32
// CHECK-COUNT-3: tile.async_tma_copy %arg1
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %arg3 step %{{.*}} iter_args(%[[DONE:.*]] = %{{.*}}) -> (i32)
// CHECK: scf.for %[[K:.*]] = 
// CHECK: %[[STEP:.*]] = arith.addi %[[DONE]], %{{.*}} : i32
// CHECK: arith.remui %[[STEP]]
// CHECK: tile.async_tma_wait %[[TA]]
// CHECK: tile.dot
// CHECK: tile.async_tma_copy
// CHECK: %[[W:.*]] = tile.dot_wait
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[T]], %{{.*}} : i32
// CHECK: %[[NEXT_DONE:.*]] = arith.addi %[[DONE]], %{{.*}} : i32
// CHECK-COUNT-3: tile.async_tma_copy %arg1[%{{.*}}, %[[NEXT]]]
// CHECK: tile.store
// CHECK: scf.yield %[[NEXT_DONE]] : i32
func.func @tma_persistent(%a: !tile.tensordesc<128x64xf16>, %b: !tile.tensordesc<64x128xf16>,
                          %c: !tile.ptr<f32> {tile.divisibility = 16}, %tiles: i32, %K: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %first = tile.program_id x
  %programs = tile.num_programs x
  %kt = arith.divsi %K, %c64 : i32
  scf.for %t = %first to %tiles step %programs : i32 {
    %acc = scf.for %i = %c0 to %kt step %c1 iter_args(%acc_i = %zero) -> (tensor<128x128xf32>) : i32 {
      %k0 = arith.muli %i, %c64 : i32
      %av = tile.descriptor_load %a[%t, %k0] : !tile.tensordesc<128x64xf16> -> tensor<128x64xf16>
      %bv = tile.descriptor_load %b[%k0, %t] : !tile.tensordesc<64x128xf16> -> tensor<64x128xf16>
      %r = tile.dot %av, %bv, %acc_i : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
      scf.yield %r : tensor<128x128xf32>
    }
    %o = tile.splat %t : i32 -> tensor<128x128xi32>
    %cs = tile.splat %c : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>>
    %cp = tile.addptr %cs, %o : tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>
    tile.store %acc, %cp : tensor<128x128x!tile.ptr<f32>>
  }
  return
}
