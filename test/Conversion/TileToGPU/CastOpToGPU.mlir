// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s
// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu="fp8-conversions=false" -canonicalize | FileCheck %s --check-prefix=SOFT

// tile.cast and tile.bitcast: each register converted with the cast's
// rounding (cast-directed-rounding.mlir and cast-float-to-narrow-int.mlir in
// test/Target compile such casts to PTX).

// i8 -> f32 avoids the slow conversion unit: per word one xor with
// 0x80808080, then per byte a prmt that puts it under the exponent byte 0x4B
// (selectors 0x7540 + k) and an fsub of 2^23 + 128 (an add of -8388736).
// Other integer conversions stay sitofp.
// CHECK-LABEL: gpu.func @bytes
// CHECK-NOT: arith.sitofp {{.*}} vector<16xi8>
// CHECK: %[[X:.*]] = arith.xori %{{.*}}, %c-2139062144_i32 : i32
// CHECK: nvvm.prmt <default> %c30016_i32, %[[X]], %c1258291200_i32 : i32
// CHECK: arith.subf %{{.*}}, %cst{{.*}} : f32
// CHECK: nvvm.prmt <default> %c30017_i32, %[[X]], %c1258291200_i32 : i32
// CHECK: nvvm.prmt <default> %c30018_i32, %[[X]], %c1258291200_i32 : i32
// CHECK: nvvm.prmt <default> %c30019_i32, %[[X]], %c1258291200_i32 : i32
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @bytes(%a: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %b: !tile.ptr<i32> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32, #blocked>
  %as = tile.splat %a : !tile.ptr<i8> -> tensor<2048x!tile.ptr<i8>, #blocked>
  %ap = tile.addptr %as, %r : tensor<2048x!tile.ptr<i8>, #blocked>, tensor<2048xi32, #blocked>
  %av = tile.load %ap : tensor<2048x!tile.ptr<i8>, #blocked>
  %af = tile.cast %av : tensor<2048xi8, #blocked> to tensor<2048xf32, #blocked>
  %bs = tile.splat %b : !tile.ptr<i32> -> tensor<2048x!tile.ptr<i32>, #blocked1>
  %6 = tile.make_range 0 to 2048 : tensor<2048xi32, #blocked1>
  %bp = tile.addptr %bs, %6 : tensor<2048x!tile.ptr<i32>, #blocked1>, tensor<2048xi32, #blocked1>
  %bv = tile.load %bp : tensor<2048x!tile.ptr<i32>, #blocked1>
  %bf = tile.cast %bv : tensor<2048xi32, #blocked1> to tensor<2048xf32, #blocked1>
  %10 = tile.convert_layout %af : tensor<2048xf32, #blocked> -> tensor<2048xf32, #blocked1>
  %s = arith.addf %10, %bf : tensor<2048xf32, #blocked1>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>, #blocked1>
  %13 = tile.make_range 0 to 2048 : tensor<2048xi32, #blocked1>
  %yp = tile.addptr %ys, %13 : tensor<2048x!tile.ptr<f32>, #blocked1>, tensor<2048xi32, #blocked1>
  tile.store %s, %yp : tensor<2048x!tile.ptr<f32>, #blocked1>
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
func.func @casts(%p: !tile.ptr<f16>, %q: !tile.ptr<bf16>, %r: !tile.ptr<i32>, %s: !tile.ptr<f32>, %x: f32, %bi: i32) attributes {tile.num_warps = 4 : i32} {
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

// fp8: f32 to e4m3 two elements a cvt (nvvm.convert.f32x2.to.f8x2, the
// second element into the high byte), back through f16 the same way; with
// fp8-conversions=false (before sm_89) integer ops instead.
// CHECK-LABEL: gpu.func @fp8
// CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}}satfinite{{.*}}(f8E4M3FN)
// CHECK: nvvm.convert.f8x2.to.f16x2 {{.*}}(f8E4M3FN)
// SOFT-LABEL: gpu.func @fp8
// SOFT-NOT: nvvm.convert
// SOFT: math.roundeven {{.*}} : vector<4xf32>
// SOFT: arith.trunci {{.*}} : vector<4xi32> to vector<4xi8>
// SOFT: arith.mulf {{.*}} : vector<4xf16>
// SOFT-NOT: nvvm.convert
// SOFT: gpu.return
#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @fp8(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 512 : tensor<512xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #blocked>
  %xp = tile.addptr %xs, %r : tensor<512x!tile.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
  %v = tile.load %xp : tensor<512x!tile.ptr<f32>, #blocked>
  %q = tile.cast %v : tensor<512xf32, #blocked> to tensor<512xf8E4M3FN, #blocked>
  %w = tile.cast %q : tensor<512xf8E4M3FN, #blocked> to tensor<512xf32, #blocked>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #blocked>
  %yp = tile.addptr %ys, %r : tensor<512x!tile.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
  tile.store %w, %yp : tensor<512x!tile.ptr<f32>, #blocked>
  return
}
