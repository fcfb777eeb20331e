#!/usr/bin/env bash
# The runtime's GPU checks, in one device call. Two halves:
#
#   scripts/gpu-runtime-check.sh prepare [CARRY_DIR]   # here (needs LLVM/MLIR)
#     builds the statically linked programs (build-static, LLK_STATIC_LLVM=ON),
#     checks with ldd that they need no libLLVM/libMLIR, compiles the vector-add
#     PTX + metadata with llkc, and puts everything, stripped and xz-compressed,
#     with the example sources, into CARRY_DIR (default build/device-carry).
#
#   scripts/gpu-runtime-check.sh run                    # on the GPU machine,
#     from inside the carried folder: unpacks, runs llk-runtime-gpu-check (load
#     + launch from PTX, the C API, JIT, autotune, graph replay, each launch
#     error), then llk-softmax-jit twice in two processes on an empty cache
#     (first compile, then the disk-cache hit), and prints a summary table.
#     Output also goes to $OUT/runtime-check.txt when $OUT is set.
set -uo pipefail

cmd=${1:-}
case "$cmd" in
prepare)
  set -e
  cd "$(dirname "$0")/.."
  carry=${2:-build/device-carry}
  static=${LLK_STATIC_BUILD_DIR:-build-static}
  cmake -S . -B "$static" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLK_STATIC_LLVM=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >/dev/null
  ninja -C "$static" llk-runtime-gpu-check llk-softmax-jit llkc
  for b in llk-runtime-gpu-check llk-softmax-jit; do
    if ldd "$static/bin/$b" | grep -Ei 'libLLVM|libMLIR|libstdc\+\+|libz3'; then
      echo "error: $b is not self-contained" >&2; exit 1
    fi
  done
  rm -rf "$carry" && mkdir -p "$carry/ptx" "$carry/examples"
  "$static/bin/llkc" examples/vector_add.mlir -D BLOCK=4096 --num-warps 4 --arch sm_90 \
    -o "$carry/ptx/add.ptx"
  cp examples/*.mlir "$carry/examples/"
  cp scripts/gpu-runtime-check.sh "$carry/"
  for b in llk-runtime-gpu-check llk-softmax-jit; do
    strip -o "$carry/$b" "$static/bin/$b"
    xz -T2 -6 -f "$carry/$b"
  done
  du -sh "$carry"; ls -la "$carry"
  ;;
run)
  here=$(cd "$(dirname "$0")" && pwd)
  cd "$here"
  log=${OUT:+$OUT/runtime-check.txt}
  {
    echo "== llk runtime GPU check, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
    for b in llk-runtime-gpu-check llk-softmax-jit; do
      [[ -f $b.xz ]] && { rm -f "$b"; xz -d -k "$b.xz"; chmod +x "$b"; }
    done
    ldd ./llk-runtime-gpu-check | grep -Ei 'llvm|mlir' || echo "ldd: no LLVM/MLIR libraries needed"
    export LLK_LIBDEVICE=${LLK_LIBDEVICE:-/usr/local/cuda/nvvm/libdevice/libdevice.10.bc}
    export LLK_CACHE_DIR=$(mktemp -d)/llk-cache
    echo "cache: $LLK_CACHE_DIR (empty)"
    echo
    ./llk-runtime-gpu-check ptx examples; check=$?
    echo
    # The softmax example: a fresh cache, then a second process hits it.
    export LLK_CACHE_DIR=$(mktemp -d)/llk-cache
    echo "== softmax example, process 1 (empty cache)"
    ./llk-softmax-jit examples/softmax.mlir; first=$?
    echo "== softmax example, process 2 (same cache)"
    ./llk-softmax-jit examples/softmax.mlir; second=$?
    echo "== softmax example, process 3 (same cache)"
    ./llk-softmax-jit examples/softmax.mlir; third=$?
    echo
    echo "| part | exit status |"
    echo "|---|---|"
    echo "| llk-runtime-gpu-check | $check |"
    echo "| llk-softmax-jit, first process (compile) | $first |"
    echo "| llk-softmax-jit, second process (disk cache) | $second |"
    echo "| llk-softmax-jit, third process (disk cache) | $third |"
    status=$(( check || first || second || third ))
    [[ $status == 0 ]] && echo "ALL PASSED" || echo "SOME FAILED"
    exit $status
  } 2>&1 | if [[ -n $log ]]; then mkdir -p "$OUT"; tee "$log"; else cat; fi
  exit "${PIPESTATUS[0]}"
  ;;
*)
  echo "usage: $0 prepare [CARRY_DIR] | run" >&2
  exit 2
  ;;
esac
