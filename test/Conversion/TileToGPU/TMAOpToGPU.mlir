// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// TMA copies into the slots of two buffers that a warpgroup MMA dot reads
// (sm_90a). Shared memory holds first each buffer's mbarriers (8 bytes a
// slot: A's at 0 and 8, B's at 16 and 24), then the buffers, 1024-byte
// aligned for wgmma's 128-byte swizzle (A at 1024, B at 17408; 2 slots of
// 64x64 f16, 8192 bytes each). Each allocation initializes its slots'
// barriers in one thread, with a fence and a barrier after; a copy is one
// thread's expect_tx of the slot's 8192 bytes and one bulk tensor copy per
// 64 x 128-byte box (coordinates column first); a wait spins on
// try_wait.parity. The kernel records each descriptor argument's box.
// CHECK: llvm.mlir.global internal @__llk_smem_tma_dot() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<33792 x i8>
// CHECK-LABEL: gpu.func @tma_dot
// CHECK-SAME: (%[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr<1>, %[[ROW:.*]]: i32, %[[COL:.*]]: i32)
// CHECK-SAME: llk.tma_boxes = [array<i64: 0, 64, 64>, array<i64: 1, 64, 64>]
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @__llk_smem_tma_dot
// CHECK: scf.if
// CHECK-NEXT: nvvm.mbarrier.init %[[SMEM]], %{{.*}} : !llvm.ptr<3>, i32
// CHECK-NEXT: llvm.getelementptr %[[SMEM]][8]
// CHECK-NEXT: nvvm.mbarrier.init
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK: %[[SLOT_A:.*]] = llvm.getelementptr %[[SMEM]][1024]
// CHECK: llvm.getelementptr %[[SMEM]][16]
// CHECK: %[[SLOT_B:.*]] = llvm.getelementptr %[[SMEM]][17408]
// CHECK: scf.if
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[SMEM]], %c8192_i32
// CHECK-NEXT: %[[DST:.*]] = llvm.addrspacecast %[[SLOT_A]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[A]], %[[SMEM]], box[%c0_i32, %[[ROW]]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[B]], %{{.*}}, box[%[[COL]], %c0_i32]
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>

func.func @tma_dot(%a: !tile.tensordesc<64x64xf16>, %b: !tile.tensordesc<64x64xf16>, %c: !tile.ptr<f32>, %row: i32, %col: i32) attributes {tile.num_warps = 4 : i32} {
  %true = arith.constant true
  %c0 = arith.constant 0 : i32
  %ra = tile.local_alloc {barrier_offset = 0 : i64, offset = 1024 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  %rb = tile.local_alloc {barrier_offset = 16 : i64, offset = 17408 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  tile.async_tma_copy %a[%row, %c0], %ra[%c0] if %true : !tile.tensordesc<64x64xf16> -> !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  tile.async_tma_copy %b[%c0, %col], %rb[%c0] if %true : !tile.tensordesc<64x64xf16> -> !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  tile.async_tma_wait %ra[%c0] phase %c0 : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  tile.async_tma_wait %rb[%c0] phase %c0 : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  %x = tile.local_load %ra[%c0] : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma> -> tensor<64x64xf16, #op>
  %y = tile.local_load %rb[%c0] : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma> -> tensor<64x64xf16, #op>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %d = tile.dot %x, %y, %zero {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  %sum = tile.reduce sum %d axis = 1 : tensor<64x64xf32, #acc> -> tensor<64xf32, #tile.slice<dim = 1, parent = #acc>>
  %total = tile.reduce sum %sum axis = 0 : tensor<64xf32, #tile.slice<dim = 1, parent = #acc>> -> f32
  tile.store %total, %c : !tile.ptr<f32>
  return
}

