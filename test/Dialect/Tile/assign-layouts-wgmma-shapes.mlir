// RUN: llk-opt %s -mlir-print-local-scope -tile-assign-layouts="wgmma=true" | FileCheck %s
// RUN: llkc %s --arch sm_90a -o - | FileCheck %s --check-prefix=PTX

// Warpgroup MMA's accumulator layout (warpRepeat = [2, 1]) lays out only
// tiles with whole repeated warp blocks along M (here 64 rows), or one row:
// a dimension of one element is held by every thread. Spreading from the
// accumulator through its offsets reaches the [1 x 64] row of column
// indices, which takes the accumulator's layout, so the [64 x 64] offsets
// need no conversion (before, the row kept a layout of its own and the
// whole broadcast tile was converted through shared memory: 128 KB at
// 128 x 256, which made examples/triton/10_fp8_gemm.mlir's blockwise scales
// overflow shared memory); the [64 x 16] offsets of A (whose K indices come
// from a 16-element range) keep a layout of their own. Found by the
// differential test (scripts/gen-tile-kernel.py, seed 1110), which llkc
// rejected with "'tile.expand_dims' op result #0: dimension 0 of
// 'tensor<1x64xi32, ...warpRepeat = [2, 1]>>' must be a multiple of 64".
// CHECK-LABEL: func.func @dot_offsets
// CHECK: tile.expand_dims {{.*}} -> tensor<1x64xi32, #tile.blocked<{{.*}}warpRepeat = [2, 1]>>
// CHECK: tile.broadcast {{.*}} : tensor<1x64xi32, #tile.blocked<{{.*}}warpRepeat = [2, 1]>> -> tensor<64x64xi32, #tile.blocked<{{.*}}warpRepeat = [2, 1]>>
// CHECK-NOT: tile.convert_layout {{.*}} -> tensor<64x64xi32
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #tile.blocked<{{.*}}warpRepeat = [2, 1]>>
// PTX: .entry dot_offsets
func.func @dot_offsets(%acc: !tile.ptr<f32> {tile.divisibility = 16},
                       %a: !tile.ptr<f16> {tile.divisibility = 16},
                       %b: !tile.ptr<f16> {tile.divisibility = 16},
                       %out: !tile.ptr<f32> {tile.divisibility = 16}) {
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  %r16 = tile.make_range 0 to 16 : tensor<16xi32>
  %rows = tile.expand_dims %r64 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cols = tile.expand_dims %r64 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rowsb = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %c64 = arith.constant dense<64> : tensor<64x64xi32>
  %t = arith.muli %rowsb, %c64 : tensor<64x64xi32>
  %lin = arith.addi %t, %colsb : tensor<64x64xi32>
  %accs = tile.splat %acc : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %accp = tile.addptr %accs, %lin : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %accv = tile.load %accp : tensor<64x64x!tile.ptr<f32>>
  // A: [64 x 16], row-major.
  %ak = tile.expand_dims %r16 axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %am = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x16xi32>
  %akb = tile.broadcast %ak : tensor<1x16xi32> -> tensor<64x16xi32>
  %c16 = arith.constant dense<16> : tensor<64x16xi32>
  %at = arith.muli %am, %c16 : tensor<64x16xi32>
  %alin = arith.addi %at, %akb : tensor<64x16xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x16x!tile.ptr<f16>>
  %ap = tile.addptr %as, %alin : tensor<64x16x!tile.ptr<f16>>, tensor<64x16xi32>
  %av = tile.load %ap : tensor<64x16x!tile.ptr<f16>>
  // B: [16 x 64], row-major.
  %bk = tile.expand_dims %r16 axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %bkb = tile.broadcast %bk : tensor<16x1xi32> -> tensor<16x64xi32>
  %bn = tile.broadcast %cols : tensor<1x64xi32> -> tensor<16x64xi32>
  %c64b = arith.constant dense<64> : tensor<16x64xi32>
  %bt = arith.muli %bkb, %c64b : tensor<16x64xi32>
  %blin = arith.addi %bt, %bn : tensor<16x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
  %bp = tile.addptr %bs, %blin : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
  %bv = tile.load %bp : tensor<16x64x!tile.ptr<f16>>
  %d = tile.dot %av, %bv, %accv : tensor<64x16xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  %outs = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %outp = tile.addptr %outs, %lin : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %d, %outp : tensor<64x64x!tile.ptr<f32>>
  return
}
