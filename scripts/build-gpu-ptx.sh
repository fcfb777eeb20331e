#!/usr/bin/env bash
# Compiles the example kernels, in every specialization the GPU check runs,
# to PTX under $1 (default build/gpu-ptx), and checks each with ptxas.
# Run here, then carry the folder to the GPU machine:
# (scripts/gpu-check.sh prepare calls it; bench/llama/bench.py launches them.)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/gpu-ptx}
llkc=${LLKC:-build/bin/llkc}
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
mkdir -p "$out"
compile() { # source block warps name
  "$llkc" "examples/$1.mlir" -D BLOCK="$2" --num-warps "$3" --arch sm_90 -o "$out/$4_b$2_w$3.ptx"
  "$ptxas" -arch=sm_90 "$out/$4_b$2_w$3.ptx" -o /dev/null
}
compile vector_add 4096 4 add
for w in 4 8 16; do
  compile softmax 4096 "$w" softmax
  compile rms_norm 4096 "$w" rms_norm
done
ls "$out"
