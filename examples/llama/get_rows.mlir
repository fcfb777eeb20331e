// get_rows (llama.cpp's get_rows, the token embedding): rows of a table picked
// by token ids read from device memory, as f32.
//
//   dst[t, c] = table[id_t, c],   id_t = clamp(ids[t], 0, n_rows - 1),  c < n_cols
//
// The ids come from device memory (the decode step's token, written by the
// sampling kernel or the host), so that a CUDA graph replays the lookup of
// whatever token is there. An id outside [0, n_rows) is clamped rather than
// trusted: the table is never read outside its rows (the host checks the ids
// it writes; the clamp guards the memory, not the result).
//
// get_rows_f32: f32 tables. get_rows_q8_0: block_q8_0 tables (rows of
// n_cols/32 blocks of 34 bytes { f16 d; int8 qs[32]; }, value d * q), read
// as a [BLOCKS, 32] tile of quants and a [BLOCKS, 1] tile of scales.
// get_rows_half.mlir has the f16/bf16 variant.
//
//   grid = (ceil(n_cols / BLOCK), n_tokens) for get_rows_f32,
//          (ceil(n_cols / (32 * BLOCKS)), n_tokens) for get_rows_q8_0
//   constants: BLOCK (f32: 1024), BLOCKS (q8_0: 32); num_warps 4
//   args: dst (f32, rows of n_cols), table, ids (i32), n_rows (the table's),
//         n_cols (a multiple of 32)
func.func @get_rows_f32(%dst: !tile.ptr<f32> {tile.divisibility = 16},
                        %table: !tile.ptr<f32> {tile.divisibility = 16},
                        %ids: !tile.ptr<i32>,
                        %n_rows: i32,
                        %n_cols: i32 {tile.divisibility = 16}) {
  // Programmatic dependent launch: the id may come from the kernel before.
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
  %row = tile.addptr %table, %row_off : !tile.ptr<f32>, i32
  %rows = tile.splat %row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %ptrs = tile.addptr %rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %v = tile.load %ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>

  %dst_off = arith.muli %t, %n_cols : i32
  %dst_row = tile.addptr %dst, %dst_off : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %v, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}

func.func @get_rows_q8_0(%dst: !tile.ptr<f32> {tile.divisibility = 16},
                         %table: !tile.ptr<i8> {tile.divisibility = 16},
                         %ids: !tile.ptr<i32>,
                         %n_rows: i32,
                         %n_cols: i32 {tile.divisibility = 16}) {
  tile.launch_dependents
  tile.grid_dependency_wait
  %bx = tile.program_id x
  %t = tile.program_id y
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c17 = arith.constant 17 : i32
  %c32 = arith.constant 32 : i32
  %c34 = arith.constant 34 : i32
  %id_ptr = tile.addptr %ids, %t : !tile.ptr<i32>, i32
  %id_raw = tile.load %id_ptr : !tile.ptr<i32>
  %last = arith.subi %n_rows, %c1 : i32
  %id_lo = arith.maxsi %id_raw, %c0 : i32
  %id = arith.minsi %id_lo, %last : i32

  // Blocks of this program: [first, first + BLOCKS), those < n_blocks.
  %n_blocks = arith.divsi %n_cols, %c32 : i32
  %c_blocks = arith.constant ${BLOCKS} : i32
  %first = arith.muli %bx, %c_blocks : i32
  %b = tile.make_range 0 to ${BLOCKS} : tensor<${BLOCKS}xi32>
  %firsts = tile.splat %first : i32 -> tensor<${BLOCKS}xi32>
  %blk = arith.addi %firsts, %b : tensor<${BLOCKS}xi32>
  %blk_2 = tile.expand_dims %blk axis = 1 : tensor<${BLOCKS}xi32> -> tensor<${BLOCKS}x1xi32>
  %n_blks = tile.splat %n_blocks : i32 -> tensor<${BLOCKS}x1xi32>
  %blk_ok = arith.cmpi slt, %blk_2, %n_blks : tensor<${BLOCKS}x1xi32>
  %j = tile.make_range 0 to 32 : tensor<32xi32>
  %j_2 = tile.expand_dims %j axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %j_b = tile.broadcast %j_2 : tensor<1x32xi32> -> tensor<${BLOCKS}x32xi32>
  %blk_b = tile.broadcast %blk_2 : tensor<${BLOCKS}x1xi32> -> tensor<${BLOCKS}x32xi32>
  %ok_b = tile.broadcast %blk_ok : tensor<${BLOCKS}x1xi1> -> tensor<${BLOCKS}x32xi1>

  // Quant (b, j) at byte 34 blk + 2 + j of the row; d at f16 index 17 blk.
  %row_bytes = arith.muli %n_blocks, %c34 : i32
  %row_off = arith.muli %id, %row_bytes : i32
  %row = tile.addptr %table, %row_off : !tile.ptr<i8>, i32
  %c34s = arith.constant dense<34> : tensor<${BLOCKS}x32xi32>
  %c2s = arith.constant dense<2> : tensor<${BLOCKS}x32xi32>
  %blk_bytes = arith.muli %blk_b, %c34s : tensor<${BLOCKS}x32xi32>
  %q_start = arith.addi %blk_bytes, %c2s : tensor<${BLOCKS}x32xi32>
  %q_off = arith.addi %q_start, %j_b : tensor<${BLOCKS}x32xi32>
  %rows = tile.splat %row : !tile.ptr<i8> -> tensor<${BLOCKS}x32x!tile.ptr<i8>>
  %q_ptrs = tile.addptr %rows, %q_off : tensor<${BLOCKS}x32x!tile.ptr<i8>>, tensor<${BLOCKS}x32xi32>
  %q = tile.load %q_ptrs mask %ok_b : tensor<${BLOCKS}x32x!tile.ptr<i8>>
  %row_half = tile.bitcast %row : !tile.ptr<i8> to !tile.ptr<f16>
  %c17s = arith.constant dense<17> : tensor<${BLOCKS}x1xi32>
  %d_off = arith.muli %blk_2, %c17s : tensor<${BLOCKS}x1xi32>
  %halves = tile.splat %row_half : !tile.ptr<f16> -> tensor<${BLOCKS}x1x!tile.ptr<f16>>
  %d_ptrs = tile.addptr %halves, %d_off : tensor<${BLOCKS}x1x!tile.ptr<f16>>, tensor<${BLOCKS}x1xi32>
  %d_h = tile.load %d_ptrs mask %blk_ok : tensor<${BLOCKS}x1x!tile.ptr<f16>>

  %qf = tile.cast %q : tensor<${BLOCKS}x32xi8> to tensor<${BLOCKS}x32xf32>
  %d = tile.cast %d_h : tensor<${BLOCKS}x1xf16> to tensor<${BLOCKS}x1xf32>
  %d_b = tile.broadcast %d : tensor<${BLOCKS}x1xf32> -> tensor<${BLOCKS}x32xf32>
  %v = arith.mulf %qf, %d_b : tensor<${BLOCKS}x32xf32>

  // dst[t, 32 blk + j].
  %c32s = arith.constant dense<32> : tensor<${BLOCKS}x32xi32>
  %col_start = arith.muli %blk_b, %c32s : tensor<${BLOCKS}x32xi32>
  %cols = arith.addi %col_start, %j_b : tensor<${BLOCKS}x32xi32>
  %dst_off = arith.muli %t, %n_cols : i32
  %dst_row = tile.addptr %dst, %dst_off : !tile.ptr<f32>, i32
  %dst_rows = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCKS}x32x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_rows, %cols : tensor<${BLOCKS}x32x!tile.ptr<f32>>, tensor<${BLOCKS}x32xi32>
  tile.store %v, %dst_ptrs mask %ok_b : tensor<${BLOCKS}x32x!tile.ptr<f32>>
  return
}
