// cpy_f32_f16 fast path 2: the new tokens' V [T][E] (f32, E = NH*D, row t at
// t * src_row_stride) transposed into the V cache [E][C] (f16) at column
// n_past:
//
//   dst[e * dst_row_stride + n_past + t] = f16(src[t * src_row_stride + e])
//   for t < n_tokens, e < n_cols, rounding to nearest even.
//
// A program moves a [BT, BE] tile (tokens x features), loaded as [BE, BT]
// (contiguous along e: 16-byte vectors of 4 x f32), converted to f16 and
// transposed in registers, and stored contiguous along t; the layout pass
// gives the load and the store their own coalesced layouts and converts the
// f16 tile through shared memory in between (the transpose keeps the
// conversion after the f32 -> f16 cast: half the shared-memory traffic). For 16-byte stores (8 x f16) the
// columns a program writes start at a multiple of 8: program x covers cache
// columns [c0, c0 + BT) with c0 = 8 * floor(n_past / 8) + x * BT, i.e. tokens
// t = c0 - n_past + i, which may fall outside [0, n_tokens) at both ends.
// Programs whose tile lies inside (every program but the first and last
// along x, and those along y past n_cols) store without a mask, as 16-byte
// vectors; the edge programs store with the per-element mask (the vectors
// are predicated element by element there). Loads are always masked (the
// mask is uniform along e, so they stay 16-byte vectors).
//
// Tile shape: the conversion reads shared memory (row-major [BT, BE]) in
// the store's layout, 8 consecutive t (rows BE*2 bytes apart) per thread;
// lanes that differ in t hit the same banks. BT = 16 leaves 2 lanes along t
// and 16 along e (2-way conflicts; 64 x 64 had 16-way ones) while each
// cache row still gets 32 contiguous bytes (a full sector) per store.
//
// Grid: (ceil((n_past % 8 + n_tokens) / BT), ceil(n_cols / BE), 1).
// Constants: BT (16), BE (128). num_warps: 4. Arguments: src (f32), dst
// (f16), src_row_stride (elements, a multiple of 16), n_cols (E, a multiple
// of 16), n_tokens, dst_row_stride (C, elements, a multiple of 8), n_past
// (any).
func.func @cpy_f32_f16_trans(%src: !tile.ptr<f32> {tile.divisibility = 16},
                             %dst: !tile.ptr<f16> {tile.divisibility = 16},
                             %src_row_stride: i32 {tile.divisibility = 16},
                             %n_cols: i32 {tile.divisibility = 16},
                             %n_tokens: i32,
                             %dst_row_stride: i32 {tile.divisibility = 8},
                             %n_past: i32) {
  %bx = tile.program_id x
  %by = tile.program_id y
  %bt = arith.constant ${BT} : i32
  %be = arith.constant ${BE} : i32
  %eight = arith.constant 8 : i32
  %past8 = arith.divsi %n_past, %eight : i32
  %aligned = arith.muli %past8, %eight : i32
  %tile_col = arith.muli %bx, %bt : i32
  %c0 = arith.addi %aligned, %tile_col : i32        // first cache column
  %t0 = arith.subi %c0, %n_past : i32               // its token (may be < 0)
  %e0 = arith.muli %by, %be : i32

  %rt = tile.make_range 0 to ${BT} : tensor<${BT}xi32>
  %re = tile.make_range 0 to ${BE} : tensor<${BE}xi32>
  %zero_t = arith.constant dense<0> : tensor<${BT}xi32>
  %nt = tile.splat %n_tokens : i32 -> tensor<${BT}xi32>
  %ne = tile.splat %n_cols : i32 -> tensor<${BE}xi32>

  // Load as [BE, BT] (e, t): src + t * src_row_stride + e, contiguous along
  // e; masked by 0 <= t < n_tokens and e < n_cols.
  %t0s = tile.splat %t0 : i32 -> tensor<${BT}xi32>
  %t = arith.addi %t0s, %rt : tensor<${BT}xi32>
  %e0s = tile.splat %e0 : i32 -> tensor<${BE}xi32>
  %e = arith.addi %e0s, %re : tensor<${BE}xi32>
  %t_lo = arith.cmpi sge, %t, %zero_t : tensor<${BT}xi32>
  %t_hi = arith.cmpi slt, %t, %nt : tensor<${BT}xi32>
  %t_ok = arith.andi %t_lo, %t_hi : tensor<${BT}xi1>
  %e_ok = arith.cmpi slt, %e, %ne : tensor<${BE}xi32>
  %t_ok2 = tile.expand_dims %t_ok axis = 0 : tensor<${BT}xi1> -> tensor<1x${BT}xi1>
  %e_ok2 = tile.expand_dims %e_ok axis = 1 : tensor<${BE}xi1> -> tensor<${BE}x1xi1>
  %t_okb = tile.broadcast %t_ok2 : tensor<1x${BT}xi1> -> tensor<${BE}x${BT}xi1>
  %e_okb = tile.broadcast %e_ok2 : tensor<${BE}x1xi1> -> tensor<${BE}x${BT}xi1>
  %ld_mask = arith.andi %e_okb, %t_okb : tensor<${BE}x${BT}xi1>
  %t2 = tile.expand_dims %t axis = 0 : tensor<${BT}xi32> -> tensor<1x${BT}xi32>
  %srs = tile.splat %src_row_stride : i32 -> tensor<1x${BT}xi32>
  %t_off = arith.muli %t2, %srs : tensor<1x${BT}xi32>
  %e2 = tile.expand_dims %e axis = 1 : tensor<${BE}xi32> -> tensor<${BE}x1xi32>
  %t_offb = tile.broadcast %t_off : tensor<1x${BT}xi32> -> tensor<${BE}x${BT}xi32>
  %e2b = tile.broadcast %e2 : tensor<${BE}x1xi32> -> tensor<${BE}x${BT}xi32>
  %src_off = arith.addi %e2b, %t_offb : tensor<${BE}x${BT}xi32>
  %srcs = tile.splat %src : !tile.ptr<f32> -> tensor<${BE}x${BT}x!tile.ptr<f32>>
  %src_ptrs = tile.addptr %srcs, %src_off : tensor<${BE}x${BT}x!tile.ptr<f32>>, tensor<${BE}x${BT}xi32>
  %v = tile.load %src_ptrs mask %ld_mask : tensor<${BE}x${BT}x!tile.ptr<f32>>
  %h = tile.cast %v rounding = rne : tensor<${BE}x${BT}xf32> to tensor<${BE}x${BT}xf16>
  // The transpose keeps every element in its thread; the store's layout
  // then comes through shared memory, in f16.
  %ht = tile.trans %h : tensor<${BE}x${BT}xf16> -> tensor<${BT}x${BE}xf16>

  // Store as [BT, BE]: dst + e * dst_row_stride + c, contiguous along c.
  // (Its own index arithmetic, so that no index tile needs converting.)
  %c0s = tile.splat %c0 : i32 -> tensor<${BT}xi32>
  %c = arith.addi %c0s, %rt : tensor<${BT}xi32>
  %c2 = tile.expand_dims %c axis = 1 : tensor<${BT}xi32> -> tensor<${BT}x1xi32>
  %e0c = arith.muli %e0, %dst_row_stride : i32
  %e0cs = tile.splat %e0c : i32 -> tensor<${BE}xi32>
  %drs = tile.splat %dst_row_stride : i32 -> tensor<${BE}xi32>
  %re_c = arith.muli %re, %drs : tensor<${BE}xi32>
  %e_off = arith.addi %e0cs, %re_c : tensor<${BE}xi32>
  %e_off2 = tile.expand_dims %e_off axis = 0 : tensor<${BE}xi32> -> tensor<1x${BE}xi32>
  %c2b = tile.broadcast %c2 : tensor<${BT}x1xi32> -> tensor<${BT}x${BE}xi32>
  %e_offb = tile.broadcast %e_off2 : tensor<1x${BE}xi32> -> tensor<${BT}x${BE}xi32>
  %dst_off = arith.addi %c2b, %e_offb : tensor<${BT}x${BE}xi32>
  %dsts = tile.splat %dst : !tile.ptr<f16> -> tensor<${BT}x${BE}x!tile.ptr<f16>>
  %dst_ptrs = tile.addptr %dsts, %dst_off : tensor<${BT}x${BE}x!tile.ptr<f16>>, tensor<${BT}x${BE}xi32>

  // Inside: t0 >= 0, t0 + BT <= n_tokens, e0 + BE <= n_cols.
  %zero = arith.constant 0 : i32
  %in_lo = arith.cmpi sge, %t0, %zero : i32
  %t_end = arith.addi %t0, %bt : i32
  %in_hi = arith.cmpi sle, %t_end, %n_tokens : i32
  %e_end = arith.addi %e0, %be : i32
  %in_e = arith.cmpi sle, %e_end, %n_cols : i32
  %in_t = arith.andi %in_lo, %in_hi : i1
  %inside = arith.andi %in_t, %in_e : i1
  scf.if %inside {
    tile.store %ht, %dst_ptrs : tensor<${BT}x${BE}x!tile.ptr<f16>>
  } else {
    // mask[t, e]: n_past <= c < n_past + n_tokens and e < n_cols.
    %pasts = tile.splat %n_past : i32 -> tensor<${BT}xi32>
    %end = arith.addi %n_past, %n_tokens : i32
    %ends = tile.splat %end : i32 -> tensor<${BT}xi32>
    %c_lo = arith.cmpi sge, %c, %pasts : tensor<${BT}xi32>
    %c_hi = arith.cmpi slt, %c, %ends : tensor<${BT}xi32>
    %c_ok = arith.andi %c_lo, %c_hi : tensor<${BT}xi1>
    %e_lim = arith.subi %n_cols, %e0 : i32
    %e_lims = tile.splat %e_lim : i32 -> tensor<${BE}xi32>
    %e_in = arith.cmpi slt, %re, %e_lims : tensor<${BE}xi32>
    %c_ok2 = tile.expand_dims %c_ok axis = 1 : tensor<${BT}xi1> -> tensor<${BT}x1xi1>
    %e_in2 = tile.expand_dims %e_in axis = 0 : tensor<${BE}xi1> -> tensor<1x${BE}xi1>
    %c_okb = tile.broadcast %c_ok2 : tensor<${BT}x1xi1> -> tensor<${BT}x${BE}xi1>
    %e_inb = tile.broadcast %e_in2 : tensor<1x${BE}xi1> -> tensor<${BT}x${BE}xi1>
    %st_mask = arith.andi %c_okb, %e_inb : tensor<${BT}x${BE}xi1>
    tile.store %ht, %dst_ptrs mask %st_mask : tensor<${BT}x${BE}x!tile.ptr<f16>>
  }
  return
}
