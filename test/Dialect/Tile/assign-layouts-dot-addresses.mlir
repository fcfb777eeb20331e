// RUN: llk-opt %s -mlir-print-local-scope -tile-assign-layouts="wgmma=true" | FileCheck %s --check-prefixes=CHECK,WGMMA
// RUN: llk-opt %s -mlir-print-local-scope -tile-assign-layouts | FileCheck %s --check-prefixes=CHECK,MMA
// RUN: llkc %s --arch sm_90a -o - | FileCheck %s --check-prefix=PTX
// RUN: llkc %s --arch sm_90 -o - | FileCheck %s --check-prefix=PTX

// Attention's scores, reduced: the accumulator is masked by comparing its
// column indices with its row indices (a causal mask), and the same index
// tiles address the dot's operands: A [64 x 64] row-major, B = Kᵀ [64 x 64]
// contiguous along K (dimension 0). The accumulator layout spreads first,
// through the mask into those indices; it used to reach the operands'
// pointers, so that B was loaded 2 elements a thread across its rows (cp.async
// of 4 bytes), and on sm_90a the [1 x 64] row of column indices, which
// warpgroup MMA's layout (warpRepeat = [2, 1]) cannot lay out: llkc
// failed with "'tile.expand_dims' op result #0: dimension 0 of
// 'tensor<1x64xi32, ...warpRepeat = [2, 1]>>' must be a multiple of 64"
// (issue 23). The loads of dot operands now lay out their addresses, and
// the mask converts its index tiles (recomputed in registers).
// CHECK-LABEL: func.func @masked_scores
// CHECK: tile.load {{.*}} : tensor<64x64x!tile.ptr<f16>, #tile.blocked<sizePerThread = [1, 8], {{[^>]*}}order = [1, 0]>>
// CHECK: tile.load {{.*}} : tensor<64x64x!tile.ptr<f16>, #tile.blocked<sizePerThread = [8, 1], {{[^>]*}}order = [0, 1]>>
// WGMMA: tile.dot {{.*}} -> tensor<64x64xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>>
// MMA: tile.dot {{.*}} -> tensor<64x64xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], {{[^>]*}}order = [1, 0]>>
// CHECK-NOT: tensor<1x64xi32, #tile.blocked<{{[^>]*}}warpRepeat
// CHECK: arith.select {{.*}} : tensor<64x64xi1, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4]
// PTX: .entry masked_scores
func.func @masked_scores(%a: !tile.ptr<f16> {tile.divisibility = 16},
                         %b: !tile.ptr<f16> {tile.divisibility = 16},
                         %out: !tile.ptr<f32> {tile.divisibility = 16},
                         %ld: i32 {tile.divisibility = 8}) {
  %r = tile.make_range 0 to 64 : tensor<64xi32>
  %rows = tile.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cols = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rows_b = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols_b = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %c64 = arith.constant dense<64> : tensor<64x64xi32>
  // A: a + rows * 64 + cols.
  %a_rows = arith.muli %rows_b, %c64 : tensor<64x64xi32>
  %a_offs = arith.addi %a_rows, %cols_b : tensor<64x64xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %ap = tile.addptr %as, %a_offs : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %av = tile.load %ap : tensor<64x64x!tile.ptr<f16>>
  // Kᵀ: b + k + n * ld (k = rows, n = cols).
  %lds = tile.splat %ld : i32 -> tensor<1x64xi32>
  %b_cols = arith.muli %cols, %lds : tensor<1x64xi32>
  %b_cols_b = tile.broadcast %b_cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %b_offs = arith.addi %rows_b, %b_cols_b : tensor<64x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %bp = tile.addptr %bs, %b_offs : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %bv = tile.load %bp : tensor<64x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %av, %bv, %zero : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  // Row i keeps column j <= i.
  %keep = arith.cmpi sle, %cols_b, %rows_b : tensor<64x64xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<64x64xf32>
  %masked = arith.select %keep, %s, %neg_inf : tensor<64x64xi1>, tensor<64x64xf32>
  %outs = tile.splat %out : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %outp = tile.addptr %outs, %a_offs : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %masked, %outp : tensor<64x64x!tile.ptr<f32>>
  return
}
