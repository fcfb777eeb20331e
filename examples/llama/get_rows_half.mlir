// get_rows_half: get_rows (get_rows.mlir, which says what it does) for f16
// and bf16 tables, widened to f32 (exactly).
//
//   grid = (ceil(n_cols / BLOCK), n_tokens); constants: T (f16 or bf16),
//   BLOCK (1024); num_warps 4
//   args: dst (f32), table (T), ids (i32), n_rows, n_cols (a multiple of 32)
func.func @get_rows_half(%dst: !tile.ptr<f32> {tile.divisibility = 16},
                         %table: !tile.ptr<${T}> {tile.divisibility = 16},
                         %ids: !tile.ptr<i32>,
                         %n_rows: i32,
                         %n_cols: i32 {tile.divisibility = 16}) {
  tile.launch_dependents
  tile.grid_dependency_wait
  %bx = tile.program_id x
  %t = tile.program_id y
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %id_ptr = tile.addptr %ids, %t : !tile.ptr<i32>, i32
  %id_raw = tile.load %id_ptr : !tile.ptr<i32>
  %last = arith.subi %n_rows, %c1 : i32
  %id_lo = arith.maxsi %id_raw, %c0 : i32
  %id = arith.minsi %id_lo, %last : i32

  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %bx, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %cols = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %n = tile.splat %n_cols : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>

  %row_off = arith.muli %id, %n_cols : i32
  %row = tile.addptr %table, %row_off : !tile.ptr<${T}>, i32
  %rows = tile.splat %row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %ptrs = tile.addptr %rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %h = tile.load %ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %v = tile.cast %h : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>

  %dst_off = arith.muli %t, %n_cols : i32
  %dst_row = tile.addptr %dst, %dst_off : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %v, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
