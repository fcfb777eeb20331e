// RUN: llk-opt %s -split-input-file -tile-assign-layouts -canonicalize -convert-tile-to-gpu | FileCheck %s
// RUN: llkc %s --arch sm_80 -o %t.ptx && %ptxas -arch=sm_80 %t.ptx -o /dev/null
// RUN: llkc %s --arch sm_90 -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o /dev/null
// REQUIRES: ptxas

// Narrowing float casts with a directed rounding (rtz, rdn, rup) round to
// nearest, then step one unit back toward the source where that went past
// it. LLVM's NVPTX back end aborted on its own directed conversions for
// f32 -> bf16 before sm_90 and f64 -> f32 ("LLVM ERROR: unsupported library
// call operation", which killed a JIT's host process). Found by the
// differential test's generator (seed 1144).
// CHECK-LABEL: gpu.func @f32_to_bf16_rtz
// CHECK: %[[Y:.*]] = arith.truncf %[[X:.*]] : vector<{{[0-9]+}}xf32> to vector<{{[0-9]+}}xbf16>
// CHECK-DAG: %[[BACK:.*]] = arith.extf %[[Y]]
// CHECK-DAG: %[[BITS:.*]] = arith.bitcast %[[Y]] : vector<{{[0-9]+}}xbf16> to vector<{{[0-9]+}}xi16>
// CHECK-DAG: %[[DOWN:.*]] = arith.subi %[[BITS]]
// CHECK-DAG: %[[AB:.*]] = math.absf %[[BACK]]
// CHECK-DAG: %[[AX:.*]] = math.absf %[[X]]
// CHECK: %[[PAST:.*]] = arith.cmpf ogt, %[[AB]], %[[AX]]
// CHECK: %[[STEP:.*]] = arith.bitcast %[[DOWN]] : vector<{{[0-9]+}}xi16> to vector<{{[0-9]+}}xbf16>
// CHECK: arith.select %[[PAST]], %[[STEP]], %[[Y]]
func.func @f32_to_bf16_rtz(%x: !tile.ptr<f32> {tile.divisibility = 16},
                           %o: !tile.ptr<bf16> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f32>>
  %t = tile.cast %v rounding = rtz : tensor<128xf32> to tensor<128xbf16>
  %os = tile.splat %o : !tile.ptr<bf16> -> tensor<128x!tile.ptr<bf16>>
  %op = tile.addptr %os, %r : tensor<128x!tile.ptr<bf16>>, tensor<128xi32>
  tile.store %t, %op : tensor<128x!tile.ptr<bf16>>
  return
}

// -----

// Down: one step toward -inf where the nearest value is above x (from a
// zero, to the smallest negative subnormal); on scalars too.
// CHECK-LABEL: gpu.func @f64_to_f32_rdn
// CHECK: %[[Y:.*]] = arith.truncf %[[X:.*]] : f64 to f32
// CHECK-DAG: %[[BACK:.*]] = arith.extf %[[Y]] : f32 to f64
// CHECK-DAG: %[[MIN:.*]] = arith.constant -2147483647 : i32
// CHECK-DAG: %[[PAST:.*]] = arith.cmpf ogt, %[[BACK]], %[[X]] : f64
// CHECK: %[[STEP:.*]] = arith.select %{{.*}}, %[[MIN]], %{{.*}} : i32
// CHECK: %[[F:.*]] = arith.bitcast %[[STEP]] : i32 to f32
// CHECK: arith.select %[[PAST]], %[[F]], %[[Y]] : f32
func.func @f64_to_f32_rdn(%x: !tile.ptr<f64> {tile.divisibility = 16},
                          %o: !tile.ptr<f32> {tile.divisibility = 16}) {
  %s = tile.load %x : !tile.ptr<f64>
  %t = tile.cast %s rounding = rdn : f64 to f32
  tile.store %t, %o : !tile.ptr<f32>
  return
}

// -----

// CHECK-LABEL: gpu.func @f16_to_bf16_rup
// CHECK: arith.extf {{.*}} to vector<{{[0-9]+}}xf32>
// CHECK: arith.truncf {{.*}} : vector<{{[0-9]+}}xf32> to vector<{{[0-9]+}}xbf16>
// CHECK: arith.cmpf olt
func.func @f16_to_bf16_rup(%x: !tile.ptr<f16> {tile.divisibility = 16},
                           %o: !tile.ptr<bf16> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f16>>
  %t = tile.cast %v rounding = rup : tensor<128xf16> to tensor<128xbf16>
  %os = tile.splat %o : !tile.ptr<bf16> -> tensor<128x!tile.ptr<bf16>>
  %op = tile.addptr %os, %r : tensor<128x!tile.ptr<bf16>>, tensor<128xi32>
  tile.store %t, %op : tensor<128x!tile.ptr<bf16>>
  return
}
