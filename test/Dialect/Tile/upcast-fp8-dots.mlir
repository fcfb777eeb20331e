// RUN: llk-opt %s -tile-upcast-fp8-dots | FileCheck %s --check-prefixes=CHECK,ALL
// RUN: llk-opt %s -tile-upcast-fp8-dots=wgmma=true | FileCheck %s --check-prefixes=CHECK,WGMMA

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

// With wgmma (sm_90a), a dot that warpgroup MMA may take in fp8 (rows whole
// blocks of 64, K whole 128-byte slabs or one of 64) stays fp8; without,
// it is upcast.
// CHECK-LABEL: func.func @fp8_wgmma_shape
// ALL: tile.cast
// ALL: tile.dot {{.*}} : tensor<128x128xf16>, tensor<128x256xf16>
// WGMMA-NOT: tile.cast
// WGMMA: tile.dot {{.*}} : tensor<128x128xf8E4M3FN>, tensor<128x256xf8E5M2>
func.func @fp8_wgmma_shape(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x256xf8E5M2>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %0 = tile.dot %a, %b, %c : tensor<128x128xf8E4M3FN>, tensor<128x256xf8E5M2> -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}
