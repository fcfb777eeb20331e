// Round trip of the short forms (TileShortForms.td) and of the result types
// the custom assembly may leave out: printed back with every type written,
// and through the generic form. The printed form parses to the same IR.
//
// RUN: llk-opt %s -allow-unregistered-dialect | FileCheck %s
// RUN: llk-opt %s -allow-unregistered-dialect | llk-opt -allow-unregistered-dialect | FileCheck %s
// RUN: llk-opt %s -allow-unregistered-dialect --mlir-print-op-generic \
// RUN:   | llk-opt -allow-unregistered-dialect | FileCheck %s
// RUN: llk-opt %s -allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: #slice = #tile.slice<dim = 1, parent = #blocked>
// CHECK-LABEL: func.func @broadcasting
func.func @broadcasting(%s: i32, %f: f32, %row: tensor<64x1xi32>, %col: tensor<32xi32>,
                        %x: tensor<64x32xf32>, %c: tensor<64x32xi1>) {
  // A scalar and a tile: the operand types written as given.
  // CHECK: tile.add %{{.*}}, %{{.*}} : i32, tensor<32xi32>
  %0 = tile.add %s, %col : i32, tensor<32xi32>
  // Two shapes that broadcast: 64x1 and 32 make 64x32.
  // CHECK: %[[GRID:.*]] = tile.add %{{.*}}, %{{.*}} : tensor<64x1xi32>, tensor<32xi32>
  %1 = tile.add %row, %col : tensor<64x1xi32>, tensor<32xi32>
  // One type written once when both operands have it.
  // CHECK: tile.sub %[[GRID]], %[[GRID]] : tensor<64x32xi32>
  %2 = tile.sub %1, %1 : tensor<64x32xi32>
  // CHECK: tile.mul %{{.*}}, %{{.*}} : tensor<64x32xf32>, f32
  %3 = tile.mul %x, %f : tensor<64x32xf32>, f32
  // CHECK: tile.div %{{.*}}, %{{.*}} : f32, tensor<64x32xf32>
  %4 = tile.div %f, %x : f32, tensor<64x32xf32>
  // CHECK: tile.rem %{{.*}}, %{{.*}} : tensor<64x1xi32>, i32
  %5 = tile.rem %row, %s : tensor<64x1xi32>, i32
  // CHECK: tile.min %{{.*}}, %{{.*}} : tensor<64x32xf32>, f32
  %6 = tile.min %x, %f : tensor<64x32xf32>, f32
  // CHECK: tile.max %{{.*}}, %{{.*}} : tensor<64x1xi32>, tensor<32xi32>
  %7 = tile.max %row, %col : tensor<64x1xi32>, tensor<32xi32>
  // CHECK: tile.and %{{.*}}, %{{.*}} : tensor<64x32xi1>
  %8 = tile.and %c, %c : tensor<64x32xi1>
  // CHECK: tile.or %{{.*}}, %{{.*}} : tensor<64x1xi32>, i32
  %9 = tile.or %row, %s : tensor<64x1xi32>, i32
  // CHECK: tile.xor %{{.*}}, %{{.*}} : i32
  %10 = tile.xor %s, %s : i32
  // CHECK: %[[LT:.*]] = tile.cmp lt %{{.*}}, %{{.*}} : tensor<64x1xi32>, tensor<32xi32>
  %11 = tile.cmp lt %row, %col : tensor<64x1xi32>, tensor<32xi32>
  // CHECK: tile.cmp ne %{{.*}}, %{{.*}} : tensor<64x32xf32>, f32
  %12 = tile.cmp ne %x, %f : tensor<64x32xf32>, f32
  // CHECK: tile.where %[[LT]], %{{.*}}, %{{.*}} : tensor<64x32xi1>, tensor<64x32xf32>, f32
  %13 = tile.where %11, %x, %f : tensor<64x32xi1>, tensor<64x32xf32>, f32
  // The results' types, inferred (test.use's operand types must match).
  // GENERIC: "tile.add"(%{{.*}}, %{{.*}}) : (i32, tensor<32xi32>) -> tensor<32xi32>
  // GENERIC: "tile.add"(%{{.*}}, %{{.*}}) : (tensor<64x1xi32>, tensor<32xi32>) -> tensor<64x32xi32>
  // GENERIC: "tile.rem"(%{{.*}}, %{{.*}}) : (tensor<64x1xi32>, i32) -> tensor<64x1xi32>
  // GENERIC: "tile.xor"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
  // GENERIC: "tile.cmp"(%{{.*}}, %{{.*}}) <{predicate = 0 : i32}> : (tensor<64x1xi32>, tensor<32xi32>) -> tensor<64x32xi1>
  // GENERIC: "tile.where"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<64x32xi1>, tensor<64x32xf32>, f32) -> tensor<64x32xf32>
  "test.use"(%0, %1, %3, %5, %10, %11, %13) : (tensor<32xi32>, tensor<64x32xi32>, tensor<64x32xf32>,
      tensor<64x1xi32>, i32, tensor<64x32xi1>, tensor<64x32xf32>) -> ()
  return
}

// Mixed element types: the promoted type (Triton's).
// GENERIC-LABEL: "func.func"() <{function_type = (tensor<16xf16>, f32, bf16, tensor<16xi32>)
// GENERIC: "tile.mul"(%{{.*}}, %{{.*}}) : (tensor<16xf16>, f32) -> tensor<16xf32>
// GENERIC: "tile.add"(%{{.*}}, %{{.*}}) : (tensor<16xf16>, bf16) -> tensor<16xf32>
// GENERIC: "tile.sub"(%{{.*}}, %{{.*}}) : (tensor<16xi32>, f32) -> tensor<16xf32>
// GENERIC: "tile.where"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<16xi1>, tensor<16xi32>, f32) -> tensor<16xf32>
// CHECK-LABEL: func.func @promotion
// CHECK: tile.mul %{{.*}}, %{{.*}} : tensor<16xf16>, f32
func.func @promotion(%h: tensor<16xf16>, %f: f32, %b: bf16, %i: tensor<16xi32>) {
  %0 = tile.mul %h, %f : tensor<16xf16>, f32
  %1 = tile.add %h, %b : tensor<16xf16>, bf16
  %2 = tile.sub %i, %f : tensor<16xi32>, f32
  %c = tile.cmp gt %i, %f : tensor<16xi32>, f32
  %3 = tile.where %c, %i, %f : tensor<16xi1>, tensor<16xi32>, f32
  return
}

// CHECK-LABEL: func.func @addptr
func.func @addptr(%p: !tile.ptr<f16>, %offs: tensor<64x32xi32>, %step: i32) {
  // A scalar pointer and tile offsets: a tile of pointers.
  // GENERIC: "tile.addptr"(%{{.*}}, %{{.*}}) : (!tile.ptr<f16>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
  // CHECK: %[[PTRS:.*]] = tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f16>, tensor<64x32xi32>
  %0 = tile.addptr %p, %offs : !tile.ptr<f16>, tensor<64x32xi32>
  // Pointers advanced by a scalar.
  // CHECK: tile.addptr %[[PTRS]], %{{.*}} : tensor<64x32x!tile.ptr<f16>>, i32
  %1 = tile.addptr %0, %step : tensor<64x32x!tile.ptr<f16>>, i32
  // CHECK: tile.load %{{.*}} : tensor<64x32x!tile.ptr<f16>>
  %2 = tile.load %1 : tensor<64x32x!tile.ptr<f16>>
  return
}

// CHECK-LABEL: func.func @inferred_types
func.func @inferred_types(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>, %acc: tensor<64x16xf32>,
                          %q: tensor<16x32xi8>, %r: tensor<32x16xi8>, %qacc: tensor<16x16xi32>) {
  // CHECK: tile.make_range 0 to 64 : tensor<64xi32>
  %0 = tile.make_range 0 to 64
  // CHECK: tile.make_range 16 to 48 : tensor<32xi32>
  %1 = tile.make_range 16 to 48
  // CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %2 = tile.expand_dims %0 axis = 1 : tensor<64xi32>
  // CHECK: tile.expand_dims %{{.*}} axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %3 = tile.expand_dims %0 axis = 0 : tensor<64xi32>
  // CHECK: tile.trans %{{.*}} : tensor<64x32xf16> -> tensor<32x64xf16>
  %4 = tile.trans %a : tensor<64x32xf16>
  // CHECK: tile.reduce sum %{{.*}} axis = 1 : tensor<64x32xf16> -> tensor<64xf16>
  %5 = tile.reduce sum %a axis = 1 : tensor<64x32xf16>
  // CHECK: tile.reduce argmax %{{.*}} axis = 0 : tensor<64x32xf16> -> tensor<32xi32>
  %6 = tile.reduce argmax %a axis = 0 : tensor<64x32xf16>
  // A 1-D tile reduces to a scalar.
  // CHECK: tile.reduce max %{{.*}} axis = 0 : tensor<64xi32> -> i32
  %7 = tile.reduce max %0 axis = 0 : tensor<64xi32>
  // CHECK: tile.generic_reduce %{{.*}} axis = 1 : tensor<64x32xf16> -> tensor<64xf16>
  %8 = tile.generic_reduce %a axis = 1 : tensor<64x32xf16> {
  ^bb0(%x: f16, %y: f16):
    %m = arith.maxnumf %x, %y : f16
    tile.yield %m : f16
  }
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16>, tensor<32x16xf16> -> tensor<64x16xf32>
  %9 = tile.dot %a, %b, %acc : tensor<64x32xf16>, tensor<32x16xf16>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xi8>, tensor<32x16xi8> -> tensor<16x16xi32>
  %10 = tile.dot %q, %r, %qacc : tensor<16x32xi8>, tensor<32x16xi8>
  // The explicit forms stay valid.
  // CHECK: tile.make_range 0 to 16 : tensor<16xi32>
  %11 = tile.make_range 0 to 16 : tensor<16xi32>
  // CHECK: tile.expand_dims %{{.*}} axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %12 = tile.expand_dims %11 axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  return
}

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>

// A laid-out operand: expand_dims takes the slice's parent, reduce slices.
// CHECK-LABEL: func.func @inferred_layouts
func.func @inferred_layouts(%x: tensor<64x32xf32, #blocked>) {
  // CHECK: %[[S:.*]] = tile.reduce max %{{.*}} axis = 1 : tensor<64x32xf32, #blocked> -> tensor<64xf32, #slice>
  %0 = tile.reduce max %x axis = 1 : tensor<64x32xf32, #blocked>
  // CHECK: tile.expand_dims %[[S]] axis = 1 : tensor<64xf32, #slice> -> tensor<64x1xf32, #blocked>
  %1 = tile.expand_dims %0 axis = 1 : tensor<64xf32, #tile.slice<dim = 1, parent = #blocked>>
  return
}

// CHECK-LABEL: func.func @made_descriptors
func.func @made_descriptors(%base: !tile.ptr<f32>, %m: i32, %n: i32, %r: i32, %c: i32) {
  // CHECK: %[[D:.*]] = tile.make_tensor_desc %{{.*}}, shape = [%{{.*}}, %{{.*}}], row_stride = %{{.*}} : !tile.ptr<f32> -> !tile.tensordesc<64x32xf32>
  %d = tile.make_tensor_desc %base, shape = [%m, %n], row_stride = %n : !tile.ptr<f32> -> !tile.tensordesc<64x32xf32>
  // CHECK: %[[B:.*]] = tile.descriptor_load %[[D]][%{{.*}}, %{{.*}}] : !tile.tensordesc<64x32xf32> -> tensor<64x32xf32>
  %blk = tile.descriptor_load %d[%r, %c] : !tile.tensordesc<64x32xf32>
  // CHECK: tile.descriptor_store %[[D]][%{{.*}}, %{{.*}}], %[[B]] : !tile.tensordesc<64x32xf32>
  tile.descriptor_store %d[%r, %c], %blk : !tile.tensordesc<64x32xf32>
  return
}
