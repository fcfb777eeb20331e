// Round trip of tile.sort (keys alone or with values, descending optional,
// any axis) and tile.topk (smallest optional).
//
// RUN: llk-opt %s | llk-opt | FileCheck %s
// RUN: llk-opt %s --mlir-print-op-generic | llk-opt | FileCheck %s

// CHECK-LABEL: func.func @sorts(
func.func @sorts(%x: tensor<16x128xf32>, %k: tensor<256xi32>, %v: tensor<256xf16>) {
  // CHECK: tile.sort %{{.*}} axis = 1 : tensor<16x128xf32>
  %a = tile.sort %x axis = 1 : tensor<16x128xf32>
  // CHECK: tile.sort %{{.*}} axis = 0 descending : tensor<16x128xf32>
  %d = tile.sort %x axis = 0 descending : tensor<16x128xf32>
  // CHECK: %{{.*}}, %{{.*}} = tile.sort %{{.*}}, %{{.*}} axis = 0 descending : tensor<256xi32>, tensor<256xf16>
  %sk, %sv = tile.sort %k, %v axis = 0 descending : tensor<256xi32>, tensor<256xf16>
  // CHECK: tile.topk %{{.*}} : tensor<16x128xf32> -> tensor<16x8xf32>, tensor<16x8xi32>
  %tv, %ti = tile.topk %x : tensor<16x128xf32> -> tensor<16x8xf32>, tensor<16x8xi32>
  // CHECK: tile.topk %{{.*}} smallest : tensor<256xi32> -> tensor<256xi32>, tensor<256xi32>
  %lv, %li = tile.topk %k smallest : tensor<256xi32> -> tensor<256xi32>, tensor<256xi32>
  return
}
