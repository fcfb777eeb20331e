#!/usr/bin/env bash
# Everything the GPU checks, in as few device calls as possible. Two halves:
#
#   scripts/gpu-check.sh prepare [CARRY]      # here: needs LLVM/MLIR and CUDA headers
#     Builds libllk.so with LLVM and MLIR linked in statically and the GPU
#     programs over it (build-static, LLK_STATIC_LLVM=ON; carried in programs.tar.xz),
#     compiles every kernel of examples/kernels.list (and the example variants of
#     scripts/build-gpu-ptx.sh) to PTX + metadata with llkc, and packs them with
#     the kernel sources, the runtime check and the Python benchmarks into CARRY
#     (default .device-carry, ignored by git; carry it to the device); the GEMM
#     benchmark's PTX (bench/gemm/build_ptx.sh) as gemm-ptx.tar.xz, unless
#     LLK_GEMM_PTX=0; the attention benchmark's (bench/attention/build_ptx.py,
#     every configuration for sm_90 and sm_90a) as attention-ptx.tar.xz.
#
#   .device-carry/gpu-check.sh run [checks|runtime|bench|autograd|decode|tokenizer|rand|all|gemm|attention|triton|llama|python|firstlaunch|plot|sanitize] [args...]
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
#     SentencePiece tokenizer vs the sentencepiece package, a CSV); `rand`
#     scripts/rand-vs-triton.py (tile.randint/randint4x/rand against Triton's
#     tl.randint/randint4x/rand bit for bit, randn against float64 and
#     Triton's, for i32 and i64 seeds and offsets; rand-vs-triton.txt);
#     `llama` (not in `all`) the tiny model on the GPU against float64
#     (llk-llama-engine-tests), then bench/llama/model_bench.py: llk-llama on
#     random q8_0 models shaped like TinyLlama, Llama-2 7B and 13B, decode
#     and prompt tok/s beside the bandwidth floor and the ggml estimate (args:
#     model_bench.py's, e.g. `--shapes 7b` for the 7B alone, about a minute;
#     `--profile` adds the step's per-kernel times, `--decode-shapes
#     A/B/...` times several program shapes of the fused decode kernels),
#     and with the 7B bench/llama/probes/decode_ceiling.py: its step's launch
#     structure read by pure-read kernels, beside llk-llama's step;
#     `gemm` (not in `all`) bench/gemm/bench.py, f16 then bf16 (llk vs cuBLAS
#     vs Triton); `attention` (not in `all`) bench/attention/bench.py:
#     FlashAttention forward and backward, llk vs a Triton kernel after the
#     fused-attention tutorial vs torch SDPA, float64 checks first, the Llama
#     prompt case last (args go to bench.py: --quick, --modes fwd, ...); the
#     Llama, GEMM and attention benchmarks launch llk kernels through the
#     Python package;
#     `python` (not in `all`) pytest on the Python package (python/tests)
#     with LLK_BACKEND=cuda: torch tensors, CuPy arrays, streams, graphs, TMA
#     descriptors, the autotuner (the args go to pytest); `firstlaunch` (not
#     in `all`) bench/jit/first_launch.py: the JIT's first compile + launch
#     of an attention and a GEMM kernel, cold and warm cache, beside Triton's
#     first call of its own (a CSV and a Markdown table); `triton` (not in
#     `all`) bench/triton/bench.py: the ports of Triton's tutorials
#     (examples/triton/) beside Triton kernels written after them, about a
#     minute (bench/triton/README.md); `plot`
#     bench/plot.py on $OUT (needs matplotlib). Output
#     also under $OUT, the benchmarks' CSVs too (bench/README.md). The args
#     go to the program of the mode named (with `all`, to llk-gpu-check and
#     bench.py; the others use defaults).
#     `sanitize [REGEX]` (not part of `all`) runs every kernel check whose
#     name matches REGEX (default: all) at its small shape under
#     compute-sanitizer's memcheck, racecheck, synccheck and initcheck, each
#     check and tool in its own process (an error poisons the CUDA context),
#     LLK_SANITIZE_JOBS (default 12) at a time, each stopped after
#     LLK_SANITIZE_TIMEOUT seconds (default 150), none started after
#     LLK_SANITIZE_DEADLINE seconds (default 420); first each check alone
#     without a sanitizer (tool "none", which also fills the JIT cache).
#     Writes $OUT/<date>-<gpu>/sanitize.csv (check,tool,status,errors,seconds;
#     status pass, fail: the sanitizer's errors, check-failed: the check
#     failed or the program stopped with no sanitizer error, timeout,
#     skipped: past the deadline), sanitize.txt (this output) and
#     sanitize-failures.log (the log of every run that did not pass): copy
#     the folder to bench/results/.
#
#   .device-carry/gpu-check.sh run difftest [COUNT [SEED]]
#     The differential test's GPU half (not part of `all`): every kernel
#     check's small shape, then COUNT (default 600) kernels generated by
#     scripts/gen-tile-kernel.py from SEED (default 1000), each on the
#     interpreter and on the GPU for sm_80, sm_90 and sm_90a, compared
#     (llk-gpu-check difftest); CSVs difftest-checks.csv and
#     difftest-generated.csv (and the log) under $OUT.
set -uo pipefail
cmd=${1:-}
case "$cmd" in
prepare)
  set -e
  cd "$(dirname "$0")/.."
  carry=${2:-.device-carry}
  static=${LLK_STATIC_BUILD_DIR:-build-static}
  # shellcheck disable=SC2086 # LLK_CMAKE_ARGS: words, as scripts/build.sh takes them
  cmake -S . -B "$static" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLK_STATIC_LLVM=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir ${LLK_CMAKE_ARGS:-} >/dev/null
  programs=(llk-gpu-check llk-runtime-gpu-check llk-softmax-jit llk-decode-block llk-gguf
            llk-llama llk-llama-engine-tests)
  ninja -C "$static" "${programs[@]}" llkc
  library=$(readlink -f "$static/lib/libllk.so")
  soname=$(objdump -p "$library" | awk '/SONAME/ {print $2}')
  for b in "${programs[@]/#/$static/bin/}" "$library"; do
    if ldd "$b" | grep -Ei 'libLLVM|libMLIR|libz3|not found'; then
      echo "error: $b is not self-contained" >&2; exit 1
    fi
  done
  rm -rf "$carry" && mkdir -p "$carry/ptx"
  cp -r examples "$carry/examples"
  mkdir -p "$carry/bench" && cp -r bench/llama bench/gemm bench/attention bench/jit bench/triton bench/common bench/plot.py "$carry/bench/"
  cp scripts/gpu-check.sh "$carry/"
  # The Python package (pure Python over the carried libllk.so) and its tests.
  mkdir -p "$carry/python" && cp -r python/llk python/tests python/pyproject.toml "$carry/python/"
  find "$carry/python" -name __pycache__ -prune -exec rm -rf {} +
  mkdir -p "$carry/scripts" && cp scripts/gen-tile-kernel.py scripts/rand-vs-triton.py \
    scripts/triton_random.py "$carry/scripts/"
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
  python3 bench/triton/build_ptx.py "$carry/triton-ptx" --llkc "$static/bin/llkc" >/dev/null
  python3 bench/attention/build_ptx.py "$carry/attention-ptx" --archs sm_90,sm_90a \
    --llkc "$static/bin/llkc" >/dev/null
  tar -C "$carry" -cJf "$carry/attention-ptx.tar.xz" attention-ptx && rm -rf "$carry/attention-ptx"
  if [[ ${LLK_GEMM_PTX:-1} != 0 ]]; then
    LLKC="$static/bin/llkc" bench/gemm/build_ptx.sh "$carry/gemm-ptx" >/dev/null
    tar -C "$carry" -cJf "$carry/gemm-ptx.tar.xz" gemm-ptx && rm -rf "$carry/gemm-ptx"
  fi
  # The runtime check loads add.ptx (+ .json).
  "$static/bin/llkc" examples/vector_add.mlir -D BLOCK=4096 --num-warps 4 --arch sm_90 \
    -o "$carry/ptx/add.ptx"
  # One archive, one xz stream: libllk.so (LLVM and MLIR inside) and the
  # programs, which find it at $ORIGIN/../lib (their RUNPATH).
  stripped=$(mktemp -d)
  mkdir -p "$stripped/bin" "$stripped/lib"
  for b in "${programs[@]}"; do strip -o "$stripped/bin/$b" "$static/bin/$b"; done
  strip -o "$stripped/lib/$soname" "$library"
  tar -C "$stripped" -cf - bin lib | xz -T2 -6 >"$carry/programs.tar.xz"
  rm -rf "$stripped"
  du -b "$carry/programs.tar.xz"
  du -sh "$carry"
  ;;
run)
  what=${2:-all}
  shift 2 || shift $#
  here=$(cd "$(dirname "$0")" && pwd)
  if [[ -f $here/programs.tar.xz && ! -x $here/bin/llk-gpu-check ]]; then
    tar -C "$here" -xJf "$here/programs.tar.xz" || exit 1
  fi
  export LLK_LIBDEVICE=${LLK_LIBDEVICE:-/usr/local/cuda/nvvm/libdevice/libdevice.10.bc}
  # The Python package, over the carried libllk.so (LLVM and MLIR inside).
  export LLK_LIBRARY=${LLK_LIBRARY:-$(ls "$here"/lib/libllk.so* 2>/dev/null | head -1)}
  export PYTHONPATH=$here/python${PYTHONPATH:+:$PYTHONPATH}
  export LLK_CACHE_DIR=${LLK_CACHE_DIR:-$(mktemp -d)/llk-cache}
  [[ -n ${OUT:-} ]] && mkdir -p "$OUT"
  status=0
  log() { if [[ -n ${OUT:-} ]]; then tee "$OUT/$1"; else cat; fi; }
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
  if [[ $what == sanitize ]]; then
    sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer \
      /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)
    [[ -x $sanitizer ]] || { echo "error: no compute-sanitizer on PATH or in /usr/local/cuda" >&2; exit 1; }
    # H100, from "NVIDIA H100 80GB HBM3".
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
      grep -oE '\b[A-Z]+[0-9]{2,}[A-Za-z]*\b' | head -1 | tr '[:upper:]' '[:lower:]')
    results=${OUT:-$here/results}/$(date +%F)-${gpu:-gpu}
    mkdir -p "$results"
    work=$(mktemp -d)
    checks=$("$here/bin/llk-gpu-check" --list | grep -E -- "${1:-.}")
    [[ -n $checks ]] || { echo "error: no check matches '${1:-.}'" >&2; exit 2; }
    tools=${LLK_SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
    # Export what each job needs; one job is one process.
    export sanitizer work here
    export seed=${LLK_SANITIZE_SEED:-$RANDOM$RANDOM}
    export limit=${LLK_SANITIZE_TIMEOUT:-150}
    export deadline=$(( $(date +%s) + ${LLK_SANITIZE_DEADLINE:-420} ))
    # initcheck without the report of allocations never used: the default;
    # versions where the option takes a value are told "no".
    export unused_flag=
    "$sanitizer" --help 2>&1 | grep -qE -- '--track-unused-memory +arg' &&
      unused_flag="--track-unused-memory no"
    sanitize_one() { # tool check
      local tool=$1 check=$2 log="$work/$2.$1.log" errors=0 status rc
      local start=$(date +%s.%N)
      if (( $(date +%s) > deadline )); then
        echo "$check,$tool,skipped,,0" >"$work/$check.$tool.csv"; return
      fi
      local run=("$here/bin/llk-gpu-check" --examples "$here/examples" --only "$check"
                 --small --no-time --seed "$seed")
      if [[ $tool == none ]]; then
        timeout -k 10 "$limit" "${run[@]}" >"$log" 2>&1
      else
        local extra=(); [[ $tool == initcheck ]] && extra=($unused_flag)
        timeout -k 10 "$limit" "$sanitizer" --tool "$tool" --error-exitcode 1 \
          ${extra[@]+"${extra[@]}"} "${run[@]}" >"$log" 2>&1
      fi
      rc=$?
      # "ERROR SUMMARY: 3 errors"; racecheck: "RACECHECK SUMMARY: ... (3 errors, 0 warnings)".
      errors=$(sed -nE 's/.*ERROR SUMMARY: ([0-9]+) error.*/\1/p; s/.*SUMMARY: .*\(([0-9]+) error.*/\1/p' \
        "$log" | sort -n | tail -1)
      if (( rc == 124 || rc == 137 )); then status=timeout
      elif (( ${errors:-0} > 0 )); then status=fail
      elif (( rc != 0 )); then status=check-failed
      else status=pass; fi
      echo "$check,$tool,$status,${errors:-0},$(awk -v a="$start" -v b="$(date +%s.%N)" \
        'BEGIN { printf "%.1f", b - a }')" >"$work/$check.$tool.csv"
    }
    export -f sanitize_one
    jobs=${LLK_SANITIZE_JOBS:-12}
    {
      echo "== compute-sanitizer: $("$sanitizer" --version | grep -i version | head -1)"
      echo "== $(wc -w <<<"$checks") checks x (none $tools), small shapes, seed $seed," \
        "$jobs processes, timeout ${limit}s each"
      t0=$(date +%s)
      for c in $checks; do echo none "$c"; done | xargs -P "$jobs" -n 2 bash -c 'sanitize_one "$@"' _
      for c in $checks; do for t in $tools; do echo "$t" "$c"; done; done |
        xargs -P "$jobs" -n 2 bash -c 'sanitize_one "$@"' _
      {
        echo "# command: gpu-check.sh run sanitize ${1:-}"
        echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
        echo "# date: $(date -Is)"
        echo "check,tool,status,errors,seconds"
      } >"$results/sanitize.csv"
      for c in $checks; do for t in none $tools; do cat "$work/$c.$t.csv"; done; done >>"$results/sanitize.csv"
      : >"$results/sanitize-failures.log"
      while IFS=, read -r c t st e sec; do
        [[ $c == \#* || $st == pass || $st == status ]] && continue
        echo "$c $t: $st ($e errors, ${sec}s)"
        { echo "===== $c $t: $st"; head -c 50000 "$work/$c.$t.log" 2>/dev/null; } >>"$results/sanitize-failures.log"
      done <"$results/sanitize.csv"
      runs=$(grep -cvE '^(#|check,)' "$results/sanitize.csv")
      passed=$(grep -c ',pass,' "$results/sanitize.csv")
      echo "== $passed of $runs runs passed in $(( $(date +%s) - t0 )) s; $results/sanitize.csv"
      (( passed == runs ))
    } 2>&1 | tee "$results/sanitize.txt"
    status=$(( status || PIPESTATUS[0] ))
    rm -rf "$work"
  fi
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
  if [[ $what == tokenizer || $what == all ]]; then
    args=(); [[ $what == tokenizer ]] && args=("$@")
    PYTHONUNBUFFERED=1 python3 "$here/bench/llama/tokenizer_vs_sentencepiece.py" \
      --llk-gguf "$here/bin/llk-gguf" ${args[@]+"${args[@]}"} 2>&1 | log tokenizer-vs-sentencepiece.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == rand || $what == all ]]; then
    args=(); [[ $what == rand ]] && args=("$@")
    PYTHONUNBUFFERED=1 python3 "$here/scripts/rand-vs-triton.py" --ptx-dir "$here/ptx" \
      ${args[@]+"${args[@]}"} 2>&1 | log rand-vs-triton.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == bench || $what == all ]]; then
    # Named after the timing, as bench.py names its CSV ($OUT/llama[-graph][-dependent].csv).
    sfx=; [[ " $* " == *" --graph "* ]] && sfx+=-graph; [[ " $* " == *" --dependent "* ]] && sfx+=-dependent
    PYTHONUNBUFFERED=1 python3 "$here/bench/llama/bench.py" --ptx-dir "$here/ptx" "$@" 2>&1 | log "llama-bench$sfx.txt"
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == llama ]]; then
    {
      cd "$here"; s1=0
      echo "== the tiny model on the GPU against float64 (llk-llama-engine-tests)"
      LLK_BACKEND=cuda LLK_KERNEL_DIR="$here/examples" ./bin/llk-llama-engine-tests --gtest_brief=1 || s1=1
      echo "== llk-llama on random q8_0 models (bench/llama/model_bench.py)"
      csv=${OUT:-$(mktemp -d)}/llama-model.csv
      PYTHONUNBUFFERED=1 python3 bench/llama/model_bench.py --bin bin --kernels examples --check \
        --csv "$csv" "$@" || s1=1
      # The 7B step's read ceilings, beside llk-llama's step from the CSV.
      if grep -q '^decode,7b ' "$csv" 2>/dev/null; then
        echo "== the 7B decode step's read ceilings (bench/llama/probes/decode_ceiling.py)"
        PYTHONUNBUFFERED=1 python3 bench/llama/probes/decode_ceiling.py --shape 7b --llk-csv "$csv" || s1=1
      fi
      exit $s1
    } 2>&1 | log llama-model.txt
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
  if [[ $what == python ]]; then
    # pytest on the package against torch tensors (and CuPy arrays, numpy
    # arrays staged through device memory) on the GPU.
    (cd "$here" && LLK_BACKEND=cuda LLK_TEST_PTX=$here/ptx/add.ptx PYTHONUNBUFFERED=1 \
      python3 -m pytest -q -rs -p no:cacheprovider python/tests "$@") 2>&1 | log python-tests.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == firstlaunch ]]; then
    # The JIT's first compile + launch, cold and warm, beside Triton's.
    PYTHONUNBUFFERED=1 python3 "$here/bench/jit/first_launch.py" "$@" 2>&1 | log first-launch.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == triton ]]; then  # CSV: $OUT/triton.csv
    PYTHONUNBUFFERED=1 python3 "$here/bench/triton/bench.py" --ptx-dir "$here/triton-ptx" "$@" 2>&1 | log triton.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == attention ]]; then  # CSV: $OUT/attention.csv
    attention_ptx=$(mktemp -d)
    tar -C "$attention_ptx" -xJf "$here/attention-ptx.tar.xz" || echo "error: no attention-ptx.tar.xz (prepare)" >&2
    PYTHONUNBUFFERED=1 python3 "$here/bench/attention/bench.py" --ptx-dir "$attention_ptx/attention-ptx" "$@" 2>&1 \
      | log attention.txt
    status=$(( status || PIPESTATUS[0] ))
  fi
  if [[ $what == plot ]]; then
    python3 "$here/bench/plot.py" "${OUT:?plot: set OUT, the folder of the CSVs}" "$@" || status=1
  fi
  if [[ $what == difftest ]]; then
    {
      count=${1:-600}; seed=${2:-1000}; s1=0
      cases=$(mktemp -d)/cases; dir=${OUT:-$(dirname "$cases")}
      python3 "$here/scripts/gen-tile-kernel.py" --seed "$seed" --count "$count" --out "$cases" || s1=1
      echo "== every kernel check's small shape: GPU vs interpreter"
      "$here/bin/llk-gpu-check" difftest --checks --examples "$here/examples" \
        --csv "$dir/difftest-checks.csv" || s1=1
      echo "== $count generated kernels (seeds $seed..$((seed + count - 1))): GPU vs interpreter"
      "$here/bin/llk-gpu-check" difftest --backend gpu --csv "$dir/difftest-generated.csv" \
        "$cases" || s1=1
      exit $s1
    } 2>&1 | log difftest.txt
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
  sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 2 ;;
esac
