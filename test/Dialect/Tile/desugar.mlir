// tile-desugar (Desugar.cpp) writes the short forms out as explicit ops:
// tile.splat of scalars, tile.expand_dims axis = 0 for a lower rank,
// tile.broadcast of size-1 dimensions, then the arith op for the element
// type; the loads and stores of a descriptor made in the kernel as masked
// pointer tiles. Explicit ops are left as written.
//
// RUN: llk-opt %s -split-input-file -tile-desugar | FileCheck %s
// No short form is left.
// RUN: llk-opt %s -split-input-file -tile-desugar | FileCheck %s --check-prefix=NONE
// NONE-NOT: {{tile\.(add|sub|mul|div|rem|min|max|and|or|xor|cmp|where|make_tensor_desc|descriptor_store) }}

// CHECK-LABEL: func.func @scalar_and_tile
// CHECK-SAME: (%[[S:.*]]: i32, %[[T:.*]]: tensor<32xi32>)
// CHECK: %[[SPLAT:.*]] = tile.splat %[[S]] : i32 -> tensor<32xi32>
// CHECK: %[[SUM:.*]] = arith.addi %[[SPLAT]], %[[T]] : tensor<32xi32>
// CHECK: return %[[SUM]]
func.func @scalar_and_tile(%s: i32, %t: tensor<32xi32>) -> tensor<32xi32> {
  %0 = tile.add %s, %t : i32, tensor<32xi32>
  return %0 : tensor<32xi32>
}

// -----

// 64x1 against 32: the column repeats, the row gains a dimension first.
// CHECK-LABEL: func.func @outer_sum
// CHECK-SAME: (%[[R:.*]]: tensor<64x1xf32>, %[[C:.*]]: tensor<32xf32>)
// CHECK-DAG: %[[RB:.*]] = tile.broadcast %[[R]] : tensor<64x1xf32> -> tensor<64x32xf32>
// CHECK-DAG: %[[CE:.*]] = tile.expand_dims %[[C]] axis = 0 : tensor<32xf32> -> tensor<1x32xf32>
// CHECK-DAG: %[[CB:.*]] = tile.broadcast %[[CE]] : tensor<1x32xf32> -> tensor<64x32xf32>
// CHECK: arith.mulf %[[RB]], %[[CB]] : tensor<64x32xf32>
func.func @outer_sum(%r: tensor<64x1xf32>, %c: tensor<32xf32>) -> tensor<64x32xf32> {
  %0 = tile.mul %r, %c : tensor<64x1xf32>, tensor<32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Each op, integers then floats: the arith op Triton's operator means.
// CHECK-LABEL: func.func @ops
// CHECK: arith.subi
// CHECK: arith.divsi
// CHECK: arith.remsi
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: arith.andi
// CHECK: arith.ori
// CHECK: arith.xori
// CHECK: arith.subf
// CHECK: arith.divf
// CHECK: arith.remf
// CHECK: arith.minnumf
// CHECK: arith.maxnumf
func.func @ops(%i: tensor<16xi32>, %j: i32, %x: tensor<16xf32>, %y: f32) {
  %0 = tile.sub %i, %j : tensor<16xi32>, i32
  %1 = tile.div %i, %j : tensor<16xi32>, i32
  %2 = tile.rem %i, %j : tensor<16xi32>, i32
  %3 = tile.min %i, %j : tensor<16xi32>, i32
  %4 = tile.max %i, %j : tensor<16xi32>, i32
  %5 = tile.and %i, %j : tensor<16xi32>, i32
  %6 = tile.or %i, %j : tensor<16xi32>, i32
  %7 = tile.xor %i, %j : tensor<16xi32>, i32
  %8 = tile.sub %x, %y : tensor<16xf32>, f32
  %9 = tile.div %x, %y : tensor<16xf32>, f32
  %10 = tile.rem %x, %y : tensor<16xf32>, f32
  %11 = tile.min %x, %y : tensor<16xf32>, f32
  %12 = tile.max %x, %y : tensor<16xf32>, f32
  return
}

// -----

// Comparisons: signed integers; floats ordered except ne, as Python's.
// CHECK-LABEL: func.func @compare
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sle
// CHECK: arith.cmpi sgt
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi eq
// CHECK: arith.cmpi ne
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf oeq
// CHECK: %[[NE:.*]] = arith.cmpf une
// CHECK: %[[Y:.*]] = tile.splat %{{.*}} : f32 -> tensor<16xf32>
// CHECK: arith.select %[[NE]], %{{.*}}, %[[Y]] : tensor<16xi1>, tensor<16xf32>
func.func @compare(%i: tensor<16xi32>, %j: i32, %x: tensor<16xf32>, %y: f32) -> tensor<16xf32> {
  %0 = tile.cmp lt %i, %j : tensor<16xi32>, i32
  %1 = tile.cmp le %i, %j : tensor<16xi32>, i32
  %2 = tile.cmp gt %i, %j : tensor<16xi32>, i32
  %3 = tile.cmp ge %i, %j : tensor<16xi32>, i32
  %4 = tile.cmp eq %i, %j : tensor<16xi32>, i32
  %5 = tile.cmp ne %i, %j : tensor<16xi32>, i32
  %6 = tile.cmp lt %x, %y : tensor<16xf32>, f32
  %7 = tile.cmp eq %x, %y : tensor<16xf32>, f32
  %8 = tile.cmp ne %x, %y : tensor<16xf32>, f32
  %9 = tile.where %8, %x, %y : tensor<16xi1>, tensor<16xf32>, f32
  return %9 : tensor<16xf32>
}

// -----

// Scalars only: the arith op on scalars, nothing splat.
// CHECK-LABEL: func.func @scalars
// CHECK-NEXT: %[[M:.*]] = arith.muli %arg0, %arg1 : i32
// CHECK-NEXT: return %[[M]]
func.func @scalars(%a: i32, %b: i32) -> i32 {
  %0 = tile.mul %a, %b : i32
  return %0 : i32
}

// -----

// A scalar pointer plus tile offsets: the pointer splat; pointers plus a
// scalar: the offset splat. The explicit form is left alone.
// CHECK-LABEL: func.func @addptr
// CHECK: %[[P:.*]] = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
// CHECK: %[[PTRS:.*]] = tile.addptr %[[P]], %arg1 : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
// CHECK: %[[STEP:.*]] = tile.splat %arg2 : i32 -> tensor<64xi32>
// CHECK: %[[NEXT:.*]] = tile.addptr %[[PTRS]], %[[STEP]] : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
// CHECK: tile.addptr %[[NEXT]], %arg1 : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
func.func @addptr(%p: !tile.ptr<f16>, %offs: tensor<64xi32>, %step: i32) -> tensor<64x!tile.ptr<f16>> {
  %0 = tile.addptr %p, %offs : !tile.ptr<f16>, tensor<64xi32>
  %1 = tile.addptr %0, %step : tensor<64x!tile.ptr<f16>>, i32
  %2 = tile.addptr %1, %offs : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  return %2 : tensor<64x!tile.ptr<f16>>
}

// -----

// A descriptor made in the kernel: its block at (r, c) is a pointer tile,
// the first row's address in i64, masked to the tensor (zeros outside).
// CHECK-LABEL: func.func @made_descriptor
// CHECK-NOT: tile.make_tensor_desc
// CHECK: %[[R64:.*]] = arith.extsi %arg3 : i32 to i64
// CHECK: %[[S64:.*]] = arith.extsi %arg2 : i32 to i64
// CHECK: %[[ROW0:.*]] = arith.muli %[[R64]], %[[S64]] : i64
// CHECK: %[[BASE:.*]] = tile.addptr %arg0, %[[ROW0]] : !tile.ptr<f32>, i64
// CHECK: tile.make_range 0 to 64 : tensor<64xi32>
// CHECK: tile.make_range 0 to 32 : tensor<32xi32>
// CHECK: %[[PTRS:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x32xi1>
// CHECK: %[[X:.*]] = tile.load %[[PTRS]] mask %[[MASK]] other %{{.*}} : tensor<64x32x!tile.ptr<f32>>
// CHECK: tile.store %[[X]], %{{.*}} mask %{{.*}} : tensor<64x32x!tile.ptr<f32>>
// CHECK-NOT: tile.descriptor
func.func @made_descriptor(%base: !tile.ptr<f32>, %m: i32, %n: i32, %r: i32, %c: i32) {
  %d = tile.make_tensor_desc %base, shape = [%m, %n], row_stride = %n : !tile.ptr<f32> -> !tile.tensordesc<64x32xf32>
  %blk = tile.descriptor_load %d[%r, %c] : !tile.tensordesc<64x32xf32>
  tile.descriptor_store %d[%c, %r], %blk : !tile.tensordesc<64x32xf32>
  return
}

// -----

// A kernel argument's descriptor (a CUtensorMap, loaded by TMA) stays.
// CHECK-LABEL: func.func @argument_descriptor
// CHECK: tile.descriptor_load %arg0[%arg1, %arg1] : !tile.tensordesc<64x64xf16> -> tensor<64x64xf16>
func.func @argument_descriptor(%d: !tile.tensordesc<64x64xf16>, %r: i32) -> tensor<64x64xf16> {
  %0 = tile.descriptor_load %d[%r, %r] : !tile.tensordesc<64x64xf16>
  return %0 : tensor<64x64xf16>
}

// -----

// Mixed element types promote as Triton's operators do, each operand cast
// before it grows: f16 with f32 computes in f32, f16 with bf16 in f32, an
// integer with a float in the float, i32 with i64 in i64.
// CHECK-LABEL: func.func @promotion
// CHECK: %[[H:.*]] = tile.cast %arg0 : tensor<16xf16> to tensor<16xf32>
// CHECK: %[[S:.*]] = tile.splat %arg1 : f32 -> tensor<16xf32>
// CHECK: arith.mulf %[[H]], %[[S]] : tensor<16xf32>
// CHECK: %[[B:.*]] = tile.cast %arg2 : bf16 to f32
// CHECK: %[[BS:.*]] = tile.splat %[[B]] : f32 -> tensor<16xf32>
// CHECK: arith.addf %[[H2:.*]], %[[BS]] : tensor<16xf32>
// CHECK: %[[I:.*]] = tile.cast %arg3 : tensor<16xi32> to tensor<16xf32>
// CHECK: arith.subf %[[I]], %{{.*}} : tensor<16xf32>
// CHECK: %[[W:.*]] = tile.cast %arg3 : tensor<16xi32> to tensor<16xi64>
// CHECK: arith.cmpi slt, %[[W]], %{{.*}} : tensor<16xi64>
// CHECK: %[[M:.*]] = tile.cast %{{.*}} : tensor<16xi1> to tensor<16xi32>
// CHECK: arith.andi %[[M]], %arg3 : tensor<16xi32>
func.func @promotion(%h: tensor<16xf16>, %f: f32, %b: bf16, %i: tensor<16xi32>, %l: i64, %m: tensor<16xi1>) {
  %0 = tile.mul %h, %f : tensor<16xf16>, f32
  %1 = tile.add %h, %b : tensor<16xf16>, bf16
  %2 = tile.sub %i, %f : tensor<16xi32>, f32
  %3 = tile.cmp lt %i, %l : tensor<16xi32>, i64
  %4 = tile.and %m, %i : tensor<16xi1>, tensor<16xi32>
  return
}
