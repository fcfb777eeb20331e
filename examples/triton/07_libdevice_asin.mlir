// Triton tutorial 07, libdevice math (python/tutorials/07-extern-functions.py):
// y = asin(x), elementwise. Triton calls libdevice.asin; llk's math.asin
// lowers to the same libdevice function (__nv_asinf for f32, __nv_asin for
// f64), linked from libdevice.10.bc.
//
//   llkc examples/triton/07_libdevice_asin.mlir -D T=f32 -D BLOCK=1024 -D DIV=16 --num-warps 4
//   grid = cdiv(n, BLOCK) programs; DIV: a power of two dividing n (16, as
//   Triton specializes it; 1 for any n); T = f32 or f64.
func.func @asin_kernel(%x: !tile.ptr<${T}> {tile.divisibility = 16}, %y: !tile.ptr<${T}> {tile.divisibility = 16},
                       %n: i32 {tile.divisibility = ${DIV}}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK}
  %offsets = tile.add %start, %range : i32, tensor<${BLOCK}xi32>
  %mask = tile.cmp lt %offsets, %n : tensor<${BLOCK}xi32>, i32
  %x_ptrs = tile.addptr %x, %offsets : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  %yv = math.asin %xv : tensor<${BLOCK}x${T}>
  %y_ptrs = tile.addptr %y, %offsets : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  tile.store %yv, %y_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<${T}>>
  return
}
