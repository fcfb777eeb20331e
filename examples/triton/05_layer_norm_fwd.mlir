// Triton tutorial 05, layer normalization, forward
// (python/tutorials/05-layer-norm.py, _layer_norm_fwd_fused): one program
// per row of N values, in chunks of BLOCK (one chunk when BLOCK >= N):
//
//   mean = sum_c x[c] / N,  var = sum_c (x[c] - mean)^2 / N,
//   rstd = 1 / sqrt(var + eps),  y[c] = (x[c] - mean) * rstd * w[c] + b[c]
//
// x, y, w, b of type T, statistics in f32 (and saved, f32, for the backward
// pass: 05_layer_norm_bwd.mlir).
//
//   llkc examples/triton/05_layer_norm_fwd.mlir -D T=f16 -D BLOCK=4096 -D DIV=16 --num-warps 8
//   grid = M programs (rows); DIV: a power of two dividing N and the row
//   stride (16, as Triton specializes them; 1 for any N).
func.func @layer_norm_fwd_fused(%X: !tile.ptr<${T}> {tile.divisibility = 16},
                                %Y: !tile.ptr<${T}> {tile.divisibility = 16},
                                %W: !tile.ptr<${T}> {tile.divisibility = 16},
                                %B: !tile.ptr<${T}> {tile.divisibility = 16},
                                %Mean: !tile.ptr<f32>, %Rstd: !tile.ptr<f32>,
                                %stride: i32 {tile.divisibility = ${DIV}},
                                %N: i32 {tile.divisibility = ${DIV}}, %eps: f32) {
  %row = tile.program_id x
  %offset = arith.muli %row, %stride : i32
  %x_row = tile.addptr %X, %offset : !tile.ptr<${T}>, i32
  %y_row = tile.addptr %Y, %offset : !tile.ptr<${T}>, i32
  %xs = tile.splat %x_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %ys = tile.splat %y_row : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %ws = tile.splat %W : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %bs = tile.splat %B : !tile.ptr<${T}> -> tensor<${BLOCK}x!tile.ptr<${T}>>
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %Ns = tile.splat %N : i32 -> tensor<${BLOCK}xi32>
  %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>
  %zero_t = arith.constant dense<0.0> : tensor<${BLOCK}x${T}>
  %c0 = arith.constant 0 : i32
  %block = arith.constant ${BLOCK} : i32
  %n = arith.sitofp %N : i32 to f32

  // Mean.
  %sums = scf.for %off = %c0 to %N step %block iter_args(%acc = %zero) -> (tensor<${BLOCK}xf32>) : i32 {
    %offs = tile.splat %off : i32 -> tensor<${BLOCK}xi32>
    %cols = arith.addi %offs, %range : tensor<${BLOCK}xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<${BLOCK}xi32>
    %ptrs = tile.addptr %xs, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    %a = tile.load %ptrs mask %mask other %zero_t : tensor<${BLOCK}x!tile.ptr<${T}>>
    %af = tile.cast %a : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
    %next = arith.addf %acc, %af : tensor<${BLOCK}xf32>
    scf.yield %next : tensor<${BLOCK}xf32>
  }
  %sum = tile.reduce sum %sums axis = 0 : tensor<${BLOCK}xf32> -> f32
  %mean = arith.divf %sum, %n : f32
  %means = tile.splat %mean : f32 -> tensor<${BLOCK}xf32>

  // Variance.
  %squares = scf.for %off = %c0 to %N step %block iter_args(%acc = %zero) -> (tensor<${BLOCK}xf32>) : i32 {
    %offs = tile.splat %off : i32 -> tensor<${BLOCK}xi32>
    %cols = arith.addi %offs, %range : tensor<${BLOCK}xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<${BLOCK}xi32>
    %ptrs = tile.addptr %xs, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    %a = tile.load %ptrs mask %mask other %zero_t : tensor<${BLOCK}x!tile.ptr<${T}>>
    %af = tile.cast %a : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
    %d = arith.subf %af, %means : tensor<${BLOCK}xf32>
    %dm = arith.select %mask, %d, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>
    %d2 = arith.mulf %dm, %dm : tensor<${BLOCK}xf32>
    %next = arith.addf %acc, %d2 : tensor<${BLOCK}xf32>
    scf.yield %next : tensor<${BLOCK}xf32>
  }
  %m2 = tile.reduce sum %squares axis = 0 : tensor<${BLOCK}xf32> -> f32
  %var = arith.divf %m2, %n : f32
  %var_eps = arith.addf %var, %eps : f32
  %std = math.sqrt %var_eps : f32
  %one = arith.constant 1.0 : f32
  %rstd = arith.divf %one, %std : f32
  %mean_ptr = tile.addptr %Mean, %row : !tile.ptr<f32>, i32
  tile.store %mean, %mean_ptr : !tile.ptr<f32>
  %rstd_ptr = tile.addptr %Rstd, %row : !tile.ptr<f32>, i32
  tile.store %rstd, %rstd_ptr : !tile.ptr<f32>
  %rstds = tile.splat %rstd : f32 -> tensor<${BLOCK}xf32>

  // Normalize and apply the weight and bias.
  scf.for %off = %c0 to %N step %block : i32 {
    %offs = tile.splat %off : i32 -> tensor<${BLOCK}xi32>
    %cols = arith.addi %offs, %range : tensor<${BLOCK}xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<${BLOCK}xi32>
    %w_ptrs = tile.addptr %ws, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    %w = tile.load %w_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
    %b_ptrs = tile.addptr %bs, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    %b = tile.load %b_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
    %x_ptrs = tile.addptr %xs, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    %a = tile.load %x_ptrs mask %mask other %zero_t : tensor<${BLOCK}x!tile.ptr<${T}>>
    %x = tile.cast %a : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
    %centred = arith.subf %x, %means : tensor<${BLOCK}xf32>
    %x_hat = arith.mulf %centred, %rstds : tensor<${BLOCK}xf32>
    %wf = tile.cast %w : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
    %bf = tile.cast %b : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
    %scaled = arith.mulf %x_hat, %wf : tensor<${BLOCK}xf32>
    %yf = arith.addf %scaled, %bf : tensor<${BLOCK}xf32>
    %y = tile.cast %yf : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
    %y_ptrs = tile.addptr %ys, %cols : tensor<${BLOCK}x!tile.ptr<${T}>>, tensor<${BLOCK}xi32>
    tile.store %y, %y_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  }
  return
}
