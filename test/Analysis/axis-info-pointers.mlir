// RUN: llk-opt %s -split-input-file -test-print-axis-info -verify-diagnostics -o /dev/null

// Pointers count bytes: an offset moves a pointer by offset times the
// element's size.
// expected-remark @below {{argument #0: divisibility = 16, constant = <none>}}
// expected-remark @below {{argument #1: divisibility = 16, constant = <none>}}
// expected-remark @below {{argument #2: divisibility = 8, constant = <none>}}
// expected-remark @below {{argument #3: divisibility = 1, constant = <none>}}
func.func @addptr(%p: !tile.ptr<f32> {tile.divisibility = 16},
                  %h: !tile.ptr<f16> {tile.divisibility = 16},
                  %n: i32 {tile.divisibility = 8}, %m: i32) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128], constant = <none>}}
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = <none>}}
  %ms = tile.splat %m : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [8], constancy = [1], constant = <none>}}
  %sum = arith.addi %ns, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = <none>}}
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  // p + [0, 128): 16-byte aligned runs of 128 floats.
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant = <none>}}
  %pr = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  // p + n + [0, 128): n floats are a multiple of 32 bytes.
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant = <none>}}
  %pn = tile.addptr %ps, %sum : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  // p + m: any float, 4 bytes.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = <none>}}
  %pm = tile.addptr %ps, %ms : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = <none>}}
  %hs = tile.splat %h : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  // h + n + [0, 128): n halves are a multiple of 16 bytes.
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant = <none>}}
  %hn = tile.addptr %hs, %sum : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  // h + m + [0, 128): 2 bytes.
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1], constant = <none>}}
  %msum = arith.addi %ms, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [2], constancy = [1], constant = <none>}}
  %hm = tile.addptr %hs, %msum : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  // A scalar pointer.
  // expected-remark @below {{divisibility = 16, constant = <none>}}
  %pscalar = tile.addptr %p, %n : !tile.ptr<f32>, i32
  return
}

// -----

// Masks: `range < n` is uniform over each aligned block of the range that n
// cannot split (n a multiple of 8: blocks of 8); equality says nothing.
// expected-remark @below {{argument #0: divisibility = 8, constant = <none>}}
func.func @masks(%n: i32 {tile.divisibility = 8}) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128], constant = <none>}}
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8], constant = <none>}}
  %lt = arith.cmpi slt, %r, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = <none>}}
  %eq = arith.cmpi eq, %r, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = <none>}}
  %both = arith.andi %lt, %eq : tensor<128xi1>
  // Selecting between two values: each element is either's, runs of one.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = 16}}
  %sixteen = arith.constant dense<16> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [8], constant = <none>}}
  %uniform = arith.select %lt, %ns, %sixteen : tensor<128xi1>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = <none>}}
  %mixed = arith.select %lt, %r, %sixteen : tensor<128xi1>, tensor<128xi32>
  return
}

// -----

// 2-D offsets: rows times a row stride plus columns, the shape of every
// tile load. expand_dims adds a dimension of size 1, whose elements are
// divisible by what divides each element; broadcast makes copies uniform.
// expected-remark @below {{argument #0: divisibility = 16, constant = <none>}}
// expected-remark @below {{argument #1: divisibility = 64, constant = <none>}}
// expected-remark @below {{argument #2: divisibility = 1, constant = <none>}}
func.func @rows_and_columns(%p: !tile.ptr<f16> {tile.divisibility = 16},
                            %ld: i32 {tile.divisibility = 64}, %any: i32) {
  // expected-remark @below {{contiguity = [16], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r16 = tile.make_range 0 to 16 : tensor<16xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r64 = tile.make_range 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 1], constant = <none>}}
  %rows = tile.expand_dims %r16 axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  // expected-remark @below {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 64], constant = <none>}}
  %rowsb = tile.broadcast %rows : tensor<16x1xi32> -> tensor<16x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1], constant = <none>}}
  %cols = tile.expand_dims %r64 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [16, 1], constant = <none>}}
  %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<16x64xi32>
  // Row i starts at i * ld, a multiple of 64.
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [16], constant = <none>}}
  %lds = tile.splat %ld : i32 -> tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = <none>}}
  %starts = arith.muli %r16, %lds : tensor<16xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [1, 1], constant = <none>}}
  %startse = tile.expand_dims %starts axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [1, 64], constant = <none>}}
  %startsb = tile.broadcast %startse : tensor<16x1xi32> -> tensor<16x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 64], constancy = [1, 1], constant = <none>}}
  %off = arith.addi %startsb, %colsb : tensor<16x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [16, 64], constant = <none>}}
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
  // 64 contiguous halves per row, each row 16-byte aligned.
  // expected-remark @below {{contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1], constant = <none>}}
  %pp = tile.addptr %ps, %off : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [16, 2], constancy = [1, 1], constant = <none>}}
  %pt = tile.trans %pp : tensor<16x64x!tile.ptr<f16>> -> tensor<64x16x!tile.ptr<f16>>
  // With a stride nothing is known of, rows start anywhere: i * any for
  // i in [0, 16) is no run and divisible by nothing, nor is the row start
  // in the new dimension.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant = <none>}}
  %anys = tile.splat %any : i32 -> tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = <none>}}
  %anystarts = arith.muli %r16, %anys : tensor<16xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1], constant = <none>}}
  %anye = tile.expand_dims %anystarts axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 64], constant = <none>}}
  %anyb = tile.broadcast %anye : tensor<16x1xi32> -> tensor<16x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1], constancy = [1, 1], constant = <none>}}
  %anyoff = arith.addi %anyb, %colsb : tensor<16x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [2, 2], constancy = [1, 1], constant = <none>}}
  %pany = tile.addptr %ps, %anyoff : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
  return
}
