#!/usr/bin/env bash
# Everything the GPU checks, in as few device calls as possible. Two halves:
#
#   scripts/gpu-check.sh prepare [CARRY]      # here: needs LLVM/MLIR and CUDA headers
#     Builds libllk.so with LLVM and MLIR linked in statically and the GPU
#     programs over it (build-static, LLK_STATIC_LLVM=ON; carried as lib/ and bin/),
#     compiles every kernel of examples/kernels.list (and the example variants of
#     scripts/build-gpu-ptx.sh) to PTX + metadata with llkc, and packs them with
#     the kernel sources, the runtime check and the Python benchmark into CARRY
#     (default .device-carry, ignored by git; carry it to the device).
#
#   .device-carry/gpu-check.sh run [checks|runtime|bench|autograd|decode|all] [args...]
#     On the GPU machine, from the repository root: `checks` runs
#     llk-gpu-check (every kernel check, its small and GPU shapes, against
#     float64 references, timed), `runtime` the runtime's own GPU check and
#     the JIT/disk-cache timing, `bench` bench/llama/bench.py (llk vs Triton
#     vs seed-style CUDA, copy bandwidth), `autograd` bench/llama/norm_autograd.py
#     (the Apex LayerNorm/RMSNorm forward and backward kernels against PyTorch
#     autograd in float64/float32/the storage type), `decode` llk-decode-block
#     (one Llama block in generation as a CUDA graph, checked against float64,
#     step time vs the kernels' bandwidth floors; --small, then Llama-2 7B);
#     output also under $OUT. The args go to the program of the mode named
#     (with `all`, to llk-gpu-check and bench.py; the others use defaults).
set -uo pipefail
cmd=${1:-}
case "$cmd" in
prepare)
  set -e
  cd "$(dirname "$0")/.."
  carry=${2:-.device-carry}
  static=${LLK_STATIC_BUILD_DIR:-build-static}
  cmake -S . -B "$static" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLK_STATIC_LLVM=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >/dev/null
  programs=(llk-gpu-check llk-runtime-gpu-check llk-softmax-jit llk-decode-block)
  ninja -C "$static" "${programs[@]}" llkc
  library=$(readlink -f "$static/lib/libllk.so")
  soname=$(objdump -p "$library" | awk '/SONAME/ {print $2}')
  for b in "${programs[@]/#/$static/bin/}" "$library"; do
    if ldd "$b" | grep -Ei 'libLLVM|libMLIR|libz3|not found'; then
      echo "error: $b is not self-contained" >&2; exit 1
    fi
  done
  rm -rf "$carry" && mkdir -p "$carry/bin" "$carry/lib" "$carry/ptx"
  cp -r examples "$carry/examples"
  mkdir -p "$carry/bench" && cp -r bench/llama "$carry/bench/llama"
  cp scripts/gpu-check.sh "$carry/"
  # PTX + metadata for the benchmark: every kernels.list line, named after it.
  grep -vE '^\s*(#|$)' examples/kernels.list | while read -r name source consts warps; do
    defines=()
    if [[ $consts != - ]]; then
      IFS=, read -ra bindings <<<"$consts"
      for b in "${bindings[@]}"; do defines+=(-D "$b"); done
    fi
    "$static/bin/llkc" "examples/$source" "${defines[@]}" --num-warps "$warps" --arch sm_90 \
      -o "$carry/ptx/$name.ptx"
  done
  LLKC="$static/bin/llkc" scripts/build-gpu-ptx.sh "$carry/ptx" >/dev/null
  # The runtime check loads add.ptx (+ .json).
  "$static/bin/llkc" examples/vector_add.mlir -D BLOCK=4096 --num-warps 4 --arch sm_90 \
    -o "$carry/ptx/add.ptx"
  # The programs find libllk.so at $ORIGIN/../lib (their RUNPATH).
  for b in "${programs[@]}"; do
    strip -o "$carry/bin/$b" "$static/bin/$b"
    xz -T2 -6 -f "$carry/bin/$b"
  done
  strip -o "$carry/lib/$soname" "$library"
  xz -T2 -6 -f "$carry/lib/$soname"
  du -b "$carry"/bin/*.xz "$carry"/lib/*.xz
  du -sh "$carry"
  ;;
run)
  what=${2:-all}
  shift 2 || shift $#
  here=$(cd "$(dirname "$0")" && pwd)
  for b in "$here"/bin/*.xz "$here"/lib/*.xz; do
    [[ -f $b ]] || continue
    out=${b%.xz}; [[ -x $out ]] || { xz -d -k -f "$b" && chmod +x "$out"; }
  done
  export LLK_LIBDEVICE=${LLK_LIBDEVICE:-/usr/local/cuda/nvvm/libdevice/libdevice.10.bc}
  export LLK_CACHE_DIR=${LLK_CACHE_DIR:-$(mktemp -d)/llk-cache}
  [[ -n ${OUT:-} ]] && mkdir -p "$OUT"
  status=0
  log() { if [[ -n ${OUT:-} ]]; then tee "$OUT/$1"; else cat; fi; }
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
  if [[ $what == checks || $what == all ]]; then
    "$here/bin/llk-gpu-check" --examples "$here/examples" "$@" 2>&1 | log gpu-check.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == runtime || $what == all ]]; then
    {
      cd "$here" && ./bin/llk-runtime-gpu-check ptx examples; s1=$?
      # The first process compiles (PTX and, with the toolkit's ptxas, a
      # cubin); the others load the cubin from the disk cache.
      for i in 1 2 3; do
        echo "== softmax JIT example, process $i (cache $LLK_CACHE_DIR.jit)"
        LLK_CACHE_DIR=$LLK_CACHE_DIR.jit ./bin/llk-softmax-jit examples/softmax.mlir \
          | tee "$LLK_CACHE_DIR.softmax-$i.txt" || s1=1
        if ((i > 1)) && ! grep -q 'module loaded from its cubin' "$LLK_CACHE_DIR.softmax-$i.txt"; then
          echo "FAIL: process $i did not load the cached cubin"; s1=1
        fi
      done
      exit $s1
    } 2>&1 | log runtime-check.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == decode || $what == all ]]; then
    {
      cd "$here"; s1=0
      echo "== decode block, small (H=512, NH=4, F=1376)"
      ./bin/llk-decode-block --examples examples --small || s1=1
      echo "== decode block, Llama-2 7B"
      if [[ $what == decode ]]; then ./bin/llk-decode-block --examples examples "$@" || s1=1
      else ./bin/llk-decode-block --examples examples || s1=1; fi
      exit $s1
    } 2>&1 | log decode-block.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == bench || $what == all ]]; then
    PYTHONUNBUFFERED=1 python3 "$here/bench/llama/bench.py" --ptx-dir "$here/ptx" "$@" 2>&1 | log llama-bench.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == autograd || $what == all ]]; then
    args=(); [[ $what == autograd ]] && args=("$@")
    PYTHONUNBUFFERED=1 python3 "$here/bench/llama/norm_autograd.py" --ptx-dir "$here/ptx" ${args[@]+"${args[@]}"} 2>&1 \
      | log norm-autograd-run.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  exit $status
  ;;
*)
  sed -n '2,20p' "$0"; exit 2 ;;
esac
