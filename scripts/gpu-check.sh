#!/usr/bin/env bash
# Everything the GPU checks, in as few device calls as possible. Two halves:
#
#   scripts/gpu-check.sh prepare [CARRY]      # here: needs LLVM/MLIR and CUDA headers
#     Builds the statically linked GPU programs (build-static, LLK_STATIC_LLVM=ON),
#     compiles every kernel of examples/kernels.list (and the example variants of
#     scripts/build-gpu-ptx.sh) to PTX + metadata with llkc, and packs them with
#     the kernel sources, the runtime check and the Python benchmarks into CARRY
#     (default .device-carry, ignored by git; carry it to the device); the GEMM
#     benchmark's PTX (bench/gemm/build_ptx.sh) as gemm-ptx.tar.xz, unless
#     LLK_GEMM_PTX=0.
#
#   .device-carry/gpu-check.sh run [checks|runtime|bench|autograd|decode|tokenizer|all|gemm|plot] [args...]
#     On the GPU machine, from the repository root: `checks` runs
#     llk-gpu-check (every kernel check, its small and GPU shapes, against
#     float64 references, timed), `runtime` the runtime's own GPU check and
#     the JIT/disk-cache timing, `bench` bench/llama/bench.py (llk vs Triton
#     vs seed-style CUDA, copy bandwidth), `autograd` bench/llama/norm_autograd.py
#     (the Apex LayerNorm/RMSNorm forward and backward kernels against PyTorch
#     autograd in float64/float32/the storage type), `decode` llk-decode-block
#     (one Llama block in generation as a CUDA graph, checked against float64,
#     step time vs the kernels' bandwidth floors; --small, then Llama-2 7B);
#     `tokenizer` bench/llama/tokenizer_vs_sentencepiece.py (llk-gguf's
#     SentencePiece tokenizer vs the sentencepiece package, a CSV);
#     `gemm` (not in `all`) bench/gemm/bench.py, f16 then bf16 (llk vs cuBLAS
#     vs Triton); `plot` bench/plot.py on $OUT (needs matplotlib). Output
#     also under $OUT, the benchmarks' CSVs too (bench/README.md). The args
#     go to the program of the mode named (with `all`, to llk-gpu-check and
#     bench.py; the others use defaults).
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
  programs=(llk-gpu-check llk-runtime-gpu-check llk-softmax-jit llk-decode-block llk-gguf)
  ninja -C "$static" "${programs[@]}" llkc
  for b in "${programs[@]}"; do
    if ldd "$static/bin/$b" | grep -Ei 'libLLVM|libMLIR|libz3'; then
      echo "error: $b is not self-contained" >&2; exit 1
    fi
  done
  rm -rf "$carry" && mkdir -p "$carry/bin" "$carry/ptx"
  cp -r examples "$carry/examples"
  mkdir -p "$carry/bench" && cp -r bench/llama bench/gemm bench/common bench/plot.py "$carry/bench/"
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
  if [[ ${LLK_GEMM_PTX:-1} != 0 ]]; then
    LLKC="$static/bin/llkc" bench/gemm/build_ptx.sh "$carry/gemm-ptx" >/dev/null
    tar -C "$carry" -cJf "$carry/gemm-ptx.tar.xz" gemm-ptx && rm -rf "$carry/gemm-ptx"
  fi
  # The runtime check loads add.ptx (+ .json).
  "$static/bin/llkc" examples/vector_add.mlir -D BLOCK=4096 --num-warps 4 --arch sm_90 \
    -o "$carry/ptx/add.ptx"
  for b in "${programs[@]}"; do
    strip -o "$carry/bin/$b" "$static/bin/$b"
    xz -T2 -6 -f "$carry/bin/$b"
  done
  du -sh "$carry"
  ;;
run)
  what=${2:-all}
  shift 2 || shift $#
  here=$(cd "$(dirname "$0")" && pwd)
  for b in "$here"/bin/*.xz; do
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
      for i in 1 2 3; do
        echo "== softmax JIT example, process $i (cache $LLK_CACHE_DIR.jit)"
        LLK_CACHE_DIR=$LLK_CACHE_DIR.jit ./bin/llk-softmax-jit examples/softmax.mlir || s1=1
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
  if [[ $what == tokenizer || $what == all ]]; then
    args=(); [[ $what == tokenizer ]] && args=("$@")
    PYTHONUNBUFFERED=1 python3 "$here/bench/llama/tokenizer_vs_sentencepiece.py" \
      --llk-gguf "$here/bin/llk-gguf" ${args[@]+"${args[@]}"} 2>&1 | log tokenizer-vs-sentencepiece.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == bench || $what == all ]]; then
    # Named after the timing, as bench.py names its CSV ($OUT/llama[-graph][-dependent].csv).
    sfx=; [[ " $* " == *" --graph "* ]] && sfx+=-graph; [[ " $* " == *" --dependent "* ]] && sfx+=-dependent
    PYTHONUNBUFFERED=1 python3 "$here/bench/llama/bench.py" --ptx-dir "$here/ptx" "$@" 2>&1 | log "llama-bench$sfx.txt"
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == gemm ]]; then
    gemm_ptx=$(mktemp -d)
    tar -C "$gemm_ptx" -xJf "$here/gemm-ptx.tar.xz" || echo "error: no gemm-ptx.tar.xz (prepare with LLK_GEMM_PTX=1)" >&2
    for dtype in f16 bf16; do  # CSVs: $OUT/gemm-<dtype>.csv
      PYTHONUNBUFFERED=1 python3 "$here/bench/gemm/bench.py" "$gemm_ptx/gemm-ptx" --dtype $dtype "$@" 2>&1 \
        | log "gemm-$dtype.txt"
      status=$(( status || PIPESTATUS[0] ))
    done
  fi
  if [[ $what == plot ]]; then
    python3 "$here/bench/plot.py" "${OUT:?plot: set OUT, the folder of the CSVs}" "$@" || status=1
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
  sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 2 ;;
esac
