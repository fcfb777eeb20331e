// fp8 conversions, element by element: q = x (f32) to ${T} (f8E4M3FN or
// f8E5M2; to nearest even, saturating), and q back to f32 (w) and f16 (h),
// exactly. The checks compare every bit with the interpreter's, on sm_90
// (PTX's paired cvt) and sm_80 (the integer-op conversion).
//
//   llkc examples/fp8_cast.mlir -D T=f8E4M3FN -D BLOCK=1024
//   grid = n / BLOCK programs.
func.func @fp8_cast(%x: !tile.ptr<f32> {tile.divisibility = 16}, %q: !tile.ptr<${T}> {tile.divisibility = 16},
                    %w: !tile.ptr<f32> {tile.divisibility = 16}, %h: !tile.ptr<f16> {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK}
  %offs = tile.add %start, %range : i32, tensor<${BLOCK}xi32>
  %x_ptrs = tile.addptr %x, %offs : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  %xv = tile.load %x_ptrs : tensor<${BLOCK}x!tile.ptr<f32>>
  %qv = tile.cast %xv : tensor<${BLOCK}xf32> to tensor<${BLOCK}x${T}>
  %q_ptrs = tile.addptr %q, %offs : !tile.ptr<${T}>, tensor<${BLOCK}xi32>
  tile.store %qv, %q_ptrs : tensor<${BLOCK}x!tile.ptr<${T}>>
  %wv = tile.cast %qv : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf32>
  %w_ptrs = tile.addptr %w, %offs : !tile.ptr<f32>, tensor<${BLOCK}xi32>
  tile.store %wv, %w_ptrs : tensor<${BLOCK}x!tile.ptr<f32>>
  %hv = tile.cast %qv : tensor<${BLOCK}x${T}> to tensor<${BLOCK}xf16>
  %h_ptrs = tile.addptr %h, %offs : !tile.ptr<f16>, tensor<${BLOCK}xi32>
  tile.store %hv, %h_ptrs : tensor<${BLOCK}x!tile.ptr<f16>>
  return
}
