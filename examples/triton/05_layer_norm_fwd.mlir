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
func.func @layer_norm_fwd_fused(%X: !tile.ptr<${T}> {tile.divisibility = 16}, %Y: !tile.ptr<${T}> {tile.divisibility = 16},
    %W: !tile.ptr<${T}> {tile.divisibility = 16}, %B: !tile.ptr<${T}> {tile.divisibility = 16}, %Mean: !tile.ptr<f32>,
    %Rstd: !tile.ptr<f32>, %stride: i32 {tile.divisibility = ${DIV}}, %N: i32 {tile.divisibility = ${DIV}}, %eps: f32) {
  %row = tile.program_id x
  %offset = arith.muli %row, %stride : i32
  %x_row = tile.addptr %X, %offset : !tile.ptr<${T}>, i32
  %y_row = tile.addptr %Y, %offset : !tile.ptr<${T}>, i32
  %range = tile.make_range 0 to ${BLOCK}
  %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>
  %zero_t = arith.constant dense<0.0> : tensor<${BLOCK}x${T}>
  %c0 = arith.constant 0 : i32
  %block = arith.constant ${BLOCK} : i32

  // Mean.
  %sums = scf.for %off = %c0 to %N step %block iter_args(%acc = %zero) -> (tensor<${BLOCK}xf32>) : i32 {
    %cols = tile.add %off, %range : i32, tensor<${BLOCK}xi32>
    %mask = tile.cmp lt %cols, %N : tensor<${BLOCK}xi32>, i32
    %ptrs = tile.addptr %x_row, %cols : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
    %a = tile.load %ptrs mask %mask other %zero_t : tensor<${BLOCK}x!tile.ptr<${T}>>
    %next = tile.add %acc, %a : tensor<${BLOCK}xf32>, tensor<${BLOCK}x${T}>
    scf.yield %next : tensor<${BLOCK}xf32>
  }
  %sum = tile.reduce sum %sums axis = 0 : tensor<${BLOCK}xf32>
  %mean = tile.div %sum, %N : f32, i32

  // Variance.
  %squares = scf.for %off = %c0 to %N step %block iter_args(%acc = %zero) -> (tensor<${BLOCK}xf32>) : i32 {
    %cols = tile.add %off, %range : i32, tensor<${BLOCK}xi32>
    %mask = tile.cmp lt %cols, %N : tensor<${BLOCK}xi32>, i32
    %ptrs = tile.addptr %x_row, %cols : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
    %a = tile.load %ptrs mask %mask other %zero_t : tensor<${BLOCK}x!tile.ptr<${T}>>
    %d = tile.sub %a, %mean : tensor<${BLOCK}x${T}>, f32
    %dm = arith.select %mask, %d, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>
    %next = math.fma %dm, %dm, %acc : tensor<${BLOCK}xf32>
    scf.yield %next : tensor<${BLOCK}xf32>
  }
  %m2 = tile.reduce sum %squares axis = 0 : tensor<${BLOCK}xf32>
  %var = tile.div %m2, %N : f32, i32
  %var_eps = arith.addf %var, %eps : f32
  %rstd = math.rsqrt %var_eps : f32
  %mean_ptr = tile.addptr %Mean, %row : !tile.ptr<f32>, i32
  tile.store %mean, %mean_ptr : !tile.ptr<f32>
  %rstd_ptr = tile.addptr %Rstd, %row : !tile.ptr<f32>, i32
  tile.store %rstd, %rstd_ptr : !tile.ptr<f32>

  // Normalize and apply the weight and bias.
  scf.for %off = %c0 to %N step %block : i32 {
    %cols = tile.add %off, %range : i32, tensor<${BLOCK}xi32>
    %mask = tile.cmp lt %cols, %N : tensor<${BLOCK}xi32>, i32
    %w_ptrs = tile.addptr %W, %cols : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
    %w = tile.load %w_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
    %b_ptrs = tile.addptr %B, %cols : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
    %b = tile.load %b_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
    %x_ptrs = tile.addptr %x_row, %cols : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
    %a = tile.load %x_ptrs mask %mask other %zero_t : tensor<${BLOCK}x!tile.ptr<${T}>>
    %centred = tile.sub %a, %mean : tensor<${BLOCK}x${T}>, f32
    %x_hat = tile.mul %centred, %rstd : tensor<${BLOCK}xf32>, f32
    %scaled = tile.mul %x_hat, %w : tensor<${BLOCK}xf32>, tensor<${BLOCK}x${T}>
    %yf = tile.add %scaled, %b : tensor<${BLOCK}xf32>, tensor<${BLOCK}x${T}>
    %y = tile.cast %yf : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
    %y_ptrs = tile.addptr %y_row, %cols : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
    tile.store %y, %y_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  }
  return
}
