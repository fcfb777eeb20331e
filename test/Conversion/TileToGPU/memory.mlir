// RUN: llk-opt %s -split-input-file -tile-assign-layouts -convert-tile-to-gpu | FileCheck %s

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
func.func @copy(%x: !tile.ptr<f32> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32 {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 2048 : tensor<2048xi32>
  %ns = tile.splat %n : i32 -> tensor<2048xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<2048xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %p = tile.addptr %xs, %r : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  %a = tile.load %p : tensor<2048x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<2048xf32>
  %b = tile.load %p mask %m other %zero : tensor<2048x!tile.ptr<f32>>
  %c = arith.addf %a, %b : tensor<2048xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
  %q = tile.addptr %ys, %r : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
  tile.store %c, %q mask %m : tensor<2048x!tile.ptr<f32>>
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
func.func @hints(%x: !tile.ptr<f16> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 1024 : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %p = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %a = tile.load %p mask %m cache = cg : tensor<1024x!tile.ptr<f16>>
  %all = arith.constant dense<true> : tensor<1024xi1>
  %b = tile.load %p mask %all evict = evict_last : tensor<1024x!tile.ptr<f16>>
  %c = arith.addf %a, %b : tensor<1024xf16>
  tile.store %c, %p cache = cs : tensor<1024x!tile.ptr<f16>>
  return
}

// -----

// A scalar store happens once per program, from thread 0.
// CHECK-LABEL: gpu.func @scalar
// CHECK: %[[TID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects "@$2 st.global.b32 [$0], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[FIRST]]
func.func @scalar(%x: !tile.ptr<f32>, %v: f32) {
  tile.store %v, %x : !tile.ptr<f32>
  return
}

// -----

// Atomics: one predicated instruction per element, only from the thread
// that owns it; f32 max goes through the integer order of IEEE bits.
// Ordered acq_rel at GPU scope unless `sem` says otherwise (relaxed: PTX's
// default, no qualifier). The result register starts at 0, what a thread
// whose predicate is off returns.
// CHECK-LABEL: gpu.func @atomics
// CHECK: "mov.f32 $0, 0f00000000;\0A\09@$3 atom.acq_rel.gpu.global.add.f32 $0, [$1], $2;", "=f,l,f,b"
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.max.s32 $0, [$1], $2;", "=r,l,r,b"
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.min.u32 $0, [$1], $2;", "=r,l,r,b"
// CHECK: "mov.b32 $0, 0;\0A\09@$4 atom.release.gpu.global.cas.b32 $0, [$1], $2, $3;", "=r,l,r,r,b"
func.func @atomics(%x: !tile.ptr<f32> {tile.divisibility = 16}, %c: !tile.ptr<i32> {tile.divisibility = 16}) {
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %p = tile.addptr %xs, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %a = tile.atomic_rmw add %p, %one : tensor<128x!tile.ptr<f32>>
  %b = tile.atomic_rmw max %p, %a sem = relaxed : tensor<128x!tile.ptr<f32>>
  %cs = tile.splat %c : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>>
  %q = tile.addptr %cs, %r : tensor<128x!tile.ptr<i32>>, tensor<128xi32>
  %old = tile.atomic_cas %q, %r, %r sem = release : tensor<128x!tile.ptr<i32>>
  return
}

// -----

// A scalar atomic is the program's: thread 0 issues it and hands the old
// value to every thread through shared memory. With release ordering (the
// default acq_rel) a barrier comes first, so every thread's earlier stores
// precede it; a relaxed one needs none.
// CHECK-LABEL: gpu.func @scalar_atomics
// CHECK: "@$2 st.global.b32 [$0], $1;"
// CHECK-NEXT: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[OLD:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.add.s32 $0, [$1], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[FIRST]]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.store %[[OLD]]
// CHECK: gpu.barrier
// CHECK-NEXT: llvm.load
// CHECK-NOT: gpu.barrier
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.exch.b32 $0, [$1], $2;"
func.func @scalar_atomics(%out: !tile.ptr<f32>, %lock: !tile.ptr<i32>, %v: f32) {
  %one = arith.constant 1 : i32
  tile.store %v, %out : !tile.ptr<f32>
  %old = tile.atomic_rmw add %lock, %one : !tile.ptr<i32>
  %prev = tile.atomic_rmw xchg %lock, %old sem = relaxed : !tile.ptr<i32>
  return
}

// -----

// Masked-off elements return 0 (the register's start value). Where the
// layout replicates elements (32 of them over 4 warps), only the owning
// thread does the atomic; the others take its old value through shared
// memory, so every copy of the result holds the same value.
// CHECK-LABEL: gpu.func @masked_replicated_atomic
// CHECK: %[[OWNER:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: %[[PRED:.*]] = arith.andi %[[OWNER]], %{{.*}} : i1
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$3 atom.global.add.s32 $0, [$1], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[PRED]]
// CHECK: gpu.barrier
// CHECK: scf.if %[[OWNER]] {
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
func.func @masked_replicated_atomic(%c: !tile.ptr<i32>, %out: !tile.ptr<i32>, %n: i32) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %cs = tile.splat %c : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  %p = tile.addptr %cs, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  %ns = tile.splat %n : i32 -> tensor<32xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<32xi32>
  %one = arith.constant dense<1> : tensor<32xi32>
  %old = tile.atomic_rmw add %p, %one mask %m sem = relaxed : tensor<32x!tile.ptr<i32>>
  %s = tile.reduce sum %old axis = 0 : tensor<32xi32> -> i32
  tile.store %s, %out : !tile.ptr<i32>
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
func.func @realigned(%x: !tile.ptr<i8> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %i = tile.make_range 0 to 64 : tensor<64xi32>
  %c34 = arith.constant dense<34> : tensor<64xi32>
  %rec = arith.muli %i, %c34 : tensor<64xi32>
  %c2 = arith.constant dense<2> : tensor<64xi32>
  %start = arith.addi %rec, %c2 : tensor<64xi32>
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  %ok = arith.cmpi slt, %i, %ns : tensor<64xi32>
  %s2 = tile.expand_dims %start axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %sb = tile.broadcast %s2 : tensor<64x1xi32> -> tensor<64x32xi32>
  %ok2 = tile.expand_dims %ok axis = 1 : tensor<64xi1> -> tensor<64x1xi1>
  %okb = tile.broadcast %ok2 : tensor<64x1xi1> -> tensor<64x32xi1>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %jb = tile.broadcast %j2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %sb, %jb : tensor<64x32xi32>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  %zero = arith.constant dense<0> : tensor<64x32xi8>
  %v = tile.load %p mask %okb other %zero evict = evict_first : tensor<64x32x!tile.ptr<i8>>
  %vf = tile.cast %v : tensor<64x32xi8> to tensor<64x32xf32>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %s, %yp : tensor<64x!tile.ptr<f32>>
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
func.func @realigned_words(%x: !tile.ptr<i8> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16}) {
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
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  %v = tile.load %p evict = evict_first : tensor<64x32x!tile.ptr<i8>>
  %vf = tile.cast %v : tensor<64x32xi8> to tensor<64x32xf32>
  %s = tile.reduce sum %vf axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %i : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %s, %yp : tensor<64x!tile.ptr<f32>>
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
func.func @prefetch(%x: !tile.ptr<i8> {tile.divisibility = 16}, %n: i32) {
  %i = tile.make_range 0 to 64 : tensor<64xi32>
  %c32 = arith.constant dense<32> : tensor<64xi32>
  %rows = arith.muli %i, %c32 : tensor<64xi32>
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  %ok = arith.cmpi slt, %i, %ns : tensor<64xi32>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = tile.broadcast %r2 : tensor<64x1xi32> -> tensor<64x32xi32>
  %ok2 = tile.expand_dims %ok axis = 1 : tensor<64xi1> -> tensor<64x1xi1>
  %okb = tile.broadcast %ok2 : tensor<64x1xi1> -> tensor<64x32xi1>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %jb = tile.broadcast %j2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %rb, %jb : tensor<64x32xi32>
  %xs = tile.splat %x : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %p = tile.addptr %xs, %off : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  tile.prefetch %p mask %okb : tensor<64x32x!tile.ptr<i8>>
  %v = tile.load %p mask %okb : tensor<64x32x!tile.ptr<i8>>
  tile.store %v, %p mask %okb : tensor<64x32x!tile.ptr<i8>>
  return
}
