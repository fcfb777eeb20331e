// One 64x32 by 32x64 dot per kernel, for each operand type: A and B loaded
// row-major (A K-contiguous, B N-contiguous), the result stored.

func.func @dot_f16(%a: !tile.ptr<f16> {tile.divisibility = 16},
                      %b: !tile.ptr<f16> {tile.divisibility = 16},
                      %c: !tile.ptr<f32> {tile.divisibility = 16}) {
  %ra = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rac = tile.expand_dims %ra axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s = arith.constant dense<32> : tensor<64x1xi32>
  %ram = arith.muli %rac, %s : tensor<64x1xi32>
  %ramb = tile.broadcast %ram : tensor<64x1xi32> -> tensor<64x32xi32>
  %rkr = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rkb = tile.broadcast %rkr : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %ramb, %rkb : tensor<64x32xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %av = tile.load %ap : tensor<64x32x!tile.ptr<f16>>
  // b: 32 x 64, row-major
  %rkc = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s2 = arith.constant dense<64> : tensor<32x1xi32>
  %rbk = arith.muli %rkc, %s2 : tensor<32x1xi32>
  %rbkb = tile.broadcast %rbk : tensor<32x1xi32> -> tensor<32x64xi32>
  %rnr = tile.expand_dims %ra axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %rbkb, %rnb : tensor<32x64xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %bv = tile.load %bp : tensor<32x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %av, %bv, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  // c: 64 x 64
  %s3 = arith.constant dense<64> : tensor<64x1xi32>
  %rcm = arith.muli %rac, %s3 : tensor<64x1xi32>
  %rcmb = tile.broadcast %rcm : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnc = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %rcmb, %rnc : tensor<64x64xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %d, %cp : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_bf16(%a: !tile.ptr<bf16> {tile.divisibility = 16},
                      %b: !tile.ptr<bf16> {tile.divisibility = 16},
                      %c: !tile.ptr<f32> {tile.divisibility = 16}) {
  %ra = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rac = tile.expand_dims %ra axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s = arith.constant dense<32> : tensor<64x1xi32>
  %ram = arith.muli %rac, %s : tensor<64x1xi32>
  %ramb = tile.broadcast %ram : tensor<64x1xi32> -> tensor<64x32xi32>
  %rkr = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rkb = tile.broadcast %rkr : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %ramb, %rkb : tensor<64x32xi32>
  %ab = tile.splat %a : !tile.ptr<bf16> -> tensor<64x32x!tile.ptr<bf16>>
  %ap = tile.addptr %ab, %aoff : tensor<64x32x!tile.ptr<bf16>>, tensor<64x32xi32>
  %av = tile.load %ap : tensor<64x32x!tile.ptr<bf16>>
  // b: 32 x 64, row-major
  %rkc = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s2 = arith.constant dense<64> : tensor<32x1xi32>
  %rbk = arith.muli %rkc, %s2 : tensor<32x1xi32>
  %rbkb = tile.broadcast %rbk : tensor<32x1xi32> -> tensor<32x64xi32>
  %rnr = tile.expand_dims %ra axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %rbkb, %rnb : tensor<32x64xi32>
  %bb = tile.splat %b : !tile.ptr<bf16> -> tensor<32x64x!tile.ptr<bf16>>
  %bp = tile.addptr %bb, %boff : tensor<32x64x!tile.ptr<bf16>>, tensor<32x64xi32>
  %bv = tile.load %bp : tensor<32x64x!tile.ptr<bf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %av, %bv, %zero : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
  // c: 64 x 64
  %s3 = arith.constant dense<64> : tensor<64x1xi32>
  %rcm = arith.muli %rac, %s3 : tensor<64x1xi32>
  %rcmb = tile.broadcast %rcm : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnc = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %rcmb, %rnc : tensor<64x64xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %d, %cp : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_i8(%a: !tile.ptr<i8> {tile.divisibility = 16},
                      %b: !tile.ptr<i8> {tile.divisibility = 16},
                      %c: !tile.ptr<i32> {tile.divisibility = 16}) {
  %ra = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rac = tile.expand_dims %ra axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s = arith.constant dense<32> : tensor<64x1xi32>
  %ram = arith.muli %rac, %s : tensor<64x1xi32>
  %ramb = tile.broadcast %ram : tensor<64x1xi32> -> tensor<64x32xi32>
  %rkr = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rkb = tile.broadcast %rkr : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %ramb, %rkb : tensor<64x32xi32>
  %ab = tile.splat %a : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %ap = tile.addptr %ab, %aoff : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
  %av = tile.load %ap : tensor<64x32x!tile.ptr<i8>>
  // b: 32 x 64, row-major
  %rkc = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s2 = arith.constant dense<64> : tensor<32x1xi32>
  %rbk = arith.muli %rkc, %s2 : tensor<32x1xi32>
  %rbkb = tile.broadcast %rbk : tensor<32x1xi32> -> tensor<32x64xi32>
  %rnr = tile.expand_dims %ra axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %rbkb, %rnb : tensor<32x64xi32>
  %bb = tile.splat %b : !tile.ptr<i8> -> tensor<32x64x!tile.ptr<i8>>
  %bp = tile.addptr %bb, %boff : tensor<32x64x!tile.ptr<i8>>, tensor<32x64xi32>
  %bv = tile.load %bp : tensor<32x64x!tile.ptr<i8>>
  %zero = arith.constant dense<0> : tensor<64x64xi32>
  %d = tile.dot %av, %bv, %zero : tensor<64x32xi8>, tensor<32x64xi8> -> tensor<64x64xi32>
  // c: 64 x 64
  %s3 = arith.constant dense<64> : tensor<64x1xi32>
  %rcm = arith.muli %rac, %s3 : tensor<64x1xi32>
  %rcmb = tile.broadcast %rcm : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnc = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %rcmb, %rnc : tensor<64x64xi32>
  %cb = tile.splat %c : !tile.ptr<i32> -> tensor<64x64x!tile.ptr<i32>>
  %cp = tile.addptr %cb, %coff : tensor<64x64x!tile.ptr<i32>>, tensor<64x64xi32>
  tile.store %d, %cp : tensor<64x64x!tile.ptr<i32>>
  return
}

func.func @dot_tf32(%a: !tile.ptr<f32> {tile.divisibility = 16},
                      %b: !tile.ptr<f32> {tile.divisibility = 16},
                      %c: !tile.ptr<f32> {tile.divisibility = 16}) {
  %ra = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rac = tile.expand_dims %ra axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s = arith.constant dense<32> : tensor<64x1xi32>
  %ram = arith.muli %rac, %s : tensor<64x1xi32>
  %ramb = tile.broadcast %ram : tensor<64x1xi32> -> tensor<64x32xi32>
  %rkr = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rkb = tile.broadcast %rkr : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %ramb, %rkb : tensor<64x32xi32>
  %ab = tile.splat %a : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %ap = tile.addptr %ab, %aoff : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  %av = tile.load %ap : tensor<64x32x!tile.ptr<f32>>
  // b: 32 x 64, row-major
  %rkc = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s2 = arith.constant dense<64> : tensor<32x1xi32>
  %rbk = arith.muli %rkc, %s2 : tensor<32x1xi32>
  %rbkb = tile.broadcast %rbk : tensor<32x1xi32> -> tensor<32x64xi32>
  %rnr = tile.expand_dims %ra axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %rbkb, %rnb : tensor<32x64xi32>
  %bb = tile.splat %b : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %bp = tile.addptr %bb, %boff : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  %bv = tile.load %bp : tensor<32x64x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %av, %bv, %zero : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  // c: 64 x 64
  %s3 = arith.constant dense<64> : tensor<64x1xi32>
  %rcm = arith.muli %rac, %s3 : tensor<64x1xi32>
  %rcmb = tile.broadcast %rcm : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnc = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %rcmb, %rnc : tensor<64x64xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %d, %cp : tensor<64x64x!tile.ptr<f32>>
  return
}

func.func @dot_ieee(%a: !tile.ptr<f32> {tile.divisibility = 16},
                      %b: !tile.ptr<f32> {tile.divisibility = 16},
                      %c: !tile.ptr<f32> {tile.divisibility = 16}) {
  %ra = tile.make_range 0 to 64 : tensor<64xi32>
  %rk = tile.make_range 0 to 32 : tensor<32xi32>
  %rac = tile.expand_dims %ra axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %s = arith.constant dense<32> : tensor<64x1xi32>
  %ram = arith.muli %rac, %s : tensor<64x1xi32>
  %ramb = tile.broadcast %ram : tensor<64x1xi32> -> tensor<64x32xi32>
  %rkr = tile.expand_dims %rk axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rkb = tile.broadcast %rkr : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %ramb, %rkb : tensor<64x32xi32>
  %ab = tile.splat %a : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %ap = tile.addptr %ab, %aoff : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  %av = tile.load %ap : tensor<64x32x!tile.ptr<f32>>
  // b: 32 x 64, row-major
  %rkc = tile.expand_dims %rk axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s2 = arith.constant dense<64> : tensor<32x1xi32>
  %rbk = arith.muli %rkc, %s2 : tensor<32x1xi32>
  %rbkb = tile.broadcast %rbk : tensor<32x1xi32> -> tensor<32x64xi32>
  %rnr = tile.expand_dims %ra axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %rbkb, %rnb : tensor<32x64xi32>
  %bb = tile.splat %b : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %bp = tile.addptr %bb, %boff : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
  %bv = tile.load %bp : tensor<32x64x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %av, %bv, %zero precision = ieee : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  // c: 64 x 64
  %s3 = arith.constant dense<64> : tensor<64x1xi32>
  %rcm = arith.muli %rac, %s3 : tensor<64x1xi32>
  %rcmb = tile.broadcast %rcm : tensor<64x1xi32> -> tensor<64x64xi32>
  %rnc = tile.broadcast %rnr : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %rcmb, %rnc : tensor<64x64xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %d, %cp : tensor<64x64x!tile.ptr<f32>>
  return
}
