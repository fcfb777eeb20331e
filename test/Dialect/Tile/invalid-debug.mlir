// The verifier rules of the debugging ops, one case each.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics

func.func @static_assert_fails() {
  %block = arith.constant 2048 : i32
  %max = arith.constant 1024 : i32
  %fits = arith.cmpi sle, %block, %max : i32
  // expected-error @+1 {{'tile.static_assert' op failed: BLOCK must be at most 1024}}
  tile.static_assert %fits, "BLOCK must be at most 1024"
  return
}

// -----

func.func @static_assert_folds_through_arith() {
  %a = arith.constant 3 : i32
  %b = arith.constant 5 : i32
  %sum = arith.addi %a, %b : i32
  %eight = arith.constant 8 : i32
  %bad = arith.cmpi ne, %sum, %eight : i32
  // expected-error @+1 {{'tile.static_assert' op failed: 3 + 5 is not 8}}
  tile.static_assert %bad, "3 + 5 is not 8"
  return
}

// -----

func.func @static_assert_not_constant(%n: i32) {
  %zero = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %n, %zero : i32
  // expected-error @+1 {{'tile.static_assert' op needs a condition known at compile time}}
  tile.static_assert %positive, "n > 0"
  return
}

// -----

func.func @static_assert_false() {
  %false = arith.constant false
  // expected-error @+1 {{'tile.static_assert' op failed: unreachable}}
  tile.static_assert %false, "unreachable"
  return
}

// -----

func.func @assert_not_boolean(%x: tensor<8xf32>) {
  // expected-error @+1 {{operand #0 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values, but got 'tensor<8xf32>'}}
  "tile.assert"(%x) {message = "x"} : (tensor<8xf32>) -> ()
  return
}

// -----

func.func @print_not_power_of_two(%x: tensor<6xf32>) {
  // expected-error @+1 {{operand #0 must have power-of-two dimensions, but dimension 0 of 'tensor<6xf32>' is 6}}
  tile.print "x", %x : tensor<6xf32>
  return
}
