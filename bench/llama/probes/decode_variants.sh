#!/bin/bash
# The 7B decode step under kernel-source variants, binaries and decode
# shapes, timed by llk-llama --profile, in one GPU call.
#
# Runs ON THE GPU MACHINE from the carry that `scripts/gpu-check.sh prepare`
# made (programs.tar.xz unpacked into bin/ and lib/ here):
#
#   bench/llama/probes/decode_variants.sh VARIANTS [--ncu]
#
# VARIANTS: lines `name binary overlays shape ctx prompt`:
#   binary    llk-llama to run: `new` (bin/llk-llama), or a path to another
#             build's llk-llama (copied into bin/, beside the carried
#             libllk.so, e.g. the one before a kernel signature changed)
#   overlays  `-` (examples/ as carried), or directories joined by `+`,
#             each copied over a copy of examples/ in turn (a changed
#             llama/*.mlir or two)
#   shape     llk-llama --decode-shape Q,S,R,C,A,B
#   ctx, prompt  --ctx and --bench-prompt (576 512 for context 512,
#             4096 4032 for 4096)
# Writes $OUT/v-<name>.txt (llk-llama's output with its profile: lines),
# $OUT/times.txt, and with --ncu $OUT/ncu.csv: ncu's raw page of the first
# 10 fused decode launches (bin/llk-llama on examples/, context 512, real
# clocks). The GGUF (random q8_0, seed 1, shaped as LLK_VARIANTS_SHAPE,
# default 7b: `tiny` runs on the interpreter) goes to /tmp/w.
set -u
variants=$1 ncu=${2:-}
here=$PWD
export LLK_LIBDEVICE=${LLK_LIBDEVICE:-/usr/local/cuda/nvvm/libdevice/libdevice.10.bc}
out=${OUT:-$(mktemp -d)}
w=/tmp/w; mkdir -p "$w"
shape=${LLK_VARIANTS_SHAPE:-7b} model=$w/${LLK_VARIANTS_SHAPE:-7b}.gguf
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv >"$out/gpu.txt"
fi
if [[ ! -f $model ]]; then # (a cut-off write leaves no file behind)
  bin/llk-gguf make-random --shape "$shape" --seed 1 "$model.part" >"$out/gen.txt" 2>&1 &&
    mv "$model.part" "$model"
fi
n=0 names=()
while read -r name binary overlays dshape ctx prompt; do
  [[ -z ${name:-} || $name == \#* ]] && continue
  names+=("$name")
  exe=bin/llk-llama
  if [[ $binary != new ]]; then exe=bin/llk-llama-v$((n += 1)); cp "$binary" "$exe"; fi
  dir=$here/examples
  if [[ $overlays != - ]]; then
    dir=/tmp/kernels-$name; rm -rf "$dir"; cp -r "$here/examples" "$dir"
    for o in ${overlays//+/ }; do cp -r "$o"/. "$dir/"; done
  fi
  t=$(date +%s)
  timeout 90 "$exe" -m "$model" --bench --greedy --bench-prompt "$prompt" -n 64 --ctx "$ctx" \
    --kernels "$dir" --decode-shape "$dshape" --profile >"$out/v-$name.txt" 2>&1 </dev/null
  echo "$name rc=$? $(( $(date +%s) - t )) s" >>"$out/times.txt"
done <"$variants"
if [[ $ncu == --ncu ]]; then
  timeout 150 ncu --graph-profiling node --clock-control none \
    -k regex:'mul_mat_vec_q_qkv|attn_decode_fused|linear_q8_0_res_norm|mul_mat_vec_q_swiglu' \
    --launch-count 10 --section SpeedOfLight --section Occupancy --section WarpStateStats \
    --section LaunchStats --section MemoryWorkloadAnalysis --section SchedulerStats --csv --page raw \
    bin/llk-llama -m "$model" --bench --greedy --bench-prompt 512 -n 3 --ctx 576 \
    --kernels "$here/examples" >"$out/ncu.csv" 2>"$out/ncu.err"
  echo "ncu rc=$?" >>"$out/times.txt"
fi
# One line a variant, in the file's order: decode tok/s (the run's last
# tok/s figure) and each kernel family's µs a launch and share of the copy.
for name in "${names[@]}"; do
  f=$out/v-$name.txt
  printf '%s: %s\n' "$name" "$(grep -oE '[0-9.]+ tok/s' "$f" | tail -1)"
  grep -E '^profile: \| [a-z]' "$f" | grep -v '| family |' |
    awk -F'|' '{printf "  %-30s %8s us %6s%%\n", $2, $5, $8}'
done | tee "$out/summary.txt"
