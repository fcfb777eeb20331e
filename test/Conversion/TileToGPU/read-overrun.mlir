// RUN: llk-opt %s -split-input-file -tile-assign-layouts -convert-tile-to-gpu | FileCheck %s

// A realigned load reads the aligned windows around each thread's run: up to
// (window - alignment) bytes past its last byte. The kernel records, per
// pointer argument, the most any of its loads may read past its elements
// (the metadata's read_overrun_bytes; docs/runtime.md, the buffer contract).

// 16 quants of 34-byte records, 2-byte aligned: 16-byte windows, 14 bytes
// past; the f32 output is stored, never read past.
// CHECK-LABEL: gpu.func @two_byte_aligned
// CHECK-SAME: llk.read_overrun = [array<i64: 0, 14>]
func.func @two_byte_aligned(%x: !tile.ptr<i8> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}) {
  %i = tile.make_range 0 to 64 : tensor<64xi32>
  %c34 = arith.constant dense<34> : tensor<64xi32>
  %rec = arith.muli %i, %c34 : tensor<64xi32>
  %c2 = arith.constant dense<2> : tensor<64xi32>
  %start = arith.addi %rec, %c2 : tensor<64xi32>
  %s2 = tile.expand_dims %start axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %sb = tile.broadcast %s2 : tensor<64x1xi32> -> tensor<64x32xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %jb = tile.broadcast %j2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %sb, %jb : tensor<64x32xi32>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  %v = tile.load %p : tensor<64x32x!tile.ptr<i8>>
  %vf = tile.cast %v : tensor<64x32xi8> to tensor<64x32xf32>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %s, %yp : tensor<64x!tile.ptr<f32>>
  return
}

// -----

// 4-byte aligned runs (36-byte records, bytes 4..35) read 12 bytes past; the
// pointer reaches the load through a bitcast and a loop-carried tile, and
// the aligned f32 load of the other argument reads nothing past.
// CHECK-LABEL: gpu.func @loop_carried
// CHECK-SAME: llk.read_overrun = [array<i64: 1, 12>]
func.func @loop_carried(%y: !tile.ptr<f32> {tile.divisibility = 16}, %x: !tile.ptr<i32> {tile.divisibility = 16}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %i = tile.make_range 0 to 64 : tensor<64xi32>
  %c36 = arith.constant dense<36> : tensor<64xi32>
  %rec = arith.muli %i, %c36 : tensor<64xi32>
  %c4 = arith.constant dense<4> : tensor<64xi32>
  %start = arith.addi %rec, %c4 : tensor<64xi32>
  %s2 = tile.expand_dims %start axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %sb = tile.broadcast %s2 : tensor<64x1xi32> -> tensor<64x32xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %jb = tile.broadcast %j2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %sb, %jb : tensor<64x32xi32>
  %xb = tile.bitcast %x : !tile.ptr<i32> to !tile.ptr<i8>
  %xs = tile.splat %xb : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %p0 = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  %step = arith.constant dense<2304> : tensor<64x32xi32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %acc, %p = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero, %q = %p0) -> (tensor<64xf32>, tensor<64x32x!tile.ptr<i8>>) : i32 {
    %v = tile.load %q : tensor<64x32x!tile.ptr<i8>>
    %vf = tile.cast %v : tensor<64x32xi8> to tensor<64x32xf32>
    %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
    %old = tile.load %yp : tensor<64x!tile.ptr<f32>>
    %t = arith.addf %s, %old : tensor<64xf32>
    %a2 = arith.addf %a, %t : tensor<64xf32>
    %q2 = tile.addptr %q, %step : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
    scf.yield %a2, %q2 : tensor<64xf32>, tensor<64x32x!tile.ptr<i8>>
  }
  tile.store %acc, %yp : tensor<64x!tile.ptr<f32>>
  return
}

// -----

// A pointer chosen between two arguments: either may be read past.
// CHECK-LABEL: gpu.func @selected
// CHECK-SAME: llk.read_overrun = [array<i64: 0, 14>, array<i64: 1, 14>]
func.func @selected(%a: !tile.ptr<i8> {tile.divisibility = 16}, %b: !tile.ptr<i8> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}, %which: i32) {
  %c0 = arith.constant 0 : i32
  %first = arith.cmpi eq, %which, %c0 : i32
  %x = arith.select %first, %a, %b : !tile.ptr<i8>
  %i = tile.make_range 0 to 64 : tensor<64xi32>
  %c34 = arith.constant dense<34> : tensor<64xi32>
  %rec = arith.muli %i, %c34 : tensor<64xi32>
  %c2 = arith.constant dense<2> : tensor<64xi32>
  %start = arith.addi %rec, %c2 : tensor<64xi32>
  %s2 = tile.expand_dims %start axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %sb = tile.broadcast %s2 : tensor<64x1xi32> -> tensor<64x32xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %jb = tile.broadcast %j2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %sb, %jb : tensor<64x32xi32>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  %v = tile.load %p : tensor<64x32x!tile.ptr<i8>>
  %vf = tile.cast %v : tensor<64x32xi8> to tensor<64x32xf32>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %s, %yp : tensor<64x!tile.ptr<f32>>
  return
}

// -----

// Aligned byte runs (32-byte records) are plain 16-byte loads: nothing is
// read past, and the kernel has no read_overrun.
// CHECK-LABEL: gpu.func @aligned
// CHECK-NOT: llk.read_overrun
// CHECK: gpu.return
func.func @aligned(%x: !tile.ptr<i8> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}) {
  %i = tile.make_range 0 to 64 : tensor<64xi32>
  %c32 = arith.constant dense<32> : tensor<64xi32>
  %start = arith.muli %i, %c32 : tensor<64xi32>
  %s2 = tile.expand_dims %start axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %sb = tile.broadcast %s2 : tensor<64x1xi32> -> tensor<64x32xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %jb = tile.broadcast %j2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %sb, %jb : tensor<64x32xi32>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  %v = tile.load %p : tensor<64x32x!tile.ptr<i8>>
  %vf = tile.cast %v : tensor<64x32xi8> to tensor<64x32xf32>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %s, %yp : tensor<64x!tile.ptr<f32>>
  return
}
