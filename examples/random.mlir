// Random numbers as Triton's tl.randint, tl.randint4x, tl.rand and tl.randn
// draw them (docs/random.md): element i of each output is drawn at offset
// base + i, for i < n, BLOCK offsets per program. @random_i32 takes an i32
// seed and i32 offsets; @random_i64 an i64 seed and i64 offsets, whose high
// words take part (base may be past 2^32). `words` holds randint4x's four
// words of each offset, word k at words[k * n + i] (n a multiple of 16, so
// that every row of words is as aligned as the others' stores).
func.func @random_i32(%ints: !tile.ptr<i32> {tile.divisibility = 16},
                      %words: !tile.ptr<i32> {tile.divisibility = 16},
                      %uniform: !tile.ptr<f32> {tile.divisibility = 16},
                      %normal: !tile.ptr<f32> {tile.divisibility = 16},
                      %seed: i32, %base: i32, %n: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %i = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<${BLOCK}xi32>
  %bases = tile.splat %base : i32 -> tensor<${BLOCK}xi32>
  %offsets = arith.addi %bases, %i : tensor<${BLOCK}xi32>

  %r = tile.randint %seed, %offsets : i32, tensor<${BLOCK}xi32>
  %w0, %w1, %w2, %w3 = tile.randint4x %seed, %offsets : i32, tensor<${BLOCK}xi32>
  %u = tile.rand %seed, %offsets : i32, tensor<${BLOCK}xi32>
  %z = tile.randn %seed, %offsets : i32, tensor<${BLOCK}xi32>

  %ip = tile.splat %ints : !tile.ptr<i32> -> tensor<${BLOCK}x!tile.ptr<i32>>
  %ia = tile.addptr %ip, %i : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %r, %ia mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %wp = tile.splat %words : !tile.ptr<i32> -> tensor<${BLOCK}x!tile.ptr<i32>>
  %w0a = tile.addptr %wp, %i : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %w0, %w0a mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %w1a = tile.addptr %w0a, %ns : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %w1, %w1a mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %w2a = tile.addptr %w1a, %ns : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %w2, %w2a mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %w3a = tile.addptr %w2a, %ns : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %w3, %w3a mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %up = tile.splat %uniform : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %ua = tile.addptr %up, %i : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %u, %ua mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %zp = tile.splat %normal : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %za = tile.addptr %zp, %i : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %z, %za mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}

func.func @random_i64(%ints: !tile.ptr<i32> {tile.divisibility = 16},
                      %words: !tile.ptr<i32> {tile.divisibility = 16},
                      %uniform: !tile.ptr<f32> {tile.divisibility = 16},
                      %normal: !tile.ptr<f32> {tile.divisibility = 16},
                      %seed: i64, %base: i64, %n: i32 {tile.divisibility = 16}) {
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %i = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %ns = tile.splat %n : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<${BLOCK}xi32>
  %i64 = tile.cast %i : tensor<${BLOCK}xi32> to tensor<${BLOCK}xi64>
  %bases = tile.splat %base : i64 -> tensor<${BLOCK}xi64>
  %offsets = arith.addi %bases, %i64 : tensor<${BLOCK}xi64>

  %r = tile.randint %seed, %offsets : i64, tensor<${BLOCK}xi64>
  %w0, %w1, %w2, %w3 = tile.randint4x %seed, %offsets : i64, tensor<${BLOCK}xi64>
  %u = tile.rand %seed, %offsets : i64, tensor<${BLOCK}xi64>
  %z = tile.randn %seed, %offsets : i64, tensor<${BLOCK}xi64>

  %ip = tile.splat %ints : !tile.ptr<i32> -> tensor<${BLOCK}x!tile.ptr<i32>>
  %ia = tile.addptr %ip, %i : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %r, %ia mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %wp = tile.splat %words : !tile.ptr<i32> -> tensor<${BLOCK}x!tile.ptr<i32>>
  %w0a = tile.addptr %wp, %i : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %w0, %w0a mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %w1a = tile.addptr %w0a, %ns : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %w1, %w1a mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %w2a = tile.addptr %w1a, %ns : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %w2, %w2a mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %w3a = tile.addptr %w2a, %ns : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  tile.store %w3, %w3a mask %mask : tensor<${BLOCK}x!tile.ptr<i32>>
  %up = tile.splat %uniform : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %ua = tile.addptr %up, %i : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %u, %ua mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %zp = tile.splat %normal : !tile.ptr<f32> -> tensor<${BLOCK}x!tile.ptr<f32>>
  %za = tile.addptr %zp, %i : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
  tile.store %z, %za mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  return
}
