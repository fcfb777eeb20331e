// RUN: llk-opt %s -split-input-file -tile-assign-layouts -convert-tile-to-gpu -canonicalize | FileCheck %s

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
func.func @dot_f16(%a: !tile.ptr<f16> {tile.divisibility = 16},
                   %b: !tile.ptr<f16> {tile.divisibility = 16},
                   %c: !tile.ptr<f32> {tile.divisibility = 16}) {
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %r64 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s32 = arith.constant dense<32> : tensor<64x1xi32>
  %amr = arith.muli %am, %s32 : tensor<64x1xi32>
  %amb = tile.broadcast %amr : tensor<64x1xi32> -> tensor<64x32xi32>
  %ak = tile.expand_dims %r32 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %ap = tile.addptr %as, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %av = tile.load %ap : tensor<64x32x!tile.ptr<f16>>
  %bk = tile.expand_dims %r32 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s64 = arith.constant dense<64> : tensor<32x1xi32>
  %bkr = arith.muli %bk, %s64 : tensor<32x1xi32>
  %bkb = tile.broadcast %bkr : tensor<32x1xi32> -> tensor<32x64xi32>
  %bn = tile.expand_dims %r64 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %bp = tile.addptr %bs, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %bv = tile.load %bp : tensor<32x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %av, %bv, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %s = tile.reduce sum %d axis = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %r64 : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %s, %cp : tensor<64x!tile.ptr<f32>>
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
func.func @dot_i8(%x: i8, %y: i8, %c: !tile.ptr<i32>) {
  %a = tile.splat %x : i8 -> tensor<32x32xi8>
  %b = tile.splat %y : i8 -> tensor<32x32xi8>
  %zero = arith.constant dense<0> : tensor<32x32xi32>
  %d = tile.dot %a, %b, %zero : tensor<32x32xi8>, tensor<32x32xi8> -> tensor<32x32xi32>
  %s = tile.reduce sum %d axis = 1 : tensor<32x32xi32> -> tensor<32xi32>
  %t = tile.reduce sum %s axis = 0 : tensor<32xi32> -> i32
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
func.func @dot_tf32(%x: f32, %y: f32, %c: !tile.ptr<f32>) {
  %a = tile.splat %x : f32 -> tensor<32x32xf32>
  %b = tile.splat %y : f32 -> tensor<32x32xf32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.dot %a, %b, %zero : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  %s = tile.reduce sum %d axis = 1 : tensor<32x32xf32> -> tensor<32xf32>
  %t = tile.reduce sum %s axis = 0 : tensor<32xf32> -> f32
  tile.store %t, %c : !tile.ptr<f32>
  return
}
func.func @dot_ieee(%x: f32, %y: f32, %c: !tile.ptr<f32>) {
  %a = tile.splat %x : f32 -> tensor<32x32xf32>
  %b = tile.splat %y : f32 -> tensor<32x32xf32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.dot %a, %b, %zero precision = ieee : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  %s = tile.reduce sum %d axis = 1 : tensor<32x32xf32> -> tensor<32xf32>
  %t = tile.reduce sum %s axis = 0 : tensor<32xf32> -> f32
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
#b = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @dot_small(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x16xf16, #b>
  %c = arith.constant dense<0.0> : tensor<16x16xf32, #b>
  %d = tile.dot %a, %a, %c : tensor<16x16xf16, #b>, tensor<16x16xf16, #b> -> tensor<16x16xf32, #b>
  %s = tile.reduce sum %d axis = 1 : tensor<16x16xf32, #b> -> tensor<16xf32, #tile.slice<dim = 1, parent = #b>>
  %t = tile.reduce sum %s axis = 0 : tensor<16xf32, #tile.slice<dim = 1, parent = #b>> -> f32
  tile.store %t, %x : !tile.ptr<f32>
  return
}
