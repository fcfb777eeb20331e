// Round trip of the random-number ops: custom form, generic form, and the
// result types they infer from the offsets (a tile's shape and layout, or a
// scalar).
//
// RUN: llk-opt %s | llk-opt | FileCheck %s
// RUN: llk-opt %s --mlir-print-op-generic | llk-opt | FileCheck %s
// RUN: llk-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// CHECK-LABEL: func.func @random(
func.func @random(%seed: i32, %seed64: i64, %offsets: tensor<128xi32>,
                  %offsets64: tensor<4x8xi64>, %offset: i32,
                  %laid: tensor<512xi32, #blocked>) {
  // CHECK: tile.randint %{{.*}}, %{{.*}} : i32, tensor<128xi32>
  // GENERIC: "tile.randint"(%{{.*}}, %{{.*}}) : (i32, tensor<128xi32>) -> tensor<128xi32>
  %a = tile.randint %seed, %offsets : i32, tensor<128xi32>
  // CHECK: tile.randint4x %{{.*}}, %{{.*}} : i64, tensor<4x8xi64>
  // GENERIC: "tile.randint4x"(%{{.*}}, %{{.*}}) : (i64, tensor<4x8xi64>) -> (tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi32>)
  %b:4 = tile.randint4x %seed64, %offsets64 : i64, tensor<4x8xi64>
  // CHECK: tile.rand %{{.*}}, %{{.*}} : i32, i32
  // GENERIC: "tile.rand"(%{{.*}}, %{{.*}}) : (i32, i32) -> f32
  %c = tile.rand %seed, %offset : i32, i32
  // CHECK: tile.randn %{{.*}}, %{{.*}} : i64, tensor<512xi32, #blocked>
  // GENERIC: "tile.randn"(%{{.*}}, %{{.*}}) : (i64, tensor<512xi32, #blocked>) -> tensor<512xf32, #blocked>
  %d = tile.randn %seed64, %laid : i64, tensor<512xi32, #blocked>
  return
}
