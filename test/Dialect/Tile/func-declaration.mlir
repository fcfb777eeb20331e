// Kernel argument attributes on function declarations (no body, so no region
// arguments): the argument types come from the function type.
//
// RUN: llk-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func private @external_kernel(
// CHECK-SAME:    !tile.ptr<f32> {tile.divisibility = 16 : i64},
// CHECK-SAME:    i32 {tile.alignment = 8 : i64})
func.func private @external_kernel(%p: !tile.ptr<f32> {tile.divisibility = 16},
                                   %n: i32 {tile.alignment = 8})

// -----

// expected-error @+1 {{'tile.divisibility' applies to pointer and integer arguments, but argument 1 has type 'f32'}}
func.func private @external_float(%p: !tile.ptr<f32>, %x: f32 {tile.divisibility = 16})

// -----

// expected-error @+1 {{'tile.alignment' must be a power-of-two integer in [1, 1073741824], got 3 : i64}}
func.func private @external_bad_value(%p: !tile.ptr<f32> {tile.alignment = 3})
