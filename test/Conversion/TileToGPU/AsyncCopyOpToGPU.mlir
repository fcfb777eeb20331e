// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s

// The pipelined buffers and copies in NVVM: one cp.async per 16-byte chunk
// (.cg, source size 16 or 0), a barrier before the ring's first copy, the
// wait + barrier at the top of each iteration, and the dot reading both
// operands from the ring with ldmatrix (no staging: no store to shared
// memory in the loop).
// CHECK-LABEL: gpu.func @f16
// CHECK: gpu.barrier
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} :
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: llvm.store
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>
// CHECK-NOT: llvm.store
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>
// CHECK-NOT: llvm.store
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0

#blocked = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 0, parent = #blocked1>
#slice1 = #tile.slice<dim = 1, parent = #blocked1>

func.func @f16(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %arg3: i32) attributes {tile.num_warps = 4 : i32} {
  %c1_i64 = arith.constant 1 : i64
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c0_i64 = arith.constant 0 : i64
  %c64_i64 = arith.constant 64 : i64
  %c1_i32 = arith.constant 1 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
  %cst_0 = arith.constant dense<64> : tensor<64x1xi32, #blocked1>
  %0 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
  %r = tile.make_range 0 to 64 : tensor<64xi32, #slice1>
  %row = tile.expand_dims %r axis = 1 : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
  %rows = arith.muli %row, %cst_0 : tensor<64x1xi32, #blocked1>
  %rowsb = tile.broadcast %rows : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
  %col = tile.expand_dims %0 axis = 0 : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked1>
  %colsb = tile.broadcast %col : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
  %off = arith.addi %rowsb, %colsb : tensor<64x64xi32, #blocked1>
  %as = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked2>
  %9 = tile.convert_layout %off : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #blocked2>
  %ap0 = tile.addptr %as, %9 : tensor<64x64x!tile.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
  %bs = tile.splat %arg1 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked2>
  %12 = tile.convert_layout %off : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #blocked2>
  %bp0 = tile.addptr %bs, %12 : tensor<64x64x!tile.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
  %14 = arith.subi %arg3, %c1_i32 : i32
  %15 = arith.extsi %14 : i32 to i64
  %16 = arith.maxsi %15, %c0_i64 : i64
  %17 = tile.local_alloc {offset = 0 : i64} : !tile.shared<3x64x64xf16, contiguous = 1>
  %18 = tile.local_alloc {offset = 24576 : i64} : !tile.shared<3x64x64xf16, contiguous = 1>
  %19 = arith.minsi %16, %c0_i64 : i64
  %20 = arith.muli %19, %c64_i64 : i64
  %cs = tile.splat %20 : i64 -> tensor<64x64xi64, #blocked2>
  %cp = tile.addptr %ap0, %cs : tensor<64x64x!tile.ptr<f16>, #blocked2>, tensor<64x64xi64, #blocked2>
  %23 = arith.minsi %16, %c0_i64 : i64
  %24 = arith.muli %23, %c64_i64 : i64
  %25 = tile.splat %24 : i64 -> tensor<64x64xi64, #blocked2>
  %26 = tile.addptr %bp0, %25 : tensor<64x64x!tile.ptr<f16>, #blocked2>, tensor<64x64xi64, #blocked2>
  %27 = arith.cmpi sgt, %arg3, %c0_i32 : i32
  %28 = tile.splat %27 : i1 -> tensor<64x64xi1, #blocked2>
  tile.async_copy %cp, %17[%c0_i32] mask %28 : tensor<64x64x!tile.ptr<f16>, #blocked2> -> !tile.shared<3x64x64xf16, contiguous = 1>
  %29 = tile.splat %27 : i1 -> tensor<64x64xi1, #blocked2>
  tile.async_copy %26, %18[%c0_i32] mask %29 : tensor<64x64x!tile.ptr<f16>, #blocked2> -> !tile.shared<3x64x64xf16, contiguous = 1>
  tile.async_commit
  %30 = arith.minsi %16, %c1_i64 : i64
  %31 = arith.muli %30, %c64_i64 : i64
  %32 = tile.splat %31 : i64 -> tensor<64x64xi64, #blocked2>
  %33 = tile.addptr %ap0, %32 : tensor<64x64x!tile.ptr<f16>, #blocked2>, tensor<64x64xi64, #blocked2>
  %34 = arith.minsi %16, %c1_i64 : i64
  %35 = arith.muli %34, %c64_i64 : i64
  %36 = tile.splat %35 : i64 -> tensor<64x64xi64, #blocked2>
  %37 = tile.addptr %bp0, %36 : tensor<64x64x!tile.ptr<f16>, #blocked2>, tensor<64x64xi64, #blocked2>
  %38 = arith.cmpi sgt, %arg3, %c1_i32 : i32
  %39 = tile.splat %38 : i1 -> tensor<64x64xi1, #blocked2>
  tile.async_copy %33, %17[%c1_i32] mask %39 : tensor<64x64x!tile.ptr<f16>, #blocked2> -> !tile.shared<3x64x64xf16, contiguous = 1>
  %40 = tile.splat %38 : i1 -> tensor<64x64xi1, #blocked2>
  tile.async_copy %37, %18[%c1_i32] mask %40 : tensor<64x64x!tile.ptr<f16>, #blocked2> -> !tile.shared<3x64x64xf16, contiguous = 1>
  tile.async_commit
  %41 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst) -> (tensor<64x64xf32, #blocked>)  : i32 {
    %45 = arith.remui %arg4, %c3_i32 : i32
    %46 = arith.addi %arg4, %c2_i32 : i32
    %47 = arith.remui %46, %c3_i32 : i32
    %48 = arith.addi %arg4, %c2_i32 : i32
    tile.async_wait pending = 1
    %49 = arith.addi %arg4, %c2_i32 : i32
    %50 = arith.extsi %49 : i32 to i64
    %51 = arith.minsi %50, %16 : i64
    %52 = arith.muli %51, %c64_i64 : i64
    %53 = tile.splat %52 : i64 -> tensor<64x64xi64, #blocked2>
    %54 = tile.addptr %ap0, %53 : tensor<64x64x!tile.ptr<f16>, #blocked2>, tensor<64x64xi64, #blocked2>
    %55 = arith.extsi %49 : i32 to i64
    %56 = arith.minsi %55, %16 : i64
    %57 = arith.muli %56, %c64_i64 : i64
    %58 = tile.splat %57 : i64 -> tensor<64x64xi64, #blocked2>
    %59 = tile.addptr %bp0, %58 : tensor<64x64x!tile.ptr<f16>, #blocked2>, tensor<64x64xi64, #blocked2>
    %60 = arith.cmpi slt, %48, %arg3 : i32
    %61 = tile.splat %60 : i1 -> tensor<64x64xi1, #blocked2>
    tile.async_copy %54, %17[%47] mask %61 : tensor<64x64x!tile.ptr<f16>, #blocked2> -> !tile.shared<3x64x64xf16, contiguous = 1>
    %62 = tile.splat %60 : i1 -> tensor<64x64xi1, #blocked2>
    tile.async_copy %59, %18[%47] mask %62 : tensor<64x64x!tile.ptr<f16>, #blocked2> -> !tile.shared<3x64x64xf16, contiguous = 1>
    tile.async_commit
    %63 = tile.local_load %17[%45] : !tile.shared<3x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #blocked2>
    %64 = tile.local_load %18[%45] : !tile.shared<3x64x64xf16, contiguous = 1> -> tensor<64x64xf16, #blocked2>
    %65 = tile.dot %63, %64, %arg5 : tensor<64x64xf16, #blocked2>, tensor<64x64xf16, #blocked2> -> tensor<64x64xf32, #blocked>
    scf.yield %65 : tensor<64x64xf32, #blocked>
  }
  tile.async_wait pending = 0
  %42 = tile.splat %arg2 : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blocked1>
  %43 = tile.addptr %42, %off : tensor<64x64x!tile.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
  %44 = tile.convert_layout %41 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
  tile.store %44, %43 : tensor<64x64x!tile.ptr<f32>, #blocked1>
  return
}

// -----

// i8 with B contiguous along N: ldmatrix cannot transpose 8-bit matrices,
// so B is read from its slot into registers (tile.local_load) and staged
// K-contiguous for the dot, while A is still read in place.
// CHECK-LABEL: gpu.func @i8
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.cp.async.shared.global
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<16xi8>
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : i8, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: nvvm.ldmatrix
// CHECK: nvvm.mma.sync

#blocked = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 0, parent = #blocked1>
#slice1 = #tile.slice<dim = 1, parent = #blocked1>

func.func @i8(%arg0: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %arg1: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %arg2: !tile.ptr<i32> {tile.divisibility = 16 : i64}, %arg3: i32) attributes {tile.num_warps = 4 : i32} {
  %c1_i64 = arith.constant 1 : i64
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c0_i64 = arith.constant 0 : i64
  %c64_i64 = arith.constant 64 : i64
  %c1_i32 = arith.constant 1 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst = arith.constant dense<0> : tensor<64x64xi32, #blocked>
  %cst_0 = arith.constant dense<64> : tensor<64x1xi32, #blocked1>
  %0 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
  %r = tile.make_range 0 to 64 : tensor<64xi32, #slice1>
  %row = tile.expand_dims %r axis = 1 : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
  %rows = arith.muli %row, %cst_0 : tensor<64x1xi32, #blocked1>
  %rowsb = tile.broadcast %rows : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
  %col = tile.expand_dims %0 axis = 0 : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked1>
  %colsb = tile.broadcast %col : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
  %off = arith.addi %rowsb, %colsb : tensor<64x64xi32, #blocked1>
  %as = tile.splat %arg0 : !tile.ptr<i8> -> tensor<64x64x!tile.ptr<i8>, #blocked2>
  %9 = tile.convert_layout %off : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #blocked2>
  %ap0 = tile.addptr %as, %9 : tensor<64x64x!tile.ptr<i8>, #blocked2>, tensor<64x64xi32, #blocked2>
  %bs = tile.splat %arg1 : !tile.ptr<i8> -> tensor<64x64x!tile.ptr<i8>, #blocked2>
  %12 = tile.convert_layout %off : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #blocked2>
  %bp0 = tile.addptr %bs, %12 : tensor<64x64x!tile.ptr<i8>, #blocked2>, tensor<64x64xi32, #blocked2>
  %14 = arith.subi %arg3, %c1_i32 : i32
  %15 = arith.extsi %14 : i32 to i64
  %16 = arith.maxsi %15, %c0_i64 : i64
  %17 = tile.local_alloc {offset = 0 : i64} : !tile.shared<3x64x64xi8, contiguous = 1>
  %18 = tile.local_alloc {offset = 12288 : i64} : !tile.shared<3x64x64xi8, contiguous = 1>
  %19 = arith.minsi %16, %c0_i64 : i64
  %20 = arith.muli %19, %c64_i64 : i64
  %cs = tile.splat %20 : i64 -> tensor<64x64xi64, #blocked2>
  %cp = tile.addptr %ap0, %cs : tensor<64x64x!tile.ptr<i8>, #blocked2>, tensor<64x64xi64, #blocked2>
  %23 = arith.minsi %16, %c0_i64 : i64
  %24 = arith.muli %23, %c64_i64 : i64
  %25 = tile.splat %24 : i64 -> tensor<64x64xi64, #blocked2>
  %26 = tile.addptr %bp0, %25 : tensor<64x64x!tile.ptr<i8>, #blocked2>, tensor<64x64xi64, #blocked2>
  %27 = arith.cmpi sgt, %arg3, %c0_i32 : i32
  %28 = tile.splat %27 : i1 -> tensor<64x64xi1, #blocked2>
  tile.async_copy %cp, %17[%c0_i32] mask %28 : tensor<64x64x!tile.ptr<i8>, #blocked2> -> !tile.shared<3x64x64xi8, contiguous = 1>
  %29 = tile.splat %27 : i1 -> tensor<64x64xi1, #blocked2>
  tile.async_copy %26, %18[%c0_i32] mask %29 : tensor<64x64x!tile.ptr<i8>, #blocked2> -> !tile.shared<3x64x64xi8, contiguous = 1>
  tile.async_commit
  %30 = arith.minsi %16, %c1_i64 : i64
  %31 = arith.muli %30, %c64_i64 : i64
  %32 = tile.splat %31 : i64 -> tensor<64x64xi64, #blocked2>
  %33 = tile.addptr %ap0, %32 : tensor<64x64x!tile.ptr<i8>, #blocked2>, tensor<64x64xi64, #blocked2>
  %34 = arith.minsi %16, %c1_i64 : i64
  %35 = arith.muli %34, %c64_i64 : i64
  %36 = tile.splat %35 : i64 -> tensor<64x64xi64, #blocked2>
  %37 = tile.addptr %bp0, %36 : tensor<64x64x!tile.ptr<i8>, #blocked2>, tensor<64x64xi64, #blocked2>
  %38 = arith.cmpi sgt, %arg3, %c1_i32 : i32
  %39 = tile.splat %38 : i1 -> tensor<64x64xi1, #blocked2>
  tile.async_copy %33, %17[%c1_i32] mask %39 : tensor<64x64x!tile.ptr<i8>, #blocked2> -> !tile.shared<3x64x64xi8, contiguous = 1>
  %40 = tile.splat %38 : i1 -> tensor<64x64xi1, #blocked2>
  tile.async_copy %37, %18[%c1_i32] mask %40 : tensor<64x64x!tile.ptr<i8>, #blocked2> -> !tile.shared<3x64x64xi8, contiguous = 1>
  tile.async_commit
  %41 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst) -> (tensor<64x64xi32, #blocked>)  : i32 {
    %45 = arith.remui %arg4, %c3_i32 : i32
    %46 = arith.addi %arg4, %c2_i32 : i32
    %47 = arith.remui %46, %c3_i32 : i32
    %48 = arith.addi %arg4, %c2_i32 : i32
    tile.async_wait pending = 1
    %49 = arith.addi %arg4, %c2_i32 : i32
    %50 = arith.extsi %49 : i32 to i64
    %51 = arith.minsi %50, %16 : i64
    %52 = arith.muli %51, %c64_i64 : i64
    %53 = tile.splat %52 : i64 -> tensor<64x64xi64, #blocked2>
    %54 = tile.addptr %ap0, %53 : tensor<64x64x!tile.ptr<i8>, #blocked2>, tensor<64x64xi64, #blocked2>
    %55 = arith.extsi %49 : i32 to i64
    %56 = arith.minsi %55, %16 : i64
    %57 = arith.muli %56, %c64_i64 : i64
    %58 = tile.splat %57 : i64 -> tensor<64x64xi64, #blocked2>
    %59 = tile.addptr %bp0, %58 : tensor<64x64x!tile.ptr<i8>, #blocked2>, tensor<64x64xi64, #blocked2>
    %60 = arith.cmpi slt, %48, %arg3 : i32
    %61 = tile.splat %60 : i1 -> tensor<64x64xi1, #blocked2>
    tile.async_copy %54, %17[%47] mask %61 : tensor<64x64x!tile.ptr<i8>, #blocked2> -> !tile.shared<3x64x64xi8, contiguous = 1>
    %62 = tile.splat %60 : i1 -> tensor<64x64xi1, #blocked2>
    tile.async_copy %59, %18[%47] mask %62 : tensor<64x64x!tile.ptr<i8>, #blocked2> -> !tile.shared<3x64x64xi8, contiguous = 1>
    tile.async_commit
    %63 = tile.local_load %17[%45] : !tile.shared<3x64x64xi8, contiguous = 1> -> tensor<64x64xi8, #blocked2>
    %64 = tile.local_load %18[%45] : !tile.shared<3x64x64xi8, contiguous = 1> -> tensor<64x64xi8, #blocked2>
    %65 = tile.dot %63, %64, %arg5 : tensor<64x64xi8, #blocked2>, tensor<64x64xi8, #blocked2> -> tensor<64x64xi32, #blocked>
    scf.yield %65 : tensor<64x64xi32, #blocked>
  }
  tile.async_wait pending = 0
  %42 = tile.splat %arg2 : !tile.ptr<i32> -> tensor<64x64x!tile.ptr<i32>, #blocked1>
  %43 = tile.addptr %42, %off : tensor<64x64x!tile.ptr<i32>, #blocked1>, tensor<64x64xi32, #blocked1>
  %44 = tile.convert_layout %41 : tensor<64x64xi32, #blocked> -> tensor<64x64xi32, #blocked1>
  tile.store %44, %43 : tensor<64x64x!tile.ptr<i32>, #blocked1>
  return
}
