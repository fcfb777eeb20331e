// The debugging ops: round trip, tile-strip-device-debug (what a kernel
// built without device debug keeps: no print, no assert, and the values
// only they used are dead), and tile.static_assert erased by
// canonicalization once the verifier has found it true.
//
// RUN: llk-opt %s | llk-opt | FileCheck %s
// RUN: llk-opt %s --mlir-print-op-generic | llk-opt | FileCheck %s
// RUN: llk-opt %s --tile-strip-device-debug --canonicalize | FileCheck %s --check-prefix=STRIP
// RUN: llk-opt %s --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @debug(
// CHECK:         tile.print "x = ", %{{.*}} : tensor<4x8xf32>
// CHECK:         tile.print "n, x: ", %{{.*}}, %{{.*}} : i32, tensor<4x8xf32>
// CHECK:         tile.print "here"
// CHECK:         tile.assert %{{.*}}, "x is a number" : tensor<4x8xi1>
// CHECK:         tile.assert %{{.*}}, "n > 0" : i1
// CHECK:         tile.static_assert %{{.*}}, "BLOCK fits"
// STRIP-LABEL: func.func @debug(
// STRIP-NEXT:    return
// CANON-LABEL: func.func @debug(
// CANON:         tile.assert
// CANON-NOT:     tile.static_assert
func.func @debug(%x: tensor<4x8xf32>, %n: i32) {
  tile.print "x = ", %x : tensor<4x8xf32>
  tile.print "n, x: ", %n, %x : i32, tensor<4x8xf32>
  tile.print "here"
  %number = arith.cmpf ord, %x, %x : tensor<4x8xf32>
  tile.assert %number, "x is a number" : tensor<4x8xi1>
  %zero = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %n, %zero : i32
  tile.assert %positive, "n > 0" : i1
  %block = arith.constant 128 : i32
  %max = arith.constant 1024 : i32
  %fits = arith.cmpi sle, %block, %max : i32
  tile.static_assert %fits, "BLOCK fits"
  return
}
