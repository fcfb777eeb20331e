// RUN: llk-opt %s -split-input-file -tile-assign-layouts -convert-tile-to-gpu -canonicalize | FileCheck %s

// A narrowing float cast that rounds other than to nearest is a cvt with
// that mode (arith.truncf's modes would become a constrained fptrunc, which
// NVPTX rounds to nearest); f64 to bf16 goes through f32 (one cvt needs
// sm_90), which directed roundings allow. To nearest stays arith.truncf.
// CHECK-LABEL: gpu.func @directed_rounding
// CHECK: llvm.inline_asm "cvt.rz.f16.f32 $0, $1;", "=h,f" %{{.*}} : (f32) -> i16
// CHECK: llvm.inline_asm "cvt.rm.bf16.f32 $0, $1;", "=h,f" %{{.*}} : (f32) -> i16
// CHECK: llvm.inline_asm "cvt.rp.f32.f64 $0, $1;", "=f,d" %{{.*}} : (f64) -> f32
// CHECK: llvm.inline_asm "cvt.rz.f32.f64 $0, $1;", "=f,d" %{{.*}} : (f64) -> f32
// CHECK-NEXT: llvm.inline_asm "cvt.rz.bf16.f32 $0, $1;", "=h,f" %{{.*}} : (f32) -> i16
// CHECK: arith.truncf %{{.*}} : vector<1xf32> to vector<1xf16>
func.func @directed_rounding(%x: f32, %d: f64, %out: !tile.ptr<f16>, %outb: !tile.ptr<bf16>, %outf: !tile.ptr<f32>) {
  %a = tile.cast %x rounding = rtz : f32 to f16
  tile.store %a, %out : !tile.ptr<f16>
  %b = tile.cast %x rounding = rdn : f32 to bf16
  tile.store %b, %outb : !tile.ptr<bf16>
  %c = tile.cast %d rounding = rup : f64 to f32
  tile.store %c, %outf : !tile.ptr<f32>
  %e = tile.cast %d rounding = rtz : f64 to bf16
  tile.store %e, %outb : !tile.ptr<bf16>
  %t = tile.splat %x : f32 -> tensor<128xf32>
  %n = tile.cast %t : tensor<128xf32> to tensor<128xf16>
  %ps = tile.splat %out : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %p = tile.addptr %ps, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  tile.store %n, %p : tensor<128x!tile.ptr<f16>>
  return
}

// -----

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
