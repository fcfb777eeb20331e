// RUN: llk-opt %s -split-input-file -test-print-axis-info -verify-diagnostics -o /dev/null

// What AxisInfoAnalysis knows of each integer and pointer value, per tile
// dimension: contiguity (runs of consecutive values, aligned), divisibility
// (of each run's first value; bytes for pointers) and constancy (runs of
// equal values), or a scalar's divisibility; 1073741824 (2^30) stands for
// "divisible by anything" (zero).

// The argument hints: tile.divisibility, its synonym tile.alignment, and a
// pointer's own element size without one.
// expected-remark @below {{argument #0: divisibility = 16, constant = <none>}}
// expected-remark @below {{argument #1: divisibility = 4, constant = <none>}}
// expected-remark @below {{argument #2: divisibility = 2, constant = <none>}}
// expected-remark @below {{argument #3: divisibility = 8, constant = <none>}}
// expected-remark @below {{argument #4: divisibility = 32, constant = <none>}}
// expected-remark @below {{argument #5: divisibility = 1, constant = <none>}}
func.func @arguments(%a: !tile.ptr<f32> {tile.divisibility = 16}, %b: !tile.ptr<f32>,
                     %c: !tile.ptr<f16>, %n: i32 {tile.divisibility = 8},
                     %m: i64 {tile.alignment = 32}, %k: i32, %x: f32) {
  return
}

// -----

// Ranges, constants and splats seed the facts.
// expected-remark @below {{argument #0: divisibility = 8, constant = <none>}}
func.func @seeds(%n: i32 {tile.divisibility = 8}) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant = <none>}}
  %r48 = tile.make_range 48 to 176 : tensor<128xi32>
  // expected-remark @below {{divisibility = 8, constant = 24}}
  %c = arith.constant 24 : i32
  // expected-remark @below {{contiguity = [1, 1], divisibility = [64, 64], constancy = [4, 8], constant = 64}}
  %t = arith.constant dense<64> : tensor<4x8xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [8], constant = 0}}
  %z = arith.constant dense<0> : tensor<8xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128], constant = <none>}}
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128], constant = 24}}
  %cs = tile.splat %c : i32 -> tensor<128xi32>
  return
}

// -----

// Sums, differences and products. A contiguous run plus a uniform value
// stays a run; multiplied by anything but 1 it is no run, and its elements
// are divisible only by what the factor gives ([4, 5, 6, 7] times 2 is
// [8, 10, 12, 14]: each element is even, not a multiple of 8).
// expected-remark @below {{argument #0: divisibility = 8, constant = <none>}}
// expected-remark @below {{argument #1: divisibility = 1, constant = <none>}}
func.func @arith(%n: i32 {tile.divisibility = 8}, %m: i32) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r = tile.make_range 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128], constant = <none>}}
  %ns = tile.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = <none>}}
  %ms = tile.splat %m : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4}}
  %four = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 1}}
  %one = arith.constant dense<1> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 3}}
  %three = arith.constant dense<3> : tensor<128xi32>

  // n + [0, 128): one run of 128 starting at a multiple of 8.
  // expected-remark @below {{contiguity = [128], divisibility = [8], constancy = [1], constant = <none>}}
  %sum = arith.addi %ns, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1], constant = <none>}}
  %msum = arith.addi %r, %ms : tensor<128xi32>
  // [0, 128) - n is a run; n - [0, 128) counts down.
  // expected-remark @below {{contiguity = [128], divisibility = [8], constancy = [1], constant = <none>}}
  %down = arith.subi %r, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = <none>}}
  %up = arith.subi %ns, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = <none>}}
  %times4 = arith.muli %r, %four : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = <none>}}
  %sum4 = arith.muli %sum, %four : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %times1 = arith.muli %one, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [128], constant = <none>}}
  %n4 = arith.muli %ns, %four : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant = <none>}}
  %shifted = arith.shli %r, %three : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = <none>}}
  %twice = arith.addi %r, %r : tensor<128xi32>
  // Runs of 16 in the remainder; blocks of 16 equal values in the quotient.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = 16}}
  %sixteen = arith.constant dense<16> : tensor<128xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], constant = <none>}}
  %rem = arith.remsi %r, %sixteen : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant = <none>}}
  %quot = arith.divsi %r, %sixteen : tensor<128xi32>
  // Scalars: divisibility and constant values.
  // expected-remark @below {{divisibility = 1, constant = 3}}
  %c3 = arith.constant 3 : i32
  // expected-remark @below {{divisibility = 64, constant = <none>}}
  %n8 = arith.shli %n, %c3 : i32
  // expected-remark @below {{divisibility = 1, constant = <none>}}
  %n3 = arith.addi %n, %c3 : i32
  return
}
