// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s

// arith and math ops on a tile act on the vector of the thread's elements
// (256 elements over one warp of 4-element blocks: 8 a thread); a splat
// constant is a vector constant. tile.addptr scales the element offsets by
// the pointee's bytes and adds them to the 64-bit addresses; a scalar one is
// a getelementptr.
// CHECK-LABEL: gpu.func @elementwise
// CHECK-SAME: (%[[X:.*]]: f32, %[[P:.*]]: !llvm.ptr<1>)
// CHECK: %[[F:.*]] = arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : vector<8xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[F]], %[[TWO]] : vector<8xf32>
// CHECK: %[[E:.*]] = math.exp %[[M]] fastmath<afn> : vector<8xf32>
// CHECK: %[[XS:.*]] = vector.broadcast %[[X]] : f32 to vector<8xf32>
// CHECK: arith.addf %[[E]], %[[XS]] : vector<8xf32>
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
// CHECK: %[[BASES:.*]] = vector.broadcast %[[BASE]] : i64 to vector<8xi64>
// CHECK: %[[OFF:.*]] = arith.extsi %{{.*}} : vector<8xi32> to vector<8xi64>
// CHECK: %[[FOUR:.*]] = arith.constant dense<4> : vector<8xi64>
// CHECK: %[[BYTES:.*]] = arith.muli %[[OFF]], %[[FOUR]] : vector<8xi64>
// CHECK: arith.addi %[[BASES]], %[[BYTES]] : vector<8xi64>
// CHECK: llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

func.func @elementwise(%x: f32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 256 : tensor<256xi32, #b>
  %f = arith.sitofp %r : tensor<256xi32, #b> to tensor<256xf32, #b>
  %two = arith.constant dense<2.0> : tensor<256xf32, #b>
  %m = arith.mulf %f, %two : tensor<256xf32, #b>
  %e = math.exp %m fastmath<afn> : tensor<256xf32, #b>
  %xs = tile.splat %x : f32 -> tensor<256xf32, #b>
  %s = arith.addf %e, %xs : tensor<256xf32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %q = tile.addptr %ps, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  tile.store %s, %q : tensor<256x!tile.ptr<f32>, #b>
  %one = arith.constant 1 : i32
  %p1 = tile.addptr %p, %one : !tile.ptr<f32>, i32
  tile.store %x, %p1 : !tile.ptr<f32>
  return
}

// -----

// f32 exp2, on a tile (a thread's 8 elements) and on a scalar, is one
// ex2.approx.ftz.f32 an element (Triton's exp2); f16 keeps math.exp2
// (libdevice after the NVVM conversion).
// CHECK-LABEL: gpu.func @exp2
// CHECK-COUNT-8: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%{{.*}}) : (f32) -> f32
// CHECK: vector.from_elements
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%{{.*}}) : (f32) -> f32
// CHECK: math.exp2 %{{.*}} : vector<8xf16>
// CHECK-NOT: math.exp2 %{{.*}} : {{.*}}f32
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

func.func @exp2(%x: f32, %p: !tile.ptr<f32>, %h: !tile.ptr<f16>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 256 : tensor<256xi32, #b>
  %f = arith.sitofp %r : tensor<256xi32, #b> to tensor<256xf32, #b>
  %e = math.exp2 %f : tensor<256xf32, #b>
  %s = math.exp2 %x : f32
  %es = tile.splat %s : f32 -> tensor<256xf32, #b>
  %sum = arith.addf %e, %es : tensor<256xf32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %pp = tile.addptr %ps, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  tile.store %sum, %pp : tensor<256x!tile.ptr<f32>, #b>
  %fh = arith.truncf %f : tensor<256xf32, #b> to tensor<256xf16, #b>
  %eh = math.exp2 %fh : tensor<256xf16, #b>
  %hs = tile.splat %h : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>, #b>
  %hp = tile.addptr %hs, %r : tensor<256x!tile.ptr<f16>, #b>, tensor<256xi32, #b>
  tile.store %eh, %hp : tensor<256x!tile.ptr<f16>, #b>
  return
}

// -----

// i32 mului_extended (Philox's rounds), on a tile and on a scalar: the low
// word a 32-bit multiply of the thread's vectors, the high word
// llvm.nvvm.mulhi.ui an element; no 64-bit multiply. i64 keeps
// arith.mului_extended (arith-to-llvm after the conversion).
// CHECK-LABEL: gpu.func @mul_extended
// CHECK-NOT: arith.extui
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK-COUNT-8: llvm.call_intrinsic "llvm.nvvm.mulhi.ui"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: vector.from_elements
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mulhi.ui"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: arith.mului_extended %{{.*}}, %{{.*}} : i64
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

func.func @mul_extended(%x: i32, %y: i64, %p: !tile.ptr<i32>, %q: !tile.ptr<i64>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range 0 to 256 : tensor<256xi32, #b>
  %lo, %hi = arith.mului_extended %r, %r : tensor<256xi32, #b>
  %slo, %shi = arith.mului_extended %x, %x : i32
  %s = arith.addi %slo, %shi : i32
  %ss = tile.splat %s : i32 -> tensor<256xi32, #b>
  %sum = arith.addi %lo, %hi : tensor<256xi32, #b>
  %all = arith.addi %sum, %ss : tensor<256xi32, #b>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>, #b>
  %pp = tile.addptr %ps, %r : tensor<256x!tile.ptr<i32>, #b>, tensor<256xi32, #b>
  tile.store %all, %pp : tensor<256x!tile.ptr<i32>, #b>
  %ylo, %yhi = arith.mului_extended %y, %y : i64
  %y2 = arith.addi %ylo, %yhi : i64
  tile.store %y2, %q : !tile.ptr<i64>
  return
}
