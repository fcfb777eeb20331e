// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// Each tile.local_alloc is its place in the kernel's shared memory, after a
// barrier (scratch used before the buffer's live range ends with reads;
// canonicalize merges the two allocations' barriers): the first buffer at
// 0, the next 128-byte aligned past it (3 slots of 64x32 f16 = 12288 bytes;
// 2 of 32x16 i8 = 1024 more). A tile.local_load
// whose value is not a dot operand read in place reads the slot into the
// thread's registers: slot 1 starts 4096 bytes in, rows of 64 bytes are
// 16-byte chunks XOR-swizzled by (row / 2) % 4, and each of a thread's
// two runs of 8 contiguous f16 is one 16-byte load.
// CHECK: llvm.mlir.global internal @__llk_smem_slots() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<13312 x i8>
// CHECK-LABEL: gpu.func @slots
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @__llk_smem_slots
// CHECK: gpu.barrier
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[SMEM]][4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: arith.xori
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[SLOT]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.load %[[ADDR]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT: llvm.load {{.*}}!llvm.ptr<3>
// CHECK: gpu.return
#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>

func.func @slots(%p: !tile.ptr<f16>) attributes {tile.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %ring = tile.local_alloc {offset = 0 : i64} : !tile.shared<3x64x32xf16, contiguous = 1>
  %other = tile.local_alloc {offset = 12288 : i64} : !tile.shared<2x32x16xi8, contiguous = 0>
  %t = tile.local_load %ring[%c1] : !tile.shared<3x64x32xf16, contiguous = 1> -> tensor<64x32xf16, #b>
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  tile.store %t, %ps : tensor<64x32x!tile.ptr<f16>, #b>
  return
}

// -----

// A buffer placed on the bytes of one no longer live (`reuses_bytes`, from
// tile-allocate-shared) first waits for the thread's cp.async copies, then
// for every thread: the earlier buffer's copies and reads are done before
// anything writes there. The first allocation only takes the barrier.
// CHECK-LABEL: gpu.func @reused
// CHECK-NOT: nvvm.cp.async.wait.group
// CHECK: gpu.barrier
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>

func.func @reused(%p: !tile.ptr<f16>) attributes {tile.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %first = tile.local_alloc {offset = 0 : i64} : !tile.shared<3x64x32xf16, contiguous = 1>
  %t = tile.local_load %first[%c1] : !tile.shared<3x64x32xf16, contiguous = 1> -> tensor<64x32xf16, #b>
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  tile.store %t, %ps : tensor<64x32x!tile.ptr<f16>, #b>
  %second = tile.local_alloc {offset = 0 : i64, reuses_bytes} : !tile.shared<3x64x32xf16, contiguous = 1>
  %u = tile.local_load %second[%c1] : !tile.shared<3x64x32xf16, contiguous = 1> -> tensor<64x32xf16, #b>
  tile.store %u, %ps : tensor<64x32x!tile.ptr<f16>, #b>
  return
}
