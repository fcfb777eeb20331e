// GGML's broadcasting binary op (k_bin_bcast), 4-D, f32:
//
//   dst[i3,i2,i1,i0] = src0[i3,i2,i1,i0] OP src1[i3 % ne13, i2 % ne12, i1 % ne11, i0 % ne10]
//
// with element strides (the innermost stride is 1 on every side): dst at
// i3*s3 + i2*s2 + i1*s1 + i0, src0 at i3*s03 + ..., src1 at i13*s13 + ....
// The host collapses dimensions as ggml does: when all three tensors are
// contiguous and src1 is not broadcast along dims 1.., ne0 absorbs them
// (ne0 *= ne1, ...), so one launch covers long rows (see the check's
// collapse helper). One program covers BLOCK columns of one row (i1, i2, i3);
// where src1's row is as long as dst's (ne10 == ne0) it is read as 16-byte
// vectors, otherwise gathered through i0 % ne10.
//
// Grid: (ceil(ne0 / BLOCK), ne1, ne2 * ne3). Constants: BLOCK (1024), OP
// (0 add, 1 sub, 2 mul, 3 div; the others fold away), DIV (16 when ne0, ne10
// and every stride are multiples of 16, else 1). num_warps: 4.
// Arguments: src0, src1, dst (f32), ne0..ne3, ne10..ne13, s1..s3,
// s01..s03, s11..s13 (i32).
func.func @bin_bcast_f32(%src0: !tile.ptr<f32> {tile.divisibility = 16},
                         %src1: !tile.ptr<f32> {tile.divisibility = 16},
                         %dst: !tile.ptr<f32> {tile.divisibility = 16},
                         %ne0: i32 {tile.divisibility = ${DIV}}, %ne1: i32,
                         %ne2: i32, %ne3: i32,
                         %ne10: i32 {tile.divisibility = ${DIV}}, %ne11: i32,
                         %ne12: i32, %ne13: i32,
                         %s1: i32 {tile.divisibility = ${DIV}},
                         %s2: i32 {tile.divisibility = ${DIV}},
                         %s3: i32 {tile.divisibility = ${DIV}},
                         %s01: i32 {tile.divisibility = ${DIV}},
                         %s02: i32 {tile.divisibility = ${DIV}},
                         %s03: i32 {tile.divisibility = ${DIV}},
                         %s11: i32 {tile.divisibility = ${DIV}},
                         %s12: i32 {tile.divisibility = ${DIV}},
                         %s13: i32 {tile.divisibility = ${DIV}}) {
  %bx = tile.program_id x
  %i1 = tile.program_id y
  %i23 = tile.program_id z
  %i2 = arith.divsi %i23, %ne3 : i32
  %i3 = arith.remsi %i23, %ne3 : i32
  %i11 = arith.remsi %i1, %ne11 : i32
  %i12 = arith.remsi %i2, %ne12 : i32
  %i13 = arith.remsi %i3, %ne13 : i32

  // Row offsets: i3*s3 + i2*s2 + i1*s1 on each side.
  %d3 = arith.muli %i3, %s3 : i32
  %d2 = arith.muli %i2, %s2 : i32
  %d1 = arith.muli %i1, %s1 : i32
  %d23 = arith.addi %d3, %d2 : i32
  %dst_off = arith.addi %d23, %d1 : i32
  %a3 = arith.muli %i3, %s03 : i32
  %a2 = arith.muli %i2, %s02 : i32
  %a1 = arith.muli %i1, %s01 : i32
  %a23 = arith.addi %a3, %a2 : i32
  %src0_off = arith.addi %a23, %a1 : i32
  %b3 = arith.muli %i13, %s13 : i32
  %b2 = arith.muli %i12, %s12 : i32
  %b1 = arith.muli %i11, %s11 : i32
  %b23 = arith.addi %b3, %b2 : i32
  %src1_off = arith.addi %b23, %b1 : i32

  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %bx, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %i0 = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ne0s = tile.splat %ne0 : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %i0, %ne0s : tensor<${BLOCK}xi32>

  %src0_row = tile.addptr %src0, %src0_off : !tile.ptr<f32>, i32
  %src0_rows = tile.splat %src0_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %src0_ptrs = tile.addptr %src0_rows, %i0 : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %a = tile.load %src0_ptrs mask %mask evict = evict_first : tensor<${BLOCK}x!tile.ptr<f32>>

  %src1_row = tile.addptr %src1, %src1_off : !tile.ptr<f32>, i32
  %src1_rows = tile.splat %src1_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %full_row = arith.cmpi eq, %ne10, %ne0 : i32
  %b = scf.if %full_row -> (tensor<${BLOCK}xf32>) {
    %p = tile.addptr %src1_rows, %i0 : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    %v = tile.load %p mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
    scf.yield %v : tensor<${BLOCK}xf32>
  } else {
    %ne10s = tile.splat %ne10 : i32 -> tensor<${BLOCK}xi32>
    %i10 = arith.remsi %i0, %ne10s : tensor<${BLOCK}xi32>
    %p = tile.addptr %src1_rows, %i10 : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    %v = tile.load %p mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
    scf.yield %v : tensor<${BLOCK}xf32>
  }

  %op = arith.constant ${OP} : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %sum = arith.addf %a, %b : tensor<${BLOCK}xf32>
  %diff = arith.subf %a, %b : tensor<${BLOCK}xf32>
  %prod = arith.mulf %a, %b : tensor<${BLOCK}xf32>
  %quot = arith.divf %a, %b : tensor<${BLOCK}xf32>
  %is_sub = arith.cmpi eq, %op, %c1 : i32
  %is_mul = arith.cmpi eq, %op, %c2 : i32
  %is_lt2 = arith.cmpi slt, %op, %c2 : i32
  %low = arith.select %is_sub, %diff, %sum : tensor<${BLOCK}xf32>
  %high = arith.select %is_mul, %prod, %quot : tensor<${BLOCK}xf32>
  %r = arith.select %is_lt2, %low, %high : tensor<${BLOCK}xf32>

  %dst_row = tile.addptr %dst, %dst_off : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %i0 : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %r, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
