#!/usr/bin/env bash
# Compiles every kernel of examples/kernels.list (as scripts/compile-examples.sh
# does: its constants, its warp count) and every GEMM benchmark configuration
# (bench/gemm/build_ptx.sh's list, with its flags) with two llkc binaries, and
# reports whether each output (PTX and launch metadata) is byte-identical.
# For refactorings of the compiler: the PTX must not change.
#
#   scripts/compare-ptx.sh BASE_LLKC NEW_LLKC [OUT]
#     e.g. scripts/compare-ptx.sh /work/llkc-baseline/bin/llkc build/bin/llkc
#
# OUT (default build/compare-ptx) receives base/ and new/, one file per
# kernel. Prints one line per differing file with the first lines of its
# diff, then "N identical, M differ"; exits 1 when any output differs or a
# compile fails in one binary but not the other. No ptxas is run.
set -uo pipefail
cd "$(dirname "$0")/.."
if (($# < 2)); then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
base=$(realpath "$1") new=$(realpath "$2") out=${3:-build/compare-ptx}
for bin in "$base" "$new"; do
  [[ -x $bin ]] || { echo "compare-ptx: $bin is not an executable" >&2; exit 2; }
done
rm -rf "$out"
mkdir -p "$out/base/examples" "$out/new/examples"

# kernels.list: name source constants num_warps.
compile_examples() { # llkc dir
  local llkc=$1 dir=$2 name source consts warps
  while read -r name source consts warps; do
    local defines=()
    if [[ $consts != - ]]; then
      IFS=, read -ra bindings <<<"$consts"
      for b in "${bindings[@]}"; do defines+=(-D "$b"); done
    fi
    "$llkc" "examples/$source" "${defines[@]}" --num-warps "$warps" \
      -o "$dir/$name.ptx" 2>"$dir/$name.err" || echo "compile failed" >>"$dir/$name.err"
    [[ -s $dir/$name.err ]] || rm -f "$dir/$name.err"
  done < <(grep -vE '^\s*(#|$)' examples/kernels.list)
}

# The GEMM configurations: build_ptx.sh itself, with ptxas replaced by true.
compile_gemms() { # llkc dir
  LLKC=$1 PTXAS=true bench/gemm/build_ptx.sh "$2" >/dev/null 2>"$2.err" ||
    echo "bench/gemm/build_ptx.sh failed with $1 (see $2.err)" >&2
}

compile_examples "$base" "$out/base/examples"
compile_examples "$new" "$out/new/examples"
compile_gemms "$base" "$out/base/gemm"
compile_gemms "$new" "$out/new/gemm"

same=0 differ=0
while read -r file; do
  a="$out/base/$file" b="$out/new/$file"
  if [[ -f $a && -f $b ]] && cmp -s "$a" "$b"; then
    same=$((same + 1))
    continue
  fi
  differ=$((differ + 1))
  if [[ ! -f $a || ! -f $b ]]; then
    echo "DIFFERS $file: only in $([[ -f $a ]] && echo base || echo new)"
  else
    echo "DIFFERS $file ($(diff "$a" "$b" | grep -c '^[<>]') lines)"
    diff -u "$a" "$b" | sed -n '3,20p' | sed 's/^/    /'
  fi
done < <( (cd "$out/base" && find . -type f; cd "../new" && find . -type f) |
          sed 's|^\./||' | sort -u)
echo "$same identical, $differ differ (base $base, new $new)"
((differ == 0))
