// RUN: llk-opt %s -split-input-file -tile-assign-layouts -canonicalize -convert-tile-to-gpu | FileCheck %s
// RUN: llkc %s --arch sm_80 -o - | FileCheck %s --check-prefix=PTX

// Float to integer casts saturate to the destination's range (NaN to 0), as
// tile.cast documents and the interpreter does, in the IR itself: LLVM's
// fptosi is poison out of range. For i8 and i16 LLVM converted through a
// 16- or 32-bit cvt and truncated, so values outside the range wrapped
// (-1000.0 to i8 gave 24 on the GPU, -128 on the interpreter), and a
// saturating i32 conversion of an int-to-float cast can fold into a
// truncation: found by the differential test (scripts/gen-tile-kernel.py,
// seeds 1268 and 1565). The cast clamps in the float type, converts, and
// selects the maximum from 2^(w-1) up and 0 for NaN.
// CHECK-LABEL: gpu.func @f64_to_i8
// CHECK: %[[LO:.*]] = arith.constant dense<-1.280000e+02> : vector<{{[0-9]+}}xf64>
// CHECK: %[[HI:.*]] = arith.constant dense<127.99999999999999> : vector<{{[0-9]+}}xf64>
// CHECK: %[[A:.*]] = arith.maxnumf %[[X:.*]], %[[LO]]
// CHECK: %[[B:.*]] = arith.minnumf %[[A]], %[[HI]]
// CHECK: %[[I:.*]] = arith.fptosi %[[B]] : vector<{{[0-9]+}}xf64> to vector<{{[0-9]+}}xi8>
// CHECK: %[[LIMIT:.*]] = arith.constant dense<1.280000e+02> : vector<{{[0-9]+}}xf64>
// CHECK: %[[ABOVE:.*]] = arith.cmpf oge, %[[X]], %[[LIMIT]]
// CHECK: %[[MAX:.*]] = arith.constant dense<127> : vector<{{[0-9]+}}xi8>
// CHECK: %[[S:.*]] = arith.select %[[ABOVE]], %[[MAX]], %[[I]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: arith.select %[[NAN]], %{{.*}}, %[[S]]
// PTX-LABEL: .entry f64_to_i8
// PTX: max.f64 {{.*}}, 0dC060000000000000;
// PTX: min.f64
// PTX: cvt.rzi.s16.f64
// PTX: setp.nan.f64
func.func @f64_to_i8(%x: !tile.ptr<f64> {tile.divisibility = 16},
                     %o: !tile.ptr<i8> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f64> -> tensor<128x!tile.ptr<f64>>
  %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f64>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f64>>
  %t = tile.cast %v : tensor<128xf64> to tensor<128xi8>
  %os = tile.splat %o : !tile.ptr<i8> -> tensor<128x!tile.ptr<i8>>
  %op = tile.addptr %os, %r : tensor<128x!tile.ptr<i8>>, tensor<128xi32>
  tile.store %t, %op : tensor<128x!tile.ptr<i8>>
  return
}

// -----

// Scalars too, after a rounding mode; an i64 from f32 alike (2^63 - 2^39 is
// the last f32 below 2^63).
// CHECK-LABEL: gpu.func @scalars
// CHECK: math.roundeven %{{.*}} : f32
// CHECK: arith.constant 32767.998 : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i16
// CHECK: arith.constant 9.22337149E+18 : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK: arith.constant 9223372036854775807 : i64
// PTX-LABEL: .entry scalars
// PTX: cvt.rni.f32.f32
// PTX: cvt.rzi.s16.f32
// PTX: selp.b16 {{.*}}, 32767,
// PTX: cvt.rzi.s64.f32
// PTX: selp.b64 {{.*}}, 9223372036854775807,
func.func @scalars(%x: !tile.ptr<f32> {tile.divisibility = 16},
                   %o: !tile.ptr<i16> {tile.divisibility = 16},
                   %w: !tile.ptr<i64> {tile.divisibility = 16}) {
  %v = tile.load %x : !tile.ptr<f32>
  %t = tile.cast %v rounding = rne : f32 to i16
  tile.store %t, %o : !tile.ptr<i16>
  %l = tile.cast %v : f32 to i64
  tile.store %l, %w : !tile.ptr<i64>
  return
}
