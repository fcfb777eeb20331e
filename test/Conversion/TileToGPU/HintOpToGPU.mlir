// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s

// The hints lower to their operand; what they promised shows in the
// accesses the analysis sized. An address read from memory, promised 16-byte
// aligned, and an f16 row of 8 per thread: one 16-byte load, one 16-byte
// store. Without the hint (the second kernel) the address may be any f16's:
// the load reads the two aligned 16-byte windows around each run and
// realigns it in registers (a cp.async copy could not).
// CHECK-LABEL: gpu.func @hinted
// CHECK-NOT: tile.multiple_of
// CHECK-NOT: tile.max_contiguous
// CHECK-NOT: tile.max_constancy
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: gpu.return
#blocked = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @hinted(%table: !tile.ptr<i64> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %addr = tile.load %table : !tile.ptr<i64>
  %any = tile.bitcast %addr : i64 to !tile.ptr<f16>
  %x = tile.multiple_of %any, [16] : !tile.ptr<f16>
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
  %rc = tile.max_contiguous %r, [1024] : tensor<1024xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #blocked>
  %p = tile.addptr %xs, %rc : tensor<1024x!tile.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
  %a = tile.load %p : tensor<1024x!tile.ptr<f16>, #blocked>
  %ys = tile.splat %y : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #blocked>
  %q = tile.addptr %ys, %r : tensor<1024x!tile.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
  %qk = tile.max_constancy %q, [1] : tensor<1024x!tile.ptr<f16>, #blocked>
  tile.store %a, %qk : tensor<1024x!tile.ptr<f16>, #blocked>
  return
}

// -----

// CHECK-LABEL: gpu.func @unhinted
// CHECK-NOT: -> vector<8xf16>
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK-NOT: -> vector<8xf16>
// CHECK: gpu.return
#blocked = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @unhinted(%table: !tile.ptr<i64> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %addr = tile.load %table : !tile.ptr<i64>
  %x = tile.bitcast %addr : i64 to !tile.ptr<f16>
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #blocked>
  %p = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
  %a = tile.load %p : tensor<1024x!tile.ptr<f16>, #blocked>
  %ys = tile.splat %y : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #blocked>
  %q = tile.addptr %ys, %r : tensor<1024x!tile.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
  tile.store %a, %q : tensor<1024x!tile.ptr<f16>, #blocked>
  return
}
