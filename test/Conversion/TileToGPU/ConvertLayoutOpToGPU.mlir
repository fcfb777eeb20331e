// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// tile.convert_layout: index tiles recomputed in the new layout, other
// tiles moved through shared memory.

// Moving a tile between layouts goes through shared memory: a barrier, every
// thread writes its elements (16 bytes at a time where they are adjacent),
// a barrier, every thread reads those of its new layout. Rows of 256 bytes
// are padded by the 16-byte access to 272 (63 * 272 + 256 = 17392 bytes), so
// the column-wise reads spread over the banks.
// CHECK-LABEL: llvm.mlir.global internal @__llk_smem_convert() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<17392 x i8>
// CHECK-LABEL: gpu.func @convert
// CHECK: arith.constant dense<272> : vector<32xi32>
// CHECK: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32

#blocked = #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 0, parent = #blocked1>
#slice1 = #tile.slice<dim = 1, parent = #blocked>

func.func @convert(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %cst = arith.constant dense<64> : tensor<1x64xi32, #blocked>
  %cst_0 = arith.constant dense<64> : tensor<64x1xi32, #blocked1>
  %0 = tile.make_range 0 to 64 : tensor<64xi32, #slice>
  %r = tile.make_range 0 to 64 : tensor<64xi32, #slice1>
  %rows = tile.expand_dims %r axis = 1 : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked>
  %cols = tile.expand_dims %0 axis = 0 : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked1>
  %4 = tile.convert_layout %rows : tensor<64x1xi32, #blocked> -> tensor<64x1xi32, #blocked1>
  %rs = arith.muli %4, %cst_0 : tensor<64x1xi32, #blocked1>
  %6 = tile.convert_layout %cols : tensor<1x64xi32, #blocked1> -> tensor<1x64xi32, #blocked>
  %cs = arith.muli %6, %cst : tensor<1x64xi32, #blocked>
  %a = tile.broadcast %rs : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
  %b = tile.broadcast %cols : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
  %c = tile.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
  %d = tile.broadcast %cs : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
  %rowMajor = arith.addi %a, %b : tensor<64x64xi32, #blocked1>
  %colMajor = arith.addi %c, %d : tensor<64x64xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blocked1>
  %p = tile.addptr %xs, %rowMajor : tensor<64x64x!tile.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
  %v = tile.load %p : tensor<64x64x!tile.ptr<f32>, #blocked1>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blocked>
  %q = tile.addptr %ys, %colMajor : tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
  %19 = tile.convert_layout %v : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
  tile.store %19, %q : tensor<64x64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// A 3-D index tile built by chains of expand_dims: the intermediate 2-D
// tiles must be blocked where the next expand_dims wants a slice, so the
// layout pass joins them with conversions. Those of index tiles (make_range,
// splats, constants, +, -, *) are recomputed from each thread's coordinates:
// no shared memory, no barrier.
// CHECK-LABEL: gpu.module @llk_kernels
// CHECK-NOT: llvm.mlir.global internal @__llk_smem
// CHECK: gpu.func @indices_3d
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked2 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked3 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked4 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked2>
#slice1 = #tile.slice<dim = 2, parent = #blocked>
#slice2 = #tile.slice<dim = 0, parent = #blocked3>
#slice3 = #tile.slice<dim = 0, parent = #blocked4>
#slice4 = #tile.slice<dim = 0, parent = #blocked>

func.func @indices_3d(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %base: i32) attributes {tile.num_warps = 4 : i32} {
  %cst = arith.constant dense<1.000000e+00> : tensor<4x16x32xf32, #blocked>
  %cst_0 = arith.constant dense<32> : tensor<1x16x1xi32, #blocked>
  %cst_1 = arith.constant dense<512> : tensor<4x1x1xi32, #blocked>
  %r = tile.make_range 0 to 4 : tensor<4xi32, #blocked1>
  %bs = tile.splat %base : i32 -> tensor<4xi32, #blocked1>
  %rows = arith.addi %bs, %r : tensor<4xi32, #blocked1>
  %3 = tile.convert_layout %rows : tensor<4xi32, #blocked1> -> tensor<4xi32, #slice>
  %r2 = tile.expand_dims %3 axis = 1 : tensor<4xi32, #slice> -> tensor<4x1xi32, #blocked2>
  %5 = tile.convert_layout %r2 : tensor<4x1xi32, #blocked2> -> tensor<4x1xi32, #slice1>
  %r3 = tile.expand_dims %5 axis = 2 : tensor<4x1xi32, #slice1> -> tensor<4x1x1xi32, #blocked>
  %rs = arith.muli %r3, %cst_1 : tensor<4x1x1xi32, #blocked>
  %rb = tile.broadcast %rs : tensor<4x1x1xi32, #blocked> -> tensor<4x16x32xi32, #blocked>
  %b = tile.make_range 0 to 16 : tensor<16xi32, #slice2>
  %b2 = tile.expand_dims %b axis = 0 : tensor<16xi32, #slice2> -> tensor<1x16xi32, #blocked3>
  %11 = tile.convert_layout %b2 : tensor<1x16xi32, #blocked3> -> tensor<1x16xi32, #slice1>
  %b3 = tile.expand_dims %11 axis = 2 : tensor<1x16xi32, #slice1> -> tensor<1x16x1xi32, #blocked>
  %bo = arith.muli %b3, %cst_0 : tensor<1x16x1xi32, #blocked>
  %bb = tile.broadcast %bo : tensor<1x16x1xi32, #blocked> -> tensor<4x16x32xi32, #blocked>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice3>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked4>
  %17 = tile.convert_layout %j2 : tensor<1x32xi32, #blocked4> -> tensor<1x32xi32, #slice4>
  %j3 = tile.expand_dims %17 axis = 0 : tensor<1x32xi32, #slice4> -> tensor<1x1x32xi32, #blocked>
  %jb = tile.broadcast %j3 : tensor<1x1x32xi32, #blocked> -> tensor<4x16x32xi32, #blocked>
  %o1 = arith.addi %rb, %bb : tensor<4x16x32xi32, #blocked>
  %off = arith.addi %o1, %jb : tensor<4x16x32xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<4x16x32x!tile.ptr<f32>, #blocked>
  %p = tile.addptr %xs, %off : tensor<4x16x32x!tile.ptr<f32>, #blocked>, tensor<4x16x32xi32, #blocked>
  %v = tile.load %p : tensor<4x16x32x!tile.ptr<f32>, #blocked>
  %w = arith.addf %v, %cst : tensor<4x16x32xf32, #blocked>
  tile.store %w, %p : tensor<4x16x32x!tile.ptr<f32>, #blocked>
  return
}

// -----

// A source layout wider than its tile (64x1 over warps [1, 4]: every warp
// holds the whole column) writes each element once: only warp 0 stores,
// so racecheck sees no two writes of one address.
// CHECK-LABEL: gpu.func @convert_replicated
// CHECK: %[[WARP:.*]] = arith.shrui %{{.*}}, %c5_i32
// CHECK: %[[WARP4:.*]] = arith.andi %[[WARP]], %c3_i32
// CHECK: %[[OWNER:.*]] = arith.cmpi ult, %[[WARP4]], %c1_i32
// CHECK: gpu.barrier
// CHECK: scf.if %[[OWNER]] {
// CHECK: llvm.store
// CHECK: }
// CHECK: gpu.barrier
// CHECK: llvm.load

#rep = #tile.blocked<sizePerThread = [2, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>
#rows = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>

func.func @convert_replicated(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>, #rep>
  %v = tile.load %xs : tensor<64x1x!tile.ptr<f32>, #rep>
  %w = tile.convert_layout %v : tensor<64x1xf32, #rep> -> tensor<64x1xf32, #rows>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x1x!tile.ptr<f32>, #rows>
  tile.store %w, %ys : tensor<64x1x!tile.ptr<f32>, #rows>
  return
}
