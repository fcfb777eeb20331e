// RUN: llk-opt %s -split-input-file -mlir-print-local-scope -tile-assign-layouts | FileCheck %s
// RUN: llk-opt %s -split-input-file -mlir-print-local-scope -tile-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=W8

// A dot's accumulator takes the mma.sync m16n8 accumulator layout (lanes 8x4,
// two columns per lane), warps over M and N; it stays in it through the
// loop, so the K loop never converts it. The operands keep their loads'
// layouts. The store's coalesced layout joins the epilogue with one
// conversion after the loop.
// CHECK-LABEL: func.func @k_loop
// CHECK: scf.for {{.*}} -> (tensor<128x128xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>>)
// CHECK: tile.load {{.*}} : tensor<128x32x!tile.ptr<f16>, #tile.blocked<sizePerThread = [1, 8],
// CHECK: tile.load {{.*}} : tensor<32x128x!tile.ptr<f16>, #tile.blocked<sizePerThread = [1, 8],
// CHECK-NOT: tile.convert_layout
// CHECK: tile.dot {{.*}} -> tensor<128x128xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>>
// CHECK: scf.yield
// CHECK: tile.cast {{.*}} to tensor<128x128xf16, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>>
// CHECK: tile.convert_layout {{.*}} -> tensor<128x128xf16, #tile.blocked<sizePerThread = [1, 8],
// CHECK: tile.store
// W8-LABEL: func.func @k_loop
// W8: scf.for {{.*}} -> (tensor<128x128xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0]>>)
func.func @k_loop(%a: !tile.ptr<f16> {tile.divisibility = 16},
                  %b: !tile.ptr<f16> {tile.divisibility = 16},
                  %c: !tile.ptr<f16> {tile.divisibility = 16}, %k: i32) {
  %r128 = tile.make_range 0 to 128 : tensor<128xi32>
  %r32 = tile.make_range 0 to 32 : tensor<32xi32>
  %am = tile.expand_dims %r128 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %s32 = arith.constant dense<32> : tensor<128x1xi32>
  %amr = arith.muli %am, %s32 : tensor<128x1xi32>
  %amb = tile.broadcast %amr : tensor<128x1xi32> -> tensor<128x32xi32>
  %ak = tile.expand_dims %r32 axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<128x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<128x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<128x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %aoff : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
  %bk = tile.expand_dims %r32 axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s128 = arith.constant dense<128> : tensor<32x1xi32>
  %bkr = arith.muli %bk, %s128 : tensor<32x1xi32>
  %bkb = tile.broadcast %bkr : tensor<32x1xi32> -> tensor<32x128xi32>
  %bn = tile.expand_dims %r128 axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %bnb = tile.broadcast %bn : tensor<1x128xi32> -> tensor<32x128xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x128xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %boff : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc = scf.for %i = %c0 to %k step %c32 iter_args(%acc_i = %zero) -> (tensor<128x128xf32>) : i32 {
    %aoffs = tile.splat %i : i32 -> tensor<128x32xi32>
    %ap = tile.addptr %ap0, %aoffs : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
    %boffs0 = arith.muli %i, %c32 : i32
    %boffs = tile.splat %boffs0 : i32 -> tensor<32x128xi32>
    %bp = tile.addptr %bp0, %boffs : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
    %av = tile.load %ap : tensor<128x32x!tile.ptr<f16>>
    %bv = tile.load %bp : tensor<32x128x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<128x32xf16>, tensor<32x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %h = tile.cast %acc : tensor<128x128xf32> to tensor<128x128xf16>
  %cm = tile.expand_dims %r128 axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  %s128c = arith.constant dense<128> : tensor<128x1xi32>
  %cmr = arith.muli %cm, %s128c : tensor<128x1xi32>
  %cmb = tile.broadcast %cmr : tensor<128x1xi32> -> tensor<128x128xi32>
  %cnb = tile.broadcast %bn : tensor<1x128xi32> -> tensor<128x128xi32>
  %coff = arith.addi %cmb, %cnb : tensor<128x128xi32>
  %cs = tile.splat %c : !tile.ptr<f16> -> tensor<128x128x!tile.ptr<f16>>
  %cp = tile.addptr %cs, %coff : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
  tile.store %h, %cp : tensor<128x128x!tile.ptr<f16>>
  return
}

// -----

// A tile too small for the warps: warps that find no 16 rows or 8 columns of
// their own replicate along N.
// CHECK-LABEL: func.func @small
// CHECK: tile.dot {{.*}} -> tensor<16x16xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>>
func.func @small(%x: f16, %y: f16, %out: !tile.ptr<f32>) {
  %xs = tile.splat %x : f16 -> tensor<16x16xf16>
  %ys = tile.splat %y : f16 -> tensor<16x16xf16>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %xs, %ys, %zero : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %s = tile.reduce sum %d axis = 1 : tensor<16x16xf32> -> tensor<16xf32>
  %t = tile.reduce sum %s axis = 0 : tensor<16xf32> -> f32
  tile.store %t, %out : !tile.ptr<f32>
  return
}

// -----

// A key index shared (as CSE leaves it) by a K^T operand's offsets and a
// mask on the dot's result: the accumulator's layout, which spreads first,
// reaches the mask's indices but not the load's, which keeps its own copy
// of them and the coalesced layout (contiguous along D, dimension 0), as an
// attention's score mask needs.
// CHECK-LABEL: func.func @index_shared_with_a_dot
// CHECK: tile.load {{.*}} : tensor<64x32x!tile.ptr<f16>, #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>>
func.func @index_shared_with_a_dot(%k: !tile.ptr<f16> {tile.divisibility = 16}, %o: !tile.ptr<f32> {tile.divisibility = 16},
                           %s: i32 {tile.divisibility = 16}) {
  %rd = tile.make_range 0 to 64 : tensor<64xi32>
  %rn = tile.make_range 0 to 32 : tensor<32xi32>
  %n_row = tile.expand_dims %rn axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %d_col = tile.expand_dims %rd axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %d_b = tile.broadcast %d_col : tensor<64x1xi32> -> tensor<64x32xi32>
  %ss = tile.splat %s : i32 -> tensor<1x32xi32>
  %n_off = arith.muli %n_row, %ss : tensor<1x32xi32>
  %n_b = tile.broadcast %n_off : tensor<1x32xi32> -> tensor<64x32xi32>
  %offs = arith.addi %d_b, %n_b : tensor<64x32xi32>
  %ks = tile.splat %k : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %kp = tile.addptr %ks, %offs : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %kt = tile.load %kp : tensor<64x32x!tile.ptr<f16>>
  %q = arith.constant dense<1.0> : tensor<64x64xf16>
  %acc0 = arith.constant dense<0.0> : tensor<64x32xf32>
  %r = tile.dot %q, %kt, %acc0 : tensor<64x64xf16>, tensor<64x32xf16> -> tensor<64x32xf32>
  %keys = tile.broadcast %n_row : tensor<1x32xi32> -> tensor<64x32xi32>
  %lim = tile.splat %s : i32 -> tensor<64x32xi32>
  %keep = arith.cmpi slt, %keys, %lim : tensor<64x32xi32>
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %rk = arith.select %keep, %r, %zero : tensor<64x32xi1>, tensor<64x32xf32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %m_off = arith.muli %d_col, %c32 : tensor<64x1xi32>
  %m_b = tile.broadcast %m_off : tensor<64x1xi32> -> tensor<64x32xi32>
  %n_b2 = tile.broadcast %n_row : tensor<1x32xi32> -> tensor<64x32xi32>
  %o_offs = arith.addi %m_b, %n_b2 : tensor<64x32xi32>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %op = tile.addptr %os, %o_offs : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  tile.store %rk, %op : tensor<64x32x!tile.ptr<f32>>
  return
}
