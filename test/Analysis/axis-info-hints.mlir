// RUN: llk-opt %s -split-input-file -test-print-axis-info -verify-diagnostics -o /dev/null

// The hint ops: what a value read from memory cannot tell the analysis
// (examples/triton/08_grouped_gemm.mlir's addresses and strides), the user
// promises. Facts the analysis proves stronger stay.
// expected-remark @below {{argument #0: divisibility = 8, constant = <none>}}
// expected-remark @below {{argument #1: divisibility = 4, constant = <none>}}
func.func @loaded(%table: !tile.ptr<i64>, %lds: !tile.ptr<i32>) {
  // expected-remark @below {{divisibility = 1, constant = <none>}}
  %addr = tile.load %table : !tile.ptr<i64>
  // expected-remark @below {{divisibility = 1, constant = <none>}}
  %a = tile.bitcast %addr : i64 to !tile.ptr<f16>
  // expected-remark @below {{divisibility = 16, constant = <none>}}
  %a16 = tile.multiple_of %a, [16] : !tile.ptr<f16>
  // expected-remark @below {{divisibility = 1, constant = <none>}}
  %ld = tile.load %lds : !tile.ptr<i32>
  // expected-remark @below {{divisibility = 8, constant = <none>}}
  %ld8 = tile.multiple_of %ld, [8] : i32
  // expected-remark @below {{divisibility = 4, constant = 4}}
  %c4 = arith.constant 4 : i32
  // expected-remark @below {{divisibility = 32, constant = <none>}}
  %ld32 = arith.muli %ld8, %c4 : i32
  // A weaker promise keeps what is known.
  // expected-remark @below {{divisibility = 32, constant = <none>}}
  %ld32b = tile.multiple_of %ld32, [2] : i32

  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  // a + [0, 32): without the hint 2-byte accesses, with it 16-byte ones.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [32], constant = <none>}}
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [32], divisibility = [1], constancy = [1], constant = <none>}}
  %ar = tile.addptr %as, %r : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [32], constant = <none>}}
  %a16s = tile.splat %a16 : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1], constant = <none>}}
  %a16r = tile.addptr %a16s, %r : tensor<32x!tile.ptr<f16>>, tensor<32xi32>

  // Tiles read from memory: runs, their first elements' divisibility, and
  // runs of equal values, as promised.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [32], constant = <none>}}
  %ls = tile.splat %lds : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  // expected-remark @below {{contiguity = [32], divisibility = [4], constancy = [1], constant = <none>}}
  %lp = tile.addptr %ls, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = <none>}}
  %o = tile.load %lp : tensor<32x!tile.ptr<i32>>
  // expected-remark @below {{contiguity = [16], divisibility = [1], constancy = [1], constant = <none>}}
  %oc = tile.max_contiguous %o, [16] : tensor<32xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], constant = <none>}}
  %od = tile.multiple_of %oc, [16] : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8], constant = <none>}}
  %ok = tile.max_constancy %o, [8] : tensor<32xi32>
  // A run the analysis proves longer stays.
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1], constant = <none>}}
  %rc = tile.max_contiguous %r, [4] : tensor<32xi32>
  return
}
