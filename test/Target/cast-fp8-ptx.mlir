// RUN: llkc %s --arch sm_90 -o %t90.ptx && FileCheck %s --check-prefix=CVT < %t90.ptx
// RUN: %ptxas -arch=sm_90 %t90.ptx -o /dev/null
// RUN: llkc %s --arch sm_90a -o %t90a.ptx && FileCheck %s --check-prefix=CVT < %t90a.ptx
// RUN: llkc %s --arch sm_89 -o %t89.ptx && FileCheck %s --check-prefix=SOFT < %t89.ptx
// RUN: llkc %s --arch sm_80 -o %t80.ptx && FileCheck %s --check-prefix=SOFT < %t80.ptx
// RUN: %ptxas -arch=sm_80 %t80.ptx -o /dev/null
// REQUIRES: ptxas

// fp8 casts: on sm_90 PTX's paired conversions, two elements an
// instruction; before (sm_89 too: LLVM selects the cvt from PTX 8.1, llkc
// emits 7.8 there), integer ops that give the same bits (the
// interpreter's tests check those bits; the GPU check compares both with
// the interpreter on the device). Loads and stores move the bytes, 16 to an
// access.
// CVT-LABEL: .entry quantize
// CVT: ld.global.v4.b32
// CVT: cvt.rn.satfinite.e4m3x2.f32
// CVT: st.global.v4.b32
// CVT-LABEL: .entry quantize_e5m2
// CVT: cvt.rn.satfinite.e5m2x2.f32
// CVT-LABEL: .entry dequantize
// CVT: cvt.rn.f16x2.e4m3x2
// CVT-LABEL: .entry dequantize_e5m2
// CVT: cvt.rn.f16x2.e5m2x2
// SOFT-NOT: e4m3x2
// SOFT-NOT: e5m2x2
// SOFT: .entry quantize
// SOFT: cvt.rni.f32.f32
func.func @quantize(%x: !tile.ptr<f32> {tile.divisibility = 16}, %y: !tile.ptr<f8E4M3FN> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  %v = tile.load %xp : tensor<2048x!tile.ptr<f32>>
  %q = tile.cast %v : tensor<2048xf32> to tensor<2048xf8E4M3FN>
  %ys = tile.splat %y : !tile.ptr<f8E4M3FN> -> tensor<2048x!tile.ptr<f8E4M3FN>>
  %yp = tile.addptr %ys, %r : tensor<2048x!tile.ptr<f8E4M3FN>>, tensor<2048xi32>
  tile.store %q, %yp : tensor<2048x!tile.ptr<f8E4M3FN>>
  return
}

func.func @quantize_e5m2(%x: !tile.ptr<bf16> {tile.divisibility = 16}, %y: !tile.ptr<f8E5M2> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<2048x!tile.ptr<bf16>>
  %xp = tile.addptr %xs, %r : tensor<2048x!tile.ptr<bf16>>, tensor<2048xi32>
  %v = tile.load %xp : tensor<2048x!tile.ptr<bf16>>
  %q = tile.cast %v : tensor<2048xbf16> to tensor<2048xf8E5M2>
  %ys = tile.splat %y : !tile.ptr<f8E5M2> -> tensor<2048x!tile.ptr<f8E5M2>>
  %yp = tile.addptr %ys, %r : tensor<2048x!tile.ptr<f8E5M2>>, tensor<2048xi32>
  tile.store %q, %yp : tensor<2048x!tile.ptr<f8E5M2>>
  return
}

// Masked, with `other`: the masked-off bytes are 1.0 (0x38).
func.func @dequantize(%x: !tile.ptr<f8E4M3FN> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32>
  %ns = tile.splat %n : i32 -> tensor<2048xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<2048xi32>
  %one = arith.constant dense<1.0> : tensor<2048xf8E4M3FN>
  %xs = tile.splat %x : !tile.ptr<f8E4M3FN> -> tensor<2048x!tile.ptr<f8E4M3FN>>
  %xp = tile.addptr %xs, %r : tensor<2048x!tile.ptr<f8E4M3FN>>, tensor<2048xi32>
  %v = tile.load %xp mask %m other %one : tensor<2048x!tile.ptr<f8E4M3FN>>
  %w = tile.cast %v : tensor<2048xf8E4M3FN> to tensor<2048xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %r : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  tile.store %w, %yp : tensor<2048x!tile.ptr<f32>>
  return
}

func.func @dequantize_e5m2(%x: !tile.ptr<f8E5M2> {tile.divisibility = 16}, %y: !tile.ptr<f16> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32>
  %xs = tile.splat %x : !tile.ptr<f8E5M2> -> tensor<2048x!tile.ptr<f8E5M2>>
  %xp = tile.addptr %xs, %r : tensor<2048x!tile.ptr<f8E5M2>>, tensor<2048xi32>
  %v = tile.load %xp : tensor<2048x!tile.ptr<f8E5M2>>
  %w = tile.cast %v : tensor<2048xf8E5M2> to tensor<2048xf16>
  %ys = tile.splat %y : !tile.ptr<f16> -> tensor<2048x!tile.ptr<f16>>
  %yp = tile.addptr %ys, %r : tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>
  tile.store %w, %yp : tensor<2048x!tile.ptr<f16>>
  return
}
