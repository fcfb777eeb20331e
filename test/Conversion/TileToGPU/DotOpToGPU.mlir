// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// f16 dot, A K-contiguous and B N-contiguous: both operands are written to
// shared memory between two barriers (16-byte stores: the loads' vectors),
// then per K step of 16 each warp loads A with ldmatrix.x4 and B with
// ldmatrix.x4.trans (layout col) and issues mma.sync m16n8k16 with f32
// accumulators.
// CHECK-LABEL: gpu.func @dot_f16
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.ldmatrix {{.*}} layout = #nvvm.mma_layout<col>, num = 4
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked3 = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#slice = #tile.slice<dim = 0, parent = #blocked1>
#slice1 = #tile.slice<dim = 1, parent = #blocked1>
#slice2 = #tile.slice<dim = 1, parent = #blocked2>
#slice3 = #tile.slice<dim = 0, parent = #blocked2>
#slice4 = #tile.slice<dim = 1, parent = #blocked3>

func.func @dot_f16(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r64 = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32, #slice>
  %2 = tile.convert_layout %r64 : tensor<64xi32, #blocked> -> tensor<64xi32, #slice1>
  %am = tile.expand_dims %2 axis = 1 : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
  %s32 = arith.constant dense<32> : tensor<64x1xi32, #blocked1>
  %amr = arith.muli %am, %s32 : tensor<64x1xi32, #blocked1>
  %amb = tile.broadcast %amr : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %ak = tile.expand_dims %r32 axis = 0 : tensor<32xi32, #slice> -> tensor<1x32xi32, #blocked1>
  %akb = tile.broadcast %ak : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32, #blocked1>
  %as = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
  %ap = tile.addptr %as, %aoff : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
  %av = tile.load %ap : tensor<64x32x!tile.ptr<f16>, #blocked1>
  %12 = tile.convert_layout %r32 : tensor<32xi32, #slice> -> tensor<32xi32, #slice2>
  %bk = tile.expand_dims %12 axis = 1 : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked2>
  %s64 = arith.constant dense<64> : tensor<32x1xi32, #blocked2>
  %bkr = arith.muli %bk, %s64 : tensor<32x1xi32, #blocked2>
  %bkb = tile.broadcast %bkr : tensor<32x1xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
  %16 = tile.convert_layout %r64 : tensor<64xi32, #blocked> -> tensor<64xi32, #slice3>
  %bn = tile.expand_dims %16 axis = 0 : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked2>
  %bnb = tile.broadcast %bn : tensor<1x64xi32, #blocked2> -> tensor<32x64xi32, #blocked2>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32, #blocked2>
  %bs = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #blocked2>
  %bp = tile.addptr %bs, %boff : tensor<32x64x!tile.ptr<f16>, #blocked2>, tensor<32x64xi32, #blocked2>
  %bv = tile.load %bp : tensor<32x64x!tile.ptr<f16>, #blocked2>
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked3>
  %d = tile.dot %av, %bv, %zero : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked2> -> tensor<64x64xf32, #blocked3>
  %s = tile.reduce sum %d axis = 1 : tensor<64x64xf32, #blocked3> -> tensor<64xf32, #slice4>
  %cs = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #blocked>
  %cp = tile.addptr %cs, %r64 : tensor<64x!tile.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
  %27 = tile.convert_layout %s : tensor<64xf32, #slice4> -> tensor<64xf32, #blocked>
  tile.store %27, %cp : tensor<64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// i8: B (N-contiguous) cannot use ldmatrix.trans on bytes, so it is staged
// K-contiguous one element at a time; mma.sync m16n8k32 with s8 operands,
// wrapping i32 accumulators.
// CHECK-LABEL: gpu.func @dot_i8
// CHECK: llvm.store {{.*}} : i8, !llvm.ptr<3>
// CHECK-NOT: mma_layout<col>, num
// CHECK: nvvm.mma.sync {{.*}} {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>

#blocked = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>

func.func @dot_i8(%x: i8, %y: i8, %c: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : i8 -> tensor<32x32xi8, #blocked>
  %b = tile.splat %y : i8 -> tensor<32x32xi8, #blocked>
  %zero = arith.constant dense<0> : tensor<32x32xi32, #blocked1>
  %d = tile.dot %a, %b, %zero : tensor<32x32xi8, #blocked>, tensor<32x32xi8, #blocked> -> tensor<32x32xi32, #blocked1>
  %s = tile.reduce sum %d axis = 1 : tensor<32x32xi32, #blocked1> -> tensor<32xi32, #slice>
  %t = tile.reduce sum %s axis = 0 : tensor<32xi32, #slice> -> i32
  tile.store %t, %c : !tile.ptr<i32>
  return
}

// -----

// f32 operands: tf32 by default (rounded to nearest, ties away, before
// staging; mma.sync m16n8k8), exact FMA in K order with precision = ieee.
// CHECK-LABEL: gpu.func @dot_tf32
// CHECK: arith.constant dense<-8192> : vector<
// CHECK: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK-LABEL: gpu.func @dot_ieee
// CHECK-NOT: nvvm.mma.sync
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.intr.fma

#blocked = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>

func.func @dot_tf32(%x: f32, %y: f32, %c: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : f32 -> tensor<32x32xf32, #blocked>
  %b = tile.splat %y : f32 -> tensor<32x32xf32, #blocked>
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked1>
  %d = tile.dot %a, %b, %zero : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
  %s = tile.reduce sum %d axis = 1 : tensor<32x32xf32, #blocked1> -> tensor<32xf32, #slice>
  %t = tile.reduce sum %s axis = 0 : tensor<32xf32, #slice> -> f32
  tile.store %t, %c : !tile.ptr<f32>
  return
}
func.func @dot_ieee(%x: f32, %y: f32, %c: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : f32 -> tensor<32x32xf32, #blocked>
  %b = tile.splat %y : f32 -> tensor<32x32xf32, #blocked>
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked1>
  %d = tile.dot %a, %b, %zero precision = ieee : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
  %s = tile.reduce sum %d axis = 1 : tensor<32x32xf32, #blocked1> -> tensor<32xf32, #slice>
  %t = tile.reduce sum %s axis = 0 : tensor<32xf32, #slice> -> f32
  tile.store %t, %c : !tile.ptr<f32>
  return
}

// -----

// A 16x16 dot with 4 warps: one 16x8 tile per warp along N, the last two
// warps replicating; B's fragments for a single column tile come from
// ldmatrix.x2.
// CHECK-LABEL: gpu.func @dot_small
// CHECK: nvvm.ldmatrix {{.*}} num = 4
// CHECK: nvvm.ldmatrix {{.*}} num = 2
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>

func.func @dot_small(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.000000e+00> : tensor<16x16xf16, #blocked>
  %c = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #blocked1>
  %d = tile.dot %a, %a, %c : tensor<16x16xf16, #blocked>, tensor<16x16xf16, #blocked> -> tensor<16x16xf32, #blocked1>
  %s = tile.reduce sum %d axis = 1 : tensor<16x16xf32, #blocked1> -> tensor<16xf32, #slice>
  %t = tile.reduce sum %s axis = 0 : tensor<16xf32, #slice> -> f32
  tile.store %t, %x : !tile.ptr<f32>
  return
}

// -----

// fp8 on warpgroup MMA (sm_90a): A (64x128 e4m3) and B (128x64 e5m2) both
// K-major in their wgmma slots (8-bit wgmma has no transpose), so both
// descriptors take the K-contiguous form: leading offset 1 (unused), stride
// offset 1024 bytes (64 units) from one 8-row group of 128-byte rows to the
// next, the 128-byte swizzle (bit 62): 0x4000004000010000. One m64n64k32
// per 32 of K (32 bytes of a row, as f16's k16), four in all, each step's
// descriptors 32 bytes (2 units) on, then the group is waited for.
// CHECK-LABEL: gpu.func @dot_fp8_wgmma
// CHECK-DAG: %[[FIELDS:.*]] = arith.constant 4611686293305360384 : i64
// CHECK-DAG: %[[STEP:.*]] = arith.constant 2 : i64
// CHECK: %[[ADESC:.*]] = arith.ori %{{.*}}, %[[FIELDS]] : i64
// CHECK: %[[BDESC:.*]] = arith.ori %{{.*}}, %[[FIELDS]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %[[BDESC]], %{{.*}}, <m = 64, n = 64, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK: %[[B1:.*]] = arith.addi %[[BDESC]], %[[STEP]] : i64
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %[[B1]], %{{.*}}, <m = 64, n = 64, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 32>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvvm.ldmatrix
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.return
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op_a = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#op_b = #tile.blocked<sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
func.func @dot_fp8_wgmma(%slot: i32, %x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %ra = tile.local_alloc {offset = 0 : i64} : !tile.shared<1x64x128xf8E4M3FN, contiguous = 1, swizzle = wgmma>
  %rb = tile.local_alloc {offset = 8192 : i64} : !tile.shared<1x128x64xf8E5M2, contiguous = 0, swizzle = wgmma>
  %a = tile.local_load %ra[%slot] : !tile.shared<1x64x128xf8E4M3FN, contiguous = 1, swizzle = wgmma> -> tensor<64x128xf8E4M3FN, #op_a>
  %b = tile.local_load %rb[%slot] : !tile.shared<1x128x64xf8E5M2, contiguous = 0, swizzle = wgmma> -> tensor<128x64xf8E5M2, #op_b>
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %d = tile.dot %a, %b, %c {mma = #tile.mma<version = 3, instrShape = [64, 64, 32], warpsPerCTA = [4, 1]>} : tensor<64x128xf8E4M3FN, #op_a>, tensor<128x64xf8E5M2, #op_b> -> tensor<64x64xf32, #acc>
  %s = tile.reduce sum %d axis = 1 : tensor<64x64xf32, #acc> -> tensor<64xf32, #tile.slice<dim = 1, parent = #acc>>
  %t = tile.reduce sum %s axis = 0 : tensor<64xf32, #tile.slice<dim = 1, parent = #acc>> -> f32
  tile.store %t, %x : !tile.ptr<f32>
  return
}

// -----

// fp8 with 64 of K (one 64-byte row a slot): the 64-byte swizzle (mode 2 in
// bits 62-63) and a stride offset of 8 such rows, 512 bytes (32 units):
// 0x8000002000010000. Two m64n64k32, the second 32 bytes (2 units) on.
// CHECK-LABEL: gpu.func @dot_fp8_wgmma_k64
// CHECK-DAG: %[[FIELDS:.*]] = arith.constant -9223371899415756800 : i64
// CHECK: arith.ori %{{.*}}, %[[FIELDS]] : i64
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 64, k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 32>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
#op_a = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#op_b = #tile.blocked<sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
func.func @dot_fp8_wgmma_k64(%slot: i32, %x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %ra = tile.local_alloc {offset = 0 : i64} : !tile.shared<1x64x64xf8E5M2, contiguous = 1, swizzle = wgmma>
  %rb = tile.local_alloc {offset = 4096 : i64} : !tile.shared<1x64x64xf8E4M3FN, contiguous = 0, swizzle = wgmma>
  %a = tile.local_load %ra[%slot] : !tile.shared<1x64x64xf8E5M2, contiguous = 1, swizzle = wgmma> -> tensor<64x64xf8E5M2, #op_a>
  %b = tile.local_load %rb[%slot] : !tile.shared<1x64x64xf8E4M3FN, contiguous = 0, swizzle = wgmma> -> tensor<64x64xf8E4M3FN, #op_b>
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %d = tile.dot %a, %b, %c {mma = #tile.mma<version = 3, instrShape = [64, 64, 32], warpsPerCTA = [4, 1]>} : tensor<64x64xf8E5M2, #op_a>, tensor<64x64xf8E4M3FN, #op_b> -> tensor<64x64xf32, #acc>
  %s = tile.reduce sum %d axis = 1 : tensor<64x64xf32, #acc> -> tensor<64xf32, #tile.slice<dim = 1, parent = #acc>>
  %t = tile.reduce sum %s axis = 0 : tensor<64xf32, #tile.slice<dim = 1, parent = #acc>> -> f32
  tile.store %t, %x : !tile.ptr<f32>
  return
}
