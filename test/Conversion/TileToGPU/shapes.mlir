// RUN: llk-opt %s -split-input-file -tile-assign-layouts -canonicalize -convert-tile-to-gpu -canonicalize | FileCheck %s

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
func.func @convert(%x: !tile.ptr<f32> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = tile.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cols = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %c64r = arith.constant dense<64> : tensor<64x1xi32>
  %c64c = arith.constant dense<64> : tensor<1x64xi32>
  %rs = arith.muli %rows, %c64r : tensor<64x1xi32>
  %cs = arith.muli %cols, %c64c : tensor<1x64xi32>
  %a = tile.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  %b = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %c = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %d = tile.broadcast %cs : tensor<1x64xi32> -> tensor<64x64xi32>
  %rowMajor = arith.addi %a, %b : tensor<64x64xi32>
  %colMajor = arith.addi %c, %d : tensor<64x64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %p = tile.addptr %xs, %rowMajor : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %v = tile.load %p : tensor<64x64x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %q = tile.addptr %ys, %colMajor : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %v, %q : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// Casts choose the arith op and rounding (a directed narrowing rounds to
// nearest, then steps back where that went past: cast-directed-rounding.mlir);
// grid queries read the block id and grid size; the barrier is gpu.barrier.
// CHECK-LABEL: gpu.func @casts
// CHECK: gpu.block_id y
// CHECK: gpu.grid_dim z
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.cmpf ogt
// CHECK: math.roundeven
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.cmpf une
// CHECK: gpu.barrier
func.func @casts(%p: !tile.ptr<f16>, %q: !tile.ptr<bf16>, %r: !tile.ptr<i32>, %s: !tile.ptr<f32>, %x: f32, %bi: i32) {
  %b = tile.cast %bi : i32 to i1
  %pid = tile.program_id y
  %n = tile.num_programs z
  %h = tile.cast %x : f32 to f16
  tile.store %h, %p : !tile.ptr<f16>
  %bf = tile.cast %x rounding = rtz : f32 to bf16
  tile.store %bf, %q : !tile.ptr<bf16>
  %i = tile.cast %x rounding = rne : f32 to i32
  %j = arith.addi %i, %pid : i32
  %k = arith.addi %j, %n : i32
  tile.store %k, %r : !tile.ptr<i32>
  %f = tile.cast %b : i1 to f32
  %nz = tile.cast %x : f32 to i1
  %g = arith.select %nz, %f, %x : f32
  tile.barrier
  tile.store %g, %s : !tile.ptr<f32>
  return
}

// -----

// Loop-carried tiles become loop-carried vectors.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<8xf32>)
// CHECK: scf.yield %{{.*}} : vector<8xf32>
func.func @loop(%x: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %acc = scf.for %k = %c0 to %n step %c1024 iter_args(%a = %zero) -> (tensor<1024xf32>) : i32 {
    %ks = tile.splat %k : i32 -> tensor<1024xi32>
    %off = arith.addi %ks, %r : tensor<1024xi32>
    %p = tile.addptr %xs, %off : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %v = tile.load %p : tensor<1024x!tile.ptr<f32>>
    %s = arith.addf %a, %v : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  %p0 = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %acc, %p0 : tensor<1024x!tile.ptr<f32>>
  return
}
