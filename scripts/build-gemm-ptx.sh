#!/usr/bin/env bash
# Compiles the GEMM examples (examples/gemm.mlir, examples/matmul.mlir) in
# the block shapes scripts/gpu-gemm-bench.py chooses among, to PTX under $1
# (default build/gemm-ptx), and checks each with ptxas. Run here, then carry
# the folder to the GPU machine:
#   scripts/build-gemm-ptx.sh && (GPU) python3 scripts/gpu-gemm-bench.py build/gemm-ptx
# File names: <kernel>_<BM>x<BN>x<BK>_w<warps>_s<stages>.ptx (matmul adds
# GROUP_SIZE_M=8; gemm_f16 and gemm_bf16 are gemm.mlir at T=f16 and T=bf16),
# each with llkc's launch metadata <file>.json beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/gemm-ptx}
llkc=${LLKC:-build/bin/llkc}
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
mkdir -p "$out"
arch=sm_90
compile() { # kernel bm bn bk warps stages [extra -D...]
  local kernel=$1 bm=$2 bn=$3 bk=$4 w=$5 s=$6
  shift 6
  local suffix=; [ "$arch" = sm_90 ] || suffix="_${arch/_/}"
  local file="$out/${kernel}_${bm}x${bn}x${bk}_w${w}_s${s}${suffix}.ptx"
  local source=$kernel
  case $kernel in gemm_f16 | gemm_bf16) source=gemm; set -- -D T="${kernel#gemm_}" "$@" ;; esac
  "$llkc" "examples/$source.mlir" -D BLOCK_M="$bm" -D BLOCK_N="$bn" -D BLOCK_K="$bk" \
    "$@" --num-warps "$w" --num-stages "$s" --arch "$arch" -o "$file"
  "$ptxas" -arch="$arch" "$file" -o /dev/null
}
# BM BN BK warps stages; stages 1: no software pipelining (the baseline).
for cfg in "128 128 32 4 1" "128 128 64 4 1" \
           "128 128 32 4 3" "128 128 32 4 4" "128 128 64 4 3" "128 128 64 8 3" \
           "128 256 32 8 3" "128 256 32 8 4" "128 256 64 8 3" "128 256 64 8 4" \
           "256 128 32 8 3" "256 128 64 8 3" \
           "64 128 64 4 3" "64 128 64 4 4" "64 128 32 4 4" "64 256 64 8 3" \
           "128 64 64 4 3" "64 64 64 4 3" "64 64 64 4 4"; do
  set -- $cfg
  compile gemm_f16 "$@"
done
compile matmul 128 128 32 4 3 -D GROUP_SIZE_M=8
compile matmul 128 256 64 8 3 -D GROUP_SIZE_M=8
compile matmul 64 64 32 4 3 -D GROUP_SIZE_M=8
# sm_90a: the same sources, dots on warpgroup MMA (wgmma); files *_sm90a.ptx.
arch=sm_90a
for cfg in "128 128 64 4 3" "128 128 64 4 4" "128 128 64 4 5" "128 256 64 8 3" \
           "128 256 64 8 4" "64 128 64 4 4" "64 256 64 4 3" "64 256 64 4 4" \
           "128 128 64 8 4" "256 128 64 8 3" "256 128 64 8 4"; do
  set -- $cfg
  compile gemm_f16 "$@"
  compile gemm_bf16 "$@"
done
compile matmul 128 256 64 8 3 -D GROUP_SIZE_M=8
ls "$out"
