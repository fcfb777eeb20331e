// The short forms' checks (ShortFormOps.cpp) and the result types that
// cannot be inferred (AssemblyTypes.cpp), one case each.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

func.func @shapes_do_not_broadcast(%a: tensor<64xf32>, %b: tensor<32xf32>) {
  // expected-error @+1 {{operands of types 'tensor<64xf32>', 'tensor<32xf32>' do not broadcast: dimension 0 is 64 and 32 (sizes must match or be 1, aligned at the last dimension)}}
  %0 = tile.add %a, %b : tensor<64xf32>, tensor<32xf32>
  return
}

// -----

func.func @trailing_dimensions_differ(%a: tensor<64x1xi32>, %b: tensor<16x32xi32>) {
  // expected-error @+1 {{do not broadcast: dimension 0 is 64 and 16}}
  %0 = tile.max %a, %b : tensor<64x1xi32>, tensor<16x32xi32>
  return
}

// -----

func.func @number_and_pointer(%a: tensor<64xf32>, %p: !tile.ptr<f32>) {
  // expected-error @+1 {{the operands' element types do not promote to one (numbers do; pointers advance with tile.addptr)}}
  %0 = tile.mul %a, %p : tensor<64xf32>, !tile.ptr<f32>
  return
}

// -----

func.func @pointers_are_not_numbers(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.add' op takes numbers; advance pointers with tile.addptr}}
  %0 = tile.add %p, %q : !tile.ptr<f32>
  return
}

// -----

func.func @bitwise_on_floats(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.and' op takes integers (or i1), not 'f32'}}
  %0 = tile.and %a, %a : tensor<16xf32>
  return
}

// -----

func.func @arithmetic_on_masks(%m: tensor<16xi1>) {
  // expected-error @+1 {{'tile.add' op takes numbers; on i1 masks use tile.and, tile.or, tile.xor}}
  %0 = tile.add %m, %m : tensor<16xi1>
  return
}

// -----

func.func @where_of_pointers(%c: tensor<16xi1>, %p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.where' op takes numbers}}
  %0 = tile.where %c, %p, %p : tensor<16xi1>, tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @where_condition_does_not_broadcast(%c: tensor<32xi1>, %x: tensor<16xf32>, %y: f32) {
  // expected-error @+1 {{do not broadcast}}
  %0 = tile.where %c, %x, %y : tensor<32xi1>, tensor<16xf32>, f32
  return
}

// -----

#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @laid_out_operands(%a: tensor<512xf32, #blocked>, %b: f32) {
  // expected-error @+1 {{the short forms broadcast tiles without layouts, before the layout passes}}
  %0 = tile.add %a, %b : tensor<512xf32, #blocked>, f32
  return
}

// -----

func.func @addptr_offsets_do_not_broadcast(%p: tensor<64x!tile.ptr<f32>>, %o: tensor<32xi32>) {
  // expected-error @+1 {{do not broadcast: dimension 0 is 64 and 32}}
  %0 = tile.addptr %p, %o : tensor<64x!tile.ptr<f32>>, tensor<32xi32>
  return
}

// -----

func.func @addptr_of_numbers(%p: i64, %o: tensor<32xi32>) {
  // expected-error @+1 {{'tile.addptr' op operand #0 must be}}
  %0 = tile.addptr %p, %o : i64, tensor<32xi32>
  return
}

// -----

func.func @empty_range() {
  // expected-error @+1 {{expected ':' and the result type: the range is empty}}
  %0 = tile.make_range 8 to 8
  return
}

// -----

func.func @expand_out_of_range(%x: tensor<16xf32>) {
  // expected-error @+1 {{expected '->' and the result type: the axis is out of range}}
  %0 = tile.expand_dims %x axis = 2 : tensor<16xf32>
  return
}

// -----

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @expand_not_a_slice(%x: tensor<64xf32, #tile.slice<dim = 1, parent = #blocked>>) {
  // expected-error @+1 {{expected '->' and the result type: the operand's layout is no slice at this axis}}
  %0 = tile.expand_dims %x axis = 0 : tensor<64xf32, #tile.slice<dim = 1, parent = #blocked>>
  return
}

// -----

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @trans_laid_out(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @+1 {{expected '->' and the result type: it is inferred for 2-D tiles without a layout only}}
  %0 = tile.trans %x : tensor<64x32xf32, #blocked>
  return
}

// -----

func.func @reduce_axis_out_of_range(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{expected '->' and the result type: the axis is out of range}}
  %0 = tile.reduce sum %x axis = 2 : tensor<64x32xf32>
  return
}

// -----

func.func @dot_of_1d(%a: tensor<64xf16>, %b: tensor<64x16xf16>, %c: tensor<64x16xf32>) {
  // expected-error @+1 {{expected '->' and the result type: it is inferred for 2-D operands without layouts only}}
  %0 = tile.dot %a, %b, %c : tensor<64xf16>, tensor<64x16xf16>
  return
}

// -----

func.func @descriptor_of_other_elements(%p: !tile.ptr<f16>, %n: i32) {
  // expected-error @+1 {{'tile.make_tensor_desc' op describes a tensor of 'f16' with blocks of 'f32'}}
  %d = tile.make_tensor_desc %p, shape = [%n, %n], row_stride = %n : !tile.ptr<f16> -> !tile.tensordesc<64x32xf32>
  return
}

// -----

func.func @made_descriptor_carried(%p: !tile.ptr<f32>, %n: i32, %c: i1) {
  %d = tile.make_tensor_desc %p, shape = [%n, %n], row_stride = %n : !tile.ptr<f32> -> !tile.tensordesc<64x32xf32>
  // expected-error @+1 {{'arith.select' op uses a descriptor made by tile.make_tensor_desc, which only tile.descriptor_load and tile.descriptor_store may use}}
  %e = arith.select %c, %d, %d : !tile.tensordesc<64x32xf32>
  return
}

// -----

func.func @store_through_argument(%d: !tile.tensordesc<64x64xf16>, %x: tensor<64x64xf16>, %r: i32) {
  // expected-error @+1 {{'tile.descriptor_store' op stores through a descriptor made by tile.make_tensor_desc; storing through a kernel argument's CUtensorMap is not supported yet}}
  tile.descriptor_store %d[%r, %r], %x : !tile.tensordesc<64x64xf16>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @descriptor_store_wrong_block(%p: !tile.ptr<f32>, %n: i32, %x: tensor<32x32xf32>) {
  %d = tile.make_tensor_desc %p, shape = [%n, %n], row_stride = %n : !tile.ptr<f32> -> !tile.tensordesc<64x32xf32>
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: 'tensor<64x32xf32>' vs 'tensor<32x32xf32>'}}
  tile.descriptor_store %d[%n, %n], %x : !tile.tensordesc<64x32xf32>
  return
}
