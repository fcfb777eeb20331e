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
func.func @layer_norm_bwd_dx_fused(%DX: !tile.ptr<${T}> {tile.divisibility = 16}, %DY: !tile.ptr<${T}> {tile.divisibility = 16},
    %DW: !tile.ptr<${T}> {tile.divisibility = 16}, %DB: !tile.ptr<${T}> {tile.divisibility = 16},
    %X: !tile.ptr<${T}> {tile.divisibility = 16}, %W: !tile.ptr<${T}> {tile.divisibility = 16}, %Mean: !tile.ptr<f32>,
    %Rstd: !tile.ptr<f32>, %Lock: !tile.ptr<i32>, %stride: i32 {tile.divisibility = ${DIV}}, %N: i32 {tile.divisibility = ${DIV}}) {
  %row = tile.program_id x
  %cols = tile.make_range 0 to ${BLOCK}
  %mask = tile.cmp lt %cols, %N : tensor<${BLOCK}xi32>, i32
  %zero = arith.constant 0.0 : f32
  %offset = arith.muli %row, %stride : i32
  %row_offs = tile.add %offset, %cols : i32, tensor<${BLOCK}xi32>
  // This row's lock and its partial sums' row.
  %group = arith.constant ${GROUP_SIZE_M} : i32
  %lock_id = arith.remsi %row, %group : i32
  %lock = tile.addptr %Lock, %lock_id : !tile.ptr<i32>, i32
  %count = tile.addptr %lock, %group : !tile.ptr<i32>, i32
  %partial_row = arith.muli %lock_id, %N : i32
  %partial_offs = tile.add %partial_row, %cols : i32, tensor<${BLOCK}xi32>

  // Masked-off lanes are left undefined: x_hat and wdy are zeroed there
  // before they are summed, and nothing else of them is stored.
  %x_ptrs = tile.addptr %X, %row_offs : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  %x = tile.load %x_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %dy_ptrs = tile.addptr %DY, %row_offs : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  %dy_t = tile.load %dy_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %dy = tile.cast %dy_t : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
  %w_ptrs = tile.addptr %W, %cols : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  %w = tile.load %w_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %mean_ptr = tile.addptr %Mean, %row : !tile.ptr<f32>, i32
  %mean = tile.load %mean_ptr : !tile.ptr<f32>
  %rstd_ptr = tile.addptr %Rstd, %row : !tile.ptr<f32>, i32
  %rstd = tile.load %rstd_ptr : !tile.ptr<f32>

  // dx.
  %centred = tile.sub %x, %mean : tensor<${BLOCK}x${T}>, f32
  %x_hat_all = tile.mul %centred, %rstd : tensor<${BLOCK}xf32>, f32
  %wdy_all = tile.mul %w, %dy : tensor<${BLOCK}x${T}>, tensor<${BLOCK}xf32>
  %x_hat = tile.where %mask, %x_hat_all, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>, f32
  %wdy = tile.where %mask, %wdy_all, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>, f32
  %xw = arith.mulf %x_hat, %wdy : tensor<${BLOCK}xf32>
  %xw_sum = tile.reduce sum %xw axis = 0 : tensor<${BLOCK}xf32>
  %c1 = tile.div %xw_sum, %N : f32, i32
  %wdy_sum = tile.reduce sum %wdy axis = 0 : tensor<${BLOCK}xf32>
  %c2 = tile.div %wdy_sum, %N : f32, i32
  %xc1 = tile.mul %x_hat, %c1 : tensor<${BLOCK}xf32>, f32
  %xc1c2 = tile.add %xc1, %c2 : tensor<${BLOCK}xf32>, f32
  %diff = arith.subf %wdy, %xc1c2 : tensor<${BLOCK}xf32>
  %dx = tile.mul %diff, %rstd : tensor<${BLOCK}xf32>, f32
  %dx_t = tile.cast %dx : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
  %dx_ptrs = tile.addptr %DX, %row_offs : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  tile.store %dx_t, %dx_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>

  // This row's share of dw and db, added under the lock. The lock's
  // acquire orders the loads of the sums after it; its release, a scalar
  // atomic, comes after every thread's stores (so Triton's debug_barrier
  // before it is implied).
  %dyx = arith.mulf %dy, %x_hat : tensor<${BLOCK}xf32>
  %partial_dw = tile.cast %dyx : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  scf.while : () -> () {
    %old = tile.atomic_cas %lock, %i0, %i1 : !tile.ptr<i32>
    %held = arith.cmpi eq, %old, %i1 : i32
    scf.condition(%held)
  } do {
    scf.yield
  }
  %dw_ptrs = tile.addptr %DW, %partial_offs : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  %db_ptrs = tile.addptr %DB, %partial_offs : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  %count_now = tile.load %count cache = cg : !tile.ptr<i32>
  %first = arith.cmpi eq, %count_now, %i0 : i32
  %dw_sum, %db_sum = scf.if %first -> (tensor<${BLOCK}x${T}>, tensor<${BLOCK}x${T}>) {
    %was = tile.atomic_rmw xchg %count, %i1 : !tile.ptr<i32>
    scf.yield %partial_dw, %dy_t : tensor<${BLOCK}x${T}>, tensor<${BLOCK}x${T}>
  } else {
    %dw_old = tile.load %dw_ptrs mask %mask cache = cg : tensor<${BLOCK}x!tile.ptr<${T}>>
    %db_old = tile.load %db_ptrs mask %mask cache = cg : tensor<${BLOCK}x!tile.ptr<${T}>>
    %dw_new = arith.addf %partial_dw, %dw_old : tensor<${BLOCK}x${T}>
    %db_new = arith.addf %dy_t, %db_old : tensor<${BLOCK}x${T}>
    scf.yield %dw_new, %db_new : tensor<${BLOCK}x${T}>, tensor<${BLOCK}x${T}>
  }
  tile.store %dw_sum, %dw_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  tile.store %db_sum, %db_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %released = tile.atomic_rmw xchg %lock, %i0 : !tile.ptr<i32>
  return
}

func.func @layer_norm_bwd_dwdb(%DW: !tile.ptr<${T}> {tile.divisibility = 16}, %DB: !tile.ptr<${T}> {tile.divisibility = 16},
    %FINAL_DW: !tile.ptr<${T}> {tile.divisibility = 16}, %FINAL_DB: !tile.ptr<${T}> {tile.divisibility = 16}, %M: i32, %N: i32 {tile.divisibility = ${DIV}}) {
  %pid = tile.program_id x
  %bn = arith.constant ${BLOCK_N} : i32
  %col0 = arith.muli %pid, %bn : i32
  %col_range = tile.make_range 0 to ${BLOCK_N}
  %cols = tile.add %col0, %col_range : i32, tensor<${BLOCK_N}xi32>
  %col_ok = tile.cmp lt %cols, %N : tensor<${BLOCK_N}xi32>, i32
  %row_range = tile.make_range 0 to ${BLOCK_M}
  %zero = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %zero_t = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}x${T}>
  %c0 = arith.constant 0 : i32
  %bm = arith.constant ${BLOCK_M} : i32
  %dw, %db = scf.for %i = %c0 to %M step %bm iter_args(%dw_acc = %zero, %db_acc = %zero)
      -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_N}xf32>) : i32 {
    // rows[:, None] * N + cols[None, :], masked to (rows < M) & (cols < N).
    %rows = tile.add %i, %row_range : i32, tensor<${BLOCK_M}xi32>
    %rows_2d = tile.expand_dims %rows axis = 1 : tensor<${BLOCK_M}xi32>
    %row_ok = tile.cmp lt %rows_2d, %M : tensor<${BLOCK_M}x1xi32>, i32
    %mask = tile.and %row_ok, %col_ok : tensor<${BLOCK_M}x1xi1>, tensor<${BLOCK_N}xi1>
    %row_offs = tile.mul %rows_2d, %N : tensor<${BLOCK_M}x1xi32>, i32
    %offs = tile.add %row_offs, %cols : tensor<${BLOCK_M}x1xi32>, tensor<${BLOCK_N}xi32>
    %dw_ptrs = tile.addptr %DW, %offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %db_ptrs = tile.addptr %DB, %offs : !tile.ptr<${T}>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %dw_t = tile.load %dw_ptrs mask %mask other %zero_t : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
    %db_t = tile.load %db_ptrs mask %mask other %zero_t : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<${T}>>
    %dw_next = tile.add %dw_acc, %dw_t : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_N}x${T}>
    %db_next = tile.add %db_acc, %db_t : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_N}x${T}>
    scf.yield %dw_next, %db_next : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
  }
  %sum_dw = tile.reduce sum %dw axis = 0 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %sum_db = tile.reduce sum %db axis = 0 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
  %sum_dw_t = tile.cast %sum_dw : tensor<${BLOCK_N}xf32> to tensor<${BLOCK_N}x${T}>
  %sum_db_t = tile.cast %sum_db : tensor<${BLOCK_N}xf32> to tensor<${BLOCK_N}x${T}>
  %fdw_ptrs = tile.addptr %FINAL_DW, %cols : !tile.ptr<${T}>, tensor<${BLOCK_N}xi32>
  tile.store %sum_dw_t, %fdw_ptrs mask %col_ok : tensor<${BLOCK_N}x!tile.ptr<${T}>>
  %fdb_ptrs = tile.addptr %FINAL_DB, %cols : !tile.ptr<${T}>, tensor<${BLOCK_N}xi32>
  tile.store %sum_db_t, %fdb_ptrs mask %col_ok : tensor<${BLOCK_N}x!tile.ptr<${T}>>
  return
}
