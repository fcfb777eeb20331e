// RUN: llk-opt %s -tile-upcast-fp8-dots | FileCheck %s

// An fp8 dot becomes an f16 dot of the operands cast to f16 (exact); other
// dots are left alone.
// CHECK-LABEL: func.func @fp8
// CHECK-SAME: (%[[A:.*]]: tensor<64x32xf8E4M3FN>, %[[B:.*]]: tensor<32x64xf8E5M2>, %[[C:.*]]: tensor<64x64xf32>)
// CHECK: %[[A16:.*]] = tile.cast %[[A]] : tensor<64x32xf8E4M3FN> to tensor<64x32xf16>
// CHECK: %[[B16:.*]] = tile.cast %[[B]] : tensor<32x64xf8E5M2> to tensor<32x64xf16>
// CHECK: tile.dot %[[A16]], %[[B16]], %[[C]] : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
func.func @fp8(%a: tensor<64x32xf8E4M3FN>, %b: tensor<32x64xf8E5M2>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FN>, tensor<32x64xf8E5M2> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @f16
// CHECK-NOT: tile.cast
// CHECK: tile.dot
func.func @f16(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
