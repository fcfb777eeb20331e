// RUN: llk-opt %s -tile-set-kernel-attrs="num-warps=8 num-stages=2 min-programs-per-sm=3" | FileCheck %s
// RUN: llk-opt %s -tile-set-kernel-attrs=num-stages=1 | FileCheck %s --check-prefix=STAGES
// RUN: llk-opt %s -tile-set-kernel-attrs | FileCheck %s --check-prefix=NONE
// RUN: not llk-opt %s -tile-set-kernel-attrs=num-warps=3 2>&1 | FileCheck %s --check-prefix=BAD

// The options replace what each kernel says; options left at 0 leave it.
// CHECK-LABEL: func.func @own
// CHECK-SAME: attributes {tile.min_programs_per_sm = 3 : i32, tile.num_stages = 2 : i32, tile.num_warps = 8 : i32}
// CHECK-LABEL: func.func @none
// CHECK-SAME: attributes {tile.min_programs_per_sm = 3 : i32, tile.num_stages = 2 : i32, tile.num_warps = 8 : i32}
// STAGES-LABEL: func.func @own
// STAGES-SAME: attributes {tile.num_stages = 1 : i32, tile.num_warps = 4 : i32}
// STAGES-LABEL: func.func @none
// STAGES-SAME: attributes {tile.num_stages = 1 : i32}
// NONE-LABEL: func.func @own
// NONE-SAME: attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32}
// NONE-LABEL: func.func @none()
// NONE-NOT: attributes
// The attributes' verifier checks the values.
// BAD: error: 'tile.num_warps' must be a power-of-two integer in [1, 32], got 3 : i32
func.func @own() attributes {tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  return
}
func.func @none() {
  return
}
