// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu -canonicalize | FileCheck %s

// tile.print of a tile replicated over the warps (64 elements, 4 warps of
// 32 lanes, 2 per thread): only the first warp's threads own them, and each
// prints its 2 registers in a loop, with the program id and the index.
#blocked = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: gpu.func @print_tile
// CHECK-DAG:     %[[BX:.*]] = gpu.block_id  x
// CHECK-DAG:     %[[TID:.*]] = gpu.thread_id  x
// CHECK:         %[[OWNER:.*]] = arith.cmpi ult, %{{.*}}, %c1_i32 : i32
// CHECK:         scf.if %[[OWNER]] {
// CHECK:           scf.for %[[R:.*]] = %c0 to %c2 step %c1 {
// CHECK:             %[[I:.*]] = vector.extract %{{.*}}[%[[R]]] : i32 from vector<2xi32>
// CHECK:             %[[V:.*]] = vector.extract %{{.*}}[%[[R]]] : f32 from vector<2xf32>
// CHECK:             %[[D:.*]] = arith.extf %[[V]] : f32 to f64
// CHECK:             gpu.printf "pid (%d, %d, %d) idx (%d) x: %.8g\0A", %{{.*}}, %{{.*}}, %{{.*}}, %[[I]], %[[D]] : i32, i32, i32, i32, f64
func.func @print_tile() attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %x = arith.sitofp %r : tensor<64xi32, #blocked> to tensor<64xf32, #blocked>
  tile.print "x: ", %x : tensor<64xf32, #blocked>
  return
}

// -----

// A scalar, and a prefix alone: once per program, by thread 0; i1 and i8
// travel to printf as int, i64 as long long; a '%' of the prefix is doubled.
// CHECK-LABEL: gpu.func @print_scalars
// CHECK:         %[[ZERO:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK:         scf.if %[[ZERO]] {
// CHECK:           gpu.printf "pid (%d, %d, %d) 100%% done\0A"
// CHECK:         arith.extsi %{{.*}} : i8 to i32
// CHECK:         gpu.printf "pid (%d, %d, %d) b, n: (operand 0) %d\0A"
// CHECK:         gpu.printf "pid (%d, %d, %d) b, n: (operand 1) %lld\0A"
func.func @print_scalars(%b: i8, %n: i64) {
  tile.print "100% done"
  tile.print "b, n: ", %b, %n : i8, i64
  return
}

// -----

// tile.assert: each owner prints its failing elements (file:line:col of the
// op, program, index), then cf.assert (CUDA's __assertfail after
// convert-gpu-to-nvvm) on the owner's elements all holding.
#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-LABEL: gpu.func @assert_tile
// CHECK:         scf.for %[[R:.*]] = %c0 to %c4 step %c1 {
// CHECK:           %[[C:.*]] = vector.extract %{{.*}}[%[[R]]] : i1 from vector<4xi1>
// CHECK:           %[[F:.*]] = arith.xori %[[C]], %true : i1
// CHECK:           scf.if %[[F]] {
// CHECK:             gpu.printf "{{.*}}DebugOpToGPU.mlir:{{[0-9]+}}:3: pid (%d, %d, %d) idx (%d): assertion failed: in range\0A"
// CHECK:         %[[ALL:.*]] = vector.reduction <and>, %{{.*}} : vector<4xi1> into i1
// CHECK:         cf.assert %[[ALL]], "in range"
func.func @assert_tile(%n: i32) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 128 : tensor<128xi32, #blocked>
  %ns = tile.splat %n : i32 -> tensor<128xi32, #blocked>
  %ok = arith.cmpi slt, %r, %ns : tensor<128xi32, #blocked>
  tile.assert %ok, "in range" : tensor<128xi1, #blocked>
  return
}
