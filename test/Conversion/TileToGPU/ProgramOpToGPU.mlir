// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s
// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu=grid-dependency-control=false \
// RUN:   | FileCheck %s --check-prefix=DROPPED

// The program's place in the grid, its barrier, and programmatic dependent
// launch.

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
func.func @wait_then_load(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  tile.launch_dependents
  tile.grid_dependency_wait
  %v = tile.load %x : !tile.ptr<f32>
  tile.store %v, %y : !tile.ptr<f32>
  return
}

// -----

// The program's index and the grid's size along an axis are the block's
// index and the grid's size, as i32; tile.barrier is gpu.barrier.
// CHECK-LABEL: gpu.func @grid
// CHECK: %[[PID:.*]] = gpu.block_id x
// CHECK: arith.index_cast %[[PID]] : index to i32
// CHECK: %[[N:.*]] = gpu.grid_dim y
// CHECK: arith.index_cast %[[N]] : index to i32
// CHECK: gpu.barrier
// CHECK: st.global.b32
// DROPPED-LABEL: gpu.func @grid
// DROPPED: gpu.barrier
func.func @grid(%out: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
  %pid = tile.program_id x
  %n = tile.num_programs y
  %s = arith.addi %pid, %n : i32
  tile.barrier
  tile.store %s, %out : !tile.ptr<i32>
  return
}
