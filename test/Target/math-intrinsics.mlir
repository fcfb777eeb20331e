// RUN: llkc %s --arch sm_80 --emit=llvm -o - | FileCheck %s
// RUN: llkc %s --arch sm_80 -o - | FileCheck %s --check-prefix=PTX
// RUN: llkc %s --arch sm_90 -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o /dev/null
// REQUIRES: ptxas

// math.trunc (every float type) and math.absi (all but i32) had no lowering:
// convert-gpu-to-nvvm knows no libdevice function for them, so they reached
// the LLVM IR translation ("missing LLVMTranslationDialectInterface
// registration for dialect for op: math.trunc"). MathToLLVM makes
// them LLVM's intrinsics, on tiles' vectors and on scalars. Found by the differential
// test's generator (scripts/gen-tile-kernel.py).
// CHECK-LABEL: llvm.func @trunc_f16
// CHECK: llvm.intr.trunc({{.*}}) : (vector<{{[0-9]+}}xf16>) -> vector<{{[0-9]+}}xf16>
// CHECK: llvm.intr.trunc({{.*}}) : (f16) -> f16
// CHECK-NOT: math.trunc
// PTX-LABEL: .entry trunc_f16
// PTX: cvt.rzi.f16.f16
func.func @trunc_f16(%x: !tile.ptr<f16> {tile.divisibility = 16},
                     %o: !tile.ptr<f16> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f16>>
  %t = math.trunc %v : tensor<128xf16>
  %s = tile.load %x : !tile.ptr<f16>
  %st = math.trunc %s : f16
  tile.store %st, %o : !tile.ptr<f16>
  %os = tile.splat %o : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %op = tile.addptr %os, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  tile.store %t, %op : tensor<128x!tile.ptr<f16>>
  return
}

// -----

// CHECK-LABEL: llvm.func @absi_i64
// CHECK: "llvm.intr.abs"({{.*}}) <{is_int_min_poison = false}> : (vector<{{[0-9]+}}xi64>) -> vector<{{[0-9]+}}xi64>
// CHECK: "llvm.intr.abs"({{.*}}) <{is_int_min_poison = false}> : (i64) -> i64
// CHECK-NOT: math.absi
// PTX-LABEL: .entry absi_i64
// PTX: abs.s64
func.func @absi_i64(%x: !tile.ptr<i64> {tile.divisibility = 16},
                    %o: !tile.ptr<i64> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<i64> -> tensor<128x!tile.ptr<i64>>
  %xp = tile.addptr %xs, %r : tensor<128x!tile.ptr<i64>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<i64>>
  %t = math.absi %v : tensor<128xi64>
  %s = tile.load %x : !tile.ptr<i64>
  %st = math.absi %s : i64
  tile.store %st, %o : !tile.ptr<i64>
  %os = tile.splat %o : !tile.ptr<i64> -> tensor<128x!tile.ptr<i64>>
  %op = tile.addptr %os, %r : tensor<128x!tile.ptr<i64>>, tensor<128xi32>
  tile.store %t, %op : tensor<128x!tile.ptr<i64>>
  return
}
