// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// A 1-D reduction over 4 warps: the thread's own 8 elements first, then a
// butterfly of xor shuffles over the 32 lanes, then the 4 warp partials
// through shared memory between two barriers.
// CHECK-LABEL: gpu.module @llk_kernels
// CHECK: llvm.mlir.global internal @__llk_smem_sum() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16 x i8>
// CHECK: gpu.func @sum
// CHECK-COUNT-7: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #blocked>
  %p = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  %v = tile.load %p : tensor<1024x!tile.ptr<f32>, #blocked>
  %s = tile.reduce sum %v axis = 0 : tensor<1024xf32, #blocked> -> f32
  tile.store %s, %x : !tile.ptr<f32>
  return
}

// -----

// Rows of 128 spread over one warp each: a row reduction needs no shared
// memory; argmax shuffles the index beside the value and keeps the first
// index on ties.
// (The result then joins the store's own layout through shared memory.)
// CHECK-LABEL: gpu.func @row_argmax
// CHECK-NOT: gpu.barrier
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpi slt
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : i32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : i32
// CHECK: gpu.barrier

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#slice = #tile.slice<dim = 1, parent = #blocked>
#slice1 = #tile.slice<dim = 0, parent = #blocked>

func.func @row_argmax(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %out: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %cst = arith.constant dense<128> : tensor<16x1xi32, #blocked>
  %0 = tile.make_range 0 to 16 : tensor<16xi32, #blocked1>
  %r = tile.make_range 0 to 16 : tensor<16xi32, #slice>
  %r2 = tile.expand_dims %r axis = 1 : tensor<16xi32, #slice> -> tensor<16x1xi32, #blocked>
  %ro = arith.muli %r2, %cst : tensor<16x1xi32, #blocked>
  %c = tile.make_range 0 to 128 : tensor<128xi32, #slice1>
  %c2 = tile.expand_dims %c axis = 0 : tensor<128xi32, #slice1> -> tensor<1x128xi32, #blocked>
  %rb = tile.broadcast %ro : tensor<16x1xi32, #blocked> -> tensor<16x128xi32, #blocked>
  %cb = tile.broadcast %c2 : tensor<1x128xi32, #blocked> -> tensor<16x128xi32, #blocked>
  %off = arith.addi %rb, %cb : tensor<16x128xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x128x!tile.ptr<f32>, #blocked>
  %p = tile.addptr %xs, %off : tensor<16x128x!tile.ptr<f32>, #blocked>, tensor<16x128xi32, #blocked>
  %v = tile.load %p : tensor<16x128x!tile.ptr<f32>, #blocked>
  %am = tile.reduce argmax %v axis = 1 : tensor<16x128xf32, #blocked> -> tensor<16xi32, #slice>
  %13 = tile.convert_layout %am : tensor<16xi32, #slice> -> tensor<16xi32, #blocked1>
  %os = tile.splat %out : !tile.ptr<i32> -> tensor<16x!tile.ptr<i32>, #blocked1>
  %op = tile.addptr %os, %0 : tensor<16x!tile.ptr<i32>, #blocked1>, tensor<16xi32, #blocked1>
  tile.store %13, %op : tensor<16x!tile.ptr<i32>, #blocked1>
  return
}

// -----

// A custom combiner is inlined at every combining step.
// CHECK-LABEL: gpu.func @product
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle xor
// CHECK: arith.mulf

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @product(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
  %p = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
  %v = tile.load %p : tensor<128x!tile.ptr<f32>, #blocked>
  %prod = tile.generic_reduce %v axis = 0 : tensor<128xf32, #blocked> -> f32 {
  ^bb0(%arg1: f32, %arg2: f32):
    %m = arith.mulf %arg1, %arg2 : f32
    tile.yield %m : f32
  }
  tile.store %prod, %x : !tile.ptr<f32>
  return
}

// -----

// An i32 sum of products of sign-extended i8 values runs on dp4a: each
// thread's 16 products of a row are 4 dp4a (bytes regrouped 4 at a time),
// then the usual butterfly joins the row's two threads. The same reduction
// over f32 products, or over unsigned extensions, stays a plain sum.
// CHECK-LABEL: gpu.func @byte_dot
// CHECK-COUNT-4: nvvm.dot.accumulate.4way %{{.*}} <signed>, %{{.*}} <signed>, %{{.*}} : vector<4xi8>, vector<4xi8>
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : i32
// CHECK-NOT: nvvm.dot.accumulate.4way
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>
#slice1 = #tile.slice<dim = 0, parent = #blocked1>

func.func @byte_dot(%a: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %b: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %y: !tile.ptr<i32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %cst = arith.constant dense<32> : tensor<64xi32, #blocked>
  %i = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %rows = arith.muli %i, %cst : tensor<64xi32, #blocked>
  %2 = tile.convert_layout %rows : tensor<64xi32, #blocked> -> tensor<64xi32, #slice>
  %r2 = tile.expand_dims %2 axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked1>
  %rb = tile.broadcast %r2 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked1>
  %jb = tile.broadcast %j2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %off = arith.addi %rb, %jb : tensor<64x32xi32, #blocked1>
  %as = tile.splat %a : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked1>
  %ap = tile.addptr %as, %off : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
  %av = tile.load %ap : tensor<64x32x!tile.ptr<i8>, #blocked1>
  %bs = tile.splat %b : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked1>
  %bp = tile.addptr %bs, %off : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
  %bv = tile.load %bp : tensor<64x32x!tile.ptr<i8>, #blocked1>
  %ai = tile.cast %av : tensor<64x32xi8, #blocked1> to tensor<64x32xi32, #blocked1>
  %bi = arith.extsi %bv : tensor<64x32xi8, #blocked1> to tensor<64x32xi32, #blocked1>
  %prod = arith.muli %ai, %bi : tensor<64x32xi32, #blocked1>
  %s = tile.reduce sum %prod axis = 1 : tensor<64x32xi32, #blocked1> -> tensor<64xi32, #slice>
  %19 = tile.convert_layout %s : tensor<64xi32, #slice> -> tensor<64xi32, #blocked>
  %bu = arith.extui %bv : tensor<64x32xi8, #blocked1> to tensor<64x32xi32, #blocked1>
  %prod_u = arith.muli %ai, %bu : tensor<64x32xi32, #blocked1>
  %su = tile.reduce sum %prod_u axis = 1 : tensor<64x32xi32, #blocked1> -> tensor<64xi32, #slice>
  %23 = tile.convert_layout %su : tensor<64xi32, #slice> -> tensor<64xi32, #blocked>
  %t = arith.addi %19, %23 : tensor<64xi32, #blocked>
  %ys = tile.splat %y : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>, #blocked>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
  tile.store %t, %yp : tensor<64x!tile.ptr<i32>, #blocked>
  return
}

// -----

// A float sum of products marked contractable adds with `contract` too
// (LLVM then fuses each product into its addition: FFMA); unmarked
// products round before they are added.
// CHECK-LABEL: gpu.func @contracted_dot
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<16xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT: fastmath<contract>
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @contracted_dot(%a: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32, #blocked>
  %as = tile.splat %a : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>, #blocked>
  %ap = tile.addptr %as, %r : tensor<2048x!tile.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
  %v = tile.load %ap : tensor<2048x!tile.ptr<f32>, #blocked>
  %p = arith.mulf %v, %v fastmath<contract> : tensor<2048xf32, #blocked>
  %s = tile.reduce sum %p axis = 0 : tensor<2048xf32, #blocked> -> f32
  %q = arith.mulf %v, %v : tensor<2048xf32, #blocked>
  %t = tile.reduce sum %q axis = 0 : tensor<2048xf32, #blocked> -> f32
  %u = arith.addf %s, %t : f32
  tile.store %u, %y : !tile.ptr<f32>
  return
}

// -----

// 64-bit elements: each shuffle step moves the partial as its two 32-bit
// halves (and the argmax index beside them); the warps' partials take
// 8-byte slots in shared memory, the indices 4-byte ones after them
// (4 warps x 8 + 4 x 4 = 48 bytes).
// CHECK: llvm.mlir.global internal @__llk_smem_argmax_f64() {{.*}} : !llvm.array<48 x i8>
// CHECK-LABEL: gpu.func @argmax_f64
// CHECK: %[[HALVES:.*]] = llvm.bitcast %{{.*}} : f64 to vector<2xi32>
// CHECK: %[[LO:.*]] = vector.extract %[[HALVES]][0] : i32 from vector<2xi32>
// CHECK: %[[SLO:.*]], %{{.*}} = gpu.shuffle xor %[[LO]], %c1_i32, %c32_i32 : i32
// CHECK: %[[HI:.*]] = vector.extract %[[HALVES]][1] : i32 from vector<2xi32>
// CHECK: %[[SHI:.*]], %{{.*}} = gpu.shuffle xor %[[HI]], %c1_i32, %c32_i32 : i32
// CHECK: %[[JOINED:.*]] = vector.from_elements %[[SLO]], %[[SHI]] : vector<2xi32>
// CHECK: llvm.bitcast %[[JOINED]] : vector<2xi32> to f64
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : i32
// CHECK: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : f64, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> f64
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32

#blocked = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @argmax_f64(%x: !tile.ptr<f64> {tile.divisibility = 16 : i64}, %y: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f64> -> tensor<1024x!tile.ptr<f64>, #blocked>
  %p = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f64>, #blocked>, tensor<1024xi32, #blocked>
  %v = tile.load %p : tensor<1024x!tile.ptr<f64>, #blocked>
  %s = tile.reduce argmax %v axis = 0 : tensor<1024xf64, #blocked> -> i32
  tile.store %s, %y : !tile.ptr<i32>
  return
}
