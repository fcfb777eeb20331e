// Triton tutorial 01, vector addition (python/tutorials/01-vector-add.py):
// out[i] = x[i] + y[i] for i < n, BLOCK elements per program, in the short
// forms (a scalar pointer plus a tile of offsets, a tile compared with a
// scalar); examples/vector_add.mlir is the same kernel written out, and
// compiles to the same PTX (test/llkc/short-forms-ptx.test).
//
//   llkc examples/triton/01_vector_add.mlir -D BLOCK=1024 -D DIV=16 --num-warps 4
//   grid = cdiv(n, BLOCK) programs; DIV: a power of two dividing n (16, as
//   Triton specializes it; 1 for any n).
func.func @add_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16}, %y: !tile.ptr<f32> {tile.divisibility = 16},
                      %out: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32 {tile.divisibility = ${DIV}}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK}
  %offsets = tile.add %start, %range : i32, tensor<${BLOCK}xi32>
  %mask = tile.cmp lt %offsets, %n : tensor<${BLOCK}xi32>, i32
  %x_ptrs = tile.addptr %x, %offsets : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y, %offsets : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  %yv = tile.load %y_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<${BLOCK}xf32>
  %out_ptrs = tile.addptr %out, %offsets : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  tile.store %sum, %out_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
