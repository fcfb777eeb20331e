// RUN: llk-opt %s -split-input-file -test-print-axis-info -verify-diagnostics -o /dev/null

// Loops: the counter is as divisible as its start and step; a value the
// loop carries starts from its initial facts and keeps what every
// iteration's yield preserves. Block arguments are reported at their loop.

// A pointer tile advanced by 32 halves (64 bytes) a step stays a 16-byte
// aligned run of 32.
// expected-remark @below {{argument #0: divisibility = 16, constant = <none>}}
// expected-remark @below {{argument #1: divisibility = 1, constant = <none>}}
func.func @advanced_by_a_multiple(%p: !tile.ptr<f16> {tile.divisibility = 16}, %k: i32) {
  // expected-remark @below {{divisibility = 1073741824, constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{divisibility = 32, constant = 32}}
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [32], constant = <none>}}
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant = <none>}}
  %p0 = tile.addptr %ps, %r : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [32], constant = 32}}
  %step = arith.constant dense<32> : tensor<32xi32>
  // expected-remark @below {{block argument #0: divisibility = 32, constant = <none>}}
  // expected-remark @below {{block argument #1: contiguity = [32], divisibility = [16], constancy = [1], constant = <none>}}
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant = <none>}}
  %end = scf.for %i = %c0 to %k step %c32 iter_args(%ptr = %p0) -> (tensor<32x!tile.ptr<f16>>) : i32 {
    %v = tile.load %ptr : tensor<32x!tile.ptr<f16>>
    // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant = <none>}}
    %next = tile.addptr %ptr, %step : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
    scf.yield %next : tensor<32x!tile.ptr<f16>>
  }
  return
}

// -----

// Advanced by k halves, k unknown, the tile is still a run, but only
// 2-byte aligned after the first step; a counter of ones is no constant.
// expected-remark @below {{argument #0: divisibility = 16, constant = <none>}}
// expected-remark @below {{argument #1: divisibility = 1, constant = <none>}}
func.func @advanced_by_anything(%p: !tile.ptr<f16> {tile.divisibility = 16}, %k: i32) {
  // expected-remark @below {{divisibility = 1073741824, constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{divisibility = 1, constant = 1}}
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{divisibility = 1073741824, constant = 0}}
  %zero = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [32], constant = <none>}}
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant = <none>}}
  %p0 = tile.addptr %ps, %r : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [32], constant = <none>}}
  %ks = tile.splat %k : i32 -> tensor<32xi32>
  // expected-remark @below {{block argument #0: divisibility = 1, constant = <none>}}
  // expected-remark @below {{block argument #1: contiguity = [32], divisibility = [2], constancy = [1], constant = <none>}}
  // expected-remark @below {{block argument #2: divisibility = 1, constant = <none>}}
  // expected-remark @below {{result #0: contiguity = [32], divisibility = [2], constancy = [1], constant = <none>}}
  // expected-remark @below {{result #1: divisibility = 1, constant = <none>}}
  %end:2 = scf.for %i = %c0 to %k step %c1 iter_args(%ptr = %p0, %count = %zero) -> (tensor<32x!tile.ptr<f16>>, i32) : i32 {
    // expected-remark @below {{contiguity = [32], divisibility = [2], constancy = [1], constant = <none>}}
    %next = tile.addptr %ptr, %ks : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
    // expected-remark @below {{divisibility = 1, constant = <none>}}
    %more = arith.addi %count, %c1 : i32
    scf.yield %next, %more : tensor<32x!tile.ptr<f16>>, i32
  }
  return
}
