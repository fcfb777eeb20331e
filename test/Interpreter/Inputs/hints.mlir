// Kernels whose compiler hints hold or not depending on their arguments
// (hints.test).

// out[i] = x[i] for i < 32, through a pointer shifted by `shift` elements
// and promised 16-byte aligned, and a stride promised a multiple of 8.
func.func @aligned(%x: !tile.ptr<f32> {tile.divisibility = 16}, %out: !tile.ptr<f32> {tile.divisibility = 16},
                   %shift: i32, %ld: i32) {
  %xs = tile.addptr %x, %shift : !tile.ptr<f32>, i32
  %x16 = tile.multiple_of %xs, [16] : !tile.ptr<f32>
  %ld8 = tile.multiple_of %ld, [8] : i32
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %p = tile.addptr %x16, %r : !tile.ptr<f32>, tensor<32xi32>
  %v = tile.load %p : tensor<32x!tile.ptr<f32>>
  %o = tile.addptr %out, %r : !tile.ptr<f32>, tensor<32xi32>
  tile.store %v, %o : tensor<32x!tile.ptr<f32>>
  %last = tile.addptr %out, %ld8 : !tile.ptr<f32>, i32
  %zero = arith.constant 0.0 : f32
  tile.store %zero, %last : !tile.ptr<f32>
  return
}

// Offsets (i * step) / 2 + shift promised runs of 4 consecutive values
// starting at multiples of 4, and a mask i < n promised uniform over runs
// of 8.
func.func @runs(%x: !tile.ptr<f32> {tile.divisibility = 16}, %out: !tile.ptr<f32> {tile.divisibility = 16},
                %step: i32, %shift: i32, %n: i32) {
  %c2 = arith.constant 2 : i32
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %s = tile.mul %r, %step : tensor<32xi32>, i32
  %h = tile.div %s, %c2 : tensor<32xi32>, i32
  %o = tile.add %h, %shift : tensor<32xi32>, i32
  %oc = tile.max_contiguous %o, [4] : tensor<32xi32>
  %od = tile.multiple_of %oc, [4] : tensor<32xi32>
  %m = tile.cmp lt %r, %n : tensor<32xi32>, i32
  %mk = tile.max_constancy %m, [8] : tensor<32xi1>
  %p = tile.addptr %x, %od : !tile.ptr<f32>, tensor<32xi32>
  %v = tile.load %p mask %mk : tensor<32x!tile.ptr<f32>>
  %q = tile.addptr %out, %r : !tile.ptr<f32>, tensor<32xi32>
  tile.store %v, %q mask %mk : tensor<32x!tile.ptr<f32>>
  return
}
