// RUN: llkc %s --arch sm_80 -o - | FileCheck %s

// An argmax/argmin across warps keeps each warp's value and index in shared
// memory: the i32 indices after the values. With i8 or i16 values the
// indices started at an odd offset (2 bytes past the start for two warps of
// i8 values here), and the 4-byte accesses faulted on the GPU
// (CUDA_ERROR_MISALIGNED_ADDRESS): found by the differential test
// (scripts/gen-tile-kernel.py, seed 2182). They start 4-byte aligned.
// CHECK-LABEL: .entry argmax_i8
// CHECK: st.shared.b8
// CHECK: st.shared.b32 [{{%r[0-9]+}}+4]
// CHECK: ld.shared.b32 {{%r[0-9]+}}, [__llk_smem_argmax_i8+4];
// CHECK: ld.shared.b32 {{%r[0-9]+}}, [__llk_smem_argmax_i8+8];
// CHECK-NOT: .b32 {{.*}}+2]
// CHECK: ret;
func.func @argmax_i8(%x: !tile.ptr<i8> {tile.divisibility = 16},
                     %out: !tile.ptr<i32> {tile.divisibility = 16})
    attributes {tile.num_warps = 2 : i32} {
  %s = tile.load %x : !tile.ptr<i8>
  %v = tile.splat %s : i8 -> tensor<128xi8>
  %i = tile.reduce argmax %v axis = 0 : tensor<128xi8> -> i32
  tile.store %i, %out : !tile.ptr<i32>
  return
}
