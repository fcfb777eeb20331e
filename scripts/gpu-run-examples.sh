#!/usr/bin/env bash
# Build bench/examples_check.cpp and run it on the llkc-generated PTX of the
# acceptance examples. Runs ON THE GPU MACHINE, from the repo root; needs only
# the CUDA toolkit headers + libcuda (no LLVM/MLIR).
#
#   scripts/gpu-run-examples.sh [PTX_DIR] [--seed N]
#
# PTX_DIR defaults to build/gpu-ptx. If $OUT is set, the output is also written
# to $OUT/examples.txt. Exits non-zero if any check (or any driver call) fails.
set -euo pipefail

PTX_DIR="${1:-build/gpu-ptx}"
shift || true  # remaining args (e.g. --seed N) go to the program
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
SRC=bench/examples_check.cpp
BIN=/tmp/examples_check

if [[ ! -f "$SRC" ]]; then
  echo "error: $SRC not found; run from the repo root" >&2
  exit 2
fi

# libcuda.so normally comes from the driver (default linker path); the stubs
# directory is only a link-time fallback and is never used at run time.
LINK=(-L"$CUDA_HOME/lib64" -L"$CUDA_HOME/lib64/stubs" -lcuda)
if command -v g++ >/dev/null 2>&1; then
  g++ -O2 -std=c++17 -I"$CUDA_HOME/include" "$SRC" -o "$BIN" "${LINK[@]}"
elif command -v nvcc >/dev/null 2>&1 || [[ -x "$CUDA_HOME/bin/nvcc" ]]; then
  NVCC="$(command -v nvcc || echo "$CUDA_HOME/bin/nvcc")"
  "$NVCC" -O2 -std=c++17 "$SRC" -o "$BIN" "${LINK[@]}"
else
  echo "error: neither g++ nor nvcc found" >&2
  exit 2
fi

if [[ ! -d "$PTX_DIR" ]]; then
  echo "warning: PTX directory '$PTX_DIR' does not exist (every kernel will fail)" >&2
fi

if [[ -n "${OUT:-}" ]]; then
  mkdir -p "$OUT"
  # pipefail makes the pipeline's status the program's status.
  "$BIN" "$PTX_DIR" "$@" 2>&1 | tee "$OUT/examples.txt"
else
  "$BIN" "$PTX_DIR" "$@"
fi
