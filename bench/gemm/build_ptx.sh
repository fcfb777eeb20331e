#!/usr/bin/env bash
# Compiles the GEMM examples (examples/gemm.mlir, examples/matmul.mlir) in
# the block shapes bench/gemm/bench.py chooses among, to PTX under $1
# (default build/gemm-ptx), and checks each with ptxas. Run here, then carry
# the folder to the GPU machine (scripts/gpu-check.sh prepare packs it):
#   bench/gemm/build_ptx.sh && (GPU) python3 bench/gemm/bench.py build/gemm-ptx
# File names: <kernel>_<BM>x<BN>x<BK>_w<warps>_s<stages>[_<tag>].ptx (matmul
# adds GROUP_SIZE_M=8; gemm_f16 and gemm_bf16 are gemm.mlir at T=f16 and
# T=bf16, gemm_tma_f16 and gemm_tma_bf16 gemm_tma.mlir, gemm_splitk_f16 and
# gemm_splitk_bf16 gemm_splitk.mlir, gemm_tma_splitk_f16 and
# gemm_tma_splitk_bf16 gemm_tma_splitk.mlir, gemm_tma_persistent_f16 and
# gemm_tma_persistent_bf16 gemm_tma_persistent.mlir), each with llkc's launch metadata <file>.json beside it. Tags name
# the code-generation options of a configuration: sm90a (--arch sm_90a: dots
# on warpgroup MMA), late (--late-copies), pre (--mma-prefetch), c<N>
# (--min-programs-per-sm N).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/gemm-ptx}
llkc=${LLKC:-build/bin/llkc}
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
mkdir -p "$out"
compile() { # kernel bm bn bk warps stages [tag] [extra -D...]
  local kernel=$1 bm=$2 bn=$3 bk=$4 w=$5 s=$6 tag=${7:-}
  shift 6
  [ $# -gt 0 ] && shift
  local flags=() suffix="" arch=sm_90
  if [ -n "$tag" ] && [ "$tag" != "-" ]; then
    suffix="_$tag"
    for t in ${tag//_/ }; do
      case $t in
        late) flags+=(--late-copies) ;;
        pre) flags+=(--mma-prefetch) ;;
        c[0-9]*) flags+=(--min-programs-per-sm "${t#c}") ;;
        sm90a) arch=sm_90a ;;
        *) echo "unknown tag $t" >&2; exit 1 ;;
      esac
    done
  fi
  local file="$out/${kernel}_${bm}x${bn}x${bk}_w${w}_s${s}${suffix}.ptx"
  local source=$kernel
  case $kernel in
    gemm_f16 | gemm_bf16) source=gemm; set -- -D T="${kernel#gemm_}" "$@" ;;
    gemm_tma_f16 | gemm_tma_bf16) source=gemm_tma; set -- -D T="${kernel#gemm_tma_}" "$@" ;;
    gemm_splitk_f16 | gemm_splitk_bf16)
      source=gemm_splitk; set -- -D T="${kernel#gemm_splitk_}" "$@" ;;
    gemm_tma_splitk_f16 | gemm_tma_splitk_bf16)
      source=gemm_tma_splitk; set -- -D T="${kernel#gemm_tma_splitk_}" "$@" ;;
    gemm_tma_persistent_f16 | gemm_tma_persistent_bf16)
      source=gemm_tma_persistent; set -- -D T="${kernel#gemm_tma_persistent_}" "$@" ;;
  esac
  "$llkc" "examples/$source.mlir" -D BLOCK_M="$bm" -D BLOCK_N="$bn" -D BLOCK_K="$bk" \
    "$@" --num-warps "$w" --num-stages "$s" "${flags[@]}" --arch "$arch" -o "$file"
  "$ptxas" -arch="$arch" "$file" -o /dev/null
}
# BM BN BK warps stages [tag]; stages 1: no software pipelining (the
# baseline).
for cfg in "128 128 32 4 1" "128 128 64 4 1" \
           "128 128 32 4 3" "128 128 32 4 4" "128 128 64 4 3" "128 128 64 8 3" \
           "128 256 32 8 3" "128 256 32 8 4" "128 256 64 8 3" "128 256 64 8 4" \
           "256 128 32 8 3" "256 128 64 8 3" \
           "64 128 64 4 3" "64 128 64 4 4" "64 128 32 4 4" "64 256 64 8 3" \
           "128 64 64 4 3" "64 64 64 4 3" "64 64 64 4 4" \
           "128 128 32 4 4 late" "128 128 32 4 4 pre" "128 128 32 4 4 late_pre" \
           "128 128 32 4 3 pre" "128 128 32 4 5 pre" \
           "128 256 32 8 3 late_pre" "128 256 32 8 5 late_pre" \
           "128 128 64 8 3 pre" "128 128 64 8 4 pre" "128 128 64 8 3 late_pre" \
           "128 256 32 8 4 pre" "128 256 32 8 4 late_pre" "128 256 64 8 4 late" \
           "256 128 32 8 4 pre" "256 128 32 8 4 late_pre" "128 128 32 8 4 pre" \
           "64 128 64 4 3 pre" "64 128 32 4 4 c3_late" "64 128 32 4 4 c3_pre" \
           "64 128 32 4 5 pre" "64 256 32 8 4 late_pre"; do
  set -- $cfg
  compile gemm_f16 "$@"
done
compile matmul 128 128 32 4 3 - -D GROUP_SIZE_M=8
compile matmul 128 256 64 8 3 - -D GROUP_SIZE_M=8
compile matmul 64 64 32 4 3 - -D GROUP_SIZE_M=8
compile matmul 128 256 32 8 4 late_pre -D GROUP_SIZE_M=8
# sm_90a (tag sm90a): the same sources, dots on warpgroup MMA (wgmma).
# Asynchronous dots with 4+ stages run their cp.async copies S-2 steps
# ahead (one barrier a step); with 3, S-1 ahead behind a second barrier.
for cfg in "128 128 64 4 3" "128 128 64 8 3" "128 128 64 4 4" "128 128 64 4 5" "128 128 64 4 6" "128 128 64 4 7" "128 256 64 8 4" \
           "64 128 64 4 4" "64 256 64 4 4" "64 256 64 4 5" "128 128 64 8 4" \
           "128 128 64 8 5" "128 128 64 8 6" "256 128 64 8 4"; do
  set -- $cfg
  compile gemm_f16 "$@" sm90a
  compile gemm_bf16 "$@" sm90a
done
compile matmul 128 256 64 8 4 sm90a -D GROUP_SIZE_M=8
# The split-K tail (examples/gemm_splitk.mlir): the blocks of the last,
# partly filled wave split along K; the benchmark picks the split from the
# occupancy.
for cfg in "128 128 32 4 4 late_pre" "128 128 64 8 4 pre" "128 256 32 8 4 late_pre" \
           "128 128 64 8 3 sm90a" "128 128 64 8 4 sm90a" "128 256 64 8 4 sm90a" \
           "128 128 64 4 4 sm90a"; do
  set -- $cfg
  compile gemm_splitk_f16 "$@"
  case $cfg in *sm90a) compile gemm_splitk_bf16 "$@" ;; esac
done
# sm_90a with TMA: examples/gemm_tma.mlir (tensor descriptors).
for cfg in "128 128 64 4 3" "128 128 64 4 4" "128 128 64 4 5" "128 128 64 4 6" \
           "128 256 64 8 3" "128 256 64 8 4" \
           "64 256 64 4 4" "128 128 64 8 4" "256 128 64 8 3" "256 128 64 8 4"; do
  set -- $cfg
  compile gemm_tma_f16 "$@" sm90a
  compile gemm_tma_bf16 "$@" sm90a
done
# Both: examples/gemm_tma_splitk.mlir.
for cfg in "128 128 64 4 4" "128 128 64 8 4" "128 256 64 8 3" "128 256 64 8 4"; do
  set -- $cfg
  compile gemm_tma_splitk_f16 "$@" sm90a
  compile gemm_tma_splitk_bf16 "$@" sm90a
done
# Persistent (examples/gemm_tma_persistent.mlir): one program per slot.
for cfg in "128 128 64 4 3" "128 128 64 4 4" "128 128 64 4 5" "128 256 64 8 3" "64 128 64 4 4" "64 256 64 4 4"; do
  set -- $cfg
  compile gemm_tma_persistent_f16 "$@" sm90a
  compile gemm_tma_persistent_bf16 "$@" sm90a
done
ls "$out"
