// RUN: llk-opt %s -split-input-file -tile-allocate-shared | FileCheck %s

// A dot on warpgroup MMA whose operands are read from buffers of their own:
// both buffers get the wgmma swizzle and 1024-byte aligned places, one after
// the other (2 slots of 64x64 f16: 16384 bytes each); the dot keeps its
// instruction.
// CHECK-LABEL: func.func @wgmma_buffers
// CHECK: %[[A:.*]] = tile.local_alloc {offset = 0 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
// CHECK: %[[B:.*]] = tile.local_alloc {offset = 16384 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
// CHECK: tile.async_copy %{{.*}}, %[[A]][%{{.*}}] : tensor<64x64x!tile.ptr<f16>, #{{.*}}> -> !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
// CHECK: tile.local_load %[[A]][%{{.*}}] : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
// CHECK: tile.dot {{.*}} {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>}
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_buffers(%p: tensor<64x64x!tile.ptr<f16>, #op>, %slot: i32, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> attributes {tile.num_warps = 4 : i32} {
  %ra = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  %rb = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_copy %p, %ra[%slot] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_copy %p, %rb[%slot] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %ra[%slot] : !tile.shared<2x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #op>
  %y = tile.local_load %rb[%slot] : !tile.shared<2x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #op>
  %d = tile.dot %x, %y, %acc {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  return %d : tensor<64x64xf32, #acc>
}

// -----

// Buffers that TMA fills: their slots' mbarriers first (8 bytes a slot, in
// the order of the copies: B's at 0, A's at 16), then the buffers.
// CHECK-LABEL: func.func @tma_barriers
// CHECK: tile.local_alloc {barrier_offset = 16 : i64, offset = 1024 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
// CHECK: tile.local_alloc {barrier_offset = 0 : i64, offset = 17408 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @tma_barriers(%a: !tile.tensordesc<64x64xf16>, %b: !tile.tensordesc<64x64xf16>, %i: i32, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> attributes {tile.num_warps = 4 : i32} {
  %true = arith.constant true
  %ra = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  %rb = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_tma_copy %b[%i, %i], %rb[%i] if %true : !tile.tensordesc<64x64xf16> -> !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_tma_copy %a[%i, %i], %ra[%i] if %true : !tile.tensordesc<64x64xf16> -> !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_tma_wait %ra[%i] phase %i : !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_tma_wait %rb[%i] phase %i : !tile.shared<2x64x64xf16, contiguous = 1>
  %x = tile.local_load %ra[%i] : !tile.shared<2x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #op>
  %y = tile.local_load %rb[%i] : !tile.shared<2x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #op>
  %d = tile.dot %x, %y, %acc {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  return %d : tensor<64x64xf32, #acc>
}

// -----

// Warpgroup MMA reads B from shared memory only: with b in registers the
// dot drops to mma.sync and a's buffer keeps the default
// swizzle. Buffers without it are 128-byte aligned (3 slots of 8x8 i8: 192
// bytes, so the next one starts at 256).
// CHECK-LABEL: func.func @demoted
// CHECK: tile.local_alloc {offset = 0 : i64} : !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: tile.local_alloc {offset = 16384 : i64} : !tile.shared<3x8x8xi8, contiguous = 1>
// CHECK: tile.local_alloc {offset = 16640 : i64} : !tile.shared<1x8x8xi8, contiguous = 0>
// CHECK: tile.dot {{.*}} {mma = #tile.mma<version = 2, instrShape = [16, 8, 16], warpsPerCTA = [4, 1]>}
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#i8 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]>
func.func @demoted(%y: tensor<64x64xf16, #op>, %slot: i32, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> attributes {tile.num_warps = 4 : i32} {
  %ra = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  %small = tile.local_alloc : !tile.shared<3x8x8xi8, contiguous = 1>
  %last = tile.local_alloc : !tile.shared<1x8x8xi8, contiguous = 0>
  %x = tile.local_load %ra[%slot] : !tile.shared<2x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #op>
  %d = tile.dot %x, %y, %acc {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  %s = tile.local_load %small[%slot] : !tile.shared<3x8x8xi8, contiguous = 1> -> tensor<8x8xi8, #i8>
  %l = tile.local_load %last[%slot] : !tile.shared<1x8x8xi8, contiguous = 0> -> tensor<8x8xi8, #i8>
  return %d : tensor<64x64xf32, #acc>
}

// -----

// A in registers (FlashAttention's P·V): an A already in the accumulator
// layout of its shape (the previous dot's accumulator, converted to f16) is
// warpgroup MMA's register operand as it is; only B needs a buffer, which
// gets the wgmma swizzle. The dot keeps its instruction.
// CHECK-LABEL: func.func @wgmma_register_a
// CHECK: %[[B:.*]] = tile.local_alloc {offset = 0 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[P:.*]] = tile.cast
// CHECK: tile.dot %[[P]], %{{.*}}, %{{.*}} {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #[[ACC:.*]]>, tensor<64x64xf16, #{{.*}}> -> tensor<64x64xf32, #[[ACC]]>
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_register_a(%p: tensor<64x64x!tile.ptr<f16>, #op>, %slot: i32, %s: tensor<64x64xf32, #acc>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> attributes {tile.num_warps = 4 : i32} {
  %rb = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_copy %p, %rb[%slot] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_commit
  tile.async_wait pending = 0
  %pt = tile.cast %s : tensor<64x64xf32, #acc> to tensor<64x64xf16, #acc>
  %v = tile.local_load %rb[%slot] : !tile.shared<2x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #op>
  %d = tile.dot %pt, %v, %acc {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #acc>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  return %d : tensor<64x64xf32, #acc>
}

// -----

// A computed outside the loop around the dot in another layout
// (FlashAttention's Q): one tile.convert_layout to the register-A layout
// there, before the loop, which both dots of the loop share; B's buffer gets
// the wgmma swizzle and the dots keep warpgroup MMA.
// CHECK-LABEL: func.func @wgmma_invariant_a
// CHECK: %[[Q:.*]] = tile.convert_layout %arg0 : tensor<64x64xf16, #{{.*}}> -> tensor<64x64xf16, #[[ACC:.*]]>
// CHECK-NOT: tile.convert_layout
// CHECK: scf.for
// CHECK: tile.dot %[[Q]], {{.*}} {mma = #tile.mma<version = 3, {{.*}}} : tensor<64x64xf16, #[[ACC]]>
// CHECK: tile.dot %[[Q]], {{.*}} {mma = #tile.mma<version = 3, {{.*}}} : tensor<64x64xf16, #[[ACC]]>
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_invariant_a(%q: tensor<64x64xf16, #op>, %p: tensor<64x64x!tile.ptr<f16>, #op>, %n: i32, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> attributes {tile.num_warps = 4 : i32} {
  %rb = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 0>
  %rc = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 0>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc) -> (tensor<64x64xf32, #acc>) : i32 {
    tile.async_copy %p, %rb[%c0] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 0>
    tile.async_copy %p, %rc[%c0] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 0>
    tile.async_commit
    tile.async_wait pending = 0
    %k = tile.local_load %rb[%c0] : !tile.shared<2x64x64xf16, contiguous = 0> -> tensor<64x64xf16, #op>
    %d = tile.dot %q, %k, %a {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
    %k2 = tile.local_load %rc[%c0] : !tile.shared<2x64x64xf16, contiguous = 0> -> tensor<64x64xf16, #op>
    %e = tile.dot %q, %k2, %d {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
    scf.yield %e : tensor<64x64xf32, #acc>
  }
  return %r : tensor<64x64xf32, #acc>
}

// -----

// A computed in the loop in another layout: converting it would cost a
// round trip through shared memory every step, so the dot drops to
// mma.sync and B's buffer keeps the default swizzle.
// CHECK-LABEL: func.func @wgmma_variant_a
// CHECK: tile.local_alloc {offset = 0 : i64} : !tile.shared<2x64x64xf16, contiguous = 0>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.dot {{.*}} {mma = #tile.mma<version = 2, instrShape = [16, 8, 16], warpsPerCTA = [4, 1]>}
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_variant_a(%q: tensor<64x64xf16, #op>, %p: tensor<64x64x!tile.ptr<f16>, #op>, %n: i32, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> attributes {tile.num_warps = 4 : i32} {
  %rb = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 0>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %acc) -> (tensor<64x64xf32, #acc>) : i32 {
    tile.async_copy %p, %rb[%c0] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 0>
    tile.async_commit
    tile.async_wait pending = 0
    %qi = arith.addf %q, %q : tensor<64x64xf16, #op>
    %k = tile.local_load %rb[%c0] : !tile.shared<2x64x64xf16, contiguous = 0> -> tensor<64x64xf16, #op>
    %d = tile.dot %qi, %k, %a {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
    scf.yield %d : tensor<64x64xf32, #acc>
  }
  return %r : tensor<64x64xf32, #acc>
}

// -----

// Buffers never live at once share bytes (the rings of attention's two key
// loops): each lives from its allocation to its last use in the block, so
// the second pair starts at the first pair's offsets and is marked
// `reuses_bytes` (its lowering first drains the thread's cp.async copies);
// a buffer still live (%keep, read after the second loop) is placed clear
// of both.
// CHECK-LABEL: func.func @disjoint_ranges
// CHECK: tile.local_alloc {offset = 0 : i64} : !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: tile.local_alloc {offset = 16384 : i64} : !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: tile.local_alloc {offset = 32768 : i64} : !tile.shared<1x64x64xf16, contiguous = 1>
// CHECK: scf.for
// CHECK: tile.async_wait pending = 0
// CHECK: tile.local_alloc {offset = 0 : i64, reuses_bytes} : !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: tile.local_alloc {offset = 16384 : i64, reuses_bytes} : !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: scf.for
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @disjoint_ranges(%p: tensor<64x64x!tile.ptr<f16>, #op>, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a1 = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  %b1 = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  %keep = tile.local_alloc : !tile.shared<1x64x64xf16, contiguous = 1>
  scf.for %i = %c0 to %n step %c1 : i32 {
    tile.async_copy %p, %a1[%c0] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 1>
    tile.async_copy %p, %b1[%c0] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 1>
    tile.async_copy %p, %keep[%c0] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<1x64x64xf16, contiguous = 1>
    tile.async_commit
  }
  tile.async_wait pending = 0
  %a2 = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  %b2 = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  scf.for %i = %c0 to %n step %c1 : i32 {
    tile.async_copy %p, %a2[%c0] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 1>
    tile.async_copy %p, %b2[%c0] : tensor<64x64x!tile.ptr<f16>, #op> -> !tile.shared<2x64x64xf16, contiguous = 1>
  }
  %k = tile.local_load %keep[%c0] : !tile.shared<1x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #op>
  return
}
