// RUN: llk-opt %s -split-input-file -convert-tile-to-gpu | FileCheck %s

// Kernels move into the gpu.module @llk_kernels of a container module and
// become gpu.func kernels of num_warps * 32 threads; a pointer argument is
// a global LLVM pointer, scalars stay; tile.min_programs_per_sm becomes
// nvvm.minctasm (ptxas fits the registers to that many programs an SM);
// func.return is gpu.return.
// CHECK: module attributes {gpu.container_module}
// CHECK-NEXT: gpu.module @llk_kernels
// CHECK-NEXT: gpu.func @kernel(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: f16) kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.minctasm = 2 : i32}
// CHECK-NEXT: gpu.return
// CHECK-LABEL: gpu.func @one_warp()
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 32, 1, 1>}
// CHECK-NOT: minctasm
func.func @kernel(%p: !tile.ptr<f32>, %n: i32, %h: f16) attributes {tile.num_warps = 8 : i32, tile.min_programs_per_sm = 2 : i32} {
  return
}
func.func @one_warp() attributes {tile.num_warps = 1 : i32} {
  return
}
