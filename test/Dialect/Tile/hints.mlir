// Round trip of the compiler hints tile.multiple_of, tile.max_contiguous and
// tile.max_constancy on scalars, pointers and tiles (with layouts too).
//
// RUN: llk-opt %s | llk-opt | FileCheck %s
// RUN: llk-opt %s --mlir-print-op-generic | llk-opt | FileCheck %s

#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>

// CHECK-LABEL: func.func @hints(
func.func @hints(%n: i32, %p: !tile.ptr<f16>, %o: tensor<16x64xi32>,
                 %q: tensor<16x64x!tile.ptr<f16>, #blocked>, %m: tensor<16x64xi1>) {
  // CHECK: tile.multiple_of %{{.*}}, [8] : i32
  %n8 = tile.multiple_of %n, [8] : i32
  // CHECK: tile.multiple_of %{{.*}}, [16] : !tile.ptr<f16>
  %p16 = tile.multiple_of %p, [16] : !tile.ptr<f16>
  // CHECK: %[[C:.*]] = tile.max_contiguous %{{.*}}, [1, 64] : tensor<16x64xi32>
  %oc = tile.max_contiguous %o, [1, 64] : tensor<16x64xi32>
  // CHECK: tile.multiple_of %[[C]], [64, 64] : tensor<16x64xi32>
  %od = tile.multiple_of %oc, [64, 64] : tensor<16x64xi32>
  // CHECK: tile.max_contiguous %{{.*}}, [1, 8] : tensor<16x64x!tile.ptr<f16>, #blocked>
  %qc = tile.max_contiguous %q, [1, 8] : tensor<16x64x!tile.ptr<f16>, #blocked>
  // CHECK: tile.max_constancy %{{.*}}, [16, 1] : tensor<16x64xi1>
  %mc = tile.max_constancy %m, [16, 1] : tensor<16x64xi1>
  return
}
