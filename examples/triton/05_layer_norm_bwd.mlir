// Triton tutorial 05, layer normalization, backward
// (python/tutorials/05-layer-norm.py): dx, and the weight and bias gradients
// by a two-stage reduction over the rows.
//
// layer_norm_bwd_dx_fused: one program per row of N values,
//   x_hat = (x - mean) * rstd,  wdy = w * dy,
//   dx    = (wdy - (x_hat * c1 + c2)) * rstd,
//   c1 = sum_c x_hat wdy / N,  c2 = sum_c wdy / N;
// then it adds dy * x_hat and dy (rounded to T) into row lock_id = row %
// GROUP_SIZE_M of the partial sums DW and DB ([GROUP_SIZE_M, N], T), under
// that row's spin lock (Lock[lock_id], a CAS loop; Count[lock_id] = Lock[
// GROUP_SIZE_M + lock_id] says whether the row holds a sum yet, so DW and DB
// need no clearing). Lock and Count start at 0 (Lock ends at 0, Count at 1).
//
// layer_norm_bwd_dwdb: one program per BLOCK_N columns sums the
// GROUP_SIZE_M rows of DW and DB in BLOCK_M x BLOCK_N tiles (f32), and
// stores FINAL_DW and FINAL_DB (T). Rows of DW/DB that no row of x reached
// must be zero (M < GROUP_SIZE_M).
//
//   llkc examples/triton/05_layer_norm_bwd.mlir -D T=f16 -D BLOCK=4096 -D DIV=16 \
//        -D GROUP_SIZE_M=128 -D BLOCK_M=32 -D BLOCK_N=128 --num-warps 8
//   grids: M programs (dx), cdiv(N, BLOCK_N) (dwdb). DIV: a power of two
//   dividing N and the row stride (16 as Triton specializes them; 1 for any).
func.func @layer_norm_bwd_dx_fused(%DX: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %DY: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %DW: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %DB: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %X: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %W: !tile.ptr<${T}> {tile.divisibility = 16},
                                   %Mean: !tile.ptr<f32>, %Rstd: !tile.ptr<f32>,
                                   %Lock: !tile.ptr<i32>,
                                   %stride: i32 {tile.divisibility = ${DIV}},
                                   %N: i32 {tile.divisibility = ${DIV}}) {
  %row = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %Ns = tile.splat %N : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %Ns : tensor<${BLOCK}xi32>
  %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>
  %zero_t = arith.constant dense<0.0> : tensor<${BLOCK}x${T}>
  %offset = arith.muli %row, %stride : i32
  %x_row = tile.addptr %X, %offset : !tile.ptr<${T}>, i32
  %dy_row = tile.addptr %DY, %offset : !tile.ptr<${T}>, i32
  %dx_row = tile.addptr %DX, %offset : !tile.ptr<${T}>, i32
  // This row's lock and its partial sums' row.
  %group = arith.constant ${GROUP_SIZE_M} : i32
  %lock_id = arith.remsi %row, %group : i32
  %lock = tile.addptr %Lock, %lock_id : !tile.ptr<i32>, i32
  %count = tile.addptr %lock, %group : !tile.ptr<i32>, i32
  %partial_offset = arith.muli %lock_id, %N : i32
  %dw_row = tile.addptr %DW, %partial_offset : !tile.ptr<${T}>, i32
  %db_row = tile.addptr %DB, %partial_offset : !tile.ptr<${T}>, i32

  %x_rows = tile.splat %x_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %x_t = tile.load %x_ptrs mask %mask other %zero_t : tensor<${BLOCK}x!tile.ptr<${T}>>
  %x = tile.cast %x_t : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
  %dy_rows = tile.splat %dy_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %dy_ptrs = tile.addptr %dy_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %dy_t = tile.load %dy_ptrs mask %mask other %zero_t : tensor<${BLOCK}x!tile.ptr<${T}>>
  %dy = tile.cast %dy_t : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
  %w_rows = tile.splat %W : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %w_ptrs = tile.addptr %w_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %w_t = tile.load %w_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %w = tile.cast %w_t : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
  %mean_ptr = tile.addptr %Mean, %row : !tile.ptr<f32>, i32
  %mean = tile.load %mean_ptr : !tile.ptr<f32>
  %rstd_ptr = tile.addptr %Rstd, %row : !tile.ptr<f32>, i32
  %rstd = tile.load %rstd_ptr : !tile.ptr<f32>

  // dx.
  %means = tile.splat %mean : f32 -> tensor<${BLOCK}xf32>
  %rstds = tile.splat %rstd : f32 -> tensor<${BLOCK}xf32>
  %centred = arith.subf %x, %means : tensor<${BLOCK}xf32>
  %x_hat_all = arith.mulf %centred, %rstds : tensor<${BLOCK}xf32>
  %wdy_all = arith.mulf %w, %dy : tensor<${BLOCK}xf32>
  %x_hat = arith.select %mask, %x_hat_all, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>
  %wdy = arith.select %mask, %wdy_all, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>
  %n = arith.sitofp %N : i32 to f32
  %xw = arith.mulf %x_hat, %wdy : tensor<${BLOCK}xf32>
  %xw_sum = tile.reduce sum %xw axis = 0 : tensor<${BLOCK}xf32> -> f32
  %c1 = arith.divf %xw_sum, %n : f32
  %wdy_sum = tile.reduce sum %wdy axis = 0 : tensor<${BLOCK}xf32> -> f32
  %c2 = arith.divf %wdy_sum, %n : f32
  %c1s = tile.splat %c1 : f32 -> tensor<${BLOCK}xf32>
  %c2s = tile.splat %c2 : f32 -> tensor<${BLOCK}xf32>
  %xc1 = arith.mulf %x_hat, %c1s : tensor<${BLOCK}xf32>
  %xc1c2 = arith.addf %xc1, %c2s : tensor<${BLOCK}xf32>
  %diff = arith.subf %wdy, %xc1c2 : tensor<${BLOCK}xf32>
  %dx = arith.mulf %diff, %rstds : tensor<${BLOCK}xf32>
  %dx_t = tile.cast %dx : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
  %dx_rows = tile.splat %dx_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %dx_ptrs = tile.addptr %dx_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  tile.store %dx_t, %dx_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>

  // This row's share of dw and db, added under the lock. The lock's
  // acquire orders the loads of the sums after it; its release, a scalar
  // atomic, comes after every thread's stores (so Triton's debug_barrier
  // before it is implied).
  %dyx = arith.mulf %dy, %x_hat : tensor<${BLOCK}xf32>
  %partial_dw = tile.cast %dyx : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
  %partial_db = tile.cast %dy : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  scf.while : () -> () {
    %old = tile.atomic_cas %lock, %i0, %i1 : !tile.ptr<i32>
    %held = arith.cmpi eq, %old, %i1 : i32
    scf.condition(%held)
  } do {
    scf.yield
  }
  %dw_rows = tile.splat %dw_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %dw_ptrs = tile.addptr %dw_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %db_rows = tile.splat %db_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %db_ptrs = tile.addptr %db_rows, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
  %count_now = tile.load %count cache = cg : !tile.ptr<i32>
  %first = arith.cmpi eq, %count_now, %i0 : i32
  %dw_sum, %db_sum = scf.if %first -> (tensor<${BLOCK}x${T}>, tensor<${BLOCK}x${T}>) {
    %was = tile.atomic_rmw xchg %count, %i1 : !tile.ptr<i32>
    scf.yield %partial_dw, %partial_db : tensor<${BLOCK}x${T}>, tensor<${BLOCK}x${T}>
  } else {
    %dw_old = tile.load %dw_ptrs mask %mask cache = cg : tensor<${BLOCK}x!tile.ptr<${T}>>
    %db_old = tile.load %db_ptrs mask %mask cache = cg : tensor<${BLOCK}x!tile.ptr<${T}>>
    %dw_new = arith.addf %partial_dw, %dw_old : tensor<${BLOCK}x${T}>
    %db_new = arith.addf %partial_db, %db_old : tensor<${BLOCK}x${T}>
    scf.yield %dw_new, %db_new : tensor<${BLOCK}x${T}>, tensor<${BLOCK}x${T}>
  }
  tile.store %dw_sum, %dw_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  tile.store %db_sum, %db_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %released = tile.atomic_rmw xchg %lock, %i0 : !tile.ptr<i32>
  return
}

func.func @layer_norm_bwd_dwdb(%DW: !tile.ptr<${T}> {tile.divisibility = 16},
                               %DB: !tile.ptr<${T}> {tile.divisibility = 16},
                               %FINAL_DW: !tile.ptr<${T}> {tile.divisibility = 16},
                               %FINAL_DB: !tile.ptr<${T}> {tile.divisibility = 16},
                               %M: i32, %N: i32 {tile.divisibility = ${DIV}}) {
  %pid = tile.program_id x
  %bn = arith.constant ${BLOCK_N} : i32
  %col0 = arith.muli %pid, %bn : i32
  %col0s = tile.splat %col0 : i32 -> tensor<${BLOCK_N}xi32>
  %col_range = tile.make_range 0 to ${BLOCK_N} : tensor<${BLOCK_N}xi32>
  %cols = arith.addi %col0s, %col_range : tensor<${BLOCK_N}xi32>
  %cols_2d = tile.expand_dims %cols axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
  %cols_b = tile.broadcast %cols_2d : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %Ns = tile.splat %N : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %col_ok = arith.cmpi slt, %cols_b, %Ns : tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %row_range = tile.make_range 0 to ${BLOCK_M} : tensor<${BLOCK_M}xi32>
  %Ms = tile.splat %M : i32 -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
  %Nr = tile.splat %N : i32 -> tensor<${BLOCK_M}x1xi32>
  %dw_base = tile.splat %DW : !tile.ptr<${T}> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
  %db_base = tile.splat %DB : !tile.ptr<${T}> -> tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
  %zero = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_t = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}x${T}>
  %c0 = arith.constant 0 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %dw, %db = scf.for %i = %c0 to %M step %bm iter_args(%dw_acc = %zero, %db_acc = %zero)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    %is = tile.splat %i : i32 -> tensor<${BLOCK_M}xi32>
    %rows = arith.addi %is, %row_range : tensor<${BLOCK_M}xi32>
    %rows_2d = tile.expand_dims %rows axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
    %rows_b = tile.broadcast %rows_2d : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %row_ok = arith.cmpi slt, %rows_b, %Ms : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %mask = arith.andi %row_ok, %col_ok : tensor<${BLOCK_M}x${BLOCK_N}xi1>
    %row_offs = arith.muli %rows_2d, %Nr : tensor<${BLOCK_M}x1xi32>
    %row_offs_b = tile.broadcast %row_offs : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %offs = arith.addi %row_offs_b, %cols_b : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %dw_ptrs = tile.addptr %dw_base, %offs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %db_ptrs = tile.addptr %db_base, %offs : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %dw_t = tile.load %dw_ptrs mask %mask other %zero_t : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
    %db_t = tile.load %db_ptrs mask %mask other %zero_t : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
    %dw_f = tile.cast %dw_t : tensor<${BLOCK_M}x${BLOCK_N}x${T}> to tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %db_f = tile.cast %db_t : tensor<${BLOCK_M}x${BLOCK_N}x${T}> to tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %dw_next = arith.addf %dw_acc, %dw_f : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %db_next = arith.addf %db_acc, %db_f : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    scf.yield %dw_next, %db_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
  }
  %sum_dw = tile.reduce sum %dw axis = 0 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_N}xf32>
  %sum_db = tile.reduce sum %db axis = 0 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_N}xf32>
  %sum_dw_t = tile.cast %sum_dw : tensor<${BLOCK_N}xf32> to tensor<${BLOCK_N}x${T}>
  %sum_db_t = tile.cast %sum_db : tensor<${BLOCK_N}xf32> to tensor<${BLOCK_N}x${T}>
  %Nc = tile.splat %N : i32 -> tensor<${BLOCK_N}xi32>
  %out_mask = arith.cmpi slt, %cols, %Nc : tensor<${BLOCK_N}xi32>
  %fdw_base = tile.splat %FINAL_DW : !tile.ptr<${T}> -> tensor<${BLOCK_N}x!tile.ptr<${T}>>
  %fdw_ptrs = tile.addptr %fdw_base, %cols : tensor<${BLOCK_N}x!tile.ptr<${T}>>, tensor<${BLOCK_N}xi32>
  tile.store %sum_dw_t, %fdw_ptrs mask %out_mask : tensor<${BLOCK_N}x!tile.ptr<${T}>>
  %fdb_base = tile.splat %FINAL_DB : !tile.ptr<${T}> -> tensor<${BLOCK_N}x!tile.ptr<${T}>>
  %fdb_ptrs = tile.addptr %fdb_base, %cols : tensor<${BLOCK_N}x!tile.ptr<${T}>>, tensor<${BLOCK_N}xi32>
  tile.store %sum_db_t, %fdb_ptrs mask %out_mask : tensor<${BLOCK_N}x!tile.ptr<${T}>>
  return
}
