// RUN: llk-opt %s -split-input-file -tile-assign-layouts -tile-software-pipeline | FileCheck %s

// Loops the pipeliner leaves alone, or pipelines only in part.

// The reference: a small K loop whose loads are both pipelined.
// CHECK-LABEL: func.func @both
// CHECK-COUNT-2: tile.local_alloc
// CHECK: scf.for
// CHECK-NOT: tile.load
// CHECK: tile.dot
func.func @both(%a: !tile.ptr<f16> {tile.divisibility = 16},
    %b: !tile.ptr<f16> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s = arith.constant dense<32> : tensor<32x1xi32>
  %rows = arith.muli %row, %s : tensor<32x1xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colsb = tile.broadcast %col : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rowsb, %colsb : tensor<32x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %one = arith.constant dense<1.0> : tensor<32x32xf16>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x32xi32>
  %m = arith.cmpi slt, %colsb, %ns : tensor<32x32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap_end = scf.for %i = %c0 to %n step %c1 iter_args(%acc_i = %zero, %ap = %ap0)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap : tensor<32x32x!tile.ptr<f16>>
    %bv = tile.load %bp0 : tensor<32x32x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<32x32xf16>, tensor<32x32xf16> -> tensor<32x32xf32>
    %apn = tile.addptr %ap, %step : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %apn : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %acc, %cp : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// The A pointers are used after the loop: shifting them would change what
// that load reads, so only B (loop-invariant pointers) is pipelined.
// CHECK-LABEL: func.func @carried_used_after
// CHECK: tile.local_alloc : !tile.shared<3x32x32xf16
// CHECK-NOT: tile.local_alloc
// CHECK: scf.for
// CHECK: tile.load
// CHECK: tile.local_load
// CHECK: tile.dot
func.func @carried_used_after(%a: !tile.ptr<f16> {tile.divisibility = 16},
    %b: !tile.ptr<f16> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s = arith.constant dense<32> : tensor<32x1xi32>
  %rows = arith.muli %row, %s : tensor<32x1xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colsb = tile.broadcast %col : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rowsb, %colsb : tensor<32x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %one = arith.constant dense<1.0> : tensor<32x32xf16>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x32xi32>
  %m = arith.cmpi slt, %colsb, %ns : tensor<32x32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap_end = scf.for %i = %c0 to %n step %c1 iter_args(%acc_i = %zero, %ap = %ap0)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap : tensor<32x32x!tile.ptr<f16>>
    %bv = tile.load %bp0 : tensor<32x32x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<32x32xf16>, tensor<32x32xf16> -> tensor<32x32xf32>
    %apn = tile.addptr %ap, %step : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %apn : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>
  }
  %again = tile.load %ap_end : tensor<32x32x!tile.ptr<f16>>
  %againf = tile.cast %again : tensor<32x32xf16> to tensor<32x32xf32>
  %sum = arith.addf %acc, %againf : tensor<32x32xf32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %sum, %cp : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// other = 1.0: the copies would fill masked-off elements with zeros, so A
// keeps its load.
// CHECK-LABEL: func.func @nonzero_other
// CHECK-COUNT-1: tile.local_alloc
// CHECK-NOT: tile.local_alloc
// CHECK: scf.for
// CHECK: tile.load {{.*}} other
// CHECK: tile.local_load
func.func @nonzero_other(%a: !tile.ptr<f16> {tile.divisibility = 16},
    %b: !tile.ptr<f16> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s = arith.constant dense<32> : tensor<32x1xi32>
  %rows = arith.muli %row, %s : tensor<32x1xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colsb = tile.broadcast %col : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rowsb, %colsb : tensor<32x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %one = arith.constant dense<1.0> : tensor<32x32xf16>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x32xi32>
  %m = arith.cmpi slt, %colsb, %ns : tensor<32x32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap_end = scf.for %i = %c0 to %n step %c1 iter_args(%acc_i = %zero, %ap = %ap0)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap mask %m other %one : tensor<32x32x!tile.ptr<f16>>
    %bv = tile.load %bp0 : tensor<32x32x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<32x32xf16>, tensor<32x32xf16> -> tensor<32x32xf32>
    %apn = tile.addptr %ap, %step : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %apn : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %acc, %cp : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// tile.num_stages = 1 turns pipelining off for this kernel.
// CHECK-LABEL: func.func @one_stage
// CHECK-NOT: tile.local_alloc
// CHECK: tile.load
// CHECK: tile.load
// CHECK: tile.dot
func.func @one_stage(%a: !tile.ptr<f16> {tile.divisibility = 16},
    %b: !tile.ptr<f16> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) attributes {tile.num_stages = 1 : i32} {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s = arith.constant dense<32> : tensor<32x1xi32>
  %rows = arith.muli %row, %s : tensor<32x1xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colsb = tile.broadcast %col : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rowsb, %colsb : tensor<32x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %off : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %one = arith.constant dense<1.0> : tensor<32x32xf16>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x32xi32>
  %m = arith.cmpi slt, %colsb, %ns : tensor<32x32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap_end = scf.for %i = %c0 to %n step %c1 iter_args(%acc_i = %zero, %ap = %ap0)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap : tensor<32x32x!tile.ptr<f16>>
    %bv = tile.load %bp0 : tensor<32x32x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %acc_i : tensor<32x32xf16>, tensor<32x32xf16> -> tensor<32x32xf32>
    %apn = tile.addptr %ap, %step : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %apn : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f16>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %acc, %cp : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// tf32 rounds its operands in registers before the tensor cores: an f32
// dot keeps its loads.
// CHECK-LABEL: func.func @tf32
// CHECK-NOT: tile.local_alloc
// CHECK: tile.load
// CHECK: tile.load
// CHECK: tile.dot
func.func @tf32(%a: !tile.ptr<f32> {tile.divisibility = 16},
    %b: !tile.ptr<f32> {tile.divisibility = 16},
    %c: !tile.ptr<f32> {tile.divisibility = 16}, %n: i32) {
  %r = tile.make_range 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %s = arith.constant dense<32> : tensor<32x1xi32>
  %rows = arith.muli %row, %s : tensor<32x1xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %col = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %colsb = tile.broadcast %col : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rowsb, %colsb : tensor<32x32xi32>
  %as = tile.splat %a : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %ap0 = tile.addptr %as, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  %bs = tile.splat %b : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %bp0 = tile.addptr %bs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %one = arith.constant dense<1.0> : tensor<32x32xf32>
  %step = arith.constant dense<1024> : tensor<32x32xi32>
  %ns = tile.splat %n : i32 -> tensor<32x32xi32>
  %m = arith.cmpi slt, %colsb, %ns : tensor<32x32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc, %ap_end = scf.for %i = %c0 to %n step %c1 iter_args(%acc_i = %zero, %ap = %ap0)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f32>>) : i32 {
    %av = tile.load %ap : tensor<32x32x!tile.ptr<f32>>
    %bv = tile.load %bp0 : tensor<32x32x!tile.ptr<f32>>
    %d = tile.dot %av, %bv, %acc_i : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
    %apn = tile.addptr %ap, %step : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    scf.yield %d, %apn : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f32>>
  }
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %off : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %acc, %cp : tensor<32x32x!tile.ptr<f32>>
  return
}
