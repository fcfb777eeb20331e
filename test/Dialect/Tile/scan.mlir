// Round trip of the scan ops: custom form (reverse optional), generic form,
// any axis, a combiner region with its scalar arguments.
//
// RUN: llk-opt %s | llk-opt | FileCheck %s
// RUN: llk-opt %s --mlir-print-op-generic | llk-opt | FileCheck %s

// CHECK-LABEL: func.func @scans(
func.func @scans(%x: tensor<16x128xf32>, %k: tensor<256xi32>, %b: tensor<8xi1>) {
  // CHECK: tile.scan sum %{{.*}} axis = 1 : tensor<16x128xf32>
  %a = tile.scan sum %x axis = 1 : tensor<16x128xf32>
  // CHECK: tile.scan prod %{{.*}} axis = 0 reverse : tensor<16x128xf32>
  %p = tile.scan prod %x axis = 0 reverse : tensor<16x128xf32>
  // CHECK: tile.scan max %{{.*}} axis = 0 : tensor<256xi32>
  %m = tile.scan max %k axis = 0 : tensor<256xi32>
  // CHECK: tile.scan min %{{.*}} axis = 0 reverse : tensor<8xi1>
  %n = tile.scan min %b axis = 0 reverse : tensor<8xi1>
  // CHECK: tile.generic_scan %{{.*}} axis = 0 reverse : tensor<256xi32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
  // CHECK:        tile.yield %{{.*}} : i32
  %f = tile.generic_scan %k axis = 0 reverse : tensor<256xi32> {
  ^bb0(%acc: i32, %next: i32):
    %zero = arith.constant 0 : i32
    %set = arith.cmpi ne, %next, %zero : i32
    %v = arith.select %set, %next, %acc : i32
    tile.yield %v : i32
  }
  return
}
