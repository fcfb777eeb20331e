// top-k of the logits, the decode step's sampling on the device, in two
// passes (llama.cpp samples on the host; here greedy decoding never leaves
// the device):
//
// topk_partial: program b takes logits [b BLOCK, (b + 1) BLOCK) ∩ [0, n) and
//   finds their K largest by K rounds of argmax (tile.reduce: the first
//   index of the maximum), each round masking the one it found:
//     vals[b K + i], ids[b K + i] = the i-th largest of the block and its index
//   Ties go to the smaller index. A block with fewer than K logits repeats
//   its first index with value -inf for the missing ones.
//   grid = ceil(n / BLOCK); constants BLOCK (1024), K; num_warps 4
//   args: vals (f32), ids (i32), logits (f32), n
//
// topk_final: one program merges the n_cand = n_blocks K candidates the same
//   way (MAX_CAND >= n_cand: a power of two), so the order is by value, then
//   by index: out_vals/out_ids[0..K) are the top K of all n logits in that
//   order. Then it ends the decode step: the greedy token (out_ids[0]) goes to
//   token[0], the step's history (history[pos] = token, if 0 <= pos <
//   history_len) and the position advances: pos_out[0] = pos[0] + 1 (pos and
//   pos_out may be one buffer: it is read before it is written).
//   grid = 1; constants K, MAX_CAND; num_warps 4
//   args: out_vals (f32), out_ids (i32), vals, ids (topk_partial's), n_cand,
//         token (i32), history (i32), history_len, pos, pos_out (i32)
//
// Sampling with a temperature, top-k and top-p goes on from the K candidates
// on the host (llk/llama/Sampling.h), until the scan and sort ops exist.
func.func @topk_partial(%vals: !tile.ptr<f32>,
                        %ids: !tile.ptr<i32>,
                        %logits: !tile.ptr<f32> {tile.divisibility = 16},
                        %n: i32) {
  tile.launch_dependents
  tile.grid_dependency_wait
  %b = tile.program_id x
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c_k = arith.constant ${K} : i32
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %b, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %cols = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %ns : tensor<${BLOCK}xi32>
  %neg_infs = arith.constant dense<0xFF800000> : tensor<${BLOCK}xf32>
  %ls = tile.splat %logits : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %lp = tile.addptr %ls, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %v0 = tile.load %lp mask %mask other %neg_infs : tensor<${BLOCK}x!tile.ptr<f32>>

  %out0 = arith.muli %b, %c_k : i32
  %v_end = scf.for %i = %c0 to %c_k step %c1 iter_args(%v = %v0) -> (tensor<${BLOCK}xf32>) : i32 {
    %m = tile.reduce max %v axis = 0 : tensor<${BLOCK}xf32> -> f32
    %j = tile.reduce argmax %v axis = 0 : tensor<${BLOCK}xf32> -> i32
    %at = arith.addi %out0, %i : i32
    %vp = tile.addptr %vals, %at : !tile.ptr<f32>, i32
    tile.store %m, %vp : !tile.ptr<f32>
    %id = arith.addi %start, %j : i32
    %ip = tile.addptr %ids, %at : !tile.ptr<i32>, i32
    tile.store %id, %ip : !tile.ptr<i32>
    %js = tile.splat %j : i32 -> tensor<${BLOCK}xi32>
    %found = arith.cmpi eq, %range, %js : tensor<${BLOCK}xi32>
    %v_next = arith.select %found, %neg_infs, %v : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>
    scf.yield %v_next : tensor<${BLOCK}xf32>
  }
  return
}

func.func @topk_final(%out_vals: !tile.ptr<f32>,
                      %out_ids: !tile.ptr<i32>,
                      %vals: !tile.ptr<f32>,
                      %ids: !tile.ptr<i32>,
                      %n_cand: i32,
                      %token: !tile.ptr<i32>,
                      %history: !tile.ptr<i32>,
                      %history_len: i32,
                      %pos_ptr: !tile.ptr<i32>,
                      %pos_out: !tile.ptr<i32>) {
  tile.launch_dependents
  tile.grid_dependency_wait
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c_k = arith.constant ${K} : i32
  %range = tile.make_range 0 to ${MAX_CAND} : tensor<${MAX_CAND}xi32>
  %ns = tile.splat %n_cand : i32 -> tensor<${MAX_CAND}xi32>
  %mask = arith.cmpi slt, %range, %ns : tensor<${MAX_CAND}xi32>
  %neg_infs = arith.constant dense<0xFF800000> : tensor<${MAX_CAND}xf32>
  %zeros = arith.constant dense<0> : tensor<${MAX_CAND}xi32>
  %vs = tile.splat %vals : !tile.ptr<f32> -> tensor<${MAX_CAND}x!tile.ptr<f32>>
  %vp = tile.addptr %vs, %range : tensor<${MAX_CAND}x!tile.ptr<f32>>, tensor<${MAX_CAND}xi32>
  %v0 = tile.load %vp mask %mask other %neg_infs : tensor<${MAX_CAND}x!tile.ptr<f32>>
  %is = tile.splat %ids : !tile.ptr<i32> -> tensor<${MAX_CAND}x!tile.ptr<i32>>
  %ip = tile.addptr %is, %range : tensor<${MAX_CAND}x!tile.ptr<i32>>, tensor<${MAX_CAND}xi32>
  %cand_ids = tile.load %ip mask %mask other %zeros : tensor<${MAX_CAND}x!tile.ptr<i32>>

  // The candidate at index j of the tile: its id, picked by a masked sum.
  %first_j = tile.reduce argmax %v0 axis = 0 : tensor<${MAX_CAND}xf32> -> i32
  %first_js = tile.splat %first_j : i32 -> tensor<${MAX_CAND}xi32>
  %first_at = arith.cmpi eq, %range, %first_js : tensor<${MAX_CAND}xi32>
  %first_only = arith.select %first_at, %cand_ids, %zeros : tensor<${MAX_CAND}xi1>, tensor<${MAX_CAND}xi32>
  %greedy = tile.reduce sum %first_only axis = 0 : tensor<${MAX_CAND}xi32> -> i32

  %v_end = scf.for %i = %c0 to %c_k step %c1 iter_args(%v = %v0) -> (tensor<${MAX_CAND}xf32>) : i32 {
    %m = tile.reduce max %v axis = 0 : tensor<${MAX_CAND}xf32> -> f32
    %j = tile.reduce argmax %v axis = 0 : tensor<${MAX_CAND}xf32> -> i32
    %js = tile.splat %j : i32 -> tensor<${MAX_CAND}xi32>
    %found = arith.cmpi eq, %range, %js : tensor<${MAX_CAND}xi32>
    %id_only = arith.select %found, %cand_ids, %zeros : tensor<${MAX_CAND}xi1>, tensor<${MAX_CAND}xi32>
    %id = tile.reduce sum %id_only axis = 0 : tensor<${MAX_CAND}xi32> -> i32
    %ovp = tile.addptr %out_vals, %i : !tile.ptr<f32>, i32
    tile.store %m, %ovp : !tile.ptr<f32>
    %oip = tile.addptr %out_ids, %i : !tile.ptr<i32>, i32
    tile.store %id, %oip : !tile.ptr<i32>
    %v_next = arith.select %found, %neg_infs, %v : tensor<${MAX_CAND}xi1>, tensor<${MAX_CAND}xf32>
    scf.yield %v_next : tensor<${MAX_CAND}xf32>
  }

  // The end of the step: the greedy token, its place in the history, the
  // next position.
  tile.store %greedy, %token : !tile.ptr<i32>
  %pos = tile.load %pos_ptr : !tile.ptr<i32>
  %in_history = arith.cmpi ult, %pos, %history_len : i32
  scf.if %in_history {
    %hp = tile.addptr %history, %pos : !tile.ptr<i32>, i32
    tile.store %greedy, %hp : !tile.ptr<i32>
  }
  %next = arith.addi %pos, %c1 : i32
  tile.store %next, %pos_out : !tile.ptr<i32>
  return
}
