// RUN: llk-opt %s -tile-assign-layouts -convert-tile-to-gpu | FileCheck %s
// RUN: llk-opt %s -tile-assign-layouts -convert-tile-to-gpu=grid-dependency-control=false \
// RUN:   | FileCheck %s --check-prefix=DROPPED

// griddepcontrol as inline assembly that clobbers memory, in program order
// around the load (LLVM's griddepcontrol intrinsics do not touch memory, so
// a load could move above them); dropped for targets without it.
// CHECK-LABEL: gpu.func @wait_then_load
// CHECK:       llvm.inline_asm has_side_effects "griddepcontrol.launch_dependents;", "~{memory}"
// CHECK:       llvm.inline_asm has_side_effects "griddepcontrol.wait;", "~{memory}"
// CHECK:       llvm.load
// DROPPED-LABEL: gpu.func @wait_then_load
// DROPPED-NOT:   griddepcontrol
// DROPPED:       gpu.return
func.func @wait_then_load(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  tile.launch_dependents
  tile.grid_dependency_wait
  %v = tile.load %x : !tile.ptr<f32>
  tile.store %v, %y : !tile.ptr<f32>
  return
}
