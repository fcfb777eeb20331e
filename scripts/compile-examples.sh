#!/usr/bin/env bash
# Compiles every example kernel with llkc and checks the PTX with ptxas
# (sm_90), and runs each on the CPU interpreter at a small shape against its
# float64 reference (llk-check-kernels; no GPU needed), printing a pass/fail
# table; then runs the runtime's host program llk-softmax-jit with
# LLK_BACKEND=interpreter. Usage: scripts/compile-examples.sh [build]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
llkc="$build/bin/llkc"
checker="$build/bin/llk-check-kernels"
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
out="$build/examples-ptx"
mkdir -p "$out"

# name source constants num_warps, from examples/kernels.list
mapfile -t specs < <(grep -vE '^\s*(#|$)' examples/kernels.list)
# Interpreter runs, one seed for the whole table (printed below).
seed=${LLK_SEED:-$RANDOM$RANDOM}
declare -A interp_result interp_error
if [[ -x "$checker" ]]; then
  while read -r kname verdict err rest; do
    interp_result[$kname]=$verdict
    interp_error[$kname]=$err
    [[ $verdict == PASS ]] || echo "interpreter: $kname $verdict $err $rest" >&2
  done < <("$checker" --seed "$seed" 2>&1)
fi

passed=0 failed=0
printf '\n| kernel | constants | warps | llkc | ptxas sm_90 | 16-byte global loads | shfl.sync | interpreter vs f64 | rel. error |\n'
printf '|---|---|---|---|---|---:|---:|---|---:|\n'
for spec in "${specs[@]}"; do
  read -r name source consts warps <<<"$spec"
  ptx="$out/$name.ptx"
  defines=()
  if [[ $consts != - ]]; then
    IFS=, read -ra bindings <<<"$consts"
    for b in "${bindings[@]}"; do defines+=(-D "$b"); done
  fi
  compiled=FAIL assembled=skipped wide=- shuffles=-
  interp=${interp_result[$name]:-MISSING} rel=${interp_error[$name]:--}
  if "$llkc" "examples/$source" "${defines[@]}" --num-warps "$warps" -o "$ptx" 2>"$out/$name.err"; then
    compiled=ok
    wide=$(grep -cE 'ld\.global[.a-zA-Z0-9:_]*\.v4\.(b32|f32)' "$ptx" || true)
    shuffles=$(grep -c 'shfl.sync' "$ptx" || true)
    if [[ -x "$ptxas" ]]; then
      if "$ptxas" -arch=sm_90 "$ptx" -o /dev/null 2>>"$out/$name.err"; then assembled=ok; else assembled=FAIL; fi
    fi
  fi
  if [[ $compiled == ok && $assembled != FAIL && $interp == PASS ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); cat "$out/$name.err"
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$consts" "$warps" "$compiled" "$assembled" "$wide" "$shuffles" "$interp" "$rel"
done

# The runtime's host program (runtime/examples/softmax_jit.cpp: JIT::compile,
# buffers, a checked launch, a float64 check), unchanged, on the interpreter
# backend: no GPU, no CUDA driver.
program="$build/bin/llk-softmax-jit"
shape=(64 3008)
if [[ -x "$program" ]]; then
  printf '\n| host program | backend | shape | result | max rel. error |\n|---|---|---|---|---:|\n'
  log="$out/softmax-jit-interpreter.log"
  LLK_BACKEND=interpreter LLK_CACHE_DIR="$out/cache" \
    "$program" examples/softmax.mlir "${shape[@]}" >"$log" 2>&1
  status=$?
  verdict=FAIL
  [[ $status == 0 ]] && grep -q ': PASS$' "$log" && verdict=PASS
  rel=$(sed -n 's/.*max relative error \([^:]*\):.*/\1/p' "$log")
  if [[ $verdict == PASS ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); cat "$log"; fi
  printf '| llk-softmax-jit | LLK_BACKEND=interpreter | %sx%s | %s | %s |\n' "${shape[@]}" "$verdict" "${rel:--}"
fi
[[ -x "$ptxas" ]] || echo "note: $ptxas not found; PTX was not assembled"
[[ -x "$program" ]] || echo "note: $program not built (no cuda.h); the runtime was not run"
[[ -x "$checker" ]] || echo "note: $checker not found; kernels were not run on the interpreter"
echo "interpreter: small shapes (see test/lib/Checks), seed $seed (LLK_SEED=$seed repeats it)"
echo
echo "$passed passed, $failed failed"
((failed == 0))
