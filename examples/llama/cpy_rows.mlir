// cpy_f32_f16 fast path 1: rows of f32 into rows of f16 (the new tokens' K
// [T][NH*D] into the token-major K cache [C][NH*D] at token n_past):
//
//   dst[dst_offset + r * dst_row_stride + c] = f16(src[r * src_row_stride + c])
//   for c < n_cols, rounding to nearest even.
//
// The generic cpy.mlir splits a flat index over byte strides, so nothing
// vectorizes; here each program copies BLOCK columns of one row: 16-byte
// loads (4 x f32) and 8-byte stores (4 x f16). The hints say what that
// needs: pointers 16-byte aligned, strides and n_cols multiples of 16
// elements, dst_offset a multiple of 4 (the K cache's n_past * NH * D is).
// (dst_offset is declared a multiple of 4, not 8, on purpose: 8 would make
// the store want 8 x f16 per thread, another layout than the load's 4 x f32,
// and the layout pass would join them through shared memory.)
//
// Grid: (ceil(n_cols / BLOCK), rows, 1). Constants: BLOCK (1024).
// num_warps: 4. Arguments: src (f32), dst (f16), src_row_stride,
// dst_row_stride, n_cols, dst_offset (all i32, in elements).
func.func @cpy_f32_f16_rows(%src: !tile.ptr<f32> {tile.divisibility = 16},
                            %dst: !tile.ptr<f16> {tile.divisibility = 16},
                            %src_row_stride: i32 {tile.divisibility = 16},
                            %dst_row_stride: i32 {tile.divisibility = 16},
                            %n_cols: i32 {tile.divisibility = 16},
                            %dst_offset: i32 {tile.divisibility = 4}) {
  %bx = tile.program_id x
  %row = tile.program_id y
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %bx, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %cols = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>

  %src_offset = arith.muli %row, %src_row_stride : i32
  %src_row = tile.addptr %src, %src_offset : !tile.ptr<f32>, i32
  %src_rows = tile.splat %src_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %src_ptrs = tile.addptr %src_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %v = tile.load %src_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %h = tile.cast %v rounding = rne : tensor<${BLOCK}xf32> to tensor<${BLOCK}xf16>

  %dst_row_offset = arith.muli %row, %dst_row_stride : i32
  %dst_at = arith.addi %dst_offset, %dst_row_offset : i32
  %dst_row = tile.addptr %dst, %dst_at : !tile.ptr<f16>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f16> -> tensor<${BLOCK}x!tile.ptr<f16>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCK}x!tile.ptr<f16>>, tensor<${BLOCK}xi32>
  tile.store %h, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f16>>
  return
}
