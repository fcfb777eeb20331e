// llama.cpp's cpy_f32_f16: a strided copy of a 3-D f32 tensor into an f16
// one (the new tokens' K and V into the caches). Flat index i < ne is split
// over each side's shape, and each side has byte strides nb:
//
//   i02 = i / (ne00*ne01), i01 = (i - i02*ne00*ne01) / ne00, i00 = the rest
//   i12 = i / (ne10*ne11), i11 = (i - i12*ne10*ne11) / ne10, i10 = the rest
//   dst[dst_offset + i10*nb10 + i11*nb11 + i12*nb12]
//     = f16(src[src_offset + i00*nb00 + i01*nb01 + i02*nb02])
//
// (src_offset / dst_offset: the byte offsets of ggml's views, e.g. the cache
// slot of token n_past.)
//
// f32 -> f16 rounds to nearest even.
// K cache [C][NH][D]: src K [T][NH][D] (ne00 = D, ne01 = NH, dense), dst at
//   token n_past (dst_offset = 2*n_past*NH*D, ne10 = D, ne11 = NH, nb10 = 2,
//   nb11 = 2*D, nb12 = 2*NH*D).
// V cache [NH][D][C]: src V^T (ne00 = T, ne01 = NH*D, nb00 = 4*NH*D,
//   nb01 = 4), dst at column n_past (dst_offset = 2*n_past, ne10 = T,
//   ne11 = NH*D, nb10 = 2, nb11 = 2*C).
//
// Grid: (ceil(ne / BLOCK), 1, 1). Constants: BLOCK (1024). num_warps: 4.
// Arguments: src, dst (byte pointers), src_offset, dst_offset, ne, ne00,
// ne01, nb00, nb01, nb02, ne10, ne11, nb10, nb11, nb12 (all i32, bytes;
// offsets must stay below 2^31).
func.func @cpy_f32_f16(%src: !tile.ptr<i8> {tile.divisibility = 16},
                       %dst: !tile.ptr<i8> {tile.divisibility = 16},
                       %src_offset: i32, %dst_offset: i32,
                       %ne: i32, %ne00: i32, %ne01: i32,
                       %nb00: i32, %nb01: i32, %nb02: i32,
                       %ne10: i32, %ne11: i32,
                       %nb10: i32, %nb11: i32, %nb12: i32) {
  // Programmatic dependent launch (llk-decode-block): the next kernel may
  // start launching now; this one waits here for the kernel before it.
  tile.launch_dependents
  tile.grid_dependency_wait
  %pid = tile.program_id x
  %block = arith.constant ${BLOCK} : i32
  %start = arith.muli %pid, %block : i32
  %range = tile.make_range 0 to ${BLOCK} : tensor<${BLOCK}xi32>
  %starts = tile.splat %start : i32 -> tensor<${BLOCK}xi32>
  %i = arith.addi %starts, %range : tensor<${BLOCK}xi32>
  %nes = tile.splat %ne : i32 -> tensor<${BLOCK}xi32>
  %mask = arith.cmpi slt, %i, %nes : tensor<${BLOCK}xi32>

  // Source element offset in bytes.
  %ne00s = tile.splat %ne00 : i32 -> tensor<${BLOCK}xi32>
  %plane0 = arith.muli %ne00, %ne01 : i32
  %plane0s = tile.splat %plane0 : i32 -> tensor<${BLOCK}xi32>
  %i02 = arith.divsi %i, %plane0s : tensor<${BLOCK}xi32>
  %r0 = arith.remsi %i, %plane0s : tensor<${BLOCK}xi32>
  %i01 = arith.divsi %r0, %ne00s : tensor<${BLOCK}xi32>
  %i00 = arith.remsi %r0, %ne00s : tensor<${BLOCK}xi32>
  %nb00s = tile.splat %nb00 : i32 -> tensor<${BLOCK}xi32>
  %nb01s = tile.splat %nb01 : i32 -> tensor<${BLOCK}xi32>
  %nb02s = tile.splat %nb02 : i32 -> tensor<${BLOCK}xi32>
  %s0 = arith.muli %i00, %nb00s : tensor<${BLOCK}xi32>
  %s1 = arith.muli %i01, %nb01s : tensor<${BLOCK}xi32>
  %s2 = arith.muli %i02, %nb02s : tensor<${BLOCK}xi32>
  %s01 = arith.addi %s0, %s1 : tensor<${BLOCK}xi32>
  %s012 = arith.addi %s01, %s2 : tensor<${BLOCK}xi32>
  %src_offsets = tile.splat %src_offset : i32 -> tensor<${BLOCK}xi32>
  %src_off = arith.addi %s012, %src_offsets : tensor<${BLOCK}xi32>

  // Destination element offset in bytes.
  %ne10s = tile.splat %ne10 : i32 -> tensor<${BLOCK}xi32>
  %plane1 = arith.muli %ne10, %ne11 : i32
  %plane1s = tile.splat %plane1 : i32 -> tensor<${BLOCK}xi32>
  %i12 = arith.divsi %i, %plane1s : tensor<${BLOCK}xi32>
  %r1 = arith.remsi %i, %plane1s : tensor<${BLOCK}xi32>
  %i11 = arith.divsi %r1, %ne10s : tensor<${BLOCK}xi32>
  %i10 = arith.remsi %r1, %ne10s : tensor<${BLOCK}xi32>
  %nb10s = tile.splat %nb10 : i32 -> tensor<${BLOCK}xi32>
  %nb11s = tile.splat %nb11 : i32 -> tensor<${BLOCK}xi32>
  %nb12s = tile.splat %nb12 : i32 -> tensor<${BLOCK}xi32>
  %d0 = arith.muli %i10, %nb10s : tensor<${BLOCK}xi32>
  %d1 = arith.muli %i11, %nb11s : tensor<${BLOCK}xi32>
  %d2 = arith.muli %i12, %nb12s : tensor<${BLOCK}xi32>
  %d01 = arith.addi %d0, %d1 : tensor<${BLOCK}xi32>
  %d012 = arith.addi %d01, %d2 : tensor<${BLOCK}xi32>
  %dst_offsets = tile.splat %dst_offset : i32 -> tensor<${BLOCK}xi32>
  %dst_off = arith.addi %d012, %dst_offsets : tensor<${BLOCK}xi32>

  %src_bytes = tile.splat %src : !tile.ptr<i8> -> tensor<${BLOCK}x!tile.ptr<i8>>
  %src_addr = tile.addptr %src_bytes, %src_off : tensor<${BLOCK}x!tile.ptr<i8>>, tensor<${BLOCK}xi32>
  %src_ptrs = tile.bitcast %src_addr : tensor<${BLOCK}x!tile.ptr<i8>> to tensor<${BLOCK}x!tile.ptr<f32>>
  %v = tile.load %src_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f32>>
  %h = tile.cast %v rounding = rne : tensor<${BLOCK}xf32> to tensor<${BLOCK}xf16>
  %dst_bytes = tile.splat %dst : !tile.ptr<i8> -> tensor<${BLOCK}x!tile.ptr<i8>>
  %dst_addr = tile.addptr %dst_bytes, %dst_off : tensor<${BLOCK}x!tile.ptr<i8>>, tensor<${BLOCK}xi32>
  %dst_ptrs = tile.bitcast %dst_addr : tensor<${BLOCK}x!tile.ptr<i8>> to tensor<${BLOCK}x!tile.ptr<f16>>
  tile.store %h, %dst_ptrs mask %mask : tensor<${BLOCK}x!tile.ptr<f16>>
  return
}
