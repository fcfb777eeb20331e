// llama.cpp's add_f32 / mul_f32 with broadcast of the smaller operand:
//
//   dst[i] = x[i] OP y[i % ky],  i < kx,  kx = n_rows * ky
//
// (ggml only broadcasts whole repeats, so ky divides kx.) The flat index is
// split as i = row * ky + c: program (bx, row) handles c in
// [bx*BLOCK, bx*BLOCK + BLOCK), so x, y and dst are all contiguous runs and
// load/store as 16-byte vectors, and y (gamma, a row of H) stays in L2.
//
// Grid: (ceil(ky / BLOCK), kx / ky, 1). Constants: BLOCK (1024), OP (0: add,
// 1: sub, 2: mul, 3: div; the unused ops fold away). num_warps: 4.
// Arguments: x, y, dst (f32), ky (a multiple of 16: H = 4096 or kx itself).
// Residual add (decode, prompt): ky = kx; gamma mul: ky = 4096.
func.func @binary_f32(%x: !tile.ptr<f32> {tile.divisibility = 16},
                      %y: !tile.ptr<f32> {tile.divisibility = 16},
                      %dst: !tile.ptr<f32> {tile.divisibility = 16},
                      %ky: i32 {tile.divisibility = 16}) {
  // Programmatic dependent launch (llk-decode-block): the next kernel may
  // start launching now; this one waits here for the kernel before it.
  tile.launch_dependents
  tile.grid_dependency_wait
  %bx = tile.program_id x
  %row = tile.program_id y
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %bx, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %cols = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %kys = tile.splat %ky : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %cols, %kys : tensor<${BLOCK}xi32>
  // 64-bit-safe enough: kx < 2^31 for every Llama shape.
  %row_start = arith.muli %row, %ky : i32

  %x_row = tile.addptr %x, %row_start : !tile.ptr<f32>, i32
  %xs = tile.splat %x_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %a = tile.load %xp mask %mask evict = evict_first : tensor<${BLOCK}x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  %b = tile.load %yp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>

  %op = arith.constant ${OP} : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %sum = arith.addf %a, %b : tensor<${BLOCK}xf32>
  %diff = arith.subf %a, %b : tensor<${BLOCK}xf32>
  %prod = arith.mulf %a, %b : tensor<${BLOCK}xf32>
  %quot = arith.divf %a, %b : tensor<${BLOCK}xf32>
  %is_sub = arith.cmpi eq, %op, %c1 : i32
  %is_mul = arith.cmpi eq, %op, %c2 : i32
  %is_lt2 = arith.cmpi slt, %op, %c2 : i32
  %low = arith.select %is_sub, %diff, %sum : tensor<${BLOCK}xf32>
  %high = arith.select %is_mul, %prod, %quot : tensor<${BLOCK}xf32>
  %r = arith.select %is_lt2, %low, %high : tensor<${BLOCK}xf32>

  %dst_row = tile.addptr %dst, %row_start : !tile.ptr<f32>, i32
  %ds = tile.splat %dst_row : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %dp = tile.addptr %ds, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %r, %dp mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
