// Every verifier rule of the tile dialect (TileOps.cpp, TileDialect.cpp and
// the ODS constraints of TileOps.td), one case each.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Types and tiles (verifyTileType)
//===----------------------------------------------------------------------===//

// expected-error @+1 {{pointee of !tile.ptr must be an integer or float type, got 'index'}}
func.func @ptr_to_index(%p: !tile.ptr<index>) {
  return
}

// -----

// expected-error @+1 {{pointee of !tile.ptr must be an integer or float type, got '!tile.ptr<f32>'}}
func.func @ptr_to_ptr(%p: !tile.ptr<!tile.ptr<f32>>) {
  return
}

// -----

// expected-error @+1 {{pointee of !tile.ptr must be an integer or float type, got 'tensor<4xf32>'}}
func.func @ptr_to_tensor(%p: !tile.ptr<tensor<4xf32>>) {
  return
}

// -----

func.func @non_power_of_two_result(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must have power-of-two dimensions, but dimension 0 of 'tensor<100xf32>' is 100}}
  %0 = tile.splat %x : f32 -> tensor<100xf32>
  return
}

// -----

func.func @non_power_of_two_second_dim(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must have power-of-two dimensions, but dimension 1 of 'tensor<16x48xf32>' is 48}}
  %0 = tile.splat %x : f32 -> tensor<16x48xf32>
  return
}

// -----

func.func @non_power_of_two_operand(%x: tensor<12xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op operand #0 must have power-of-two dimensions, but dimension 0 of 'tensor<12xf32>' is 12}}
  %0 = tile.expand_dims %x axis = 0 : tensor<12xf32> -> tensor<1x12xf32>
  return
}

// -----

func.func @zero_dim(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must have power-of-two dimensions, but dimension 0 of 'tensor<0xf32>' is 0}}
  %0 = tile.splat %x : f32 -> tensor<0xf32>
  return
}

// -----

func.func @dynamic_dim(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must have a static shape, got 'tensor<?xf32>'}}
  %0 = tile.splat %x : f32 -> tensor<?xf32>
  return
}

// -----

func.func @non_power_of_two_dot(%a: tensor<16x24xf16>, %b: tensor<24x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operand #0 must have power-of-two dimensions, but dimension 1 of 'tensor<16x24xf16>' is 24}}
  %0 = tile.dot %a, %b, %c : tensor<16x24xf16>, tensor<24x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @non_power_of_two_load(%p: tensor<96x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op operand #0 must have power-of-two dimensions, but dimension 0 of 'tensor<96x!tile.ptr<f32>>' is 96}}
  %0 = tile.load %p : tensor<96x!tile.ptr<f32>>
  return
}

// -----

func.func @unsupported_element_type(%x: tensor<16xf8E4M3FNUZ>) {
  // expected-error @+1 {{'tile.reshape' op operand #0 must be ranked tensor of}}
  %0 = tile.reshape %x : tensor<16xf8E4M3FNUZ> -> tensor<4x4xf8E4M3FNUZ>
  return
}

//===----------------------------------------------------------------------===//
// Kernel attributes (TileDialect::verifyOperationAttribute and
// verifyRegionArgAttribute)
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 32], got 3 : i32}}
func.func @num_warps_not_power_of_two() attributes {tile.num_warps = 3 : i32} {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 32], got 64 : i32}}
func.func @num_warps_too_large() attributes {tile.num_warps = 64 : i32} {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 32], got 0 : i32}}
func.func @num_warps_zero() attributes {tile.num_warps = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 32], got -4 : i32}}
func.func @num_warps_negative() attributes {tile.num_warps = -4 : i32} {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 32], got "four"}}
func.func @num_warps_not_integer() attributes {tile.num_warps = "four"} {
  return
}

// -----

// expected-error @+1 {{'tile.num_warps' applies to kernel functions}}
module attributes {tile.num_warps = 4 : i32} {
}

// -----

func.func @num_warps_on_op() {
  // expected-error @+1 {{'tile.num_warps' applies to kernel functions}}
  tile.barrier {tile.num_warps = 4 : i32}
  return
}

// -----

// expected-error @+1 {{unknown tile attribute 'tile.num_threads'}}
func.func @unknown_func_attr() attributes {tile.num_threads = 128 : i32} {
  return
}

// -----

// Argument attributes belong on the arguments, not on the function.
// expected-error @+1 {{unknown tile attribute 'tile.divisibility'}}
func.func @divisibility_on_func() attributes {tile.divisibility = 16} {
  return
}

// -----

// expected-error @+1 {{unknown tile argument attribute 'tile.contiguity' (expected 'tile.divisibility' or 'tile.alignment')}}
func.func @unknown_arg_attr(%p: !tile.ptr<f32> {tile.contiguity = 16}) {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 1073741824], got 12 : i64}}
func.func @divisibility_not_power_of_two(%p: !tile.ptr<f32> {tile.divisibility = 12}) {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 1073741824], got 0 : i64}}
func.func @divisibility_zero(%n: i32 {tile.divisibility = 0}) {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 1073741824], got 2147483648 : i64}}
func.func @divisibility_too_large(%n: i64 {tile.divisibility = 2147483648}) {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 1073741824], got -16 : i64}}
func.func @alignment_negative(%p: !tile.ptr<f32> {tile.alignment = -16}) {
  return
}

// -----

// expected-error @+1 {{must be a power-of-two integer in [1, 1073741824], got 1.600000e+01 : f32}}
func.func @alignment_not_integer(%p: !tile.ptr<f32> {tile.alignment = 16.0 : f32}) {
  return
}

// -----

// expected-error @+1 {{'tile.divisibility' applies to pointer and integer arguments, but argument 1 has type 'f32'}}
func.func @divisibility_on_float(%p: !tile.ptr<f32>, %x: f32 {tile.divisibility = 16}) {
  return
}

// -----

// expected-error @+1 {{'tile.alignment' applies to pointer and integer arguments, but argument 0 has type 'tensor<16xi32>'}}
func.func @alignment_on_tile(%x: tensor<16xi32> {tile.alignment = 16}) {
  return
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{#tile.blocked needs sizePerThread, threadsPerWarp, warpsPerCTA and order of one non-zero rank}}
func.func @blocked_rank_mismatch(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [32], warpsPerCTA = [4, 1], order = [1, 0]>>) {
  return
}

// -----

// An empty list does not parse, so rank 0 cannot be written.
// expected-error @+2 {{expected integer value}}
// expected-error @+1 {{failed to parse Tile_BlockedLayoutAttr parameter 'sizePerThread' which is to be a `::llvm::ArrayRef<unsigned>`}}
func.func @blocked_rank_zero(%x: tensor<64xf32, #tile.blocked<sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked order must be a permutation of [0, 2)}}
func.func @blocked_order_repeats(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked order must be a permutation of [0, 2)}}
func.func @blocked_order_out_of_range(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [2, 0]>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked sizes must be powers of two}}
func.func @blocked_size_not_power_of_two(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked sizes must be powers of two}}
func.func @blocked_warps_zero(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [0, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked threadsPerWarp must multiply to 32}}
func.func @blocked_threads_not_32(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked warpRepeat needs one entry per dimension (2)}}
func.func @blocked_warp_repeat_rank(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2]>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked warpRepeat of all ones is the default: omit it}}
func.func @blocked_warp_repeat_ones(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [1, 1]>>) {
  return
}

// -----

// expected-error @+1 {{#tile.blocked sizes must be powers of two}}
func.func @blocked_warp_repeat_three(%x: tensor<64x32xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [3, 1]>>) {
  return
}

// -----

// 4 warps of 8 lanes take 16 rows each with warpRepeat 2: 64 rows at least.
func.func @blocked_warp_repeat_short(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0: dimension 0 of 'tensor<32x8xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>>' must be a multiple of 64, the rows its layout's warps take with warpRepeat}}
  %0 = tile.splat %x : f32 -> tensor<32x8xf32, #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>>
  return
}

// -----

// expected-error @+1 {{#tile.slice dim 2 is out of range for a parent of rank 2}}
func.func @slice_dim_out_of_range(%x: tensor<64xf32, #tile.slice<dim = 2, parent = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>>>) {
  return
}

// -----

// expected-error @+2 {{invalid kind of attribute specified}}
// expected-error @+1 {{failed to parse Tile_SliceLayoutAttr parameter 'parent' which is to be a `BlockedLayoutAttr`}}
func.func @slice_parent_not_blocked(%x: tensor<64xf32, #tile.slice<dim = 0, parent = #tile.slice<dim = 0, parent = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>>>) {
  return
}

//===----------------------------------------------------------------------===//
// make_range
//===----------------------------------------------------------------------===//

// -----

func.func @make_range_2d() {
  // expected-error @+1 {{'tile.make_range' op result must be a 1-D tile of i32, got 'tensor<4x4xi32>'}}
  %0 = tile.make_range 0 to 16 : tensor<4x4xi32>
  return
}

// -----

func.func @make_range_i64() {
  // expected-error @+1 {{'tile.make_range' op result must be a 1-D tile of i32, got 'tensor<16xi64>'}}
  %0 = tile.make_range 0 to 16 : tensor<16xi64>
  return
}

// -----

func.func @make_range_empty() {
  // expected-error @+1 {{'tile.make_range' op needs 0 <= start < end, got 16 to 16}}
  %0 = tile.make_range 16 to 16 : tensor<16xi32>
  return
}

// -----

func.func @make_range_reversed() {
  // expected-error @+1 {{'tile.make_range' op needs 0 <= start < end, got 32 to 16}}
  %0 = tile.make_range 32 to 16 : tensor<16xi32>
  return
}

// -----

func.func @make_range_size() {
  // expected-error @+1 {{'tile.make_range' op range 0 to 16 has 16 elements but the result has 32}}
  %0 = tile.make_range 0 to 16 : tensor<32xi32>
  return
}

// -----

func.func @make_range_non_power_of_two() {
  // expected-error @+1 {{'tile.make_range' op result #0 must have power-of-two dimensions, but dimension 0 of 'tensor<10xi32>' is 10}}
  %0 = tile.make_range 0 to 10 : tensor<10xi32>
  return
}

// -----

func.func @program_id_bad_axis() {
  // expected-error @+1 {{custom op 'tile.program_id' expected string or keyword containing one of the following enum values for attribute 'axis' [x, y, z]}}
  %0 = tile.program_id w
  return
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// -----

func.func @splat_element_type(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result element type 'f16' differs from operand element type 'f32'}}
  %0 = tile.splat %x : f32 -> tensor<16xf16>
  return
}

// -----

func.func @splat_pointer_type(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.splat' op result element type '!tile.ptr<f16>' differs from operand element type '!tile.ptr<f32>'}}
  %0 = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f16>>
  return
}

// -----

func.func @splat_of_tile(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.splat' op operand #0 must be}}
  %0 = "tile.splat"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: tensor<1x16xf32>) {
  // expected-error @+1 {{'tile.broadcast' op result element type 'i32' differs from operand element type 'f32'}}
  %0 = tile.broadcast %x : tensor<1x16xf32> -> tensor<8x16xi32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.broadcast' op operand rank 1 differs from result rank 2; use tile.expand_dims to add dimensions}}
  %0 = tile.broadcast %x : tensor<16xf32> -> tensor<8x16xf32>
  return
}

// -----

func.func @broadcast_non_unit_dim(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tile.broadcast' op can only broadcast dimensions of size 1, but dimension 0 goes from 2 to 8}}
  %0 = tile.broadcast %x : tensor<2x16xf32> -> tensor<8x16xf32>
  return
}

// -----

func.func @expand_dims_element_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op result element type 'f16' differs from operand element type 'f32'}}
  %0 = tile.expand_dims %x axis = 0 : tensor<16xf32> -> tensor<1x16xf16>
  return
}

// -----

func.func @expand_dims_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis 2 is out of range for a tile of rank 1}}
  %0 = tile.expand_dims %x axis = 2 : tensor<16xf32> -> tensor<16x1xf32>
  return
}

// -----

func.func @expand_dims_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op result shape must be the operand's with 1 inserted at 0}}
  %0 = tile.expand_dims %x axis = 0 : tensor<16xf32> -> tensor<16x1xf32>
  return
}

// -----

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @expand_dims_layout_dim(%x: tensor<64xf32, #tile.slice<dim = 0, parent = #blocked>>) {
  // expected-error @+1 {{'tile.expand_dims' op operand layout must be the result layout sliced at the expanded axis}}
  %0 = tile.expand_dims %x axis = 1 : tensor<64xf32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<64x1xf32, #blocked>
  return
}

// -----

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#other = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>
func.func @expand_dims_layout_parent(%x: tensor<64xf32, #tile.slice<dim = 1, parent = #other>>) {
  // expected-error @+1 {{'tile.expand_dims' op operand layout must be the result layout sliced at the expanded axis}}
  %0 = tile.expand_dims %x axis = 1 : tensor<64xf32, #tile.slice<dim = 1, parent = #other>> -> tensor<64x1xf32, #blocked>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.reshape' op result element type 'i32' differs from operand element type 'f32'}}
  %0 = tile.reshape %x : tensor<16x16xf32> -> tensor<256xi32>
  return
}

// -----

func.func @reshape_count(%x: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.reshape' op cannot reshape 'tensor<16x16xf32>' (256 elements) to 'tensor<512xf32>' (512 elements)}}
  %0 = tile.reshape %x : tensor<16x16xf32> -> tensor<512xf32>
  return
}

// -----

func.func @trans_element_type(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op result element type 'f16' differs from operand element type 'f32'}}
  %0 = tile.trans %x : tensor<16x32xf32> -> tensor<32x16xf16>
  return
}

// -----

func.func @trans_rank(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op transposes 2-D tiles only}}
  %0 = tile.trans %x : tensor<2x4x8xf32> -> tensor<8x4x2xf32>
  return
}

// -----

func.func @trans_shape(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op transposes 16x32 into 32x16, but the result is 16x32}}
  %0 = tile.trans %x : tensor<16x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @convert_layout_element_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.convert_layout' op result element type 'f16' differs from operand element type 'f32'}}
  %0 = tile.convert_layout %x : tensor<16xf32> -> tensor<16xf16>
  return
}

// -----

func.func @convert_layout_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.convert_layout' op changes the layout only, not the shape}}
  %0 = tile.convert_layout %x : tensor<16xf32> -> tensor<32xf32>
  return
}

//===----------------------------------------------------------------------===//
// addptr
//===----------------------------------------------------------------------===//

// -----

func.func @addptr_shape(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<32xi32>) {
  // (A scalar and a tile, or shapes that broadcast, are short forms.)
  // expected-error @+1 {{operands of types 'tensor<16x!tile.ptr<f32>>', 'tensor<32xi32>' do not broadcast: dimension 0 is 16 and 32}}
  %0 = tile.addptr %p, %o : tensor<16x!tile.ptr<f32>>, tensor<32xi32>
  return
}

// -----

func.func @addptr_float_offset(%p: !tile.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'tile.addptr' op operand #1 must be}}
  %0 = tile.addptr %p, %o : !tile.ptr<f32>, f32
  return
}

// -----

func.func @addptr_result_type(%p: !tile.ptr<f32>, %o: i32) {
  // expected-error @+2 {{'tile.addptr' op inferred type(s) '!tile.ptr<f32>' are incompatible with return type(s) of operation '!tile.ptr<f16>'}}
  // expected-error @+1 {{'tile.addptr' op failed to infer returned types}}
  %0 = "tile.addptr"(%p, %o) : (!tile.ptr<f32>, i32) -> !tile.ptr<f16>
  return
}

//===----------------------------------------------------------------------===//
// load and store
//===----------------------------------------------------------------------===//

// -----

func.func @load_not_pointer(%p: tensor<16xf32>) {
  // expected-error @+1 {{'tile.load' op operand #0 must be}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result has the pointee type and shape of ptr}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  return
}

// -----

func.func @load_result_shape(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result has the pointee type and shape of ptr}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> tensor<32xf32>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<32xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask is i1 with the shape of ptr}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<32xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @load_scalar_ptr_tile_mask(%p: !tile.ptr<f32>, %m: tensor<16xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask is i1 with the shape of ptr}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tile.ptr<f32>, tensor<16xi1>) -> f32
  return
}

// -----

func.func @load_mask_not_bool(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi8>) {
  // expected-error @+1 {{'tile.load' op operand #1 must be}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xi8>) -> tensor<16xf32>
  return
}

// -----

func.func @load_other_type(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  // expected-error @+1 {{'tile.load' op failed to verify that other has the pointee type and shape of ptr}}
  %0 = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>
  return
}

// -----

func.func @load_other_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: f32) {
  // expected-error @+1 {{'tile.load' op failed to verify that other has the pointee type and shape of ptr}}
  %0 = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>, f32) -> tensor<16xf32>
  return
}

// -----

// In the custom form the mask type follows from the pointer type, so a
// mismatch is a parse error at the use.
func.func @load_mask_custom(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<32xi1>) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<16xi1>' vs 'tensor<32xi1>'}}
  %0 = tile.load %p mask %m : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @load_i1(%p: tensor<16x!tile.ptr<i1>>) {
  // expected-error @+1 {{'tile.load' op cannot access memory of i1; use i8}}
  %0 = tile.load %p : tensor<16x!tile.ptr<i1>>
  return
}

// -----

func.func @load_scalar_i1(%p: !tile.ptr<i1>) {
  // expected-error @+1 {{'tile.load' op cannot access memory of i1; use i8}}
  %0 = tile.load %p : !tile.ptr<i1>
  return
}

// -----

func.func @load_cache_wb(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op cache modifier 'wb' applies to stores only}}
  %0 = tile.load %p cache = wb : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @load_cache_wt(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op cache modifier 'wt' applies to stores only}}
  %0 = tile.load %p cache = wt : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @load_bad_cache(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{custom op 'tile.load' expected string or keyword containing one of the following enum values for attribute 'cache' [ca, cg, cs, cv, wb, wt]}}
  %0 = tile.load %p cache = lu : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @load_bad_evict(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{custom op 'tile.load' expected string or keyword containing one of the following enum values for attribute 'evict' [evict_normal, evict_first, evict_last]}}
  %0 = tile.load %p evict = evict_never : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @store_value_type(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value has the pointee type and shape of ptr}}
  "tile.store"(%p, %v) : (tensor<16x!tile.ptr<f32>>, tensor<16xf16>) -> ()
  return
}

// -----

func.func @store_value_shape(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<32xf32>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value has the pointee type and shape of ptr}}
  "tile.store"(%p, %v) : (tensor<16x!tile.ptr<f32>>, tensor<32xf32>) -> ()
  return
}

// -----

func.func @store_scalar_value_to_tile(%p: tensor<16x!tile.ptr<f32>>, %v: f32) {
  // expected-error @+1 {{'tile.store' op failed to verify that value has the pointee type and shape of ptr}}
  "tile.store"(%p, %v) : (tensor<16x!tile.ptr<f32>>, f32) -> ()
  return
}

// -----

func.func @prefetch_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tile.prefetch' op failed to verify that mask is i1 with the shape of ptr}}
  "tile.prefetch"(%p, %m) : (tensor<16x!tile.ptr<f32>>, tensor<8xi1>) -> ()
  return
}

// -----

func.func @prefetch_not_pointer(%p: tensor<16xf32>) {
  // expected-error @+1 {{'tile.prefetch' op operand #0 must be}}
  "tile.prefetch"(%p) : (tensor<16xf32>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tile.store' op failed to verify that mask is i1 with the shape of ptr}}
  "tile.store"(%p, %v, %m) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> ()
  return
}

// -----

func.func @store_value_custom(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf16>) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'tensor<16xf32>' vs 'tensor<16xf16>'}}
  tile.store %v, %p : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @store_i1(%p: tensor<16x!tile.ptr<i1>>, %v: tensor<16xi1>) {
  // expected-error @+1 {{'tile.store' op cannot access memory of i1; use i8}}
  tile.store %v, %p : tensor<16x!tile.ptr<i1>>
  return
}

// -----

func.func @store_cache_ca(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'tile.store' op cache modifier 'ca' applies to loads only}}
  tile.store %v, %p cache = ca : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @store_cache_cv(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'tile.store' op cache modifier 'cv' applies to loads only}}
  tile.store %v, %p cache = cv : tensor<16x!tile.ptr<f32>>
  return
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

// -----

func.func @atomic_rmw_f16(%p: tensor<16x!tile.ptr<f16>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomics support f32 and i32 elements, got 'f16'}}
  %0 = tile.atomic_rmw add %p, %v : tensor<16x!tile.ptr<f16>>
  return
}

// -----

// The ordering is one of PTX's atomic semantics (no seq_cst).
func.func @atomic_rmw_sem(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'sem' [relaxed, acquire, release, acq_rel]}}
  %0 = tile.atomic_rmw add %p, %v sem = seq_cst : !tile.ptr<i32>
  return
}

// -----

func.func @atomic_rmw_i64(%p: !tile.ptr<i64>, %v: i64) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomics support f32 and i32 elements, got 'i64'}}
  %0 = tile.atomic_rmw max %p, %v : !tile.ptr<i64>
  return
}

// -----

func.func @atomic_rmw_f64(%p: tensor<16x!tile.ptr<f64>>, %v: tensor<16xf64>) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomics support f32 and i32 elements, got 'f64'}}
  %0 = tile.atomic_rmw xchg %p, %v : tensor<16x!tile.ptr<f64>>
  return
}

// -----

func.func @atomic_rmw_i1(%p: tensor<16x!tile.ptr<i1>>, %v: tensor<16xi1>) {
  // expected-error @+1 {{'tile.atomic_rmw' op cannot access memory of i1; use i8}}
  %0 = tile.atomic_rmw xchg %p, %v : tensor<16x!tile.ptr<i1>>
  return
}

// -----

func.func @atomic_rmw_value_type(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xi32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that value has the pointee type and shape of ptr}}
  %0 = "tile.atomic_rmw"(%p, %v) <{kind = 0 : i32}> : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16xf32>
  return
}

// -----

func.func @atomic_rmw_result_type(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that result has the pointee type and shape of ptr}}
  %0 = "tile.atomic_rmw"(%p, %v) <{kind = 0 : i32}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @atomic_rmw_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %m: i1) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that mask is i1 with the shape of ptr}}
  %0 = "tile.atomic_rmw"(%p, %v, %m) <{kind = 0 : i32}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, i1) -> tensor<16xf32>
  return
}

// -----

func.func @atomic_rmw_bad_kind(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{custom op 'tile.atomic_rmw' expected string or keyword containing one of the following enum values for attribute 'kind' [add, max, min, xchg]}}
  %0 = tile.atomic_rmw and %p, %v : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @atomic_cas_f16(%p: tensor<16x!tile.ptr<f16>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'tile.atomic_cas' op atomics support f32 and i32 elements, got 'f16'}}
  %0 = tile.atomic_cas %p, %v, %v : tensor<16x!tile.ptr<f16>>
  return
}

// -----

func.func @atomic_cas_i8(%p: !tile.ptr<i8>, %v: i8) {
  // expected-error @+1 {{'tile.atomic_cas' op atomics support f32 and i32 elements, got 'i8'}}
  %0 = tile.atomic_cas %p, %v, %v : !tile.ptr<i8>
  return
}

// -----

func.func @atomic_cas_i1(%p: !tile.ptr<i1>, %v: i1) {
  // expected-error @+1 {{'tile.atomic_cas' op cannot access memory of i1; use i8}}
  %0 = tile.atomic_cas %p, %v, %v : !tile.ptr<i1>
  return
}

// -----

func.func @atomic_cas_cmp_type(%p: tensor<16x!tile.ptr<i32>>, %c: tensor<16xf32>, %v: tensor<16xi32>) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that cmp has the pointee type and shape of ptr}}
  %0 = "tile.atomic_cas"(%p, %c, %v) : (tensor<16x!tile.ptr<i32>>, tensor<16xf32>, tensor<16xi32>) -> tensor<16xi32>
  return
}

// -----

func.func @atomic_cas_value_type(%p: tensor<16x!tile.ptr<i32>>, %c: tensor<16xi32>, %v: tensor<8xi32>) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that value has the pointee type and shape of ptr}}
  %0 = "tile.atomic_cas"(%p, %c, %v) : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>, tensor<8xi32>) -> tensor<16xi32>
  return
}

// -----

func.func @atomic_cas_result_type(%p: tensor<16x!tile.ptr<i32>>, %c: tensor<16xi32>, %v: tensor<16xi32>) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that result has the pointee type and shape of ptr}}
  %0 = "tile.atomic_cas"(%p, %c, %v) : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xf32>
  return
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_axis(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for a tile of rank 2}}
  %0 = tile.reduce sum %x axis = 2 : tensor<16x32xf32> -> tensor<16xf32>
  return
}

// -----

func.func @reduce_1d_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis 1 is out of range for a tile of rank 1}}
  %0 = tile.reduce max %x axis = 1 : tensor<16xf32> -> f32
  return
}

// -----

func.func @reduce_1d_to_tile(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing a 1-D tile gives a scalar of type 'f32', not 'tensor<1xf32>'}}
  %0 = tile.reduce sum %x axis = 0 : tensor<16xf32> -> tensor<1xf32>
  return
}

// -----

func.func @reduce_1d_element_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing a 1-D tile gives a scalar of type 'f32', not 'f16'}}
  %0 = tile.reduce min %x axis = 0 : tensor<16xf32> -> f16
  return
}

// -----

func.func @reduce_shape(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op result must be a tile of 'f32' with the operand's shape less axis 1, got 'tensor<32xf32>'}}
  %0 = tile.reduce sum %x axis = 1 : tensor<16x32xf32> -> tensor<32xf32>
  return
}

// -----

func.func @reduce_2d_to_scalar(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op result must be a tile of 'f32' with the operand's shape less axis 0, got 'f32'}}
  %0 = tile.reduce sum %x axis = 0 : tensor<16x32xf32> -> f32
  return
}

// -----

func.func @reduce_element_type(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op result must be a tile of 'f32' with the operand's shape less axis 0, got 'tensor<32xf16>'}}
  %0 = tile.reduce max %x axis = 0 : tensor<16x32xf32> -> tensor<32xf16>
  return
}

// -----

func.func @argmax_result_type(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op result must be a tile of 'i32' with the operand's shape less axis 1, got 'tensor<16xf32>'}}
  %0 = tile.reduce argmax %x axis = 1 : tensor<16x32xf32> -> tensor<16xf32>
  return
}

// -----

func.func @argmin_1d_result_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing a 1-D tile gives a scalar of type 'i32', not 'f32'}}
  %0 = tile.reduce argmin %x axis = 0 : tensor<16xf32> -> f32
  return
}

// -----

func.func @argmax_i64_index(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing a 1-D tile gives a scalar of type 'i32', not 'i64'}}
  %0 = tile.reduce argmax %x axis = 0 : tensor<16xf32> -> i64
  return
}

// -----

func.func @reduce_pointers(%p: tensor<16x32x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.reduce' op cannot reduce a tile of pointers}}
  %0 = tile.reduce max %p axis = 1 : tensor<16x32x!tile.ptr<f32>> -> tensor<16x!tile.ptr<f32>>
  return
}

// -----

// A scalar pointer is no reduction result type.
func.func @reduce_pointers_1d(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.reduce' op result #0 must be 32-bit float or 16-bit float or bfloat16 type or 64-bit float or f8E4M3FN type or f8E5M2 type or 1-bit signless integer}}
  %0 = tile.reduce max %p axis = 0 : tensor<16x!tile.ptr<f32>> -> !tile.ptr<f32>
  return
}

// -----

func.func @reduce_sum_i1(%x: tensor<16xi1>) {
  // expected-error @+1 {{'tile.reduce' op cannot sum i1; cast to an integer type first}}
  %0 = tile.reduce sum %x axis = 0 : tensor<16xi1> -> i1
  return
}

// -----

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @reduce_layout_dim(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @+1 {{'tile.reduce' op result layout must be the operand layout sliced at the reduced axis}}
  %0 = tile.reduce sum %x axis = 1 : tensor<64x32xf32, #blocked> -> tensor<64xf32, #tile.slice<dim = 0, parent = #blocked>>
  return
}

// -----

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#other = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>
func.func @reduce_layout_parent(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @+1 {{'tile.reduce' op result layout must be the operand layout sliced at the reduced axis}}
  %0 = tile.reduce max %x axis = 1 : tensor<64x32xf32, #blocked> -> tensor<64xf32, #tile.slice<dim = 1, parent = #other>>
  return
}

// -----

func.func @reduce_bad_kind(%x: tensor<16xf32>) {
  // expected-error @+1 {{custom op 'tile.reduce' expected string or keyword containing one of the following enum values for attribute 'kind' [sum, max, min, argmax, argmin]}}
  %0 = tile.reduce prod %x axis = 0 : tensor<16xf32> -> f32
  return
}

// -----

func.func @generic_reduce_arg_count(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op combiner must take two arguments of type 'f32'}}
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xf32> -> f32 {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @generic_reduce_arg_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op combiner must take two arguments of type 'f32'}}
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f16):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @generic_reduce_yield_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op combiner must yield one value of type 'f32'}}
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.truncf %a : f32 to f16
    tile.yield %c : f16
  }
  return
}

// -----

func.func @generic_reduce_yield_count(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op combiner must yield one value of type 'f32'}}
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a, %b : f32, f32
  }
  return
}

// -----

// Without a tile.yield the parser adds an empty one.
func.func @generic_reduce_no_yield(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op combiner must yield one value of type 'f32'}}
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
  }
  return
}

// -----

// A combiner runs in an order the lowering chooses: it must be a pure
// function of two scalars.
func.func @generic_reduce_store(%x: tensor<16xf32>, %p: !tile.ptr<f32>) {
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'tile.store' op cannot be in a tile.generic_reduce combiner, which combines two scalars with arith, math, scf ops and tile.cast/tile.bitcast}}
    tile.store %a, %p : !tile.ptr<f32>
    tile.yield %b : f32
  }
  return
}

// -----

func.func @generic_reduce_atomic(%x: tensor<16xi32>, %p: !tile.ptr<i32>) {
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{'tile.atomic_rmw' op cannot be in a tile.generic_reduce combiner}}
    %old = tile.atomic_rmw add %p, %a : !tile.ptr<i32>
    %c = arith.addi %old, %b : i32
    tile.yield %c : i32
  }
  return
}

// -----

func.func @generic_reduce_program_id(%x: tensor<16xi32>) {
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{'tile.program_id' op cannot be in a tile.generic_reduce combiner}}
    %pid = tile.program_id x
    %c = arith.addi %a, %pid : i32
    tile.yield %c : i32
  }
  return
}

// -----

func.func @generic_reduce_tile_value(%x: tensor<16xf32>, %t: tensor<4xf32>) {
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'arith.addf' op works on a tile, but a tile.generic_reduce combiner combines two scalars}}
    %s = arith.addf %t, %t : tensor<4xf32>
    tile.yield %a : f32
  }
  return
}

// -----

// Nested regions count: a store in an scf.if of the combiner is refused.
func.func @generic_reduce_nested_effect(%x: tensor<16xf32>, %p: !tile.ptr<f32>, %c: i1) {
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    scf.if %c {
      // expected-error @+1 {{'tile.store' op cannot be in a tile.generic_reduce combiner}}
      tile.store %a, %p : !tile.ptr<f32>
    }
    tile.yield %b : f32
  }
  return
}

// -----

func.func @generic_reduce_axis(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op axis 2 is out of range for a tile of rank 2}}
  %0 = tile.generic_reduce %x axis = 2 : tensor<16x32xf32> -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  return
}

// -----

func.func @generic_reduce_shape(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op result must be a tile of 'f32' with the operand's shape less axis 0, got 'tensor<16xf32>'}}
  %0 = tile.generic_reduce %x axis = 0 : tensor<16x32xf32> -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  return
}

// -----

func.func @generic_reduce_1d_to_tile(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tile.generic_reduce' op reducing a 1-D tile gives a scalar of type 'i32', not 'tensor<1xi32>'}}
  %0 = tile.generic_reduce %x axis = 0 : tensor<16xi32> -> tensor<1xi32> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tile.yield %c : i32
  }
  return
}

// -----

func.func @generic_reduce_two_blocks(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.generic_reduce' op expects region #0 to have 0 or 1 blocks}}
  %0 = "tile.generic_reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    "tile.yield"(%a) : (f32) -> ()
  ^bb1(%c: f32, %d: f32):
    "tile.yield"(%c) : (f32) -> ()
  }) : (tensor<16xf32>) -> f32
  return
}

// -----

func.func @generic_reduce_wrong_terminator(%x: tensor<16xf32>) {
  // expected-error @+2 {{'tile.generic_reduce' op expects regions to end with 'tile.yield', found 'llvm.unreachable'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'tile.yield'}}
  %0 = "tile.generic_reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    "llvm.unreachable"() : () -> ()
  }) : (tensor<16xf32>) -> f32
  return
}

// -----

func.func @yield_outside_reduce(%x: f32) {
  // expected-error @+1 {{'tile.yield' op expects parent op to be one of 'tile.generic_reduce, tile.generic_scan'}}
  tile.yield %x : f32
}

//===----------------------------------------------------------------------===//
// cast and bitcast
//===----------------------------------------------------------------------===//

// -----

func.func @cast_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.cast' op changes element types only: 'tensor<16xf32>' and 'tensor<32xf16>' have different shapes}}
  %0 = tile.cast %x : tensor<16xf32> to tensor<32xf16>
  return
}

// -----

func.func @cast_tile_to_scalar(%x: tensor<1xf32>) {
  // expected-error @+1 {{'tile.cast' op changes element types only: 'tensor<1xf32>' and 'f16' have different shapes}}
  %0 = tile.cast %x : tensor<1xf32> to f16
  return
}

// -----

func.func @cast_pointer(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.cast' op cannot cast '!tile.ptr<f32>' to 'i64'; supported: f64, f32, f16, bf16, f8E4M3FN, f8E5M2, i64, i32, i16, i8, i1}}
  %0 = tile.cast %p : !tile.ptr<f32> to i64
  return
}

// -----

func.func @cast_int_to_float_rounding(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tile.cast' op int to float casts round to nearest even only}}
  %0 = tile.cast %x rounding = rtz : tensor<16xi32> to tensor<16xf32>
  return
}

// -----

func.func @cast_bool_to_float_rounding(%x: tensor<16xi1>) {
  // expected-error @+1 {{'tile.cast' op int to float casts round to nearest even only}}
  %0 = tile.cast %x rounding = rup : tensor<16xi1> to tensor<16xf16>
  return
}

// -----

func.func @cast_widening_rounding(%x: tensor<16xf16>) {
  // expected-error @+1 {{'tile.cast' op rounding applies to casts that can be inexact, not 'f16' to 'f32'}}
  %0 = tile.cast %x rounding = rne : tensor<16xf16> to tensor<16xf32>
  return
}

// -----

func.func @cast_int_to_int_rounding(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tile.cast' op rounding applies to casts that can be inexact, not 'i32' to 'i8'}}
  %0 = tile.cast %x rounding = rtz : tensor<16xi32> to tensor<16xi8>
  return
}

// -----

func.func @cast_float_to_bool_rounding(%x: f32) {
  // expected-error @+1 {{'tile.cast' op rounding applies to casts that can be inexact, not 'f32' to 'i1'}}
  %0 = tile.cast %x rounding = rtz : f32 to i1
  return
}

// -----

func.func @cast_fp8_from_int(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tile.cast' op casts 'i32' to 'f8E4M3FN'; fp8 converts to and from f32, f16 and bf16 only}}
  %0 = tile.cast %x : tensor<16xi32> to tensor<16xf8E4M3FN>
  return
}

// -----

func.func @cast_fp8_to_f64(%x: tensor<16xf8E5M2>) {
  // expected-error @+1 {{'tile.cast' op casts 'f8E5M2' to 'f64'; fp8 converts to and from f32, f16 and bf16 only}}
  %0 = tile.cast %x : tensor<16xf8E5M2> to tensor<16xf64>
  return
}

// -----

func.func @cast_fp8_directed_rounding(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.cast' op fp8 conversions round to nearest even (with saturation) only}}
  %0 = tile.cast %x rounding = rtz : tensor<16xf32> to tensor<16xf8E4M3FN>
  return
}

// -----

func.func @cast_fp8_widening_rounding(%x: tensor<16xf8E4M3FN>) {
  // expected-error @+1 {{'tile.cast' op rounding applies to casts that can be inexact, not 'f8E4M3FN' to 'f16'}}
  %0 = tile.cast %x rounding = rne : tensor<16xf8E4M3FN> to tensor<16xf16>
  return
}

// -----

func.func @dot_fp8_f16_acc(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x16xf8E5M2>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types 'f8E4M3FN' x 'f8E5M2' -> 'f16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E5M2> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_fp8_f16_mixed(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types 'f8E4M3FN' x 'f16' -> 'f32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf8E4M3FN>, tensor<32x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @cast_bad_rounding(%x: f32) {
  // expected-error @+1 {{custom op 'tile.cast' expected string or keyword containing one of the following enum values for attribute 'rounding' [rne, rtz, rdn, rup]}}
  %0 = tile.cast %x rounding = rna : f32 to f16
  return
}

// -----

func.func @bitcast_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.bitcast' op operand and result shapes differ}}
  %0 = tile.bitcast %x : tensor<16xf32> to tensor<32xi32>
  return
}

// -----

func.func @bitcast_tile_to_scalar(%x: tensor<1xf32>) {
  // expected-error @+1 {{'tile.bitcast' op operand and result shapes differ}}
  %0 = tile.bitcast %x : tensor<1xf32> to i32
  return
}

// -----

func.func @bitcast_width(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.bitcast' op bitcast needs numbers of equal width, got 'f32' and 'i16'}}
  %0 = tile.bitcast %x : tensor<16xf32> to tensor<16xi16>
  return
}

// -----

func.func @bitcast_bool(%x: i1) {
  // expected-error @+1 {{'tile.bitcast' op bitcast needs numbers of equal width, got 'i1' and 'i8'}}
  %0 = tile.bitcast %x : i1 to i8
  return
}

// -----

func.func @bitcast_pointer(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.bitcast' op a pointer bitcasts to a pointer or to i64, not 'i32'}}
  %0 = tile.bitcast %p : !tile.ptr<f32> to i32
  return
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

// -----

func.func @dot_rank(%a: tensor<2x16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operands and result must be 2-D tiles}}
  %0 = "tile.dot"(%a, %b, %c) : (tensor<2x16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_inner(%a: tensor<32x16xf16>, %b: tensor<32x16xf16>, %c: tensor<32x16xf32>) {
  // expected-error @+1 {{'tile.dot' op a is 32x16 (M x K) but b is 32x16 (K x N): K is 16 in a and 32 in b}}
  %0 = tile.dot %a, %b, %c : tensor<32x16xf16>, tensor<32x16xf16> -> tensor<32x16xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<64x32xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator must be 32x64}}
  %0 = tile.dot %a, %b, %c : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<64x32xf32>
  return
}

// -----

func.func @dot_a_small(%a: tensor<8x16xf16>, %b: tensor<16x16xf16>, %c: tensor<8x16xf32>) {
  // expected-error @+1 {{'tile.dot' op a must be at least 16x16, got 'tensor<8x16xf16>'}}
  %0 = tile.dot %a, %b, %c : tensor<8x16xf16>, tensor<16x16xf16> -> tensor<8x16xf32>
  return
}

// -----

func.func @dot_b_small(%a: tensor<16x16xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op b must be at least 16x16, got 'tensor<16x8xf16>'}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x8xf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @dot_f16_acc(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types 'f16' x 'f16' -> 'f16'; supported: f16 x f16 -> f32, bf16 x bf16 -> f32, i8 x i8 -> i32, fp8 (f8E4M3FN, f8E5M2) x fp8 -> f32, f32 x f32 -> f32}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types 'f16' x 'bf16' -> 'f32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_i8_f32_acc(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types 'i8' x 'i8' -> 'f32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xi8>, tensor<16x16xi8> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_i32(%a: tensor<16x16xi32>, %b: tensor<16x16xi32>, %c: tensor<16x16xi32>) {
  // expected-error @+1 {{'tile.dot' op unsupported element types 'i32' x 'i32' -> 'i32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xi32>, tensor<16x16xi32> -> tensor<16x16xi32>
  return
}

// -----

func.func @dot_precision_f16(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op precision applies to f32 operands only}}
  %0 = tile.dot %a, %b, %c precision = ieee : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_precision_i8(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %c: tensor<16x16xi32>) {
  // expected-error @+1 {{'tile.dot' op precision applies to f32 operands only}}
  %0 = tile.dot %a, %b, %c precision = tf32 : tensor<16x16xi8>, tensor<16x16xi8> -> tensor<16x16xi32>
  return
}

// -----

func.func @dot_acc_result_type(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op failed to verify that all of {acc, result} have same type}}
  %0 = "tile.dot"(%a, %b, %c) : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x32xf32>
  return
}

// -----

func.func @dot_scalar(%a: f32, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operand #0 must be}}
  %0 = "tile.dot"(%a, %b, %c) : (f32, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @other_without_mask(%p: !tile.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'tile.load' op 'other' gives the masked-off elements and needs a mask}}
  %0 = tile.load %p other %o : !tile.ptr<f32>
  return
}

// -----

func.func @bool_offsets(%p: !tile.ptr<f32>, %b: i1) {
  // expected-error @+1 {{'tile.addptr' op offsets must be integers wider than i1}}
  %0 = tile.addptr %p, %b : !tile.ptr<f32>, i1
  return
}

// -----

func.func @foreign_encoding(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 has encoding "rows", which is not a tile layout}}
  %0 = tile.splat %x : f32 -> tensor<16xf32, "rows">
  return
}

// -----

func.func @cache_and_volatile(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.load' op takes one of cache, evict and volatile: PTX has no instruction that combines them}}
  %0 = tile.load %p cache = cg volatile : !tile.ptr<f32>
  return
}

//===----------------------------------------------------------------------===//
// Shared-memory buffers and asynchronous copies
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{!tile.shared holds slots of 2-D tiles: expected 3 dimensions (slots x rows x columns), got 2}}
func.func @shared_rank(%b: !tile.shared<64x32xf16, contiguous = 1>) {
  return
}

// -----

// expected-error @+1 {{!tile.shared tile dimension 1 must be a power of two, got 24}}
func.func @shared_not_pow2(%b: !tile.shared<3x64x24xf16, contiguous = 1>) {
  return
}

// -----

// expected-error @+1 {{!tile.shared contiguous dimension must be 0 or 1 (a dimension of the tile), got 2}}
func.func @shared_contiguous(%b: !tile.shared<3x64x32xf16, contiguous = 2>) {
  return
}

// -----

// expected-error @+1 {{!tile.shared elements must be numbers of 8 bits or more, got 'i1'}}
func.func @shared_i1(%b: !tile.shared<3x64x32xi1, contiguous = 1>) {
  return
}

// -----

func.func @alloc_too_big() {
  // expected-error @+1 {{'tile.local_alloc' op needs 262144 bytes of shared memory, more than the 232448 a program can have}}
  %b = tile.local_alloc : !tile.shared<4x256x128xf16, contiguous = 1>
  return
}

// -----

func.func @copy_shape(%p: tensor<64x16x!tile.ptr<f16>>, %s: i32) {
  %b = tile.local_alloc : !tile.shared<3x64x32xf16, contiguous = 1>
  // expected-error @+1 {{'tile.async_copy' op the pointer tile has shape 64x16 but a slot of the buffer holds 64x32}}
  tile.async_copy %p, %b[%s] : tensor<64x16x!tile.ptr<f16>> -> !tile.shared<3x64x32xf16, contiguous = 1>
  return
}

// -----

func.func @copy_type(%p: tensor<64x32x!tile.ptr<bf16>>, %s: i32) {
  %b = tile.local_alloc : !tile.shared<3x64x32xf16, contiguous = 1>
  // expected-error @+1 {{'tile.async_copy' op copies 'bf16' elements into a buffer of 'f16'}}
  tile.async_copy %p, %b[%s] : tensor<64x32x!tile.ptr<bf16>> -> !tile.shared<3x64x32xf16, contiguous = 1>
  return
}

// -----

func.func @wait_negative() {
  // expected-error @+1 {{'tile.async_wait' op pending must be a count of copy groups (0 or more), got -1}}
  tile.async_wait pending = -1
  return
}

// -----

func.func @local_load_shape(%s: i32) -> tensor<32x64xf16> {
  %b = tile.local_alloc : !tile.shared<3x64x32xf16, contiguous = 1>
  // expected-error @+1 {{'tile.local_load' op the result has shape 32x64 but a slot of the buffer holds 64x32}}
  %t = tile.local_load %b[%s] : !tile.shared<3x64x32xf16, contiguous = 1> -> tensor<32x64xf16>
  return %t : tensor<32x64xf16>
}

// -----

func.func @local_load_type(%s: i32) -> tensor<64x32xbf16> {
  %b = tile.local_alloc : !tile.shared<3x64x32xf16, contiguous = 1>
  // expected-error @+1 {{'tile.local_load' op result element type 'bf16' differs from operand element type 'f16'}}
  %t = tile.local_load %b[%s] : !tile.shared<3x64x32xf16, contiguous = 1> -> tensor<64x32xbf16>
  return %t : tensor<64x32xbf16>
}

// -----

// expected-error @+1 {{'tile.num_stages' must be an integer in [1, 8] (1: no pipelining), got 0 : i32}}
func.func @zero_stages() attributes {tile.num_stages = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.min_programs_per_sm' must be an integer in [1, 32], got 0 : i32}}
func.func @zero_programs_per_sm() attributes {tile.min_programs_per_sm = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{!tile.tensordesc reads 2-D blocks, got 3 dimensions}}
func.func @tensordesc_rank(%d: !tile.tensordesc<2x64x64xf16>) {
  return
}

// -----

// expected-error @+1 {{!tile.tensordesc block dimension 1 must be a positive power of two, got 48}}
func.func @tensordesc_not_pow2(%d: !tile.tensordesc<64x48xf16>) {
  return
}

// -----

// expected-error @+1 {{!tile.tensordesc elements must be numbers that memory holds (not i1), got 'i1'}}
func.func @tensordesc_i1(%d: !tile.tensordesc<64x64xi1>) {
  return
}

// -----

func.func @descriptor_load_shape(%d: !tile.tensordesc<64x64xf16>, %i: i32) {
  // expected-error @+1 {{'tile.descriptor_load' op the result has shape 64x32 but the descriptor's blocks are 64x64}}
  %t = tile.descriptor_load %d[%i, %i] : !tile.tensordesc<64x64xf16> -> tensor<64x32xf16>
  return
}

// -----

func.func @descriptor_load_type(%d: !tile.tensordesc<64x64xf16>, %i: i32) {
  // expected-error @+1 {{'tile.descriptor_load' op the result holds 'bf16' but the descriptor's elements are 'f16'}}
  %t = tile.descriptor_load %d[%i, %i] : !tile.tensordesc<64x64xf16> -> tensor<64x64xbf16>
  return
}

// -----

// A buffer with contiguous = 0 holds the block transposed: 128x64 blocks
// need 64x128 slots.
func.func @tma_copy_transposed_shape(%d: !tile.tensordesc<128x64xf16>, %i: i32, %p: i1) {
  %b = tile.local_alloc : !tile.shared<2x128x64xf16, contiguous = 0>
  // expected-error @+1 {{'tile.async_tma_copy' op the transposed slot of the buffer has shape 64x128 but the descriptor's blocks are 128x64}}
  tile.async_tma_copy %d[%i, %i], %b[%i] if %p : !tile.tensordesc<128x64xf16> -> !tile.shared<2x128x64xf16, contiguous = 0>
  return
}

// -----

func.func @tma_copy_shape(%d: !tile.tensordesc<64x64xf16>, %i: i32, %p: i1) {
  %b = tile.local_alloc : !tile.shared<2x64x128xf16, contiguous = 1>
  // expected-error @+1 {{'tile.async_tma_copy' op a slot of the buffer has shape 64x128 but the descriptor's blocks are 64x64}}
  tile.async_tma_copy %d[%i, %i], %b[%i] if %p : !tile.tensordesc<64x64xf16> -> !tile.shared<2x64x128xf16, contiguous = 1>
  return
}

//===----------------------------------------------------------------------===//
// Tensor-core instructions, buffer swizzles and places
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{#tile.mma version must be 2 (mma.sync) or 3 (warpgroup MMA), got 4}}
func.func @mma_version() attributes {test.mma = #tile.mma<version = 4, instrShape = [16, 8, 16], warpsPerCTA = [2, 2]>} {
  return
}

// -----

// expected-error @+1 {{#tile.mma version 2 (mma.sync) instructions are 16x8x8, 16x8x16 or 16x8x32, got 16x8x12}}
func.func @mma_sync_shape() attributes {test.mma = #tile.mma<version = 2, instrShape = [16, 8, 12], warpsPerCTA = [2, 2]>} {
  return
}

// -----

// expected-error @+1 {{#tile.mma version 3 (warpgroup MMA) instructions are 64xNx16 (fp8: 64xNx32) with N a multiple of 8 up to 256, got 64x512x16}}
func.func @wgmma_shape() attributes {test.mma = #tile.mma<version = 3, instrShape = [64, 512, 16], warpsPerCTA = [4, 1]>} {
  return
}

// -----

// expected-error @+1 {{#tile.mma version 3 puts whole warpgroups (4 warps) along M and one along N}}
func.func @wgmma_warps() attributes {test.mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [2, 2]>} {
  return
}

// -----

// expected-error @+1 {{#tile.mma takes an instrShape of 3 (M, N, K) and warpsPerCTA of 2 (M, N) values}}
func.func @mma_rank() attributes {test.mma = #tile.mma<version = 2, instrShape = [16, 8], warpsPerCTA = [2, 2]>} {
  return
}

// -----

#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @mma_mismatch(%a: tensor<64x64xf16, #op>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  // expected-error @+1 {{'tile.dot' op mma #tile.mma<version = 2, instrShape = [16, 8, 32], warpsPerCTA = [2, 2]> does not match its types and accumulator layout, which take #tile.mma<version = 2, instrShape = [16, 8, 16], warpsPerCTA = [2, 2]>}}
  %d = tile.dot %a, %a, %c {mma = #tile.mma<version = 2, instrShape = [16, 8, 32], warpsPerCTA = [2, 2]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  return %d : tensor<64x64xf32, #acc>
}

// -----

// The accumulator's layout puts warps along N: no warpgroup MMA.
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]>
#op = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_layout(%a: tensor<64x64xf16, #op>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  // expected-error @+1 {{'tile.dot' op mma #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]> does not match its types and accumulator layout, which take #tile.mma<version = 2, instrShape = [16, 8, 16], warpsPerCTA = [2, 2]>}}
  %d = tile.dot %a, %a, %c {mma = #tile.mma<version = 3, instrShape = [64, 64, 16], warpsPerCTA = [4, 1]>} : tensor<64x64xf16, #op>, tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  return %d : tensor<64x64xf32, #acc>
}

// -----

#b = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @mma_on_fma(%a: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #b> {
  // expected-error @+1 {{'tile.dot' op mma #tile.mma<version = 2, instrShape = [16, 8, 8], warpsPerCTA = [4, 1]> does not fit: its types or accumulator layout take no tensor-core instruction}}
  %d = tile.dot %a, %a, %a precision = ieee {mma = #tile.mma<version = 2, instrShape = [16, 8, 8], warpsPerCTA = [4, 1]>} : tensor<32x32xf32, #b>, tensor<32x32xf32, #b> -> tensor<32x32xf32, #b>
  return %d : tensor<32x32xf32, #b>
}

// -----

// expected-error @+1 {{!tile.shared swizzle = wgmma holds 16-bit elements (f16, bf16) or fp8 (f8E4M3FN, f8E5M2), got 'f32'}}
func.func @wgmma_swizzle_f32(%b: !tile.shared<2x64x64xf32, contiguous = 1, swizzle = wgmma>) {
  return
}

// -----

// expected-error @+1 {{!tile.shared swizzle = wgmma needs the contiguous dimension to be whole 128-byte slabs (fp8: or one of 64 bytes), got 64 bytes}}
func.func @wgmma_swizzle_narrow(%b: !tile.shared<2x64x32xf16, contiguous = 1, swizzle = wgmma>) {
  return
}

// -----

// expected-error @+1 {{!tile.shared swizzle = wgmma needs the contiguous dimension to be whole 128-byte slabs (fp8: or one of 64 bytes), got 32 bytes}}
func.func @wgmma_swizzle_narrow_fp8(%b: !tile.shared<2x64x32xf8E4M3FN, contiguous = 1, swizzle = wgmma>) {
  return
}

// -----

// expected-error @+1 {{expected swizzle xor16 or wgmma, got 'nvmma'}}
func.func @unknown_swizzle(%b: !tile.shared<2x64x64xf16, contiguous = 1, swizzle = nvmma>) {
  return
}

// -----

func.func @alloc_misaligned() {
  // expected-error @+1 {{'tile.local_alloc' op offset 512 is not a multiple of 1024, the alignment its swizzle needs}}
  %b = tile.local_alloc {offset = 512 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  return
}

// -----

func.func @alloc_past_the_end() {
  // expected-error @+1 {{'tile.local_alloc' op ends at byte 233472, past the 232448 bytes of shared memory a program can have}}
  %b = tile.local_alloc {offset = 217088 : i64} : !tile.shared<2x64x64xf16, contiguous = 1>
  return
}

// -----

func.func @barriers_misaligned() {
  // expected-error @+1 {{'tile.local_alloc' op barrier_offset 4 is not a multiple of 8 (mbarriers are 8 bytes)}}
  %b = tile.local_alloc {barrier_offset = 4 : i64, offset = 1024 : i64} : !tile.shared<2x64x64xf16, contiguous = 1, swizzle = wgmma>
  return
}

// -----

func.func @mma_step_elsewhere() {
  // expected-error @+1 {{'tile.mma_step' applies to nvvm.ldmatrix and nvvm.mma.sync}}
  %c = arith.constant {tile.mma_step = 0 : i32} 0 : i32
  return
}

// -----

// fp8 dots take warpgroup MMA (m64nNk32) only: mma.sync is not theirs.
#acc = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], warpRepeat = [2, 1]>
func.func @fp8_mma_sync(%a: tensor<64x128xf8E4M3FN>, %b: tensor<128x64xf8E4M3FN>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  // expected-error @+1 {{'tile.dot' op mma #tile.mma<version = 2, instrShape = [16, 8, 32], warpsPerCTA = [4, 1]> does not fit: its types or accumulator layout take no tensor-core instruction}}
  %d = tile.dot %a, %b, %c {mma = #tile.mma<version = 2, instrShape = [16, 8, 32], warpsPerCTA = [4, 1]>} : tensor<64x128xf8E4M3FN>, tensor<128x64xf8E4M3FN> -> tensor<64x64xf32, #acc>
  return %d : tensor<64x64xf32, #acc>
}
