// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s

// Kernels become gpu.func kernels with a known block size of num_warps * 32;
// pointers become global LLVM pointers and every tile the vector of the
// elements a thread holds. Contiguous, 16-byte aligned, unmasked accesses are
// plain vector loads and stores; masked ones one predicated PTX instruction
// per 16 bytes, with `other` moved in first.
// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @llk_kernels
// CHECK: gpu.func @copy(%[[X:.*]]: !llvm.ptr<1>, %[[Y:.*]]: !llvm.ptr<1>, %[[N:.*]]: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: gpu.thread_id x
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.inline_asm "mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b,r,r,r,r"
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: llvm.inline_asm has_side_effects "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,b"
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @copy(%x: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %n: i32 {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32, #blocked>
  %ns = tile.splat %n : i32 -> tensor<2048xi32, #blocked>
  %m = arith.cmpi slt, %r, %ns : tensor<2048xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>, #blocked>
  %p = tile.addptr %xs, %r : tensor<2048x!tile.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
  %a = tile.load %p : tensor<2048x!tile.ptr<f32>, #blocked>
  %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
  %b = tile.load %p mask %m other %zero : tensor<2048x!tile.ptr<f32>, #blocked>
  %c = arith.addf %a, %b : tensor<2048xf32, #blocked>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>, #blocked>
  %q = tile.addptr %ys, %r : tensor<2048x!tile.ptr<f32>, #blocked>, tensor<2048xi32, #blocked>
  tile.store %c, %q mask %m : tensor<2048x!tile.ptr<f32>, #blocked>
  return
}

// -----

// A mask that can change within 16 bytes (n has no divisibility hint) is
// applied per element; f16 chunks travel as 32-bit words; cache and
// eviction hints appear on the instruction.
// CHECK-LABEL: gpu.func @hints
// CHECK: "@$2 ld.global.cg.b16 $0, [$1];", "=h,l,b"
// CHECK: "@$5 ld.global.L1::evict_last.v4.b32 {$0, $1, $2, $3}, [$4];"
// CHECK: "st.global.cs.v4.b32 [$0], {$1, $2, $3, $4};"

#blocked = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

func.func @hints(%x: !tile.ptr<f16> {tile.divisibility = 16 : i64}, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32, #blocked>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #blocked>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #blocked>
  %p = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
  %a = tile.load %p mask %m cache = cg : tensor<1024x!tile.ptr<f16>, #blocked>
  %all = arith.constant dense<true> : tensor<1024xi1, #blocked>
  %b = tile.load %p mask %all evict = evict_last : tensor<1024x!tile.ptr<f16>, #blocked>
  %c = arith.addf %a, %b : tensor<1024xf16, #blocked>
  tile.store %c, %p cache = cs : tensor<1024x!tile.ptr<f16>, #blocked>
  return
}

// -----

// A scalar store happens once per program, from thread 0.
// CHECK-LABEL: gpu.func @scalar
// CHECK: %[[TID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects "@$2 st.global.b32 [$0], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[FIRST]]
func.func @scalar(%x: !tile.ptr<f32>, %v: f32) attributes {tile.num_warps = 4 : i32} {
  tile.store %v, %x : !tile.ptr<f32>
  return
}

// -----

// A thread's 16 contiguous bytes that are only 2-byte aligned (34-byte
// records) are read as the two aligned 16-byte windows holding their first
// and last byte, each one predicated 16-byte load, then realigned: two
// select stages on the word offset (bits 1 and 2 of offset / 4) and a
// funnel shift per word for the byte offset within a word; a masked-off run
// takes `other`.
// CHECK-LABEL: gpu.func @realigned
// CHECK: %[[ADDR:.*]] = vector.extract %{{.*}}[0] : i64 from vector<16xi64>
// CHECK: %[[LO:.*]] = arith.andi %[[ADDR]], %[[MASK:.*]] : i64
// CHECK: %[[END:.*]] = arith.addi %[[ADDR]], %{{.*}} : i64
// CHECK: %[[HI:.*]] = arith.andi %[[END]], %[[MASK]] : i64
// CHECK: %[[LOP:.*]] = llvm.inttoptr %[[LO]]
// CHECK: llvm.inline_asm "@$5 ld.global.L1::evict_first.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b" %[[LOP]]
// CHECK: %[[HIP:.*]] = llvm.inttoptr %[[HI]]
// CHECK: llvm.inline_asm "@$5 ld.global.L1::evict_first.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b" %[[HIP]]
// CHECK-COUNT-7: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-5: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-4: llvm.intr.fshr(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32) -> i32
// CHECK: vector.bitcast %{{.*}} : vector<4xi32> to vector<16xi8>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi8>
// CHECK-NOT: ld.global.v2.u8
// CHECK-NOT: ld.global.u8
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>
#slice1 = #tile.slice<dim = 0, parent = #blocked1>

func.func @realigned(%x: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %i = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %c34 = arith.constant dense<34> : tensor<64xi32, #blocked>
  %rec = arith.muli %i, %c34 : tensor<64xi32, #blocked>
  %c2 = arith.constant dense<2> : tensor<64xi32, #blocked>
  %start = arith.addi %rec, %c2 : tensor<64xi32, #blocked>
  %ns = tile.splat %n : i32 -> tensor<64xi32, #blocked>
  %ok = arith.cmpi slt, %i, %ns : tensor<64xi32, #blocked>
  %5 = tile.convert_layout %start : tensor<64xi32, #blocked> -> tensor<64xi32, #slice>
  %s2 = tile.expand_dims %5 axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked1>
  %sb = tile.broadcast %s2 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %8 = tile.convert_layout %ok : tensor<64xi1, #blocked> -> tensor<64xi1, #slice>
  %ok2 = tile.expand_dims %8 axis = 1 : tensor<64xi1, #slice> -> tensor<64x1xi1, #blocked1>
  %okb = tile.broadcast %ok2 : tensor<64x1xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked1>
  %jb = tile.broadcast %j2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %off = arith.addi %sb, %jb : tensor<64x32xi32, #blocked1>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked1>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
  %zero = arith.constant dense<0> : tensor<64x32xi8, #blocked1>
  %v = tile.load %p mask %okb other %zero evict = evict_first : tensor<64x32x!tile.ptr<i8>, #blocked1>
  %vf = tile.cast %v : tensor<64x32xi8, #blocked1> to tensor<64x32xf32, #blocked1>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32, #blocked1> -> tensor<64xf32, #slice>
  %20 = tile.convert_layout %s : tensor<64xf32, #slice> -> tensor<64xf32, #blocked>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #blocked>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
  tile.store %20, %yp : tensor<64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// 4-byte aligned runs (36-byte records, bytes 4..35) need only the word
// selects: no funnel shifts.
// CHECK-LABEL: gpu.func @realigned_words
// CHECK-COUNT-2: ld.global.L1::evict_first.v4.b32
// CHECK-COUNT-7: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-5: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK-NOT: llvm.intr.fshr
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>
#slice1 = #tile.slice<dim = 0, parent = #blocked1>

func.func @realigned_words(%x: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %i = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %c36 = arith.constant dense<36> : tensor<64xi32, #blocked>
  %rec = arith.muli %i, %c36 : tensor<64xi32, #blocked>
  %c4 = arith.constant dense<4> : tensor<64xi32, #blocked>
  %start = arith.addi %rec, %c4 : tensor<64xi32, #blocked>
  %3 = tile.convert_layout %start : tensor<64xi32, #blocked> -> tensor<64xi32, #slice>
  %s2 = tile.expand_dims %3 axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked1>
  %sb = tile.broadcast %s2 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked1>
  %jb = tile.broadcast %j2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %off = arith.addi %sb, %jb : tensor<64x32xi32, #blocked1>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked1>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
  %v = tile.load %p evict = evict_first : tensor<64x32x!tile.ptr<i8>, #blocked1>
  %vf = tile.cast %v : tensor<64x32xi8, #blocked1> to tensor<64x32xf32, #blocked1>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32, #blocked1> -> tensor<64xf32, #slice>
  %15 = tile.convert_layout %s : tensor<64xf32, #slice> -> tensor<64xf32, #blocked>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #blocked>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
  tile.store %15, %yp : tensor<64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// A prefetch is one `prefetch.global.L2` per contiguous run a thread holds
// (here 16 bytes of a 64 x 32-byte tile: one per thread), predicated by
// the mask, with no result.
// CHECK-LABEL: gpu.func @prefetch
// CHECK-COUNT-1: llvm.inline_asm has_side_effects "@$1 prefetch.global.L2 [$0];", "l,b"
// CHECK-NOT: prefetch.global
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked>
#slice1 = #tile.slice<dim = 0, parent = #blocked>

func.func @prefetch(%x: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %i = tile.make_range 0 to 64 : tensor<64xi32, #slice>
  %c32 = arith.constant dense<32> : tensor<64xi32, #slice>
  %rows = arith.muli %i, %c32 : tensor<64xi32, #slice>
  %ns = tile.splat %n : i32 -> tensor<64xi32, #slice>
  %ok = arith.cmpi slt, %i, %ns : tensor<64xi32, #slice>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
  %rb = tile.broadcast %r2 : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
  %ok2 = tile.expand_dims %ok axis = 1 : tensor<64xi1, #slice> -> tensor<64x1xi1, #blocked>
  %okb = tile.broadcast %ok2 : tensor<64x1xi1, #blocked> -> tensor<64x32xi1, #blocked>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked>
  %jb = tile.broadcast %j2 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
  %off = arith.addi %rb, %jb : tensor<64x32xi32, #blocked>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>, #blocked>, tensor<64x32xi32, #blocked>
  tile.prefetch %p mask %okb : tensor<64x32x!tile.ptr<i8>, #blocked>
  %v = tile.load %p mask %okb : tensor<64x32x!tile.ptr<i8>, #blocked>
  tile.store %v, %p mask %okb : tensor<64x32x!tile.ptr<i8>, #blocked>
  return
}

// -----

// A realigned load reads the aligned windows around each thread's run: up to
// (window - alignment) bytes past its last byte. The kernel records, per
// pointer argument, the most any of its loads may read past its elements
// (the metadata's read_overrun_bytes; docs/runtime.md, the buffer contract).

// 16 quants of 34-byte records, 2-byte aligned: 16-byte windows, 14 bytes
// past; the f32 output is stored, never read past.
// CHECK-LABEL: gpu.func @two_byte_aligned
// CHECK-SAME: llk.read_overrun = [array<i64: 0, 14>]

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>
#slice1 = #tile.slice<dim = 0, parent = #blocked1>

func.func @two_byte_aligned(%x: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %i = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %c34 = arith.constant dense<34> : tensor<64xi32, #blocked>
  %rec = arith.muli %i, %c34 : tensor<64xi32, #blocked>
  %c2 = arith.constant dense<2> : tensor<64xi32, #blocked>
  %start = arith.addi %rec, %c2 : tensor<64xi32, #blocked>
  %3 = tile.convert_layout %start : tensor<64xi32, #blocked> -> tensor<64xi32, #slice>
  %s2 = tile.expand_dims %3 axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked1>
  %sb = tile.broadcast %s2 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked1>
  %jb = tile.broadcast %j2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %off = arith.addi %sb, %jb : tensor<64x32xi32, #blocked1>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked1>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
  %v = tile.load %p : tensor<64x32x!tile.ptr<i8>, #blocked1>
  %vf = tile.cast %v : tensor<64x32xi8, #blocked1> to tensor<64x32xf32, #blocked1>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32, #blocked1> -> tensor<64xf32, #slice>
  %15 = tile.convert_layout %s : tensor<64xf32, #slice> -> tensor<64xf32, #blocked>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #blocked>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
  tile.store %15, %yp : tensor<64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// 4-byte aligned runs (36-byte records, bytes 4..35) read 12 bytes past; the
// pointer reaches the load through a bitcast and a loop-carried tile, and
// the aligned f32 load of the other argument reads nothing past.
// CHECK-LABEL: gpu.func @loop_carried
// CHECK-SAME: llk.read_overrun = [array<i64: 1, 12>]

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>
#slice1 = #tile.slice<dim = 0, parent = #blocked1>

func.func @loop_carried(%y: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %x: !tile.ptr<i32> {tile.divisibility = 16 : i64}, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %i = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %c36 = arith.constant dense<36> : tensor<64xi32, #blocked>
  %rec = arith.muli %i, %c36 : tensor<64xi32, #blocked>
  %c4 = arith.constant dense<4> : tensor<64xi32, #blocked>
  %start = arith.addi %rec, %c4 : tensor<64xi32, #blocked>
  %3 = tile.convert_layout %start : tensor<64xi32, #blocked> -> tensor<64xi32, #slice>
  %s2 = tile.expand_dims %3 axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked1>
  %sb = tile.broadcast %s2 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked1>
  %jb = tile.broadcast %j2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %off = arith.addi %sb, %jb : tensor<64x32xi32, #blocked1>
  %xb = tile.bitcast %x : !tile.ptr<i32> to !tile.ptr<i8>
  %xs = tile.splat %xb : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked1>
  %p0 = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
  %step = arith.constant dense<2304> : tensor<64x32xi32, #blocked1>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #blocked>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
  %zero = arith.constant dense<0.000000e+00> : tensor<64xf32, #blocked>
  %15:2 = scf.for %arg3 = %c0 to %n step %c1 iter_args(%arg4 = %zero, %arg5 = %p0) -> (tensor<64xf32, #blocked>, tensor<64x32x!tile.ptr<i8>, #blocked1>)  : i32 {
    %v = tile.load %arg5 : tensor<64x32x!tile.ptr<i8>, #blocked1>
    %vf = tile.cast %v : tensor<64x32xi8, #blocked1> to tensor<64x32xf32, #blocked1>
    %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32, #blocked1> -> tensor<64xf32, #slice>
    %19 = tile.convert_layout %s : tensor<64xf32, #slice> -> tensor<64xf32, #blocked>
    %old = tile.load %yp : tensor<64x!tile.ptr<f32>, #blocked>
    %t = arith.addf %19, %old : tensor<64xf32, #blocked>
    %a2 = arith.addf %arg4, %t : tensor<64xf32, #blocked>
    %q2 = tile.addptr %arg5, %step : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
    scf.yield %a2, %q2 : tensor<64xf32, #blocked>, tensor<64x32x!tile.ptr<i8>, #blocked1>
  }
  tile.store %15#0, %yp : tensor<64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// A pointer chosen between two arguments: either may be read past.
// CHECK-LABEL: gpu.func @selected
// CHECK-SAME: llk.read_overrun = [array<i64: 0, 14>, array<i64: 1, 14>]

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>
#slice1 = #tile.slice<dim = 0, parent = #blocked1>

func.func @selected(%a: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %b: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}, %which: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %first = arith.cmpi eq, %which, %c0 : i32
  %x = arith.select %first, %a, %b : !tile.ptr<i8>
  %i = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %c34 = arith.constant dense<34> : tensor<64xi32, #blocked>
  %rec = arith.muli %i, %c34 : tensor<64xi32, #blocked>
  %c2 = arith.constant dense<2> : tensor<64xi32, #blocked>
  %start = arith.addi %rec, %c2 : tensor<64xi32, #blocked>
  %5 = tile.convert_layout %start : tensor<64xi32, #blocked> -> tensor<64xi32, #slice>
  %s2 = tile.expand_dims %5 axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked1>
  %sb = tile.broadcast %s2 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked1>
  %jb = tile.broadcast %j2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %off = arith.addi %sb, %jb : tensor<64x32xi32, #blocked1>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked1>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
  %v = tile.load %p : tensor<64x32x!tile.ptr<i8>, #blocked1>
  %vf = tile.cast %v : tensor<64x32xi8, #blocked1> to tensor<64x32xf32, #blocked1>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32, #blocked1> -> tensor<64xf32, #slice>
  %17 = tile.convert_layout %s : tensor<64xf32, #slice> -> tensor<64xf32, #blocked>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #blocked>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
  tile.store %17, %yp : tensor<64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// Aligned byte runs (32-byte records) are plain 16-byte loads: nothing is
// read past, and the kernel has no read_overrun.
// CHECK-LABEL: gpu.func @aligned
// CHECK-NOT: llk.read_overrun
// CHECK: gpu.return

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #tile.slice<dim = 1, parent = #blocked1>
#slice1 = #tile.slice<dim = 0, parent = #blocked1>

func.func @aligned(%x: !tile.ptr<i8> {tile.divisibility = 16 : i64}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i64}) attributes {tile.num_warps = 4 : i32} {
  %i = tile.make_range 0 to 64 : tensor<64xi32, #blocked>
  %c32 = arith.constant dense<32> : tensor<64xi32, #blocked>
  %start = arith.muli %i, %c32 : tensor<64xi32, #blocked>
  %2 = tile.convert_layout %start : tensor<64xi32, #blocked> -> tensor<64xi32, #slice>
  %s2 = tile.expand_dims %2 axis = 1 : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked1>
  %sb = tile.broadcast %s2 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %j = tile.make_range 0 to 32 : tensor<32xi32, #slice1>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked1>
  %jb = tile.broadcast %j2 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
  %off = arith.addi %sb, %jb : tensor<64x32xi32, #blocked1>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>, #blocked1>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>, #blocked1>, tensor<64x32xi32, #blocked1>
  %v = tile.load %p : tensor<64x32x!tile.ptr<i8>, #blocked1>
  %vf = tile.cast %v : tensor<64x32xi8, #blocked1> to tensor<64x32xf32, #blocked1>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32, #blocked1> -> tensor<64xf32, #slice>
  %14 = tile.convert_layout %s : tensor<64xf32, #slice> -> tensor<64xf32, #blocked>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #blocked>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
  tile.store %14, %yp : tensor<64x!tile.ptr<f32>, #blocked>
  return
}
