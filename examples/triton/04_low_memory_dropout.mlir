// Triton tutorial 04, low-memory dropout (python/tutorials/04-low-memory-dropout.py):
// the seeded dropout, whose mask is never stored: each element's keep bit is
// recomputed from the seed and its offset (tile.rand, Philox 4x32-10, bit
// for bit Triton's tl.rand), so the backward pass regenerates it.
//
//   out[i] = rand(seed, i) > p ? x[i] * (1 / (1 - p)) : 0
//
//   llkc examples/triton/04_low_memory_dropout.mlir -D BLOCK=1024 -D DIV=16 --num-warps 4
//   grid = cdiv(n, BLOCK) programs; DIV: a power of two dividing n (16, as
//   Triton specializes it; 1 for any n).
func.func @seeded_dropout(%x: !tile.ptr<f32> {tile.divisibility = 16}, %out: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32 {tile.divisibility = ${DIV}}, %p: f32, %seed: i32) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK}
  %offsets = tile.add %start, %range : i32, tensor<${BLOCK}xi32>
  %mask = tile.cmp lt %offsets, %n : tensor<${BLOCK}xi32>, i32
  %x_ptrs = tile.addptr %x, %offsets : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %random = tile.rand %seed, %offsets : i32, tensor<${BLOCK}xi32>
  %keep = tile.cmp gt %random, %p : tensor<${BLOCK}xf32>, f32
  %one = arith.constant 1.0 : f32
  %keep_p = arith.subf %one, %p : f32
  // One division a program, then a multiply an element: an IEEE division
  // of every element costs more than the Philox rounds it follows (Triton
  // divides with div.full.f32, which is not correctly rounded either).
  %scale = arith.divf %one, %keep_p : f32
  %scaled = tile.mul %xv, %scale : tensor<${BLOCK}xf32>, f32
  %zero = arith.constant 0.0 : f32
  %output = tile.where %keep, %scaled, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>, f32
  %out_ptrs = tile.addptr %out, %offsets : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  tile.store %output, %out_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
