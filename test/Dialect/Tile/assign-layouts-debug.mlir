// REQUIRES: llk-debug-output
// RUN: llk-opt %s -tile-assign-layouts -debug-only=tile-assign-layouts -o /dev/null 2>&1 | FileCheck %s
// RUN: llk-opt %s -tile-assign-layouts -o /dev/null 2>&1 | count 0
// RUN: llk-opt %s -tile-assign-layouts -debug-only=tile-software-pipeline -o /dev/null 2>&1 | count 0

// The layout pass traces its decisions (a build with
// -DLLK_ENABLE_DEBUG_OUTPUT=ON): the warps, each anchor's layout and why,
// the values no anchor reaches, and the conversions where layouts meet.
// CHECK: [tile-assign-layouts] kernel @scaled_rows: 4 warps (the pass's num-warps)
func.func @scaled_rows(%x: !tile.ptr<f32> {tile.divisibility = 16},
                       %scale: !tile.ptr<f32> {tile.divisibility = 16},
                       %y: !tile.ptr<f32> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 16 : tensor<16xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %n128 = arith.constant dense<128> : tensor<16x1xi32>
  %starts = arith.muli %row, %n128 : tensor<16x1xi32>
  %startsb = tile.broadcast %starts : tensor<16x1xi32> -> tensor<16x128xi32>
  %c = tile.make_range 0 to 128 : tensor<128xi32>
  %col = tile.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %colsb = tile.broadcast %col : tensor<1x128xi32> -> tensor<16x128xi32>
  %off = arith.addi %startsb, %colsb : tensor<16x128xi32>
  // x is read along its rows, 4 floats an access.
  // CHECK-NEXT: [tile-assign-layouts] tile.load at loc("{{.*}}assign-layouts-debug.mlir":[[@LINE+3]]:8): addresses contiguous along dimension 1 (128 elements, the first of each 16-byte aligned): 4 per access, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x128x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %off : tensor<16x128x!tile.ptr<f32>>, tensor<16x128xi32>
  %v = tile.load %xp : tensor<16x128x!tile.ptr<f32>>
  // The scales, one per column, are only broadcast: they anchor last, by
  // when the tile they scale has given them its layout (no conversion).
  // CHECK-NEXT: [tile-assign-layouts] tile.load at loc("{{.*}}":[[@LINE+3]]:9): anchors last, its value is only broadcast
  %ss = tile.splat %scale : !tile.ptr<f32> -> tensor<1x128x!tile.ptr<f32>>
  %sp = tile.addptr %ss, %col : tensor<1x128x!tile.ptr<f32>>, tensor<1x128xi32>
  %sv = tile.load %sp : tensor<1x128x!tile.ptr<f32>>
  %sb = tile.broadcast %sv : tensor<1x128xf32> -> tensor<16x128xf32>
  %w = arith.mulf %v, %sb : tensor<16x128xf32>
  // CHECK-NEXT: [tile-assign-layouts] tile.store at loc("{{.*}}":[[@LINE+4]]:3): addresses contiguous along dimension 1 (128 elements, the first of each 16-byte aligned): 4 per access, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
  // CHECK-NEXT: [tile-assign-layouts] tile.load at loc("{{.*}}":[[@LINE-4]]:9): keeps #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>, which its neighbours gave it
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<16x128x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %off : tensor<16x128x!tile.ptr<f32>>, tensor<16x128xi32>
  tile.store %w, %yp : tensor<16x128x!tile.ptr<f32>>
  // CHECK-NOT: convert
  return
}

// llkc takes -debug-only too. On sm_90a a GEMM's accumulator takes
// warpgroup MMA's rows, and the store converts it to its own layout...
// RUN: llkc %examples/gemm_tma.mlir -D T=f16 -D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=64 --arch sm_90a \
// RUN:     --num-warps 8 --num-stages 4 --emit=layout -debug-only=tile-assign-layouts -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WGMMA
// WGMMA: [tile-assign-layouts] kernel @gemm_tma_kernel: 8 warps (its tile.num_warps), warpgroup MMA
// WGMMA-NEXT: [tile-assign-layouts] dot at loc("{{.*}}gemm_tma.mlir":{{[0-9]+}}:{{[0-9]+}}): accumulator #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], warpRepeat = [2, 1]> (warpgroup MMA's rows)
// WGMMA: [tile-assign-layouts] convert operand #1 of tile.store at loc("{{.*}}gemm_tma.mlir":{{[0-9]+}}:3): tensor<128x256xf16, #tile.blocked<{{.*}}warpRepeat = [2, 1]>> to tensor<128x256xf16, #tile.blocked<sizePerThread = [1, 8]{{.*}}>>
// and the dot's instruction is warpgroup MMA's m64n256k16.
// WGMMA: [tile-assign-layouts] dot at loc("{{.*}}gemm_tma.mlir":{{[0-9]+}}:{{[0-9]+}}): #tile.mma<version = 3, instrShape = [64, 256, 16], warpsPerCTA = [8, 1]>
// ... unless two programs per SM leave too few registers for its m64n256
// instruction: then mma.sync's.
// RUN: llkc %examples/gemm.mlir -D T=f16 -D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=64 --arch sm_90a \
// RUN:     --num-warps 8 --min-programs-per-sm 2 --emit=layout -debug-only=tile-assign-layouts -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SYNC
// SYNC: [tile-assign-layouts] dot at loc("{{.*}}gemm.mlir":{{[0-9]+}}:{{[0-9]+}}): accumulator #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 4], order = [1, 0]> (mma.sync's: warpgroup MMA's instruction would not fit a thread's registers)
// SYNC: [tile-assign-layouts] dot at loc("{{.*}}gemm.mlir":{{[0-9]+}}:{{[0-9]+}}): #tile.mma<version = 2, instrShape = [16, 8, 16], warpsPerCTA = [2, 4]>
