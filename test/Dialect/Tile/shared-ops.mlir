// RUN: llk-opt %s | llk-opt | FileCheck %s

// The shared-memory buffers and asynchronous copies of software pipelining
// print and parse back as written.
// CHECK-LABEL: func.func @ring
// CHECK: %[[RING:.*]] = tile.local_alloc : !tile.shared<3x64x32xf16, contiguous = 1>
// CHECK: tile.async_copy %{{.*}}, %[[RING]][%{{.*}}] mask %{{.*}} : tensor<64x32x!tile.ptr<f16>> -> !tile.shared<3x64x32xf16, contiguous = 1>
// CHECK: tile.async_copy %{{.*}}, %[[RING]][%{{.*}}] : tensor<64x32x!tile.ptr<f16>> -> !tile.shared<3x64x32xf16, contiguous = 1>
// CHECK: tile.async_commit
// CHECK: tile.async_wait pending = 1
// CHECK: tile.local_load %[[RING]][%{{.*}}] : !tile.shared<3x64x32xf16, contiguous = 1> -> tensor<64x32xf16>
// CHECK: tile.local_alloc : !tile.shared<2x32x16xi8, contiguous = 0>
func.func @ring(%p: tensor<64x32x!tile.ptr<f16>>, %m: tensor<64x32xi1>, %slot: i32) -> tensor<64x32xf16> {
  %ring = tile.local_alloc : !tile.shared<3x64x32xf16, contiguous = 1>
  tile.async_copy %p, %ring[%slot] mask %m : tensor<64x32x!tile.ptr<f16>> -> !tile.shared<3x64x32xf16, contiguous = 1>
  tile.async_copy %p, %ring[%slot] : tensor<64x32x!tile.ptr<f16>> -> !tile.shared<3x64x32xf16, contiguous = 1>
  tile.async_commit
  tile.async_wait pending = 1
  %t = tile.local_load %ring[%slot] : !tile.shared<3x64x32xf16, contiguous = 1> -> tensor<64x32xf16>
  %other = tile.local_alloc : !tile.shared<2x32x16xi8, contiguous = 0>
  return %t : tensor<64x32xf16>
}

// TMA: a tensor descriptor, a descriptor block, the bulk copy of a block
// into a slot (predicated), the wait on the slot's barrier, and the wait
// for asynchronous dots.
// CHECK-LABEL: func.func @tma
// CHECK-SAME: %[[D:.*]]: !tile.tensordesc<64x64xf16>
// CHECK: tile.descriptor_load %[[D]][%{{.*}}, %{{.*}}] : !tile.tensordesc<64x64xf16> -> tensor<64x64xf16>
// CHECK: %[[RING:.*]] = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: tile.async_tma_copy %[[D]][%{{.*}}, %{{.*}}], %[[RING]][%{{.*}}] if %{{.*}} : !tile.tensordesc<64x64xf16> -> !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: tile.async_tma_wait %[[RING]][%{{.*}}] phase %{{.*}} : !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: tile.dot_wait %{{.*}} : tensor<64x64xf32>
func.func @tma(%d: !tile.tensordesc<64x64xf16>, %r: i32, %c: i32, %p: i1,
               %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = tile.descriptor_load %d[%r, %c] : !tile.tensordesc<64x64xf16> -> tensor<64x64xf16>
  %ring = tile.local_alloc : !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_tma_copy %d[%r, %c], %ring[%r] if %p : !tile.tensordesc<64x64xf16> -> !tile.shared<2x64x64xf16, contiguous = 1>
  tile.async_tma_wait %ring[%r] phase %c : !tile.shared<2x64x64xf16, contiguous = 1>
  %w = tile.dot_wait %acc : tensor<64x64xf32>
  return %w : tensor<64x64xf32>
}

// The places tile-allocate-shared gives buffers, the wgmma swizzle and a
// dot's tensor-core instruction print and parse back as written.
// CHECK-LABEL: func.func @placed
// CHECK: %[[A:.*]] = tile.local_alloc {barrier_offset = 0 : i64, offset = 1024 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
// CHECK: tile.local_alloc {offset = 17408 : i64} : !tile.shared<2x64x64xf16, contiguous = 1>
// CHECK: tile.local_load %[[A]][%{{.*}}] : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma> -> tensor<64x64xf16, #[[OP:.*]]>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #[[OP]]>, tensor<64x64xf16, #[[OP]]> -> tensor<64x64xf32, #{{.*}}>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {mma = #tile.mma<version = 2, instrShape = [16, 8, 16], warpsPerCTA = [4, 1]>}
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @placed(%slot: i32, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %ra = tile.local_alloc {barrier_offset = 0 : i64, offset = 1024 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  %rb = tile.local_alloc {offset = 17408 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = xor16>
  %x = tile.local_load %ra[%slot] : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma> -> tensor<64x64xf16, #op>
  %d = tile.dot %x, %x, %acc {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  %e = tile.dot %x, %x, %d {mma = #tile.mma<version = 2, instrShape = [16, 8, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  return %e : tensor<64x64xf32, #acc>
}

// fp8 buffers take the wgmma swizzle, and fp8 dots warpgroup MMA's k32.
// CHECK-LABEL: func.func @placed_fp8
// CHECK: tile.local_alloc {offset = 0 : i64} : !tile.shared<2x64x128xf8E4M3FN, contiguous = 1, swizzle = wgmma>
// CHECK: tile.local_alloc {offset = 16384 : i64} : !tile.shared<2x128x64xf8E5M2, contiguous = 0, swizzle = wgmma>
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {mma = #tile.mma<version = 3, instrShape = [64, 64, 32], warpsPerCTA = [4, 1]>} : tensor<64x128xf8E4M3FN, #{{.*}}>, tensor<128x64xf8E5M2, #{{.*}}> -> tensor<64x64xf32, #{{.*}}>
#op8 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @placed_fp8(%slot: i32, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %ra = tile.local_alloc {offset = 0 : i64} : !tile.shared<2x64x128xf8E4M3FN, contiguous = 1, swizzle = wgmma>
  %rb = tile.local_alloc {offset = 16384 : i64} : !tile.shared<2x128x64xf8E5M2, contiguous = 0, swizzle = wgmma>
  %x = tile.local_load %ra[%slot] : !tile.shared<2x64x128xf8E4M3FN, contiguous = 1, swizzle = wgmma> -> tensor<64x128xf8E4M3FN, #op8>
  %y = tile.local_load %rb[%slot] : !tile.shared<2x128x64xf8E5M2, contiguous = 0, swizzle = wgmma> -> tensor<128x64xf8E5M2, #op8>
  %d = tile.dot %x, %y, %acc {mma = #tile.mma<version = 3, instrShape = [64, 64, 32], warpsPerCTA = [4, 1]>} : tensor<64x128xf8E4M3FN, #op8>, tensor<128x64xf8E5M2, #op8> -> tensor<64x64xf32, #acc>
  return %d : tensor<64x64xf32, #acc>
}
