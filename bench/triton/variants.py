"""The llk configurations bench/triton/bench.py times (pure Python: also read
by bench/triton/build_ptx.py, which compiles them with llkc).

VARIANTS maps a PTX name to (source under examples/, constants, num_warps,
arch); the PTX holds every kernel of the source. Each benchmark case names
the variants it tries; the fastest that passes stands for llk, as an
autotuner would pick it.
"""

# Tutorial 09 runs examples/gemm_tma_persistent.mlir (its port is that
# kernel).
VARIANTS = {
    # 01: vector add (f32)
    "add_b1024_w4": ("triton/01_vector_add.mlir", {"BLOCK": 1024, "DIV": 16}, 4, "sm_90"),
    "add_b4096_w4": ("triton/01_vector_add.mlir", {"BLOCK": 4096, "DIV": 16}, 4, "sm_90"),
    # 02: fused softmax (f32), BLOCK = the row length rounded up
    "softmax_b1024_w4": ("triton/02_fused_softmax.mlir", {"BLOCK": 1024, "DIV": 16}, 4, "sm_90"),
    "softmax_b1024_w8": ("triton/02_fused_softmax.mlir", {"BLOCK": 1024, "DIV": 16}, 8, "sm_90"),
    "softmax_b4096_w8": ("triton/02_fused_softmax.mlir", {"BLOCK": 4096, "DIV": 16}, 8, "sm_90"),
    "softmax_b4096_w16": ("triton/02_fused_softmax.mlir", {"BLOCK": 4096, "DIV": 16}, 16, "sm_90"),
    # 03: matmul + leaky_relu (f16); sm_90a: warpgroup MMA
    "matmul_128x128x32_w4": ("triton/03_matrix_multiplication.mlir",
                             {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_SIZE_M": 8}, 4, "sm_90"),
    "matmul_128x128x64_w4_sm90a": ("triton/03_matrix_multiplication.mlir",
                                   {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_SIZE_M": 8}, 4, "sm_90a"),
    "matmul_128x256x64_w8_sm90a": ("triton/03_matrix_multiplication.mlir",
                                   {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_SIZE_M": 8}, 8, "sm_90a"),
    "matmul_128x256x64_w8_s4_sm90a": ("triton/03_matrix_multiplication.mlir",
                                      {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_SIZE_M": 8}, 8, "sm_90a"),
    # 04: seeded dropout (f32)
    "dropout_b1024_w4": ("triton/04_low_memory_dropout.mlir", {"BLOCK": 1024, "DIV": 16}, 4, "sm_90"),
    "dropout_b4096_w4": ("triton/04_low_memory_dropout.mlir", {"BLOCK": 4096, "DIV": 16}, 4, "sm_90"),
    # 05: layer norm (f16), forward and backward (dx with its partial sums,
    # then dwdb: BLOCK_M x BLOCK_N = 32 x 128 as the tutorial launches it)
    "ln_fwd_b4096_w8": ("triton/05_layer_norm_fwd.mlir", {"T": "f16", "BLOCK": 4096, "DIV": 16}, 8, "sm_90"),
    "ln_fwd_b4096_w16": ("triton/05_layer_norm_fwd.mlir", {"T": "f16", "BLOCK": 4096, "DIV": 16}, 16, "sm_90"),
    "ln_bwd_b4096_w8": ("triton/05_layer_norm_bwd.mlir",
                        {"T": "f16", "BLOCK": 4096, "DIV": 16, "GROUP_SIZE_M": 128, "BLOCK_M": 32,
                         "BLOCK_N": 128}, 8, "sm_90"),
    # 07: asin (f32)
    "asin_b1024_w4": ("triton/07_libdevice_asin.mlir", {"T": "f32", "BLOCK": 1024, "DIV": 16}, 4, "sm_90"),
    "asin_b4096_w4": ("triton/07_libdevice_asin.mlir", {"T": "f32", "BLOCK": 4096, "DIV": 16}, 4, "sm_90"),
    # 08: grouped GEMM (f16), 03's shapes (its hints make the K loop pipeline
    # as 03's: cp.async + mma.sync on sm_90, wgmma on sm_90a)
    "grouped_128x128x32_w4": ("triton/08_grouped_gemm.mlir",
                              {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, 4, "sm_90"),
    "grouped_128x128x32_w4_s4": ("triton/08_grouped_gemm.mlir",
                                 {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, 4, "sm_90"),
    "grouped_128x128x32_w8": ("triton/08_grouped_gemm.mlir",
                              {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, 8, "sm_90"),
    "grouped_128x128x32_w8_s4": ("triton/08_grouped_gemm.mlir",
                                 {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, 8, "sm_90"),
    "grouped_128x128x64_w4_sm90a": ("triton/08_grouped_gemm.mlir",
                                    {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, 4, "sm_90a"),
    "grouped_128x128x64_w8_sm90a": ("triton/08_grouped_gemm.mlir",
                                    {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, 8, "sm_90a"),
    "grouped_128x256x64_w8_sm90a": ("triton/08_grouped_gemm.mlir",
                                    {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64}, 8, "sm_90a"),
    "grouped_128x256x64_w8_s4_sm90a": ("triton/08_grouped_gemm.mlir",
                                       {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64}, 8, "sm_90a"),
    # 09: persistent matmul on TMA (f16, sm_90a)
    "persistent_128x128x64_w4": ("gemm_tma_persistent.mlir",
                                 {"T": "f16", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, 4, "sm_90a"),
    "persistent_128x256x64_w8": ("gemm_tma_persistent.mlir",
                                 {"T": "f16", "BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64}, 8, "sm_90a"),
    # 10 (stand-in): fp8 GEMM, per-tensor or per-row scales (e4m3). On
    # sm_90a (BLOCK_K 128: a 128-byte swizzled slab of K; 64: the 64-byte
    # swizzle): fp8 warpgroup MMA (m64nNk32) from both operands' K-major
    # slots; on sm_90 the dots run as exact f16 dots on mma.sync.
    "fp8_gemm_128x128x128_w4_sm90a": ("triton/10_fp8_gemm.mlir",
                                      {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128}, 4,
                                      "sm_90a"),
    "fp8_gemm_128x128x128_w4_s4_sm90a": ("triton/10_fp8_gemm.mlir",
                                         {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128}, 4,
                                         "sm_90a"),
    "fp8_gemm_128x256x128_w8_sm90a": ("triton/10_fp8_gemm.mlir",
                                      {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 128}, 8,
                                      "sm_90a"),
    "fp8_gemm_128x128x64_w4": ("triton/10_fp8_gemm.mlir",
                               {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, 4, "sm_90a"),
    "fp8_gemm_128x128x32_w4_sm90": ("triton/10_fp8_gemm.mlir",
                                    {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, 4, "sm_90"),
    # 10 on TMA (10_fp8_gemm_tma.mlir): both operands as tensor descriptors,
    # B's N x K block read transposed (K-major) by the fp8 wgmma.
    "fp8_gemm_tma_128x128x128_w4_sm90a": ("triton/10_fp8_gemm_tma.mlir",
                                          {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128}, 4,
                                          "sm_90a"),
    "fp8_gemm_tma_128x128x128_w4_s4_sm90a": ("triton/10_fp8_gemm_tma.mlir",
                                             {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128},
                                             4, "sm_90a"),
    "fp8_gemm_tma_128x256x128_w8_sm90a": ("triton/10_fp8_gemm_tma.mlir",
                                          {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 128}, 8,
                                          "sm_90a"),
    # 10 with DeepSeek-V3's block scales (@fp8_gemm_blockwise): 8 warps (a
    # K block's partial sums beside the accumulator spill 4 warps).
    "fp8_gemm_blockwise_128x128x128_w8_sm90a": ("triton/10_fp8_gemm.mlir",
                                                {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128},
                                                8, "sm_90a"),
    "fp8_gemm_blockwise_128x128x128_w8_s4_sm90a": ("triton/10_fp8_gemm.mlir",
                                                   {"T": "f8E4M3FN", "BLOCK_M": 128, "BLOCK_N": 128,
                                                    "BLOCK_K": 128}, 8, "sm_90a"),
    # 11: vector add as a dependent launch (f32)
    "pdl_add_b1024_w4": ("triton/11_pdl_vector_add.mlir", {"BLOCK": 1024, "DIV": 16, "USE_GDC": 1}, 4, "sm_90"),
    "pdl_add_b4096_w4": ("triton/11_pdl_vector_add.mlir", {"BLOCK": 4096, "DIV": 16, "USE_GDC": 1}, 4, "sm_90"),
}

# 09 pipelines 3 stages (4 do not fit beside the epilogue at 128x256); 03
# at 128x256 also 4; 08's _s4 variants 4 (the others the default, 3); 10 at
# 128x128x128 4 (4 x 32 KiB of fp8 slots).
NUM_STAGES = {"persistent_128x256x64_w8": 3, "matmul_128x256x64_w8_s4_sm90a": 4,
              "grouped_128x128x32_w4_s4": 4, "grouped_128x128x32_w8_s4": 4,
              "grouped_128x256x64_w8_s4_sm90a": 4,
              "fp8_gemm_128x128x128_w4_s4_sm90a": 4,
              "fp8_gemm_tma_128x128x128_w4_s4_sm90a": 4, "fp8_gemm_blockwise_128x128x128_w8_s4_sm90a": 4}

# The fp8 GEMM variants on tensor descriptors (bench.py launches them with
# CUtensorMaps).
TMA_FP8_VARIANTS = tuple(v for v in VARIANTS if v.startswith("fp8_gemm_tma_"))
# The block-scaled ones, and the per-tensor kernel the bench times beside them.
BLOCKWISE_FP8_VARIANTS = tuple(v for v in VARIANTS if v.startswith("fp8_gemm_blockwise_"))
PER_TENSOR_FP8 = "fp8_gemm_tma_128x128x128_w4_sm90a"
