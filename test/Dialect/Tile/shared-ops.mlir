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
