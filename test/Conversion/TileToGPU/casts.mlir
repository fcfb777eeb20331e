// RUN: llk-opt %s -split-input-file -tile-assign-layouts -convert-tile-to-gpu -canonicalize | FileCheck %s

// Float to i8 saturates at 8 bits: PTX converts to 16 (saturating there),
// then the value is clamped to [-128, 127] and truncated.
// CHECK-LABEL: gpu.func @to_bytes
// CHECK: %[[W:.*]] = arith.fptosi %{{.*}} : vector<1xf32> to vector<1xi16>
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[W]], %{{.*}} : vector<1xi16>
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[LO]], %{{.*}} : vector<1xi16>
// CHECK-NEXT: arith.trunci %[[HI]] : vector<1xi16> to vector<1xi8>
func.func @to_bytes(%x: !tile.ptr<f32>, %y: !tile.ptr<i8>) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f32>>
  %b = tile.cast %v : tensor<128xf32> to tensor<128xi8>
  %ys = tile.splat %y : !tile.ptr<i8> -> tensor<128x!tile.ptr<i8>>
  %yp = tile.addptr %ys, %r : tensor<128x!tile.ptr<i8>>, tensor<128xi32>
  tile.store %b, %yp : tensor<128x!tile.ptr<i8>>
  return
}
