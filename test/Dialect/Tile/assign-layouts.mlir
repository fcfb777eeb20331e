// RUN: llk-opt %s -split-input-file -mlir-print-local-scope -tile-assign-layouts | FileCheck %s
// RUN: llk-opt %s -split-input-file -mlir-print-local-scope -tile-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=W8

// Contiguous f32 accesses from a 16-byte aligned pointer: 4 elements (16
// bytes) per thread, lanes then warps along the tile; the num_warps choice
// is recorded on the kernel.
// CHECK-LABEL: func.func @contiguous_f32
// CHECK-SAME: tile.num_warps = 4 : i32
// CHECK: tile.make_range 0 to 1024 : tensor<1024xi32, #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
// CHECK: tile.load {{.*}} : tensor<1024x!tile.ptr<f32>, #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
// CHECK-NOT: tile.convert_layout
// W8-LABEL: func.func @contiguous_f32
// W8: warpsPerCTA = [8]
func.func @contiguous_f32(%x: !tile.ptr<f32> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %p = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %p : tensor<1024x!tile.ptr<f32>>
  %w = arith.addf %v, %v : tensor<1024xf32>
  tile.store %w, %p : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// f16: 8 elements make 16 bytes.
// CHECK-LABEL: func.func @contiguous_f16
// CHECK: tile.load {{.*}} : tensor<1024x!tile.ptr<f16>, #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
func.func @contiguous_f16(%x: !tile.ptr<f16> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %p = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %v = tile.load %p : tensor<1024x!tile.ptr<f16>>
  tile.store %v, %p : tensor<1024x!tile.ptr<f16>>
  return
}

// -----

// Without an alignment hint only the element's own alignment is known: one
// element per thread, still coalesced across the warp.
// CHECK-LABEL: func.func @unaligned
// CHECK: tile.load {{.*}} #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
func.func @unaligned(%x: !tile.ptr<f32>) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %p = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %p : tensor<1024x!tile.ptr<f32>>
  tile.store %v, %p : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// A row-major 2-D tile: contiguous along dimension 1; the row reduction's
// result is the slice of that layout, and expand_dims/broadcast bring it
// back without any conversion.
// CHECK-LABEL: func.func @rows
// CHECK: tile.load {{.*}} : tensor<16x128x!tile.ptr<f32>, #[[B:tile.blocked<sizePerThread = \[1, 4\], threadsPerWarp = \[1, 32\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>
// CHECK: tile.reduce sum {{.*}} axis = 1 : tensor<16x128xf32, #[[B]]> -> tensor<16xf32, #tile.slice<dim = 1, parent = <sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>>>
// CHECK: tile.expand_dims {{.*}} -> tensor<16x1xf32, #[[B]]>
// CHECK: tile.broadcast {{.*}} -> tensor<16x128xf32, #[[B]]>
// CHECK-NOT: tile.convert_layout
func.func @rows(%x: !tile.ptr<f32> {tile.divisibility = 16}, %stride: i32 {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %r2 = tile.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %s = tile.splat %stride : i32 -> tensor<16x1xi32>
  %ro = arith.muli %r2, %s : tensor<16x1xi32>
  %c = tile.make_range 0 to 128 : tensor<128xi32>
  %c2 = tile.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tile.broadcast %ro : tensor<16x1xi32> -> tensor<16x128xi32>
  %cb = tile.broadcast %c2 : tensor<1x128xi32> -> tensor<16x128xi32>
  %off = arith.addi %rb, %cb : tensor<16x128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x128x!tile.ptr<f32>>
  %p = tile.addptr %xs, %off : tensor<16x128x!tile.ptr<f32>>, tensor<16x128xi32>
  %v = tile.load %p : tensor<16x128x!tile.ptr<f32>>
  %sum = tile.reduce sum %v axis = 1 : tensor<16x128xf32> -> tensor<16xf32>
  %e = tile.expand_dims %sum axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %b = tile.broadcast %e : tensor<16x1xf32> -> tensor<16x128xf32>
  %y = arith.divf %v, %b : tensor<16x128xf32>
  tile.store %y, %p : tensor<16x128x!tile.ptr<f32>>
  return
}

// -----

// The same rows with a stride nothing is known of: a row may start at any
// float, so no access is wider than one element (the product i * stride is
// no run and divisible by nothing, whatever divides 0, the range's start).
// CHECK-LABEL: func.func @rows_any_stride
// CHECK: tile.load {{.*}} : tensor<16x128x!tile.ptr<f32>, #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>>
func.func @rows_any_stride(%x: !tile.ptr<f32> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}, %stride: i32) {
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %s = tile.splat %stride : i32 -> tensor<16xi32>
  %rs = arith.muli %r, %s : tensor<16xi32>
  %ro = tile.expand_dims %rs axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %c = tile.make_range 0 to 128 : tensor<128xi32>
  %c2 = tile.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tile.broadcast %ro : tensor<16x1xi32> -> tensor<16x128xi32>
  %cb = tile.broadcast %c2 : tensor<1x128xi32> -> tensor<16x128xi32>
  %off = arith.addi %rb, %cb : tensor<16x128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x128x!tile.ptr<f32>>
  %p = tile.addptr %xs, %off : tensor<16x128x!tile.ptr<f32>>, tensor<16x128xi32>
  %v = tile.load %p : tensor<16x128x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<16x128x!tile.ptr<f32>>
  %q = tile.addptr %ys, %off : tensor<16x128x!tile.ptr<f32>>, tensor<16x128xi32>
  tile.store %v, %q : tensor<16x128x!tile.ptr<f32>>
  return
}

// -----

// Addresses contiguous along dimension 0 (a column-major view): the load is
// laid out with dimension 0 fastest so that lanes read consecutive
// addresses; the row-major store needs the other order, joined by one
// conversion.
// CHECK-LABEL: func.func @transposed_access
// CHECK: %[[V:.*]] = tile.load {{.*}} : tensor<64x64x!tile.ptr<f32>, #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>>
// CHECK: %[[C:.*]] = tile.convert_layout %[[V]] : {{.*}} -> tensor<64x64xf32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK: tile.store %[[C]], {{.*}} : tensor<64x64x!tile.ptr<f32>, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>>
func.func @transposed_access(%x: !tile.ptr<f32> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = tile.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cols = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %c64r = arith.constant dense<64> : tensor<64x1xi32>
  %c64c = arith.constant dense<64> : tensor<1x64xi32>
  %colsT = arith.muli %cols, %c64c : tensor<1x64xi32>
  %rb = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %cbT = tile.broadcast %colsT : tensor<1x64xi32> -> tensor<64x64xi32>
  %inOff = arith.addi %rb, %cbT : tensor<64x64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %pin = tile.addptr %xs, %inOff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %v = tile.load %pin : tensor<64x64x!tile.ptr<f32>>
  %rowsS = arith.muli %rows, %c64r : tensor<64x1xi32>
  %rbS = tile.broadcast %rowsS : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %outOff = arith.addi %rbS, %cb : tensor<64x64xi32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %pout = tile.addptr %ys, %outOff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %v, %pout : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// Loop-carried tiles keep one layout through the loop.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<256xf32, #[[L:tile.blocked<sizePerThread = \[4\], threadsPerWarp = \[32\], warpsPerCTA = \[4\], order = \[0\]>]]>)
// CHECK: scf.yield {{.*}} : tensor<256xf32, #[[L]]>
// CHECK-NOT: tile.convert_layout
func.func @loop(%x: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %acc = scf.for %k = %c0 to %n step %c256 iter_args(%a = %zero) -> (tensor<256xf32>) : i32 {
    %ks = tile.splat %k : i32 -> tensor<256xi32>
    %off = arith.addi %ks, %r : tensor<256xi32>
    %p = tile.addptr %xs, %off : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
    %v = tile.load %p : tensor<256x!tile.ptr<f32>>
    %s = arith.addf %a, %v : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  %p0 = tile.addptr %xs, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %acc, %p0 : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// A kernel's own num_warps wins over the pass option.
// W8-LABEL: func.func @own_warps
// W8-SAME: tile.num_warps = 2 : i32
// W8: warpsPerCTA = [2]
func.func @own_warps(%x: !tile.ptr<f32> {tile.divisibility = 16}) attributes {tile.num_warps = 2 : i32} {
  %r = tile.make_range 0 to 256 : tensor<256xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %p = tile.addptr %xs, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %p : tensor<256x!tile.ptr<f32>>
  tile.store %v, %p : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// Bytes contiguous in runs of 32 but only 2-byte aligned (34-byte records):
// a load may still take 16 of them a thread (the lowering realigns two
// aligned windows); the store of the same addresses stays aligned, 2 a
// thread, and gets a conversion.
// CHECK-LABEL: func.func @unaligned_bytes
// CHECK: tile.load {{.*}} : tensor<64x32x!tile.ptr<i8>, #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>>
// CHECK: tile.convert_layout
// CHECK: tile.store {{.*}} : tensor<64x32x!tile.ptr<i8>, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>>
func.func @unaligned_bytes(%x: !tile.ptr<i8> {tile.divisibility = 16}, %y: !tile.ptr<i8> {tile.divisibility = 16}) {
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
  %ys = tile.splat %y : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %q = tile.addptr %ys, %off : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  tile.store %v, %q : tensor<64x32x!tile.ptr<i8>>
  return
}

// -----

// A load used only through a broadcast (a vector shared by the tile's rows)
// does not anchor a layout of its own: it takes the layout of the tile it is
// combined with, so neither is converted. Here the f32 vector alone would
// take 4 a thread; it follows the i8 rows' 16.
// CHECK-LABEL: func.func @broadcast_operand
// CHECK: tile.load {{.*}} : tensor<8x64x!tile.ptr<i8>, #[[L:tile.blocked<sizePerThread = \[1, 16\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[V:.*]] = tile.load {{.*}} : tensor<1x64x!tile.ptr<f32>, #[[L]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.broadcast %[[V]] : tensor<1x64xf32, #[[L]]> -> tensor<8x64xf32, #[[L]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.reduce sum
func.func @broadcast_operand(%w: !tile.ptr<i8> {tile.divisibility = 16}, %x: !tile.ptr<f32> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}) {
  %i = tile.make_range 0 to 8 : tensor<8xi32>
  %c64 = arith.constant dense<64> : tensor<8xi32>
  %rows = arith.muli %i, %c64 : tensor<8xi32>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<8xi32> -> tensor<8x1xi32>
  %rb = tile.broadcast %r2 : tensor<8x1xi32> -> tensor<8x64xi32>
  %j = tile.make_range 0 to 64 : tensor<64xi32>
  %j2 = tile.expand_dims %j axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %jb = tile.broadcast %j2 : tensor<1x64xi32> -> tensor<8x64xi32>
  %off = arith.addi %rb, %jb : tensor<8x64xi32>
  %ws = tile.splat %w : !tile.ptr<i8> -> tensor<8x64x!tile.ptr<i8>>
  %wp = tile.addptr %ws, %off : tensor<8x64x!tile.ptr<i8>>, tensor<8x64xi32>
  %q = tile.load %wp : tensor<8x64x!tile.ptr<i8>>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1x64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %j2 : tensor<1x64x!tile.ptr<f32>>, tensor<1x64xi32>
  %v = tile.load %xp : tensor<1x64x!tile.ptr<f32>>
  %vb = tile.broadcast %v : tensor<1x64xf32> -> tensor<8x64xf32>
  %qf = tile.cast %q : tensor<8x64xi8> to tensor<8x64xf32>
  %p = arith.mulf %qf, %vb : tensor<8x64xf32>
  %s = tile.reduce sum %p axis = 1 : tensor<8x64xf32> -> tensor<8xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %i : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %s, %yp : tensor<8x!tile.ptr<f32>>
  return
}

// -----

// A block argument takes the layout of the first value that reaches it
// (here the vectorized load's, 4 a thread); a branch that passes a value
// of another layout (the load without an alignment hint, 1 a thread)
// converts it before branching.
// CHECK-LABEL: func.func @branch_arguments
// CHECK: cf.br ^[[JOIN:.*]](%{{.*}} : tensor<512xf32, #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>)
// CHECK: %[[Y:.*]] = tile.load {{.*}} : tensor<512x!tile.ptr<f32>, #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
// CHECK: %[[C:.*]] = tile.convert_layout %[[Y]] : tensor<512xf32, #tile.blocked<sizePerThread = [1]{{.*}}> -> tensor<512xf32, #tile.blocked<sizePerThread = [4]{{.*}}>
// CHECK-NEXT: cf.br ^[[JOIN]](%[[C]] : tensor<512xf32, #tile.blocked<sizePerThread = [4]
// CHECK: ^[[JOIN]](%{{.*}}: tensor<512xf32, #tile.blocked<sizePerThread = [4]
func.func @branch_arguments(%a: !tile.ptr<f32> {tile.divisibility = 16}, %b: !tile.ptr<f32>, %out: !tile.ptr<f32>, %c: i1) {
  %r = tile.make_range 0 to 512 : tensor<512xi32>
  cf.cond_br %c, ^x, ^y
^x:
  %as = tile.splat %a : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %ap = tile.addptr %as, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %x = tile.load %ap : tensor<512x!tile.ptr<f32>>
  cf.br ^join(%x : tensor<512xf32>)
^y:
  %bs = tile.splat %b : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %bp = tile.addptr %bs, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %y = tile.load %bp : tensor<512x!tile.ptr<f32>>
  cf.br ^join(%y : tensor<512xf32>)
^join(%v: tensor<512xf32>):
  %s = tile.reduce sum %v axis = 0 : tensor<512xf32> -> f32
  tile.store %s, %out : !tile.ptr<f32>
  return
}

// -----

// An scf.while carries a tile in the layout of its initial value: the
// before and after regions' arguments, what scf.condition forwards and the
// results all take it, so that no edge of the loop needs a conversion.
// CHECK-LABEL: func.func @while_carried_tile
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, tensor<512xf32, #[[L:tile.blocked<sizePerThread = \[4\], threadsPerWarp = \[32\], warpsPerCTA = \[4\], order = \[0\]>]]>) -> (i32, tensor<512xf32, #[[L]]>)
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : i32, tensor<512xf32, #[[L]]>
// CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: tensor<512xf32, #[[L]]>):
// CHECK: scf.yield %{{.*}}, %{{.*}} : i32, tensor<512xf32, #[[L]]>
// CHECK-NOT: tile.convert_layout
func.func @while_carried_tile(%a: !tile.ptr<f32> {tile.divisibility = 16}, %out: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range 0 to 512 : tensor<512xi32>
  %as = tile.splat %a : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>>
  %ap = tile.addptr %as, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %x = tile.load %ap : tensor<512x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z:2 = scf.while (%i = %c0, %acc = %x) : (i32, tensor<512xf32>) -> (i32, tensor<512xf32>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, tensor<512xf32>
  } do {
  ^bb0(%i: i32, %acc: tensor<512xf32>):
    %y = arith.addf %acc, %acc : tensor<512xf32>
    %i2 = arith.addi %i, %c1 : i32
    scf.yield %i2, %y : i32, tensor<512xf32>
  }
  %s = tile.reduce sum %z#1 axis = 0 : tensor<512xf32> -> f32
  tile.store %s, %out : !tile.ptr<f32>
  return
}
