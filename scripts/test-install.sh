#!/usr/bin/env bash
# Uses llk as another project would, from an install of BUILD: installs it
# to a fresh prefix (libllk.so, libllk_runtime.a, llkc, llk-opt, llk-run,
# the headers, the CMake package, pkg-config's llk_runtime.pc; none of the
# kernel checks, which are test code), runs the
# installed llkc, builds examples/consumer against the prefix with
# find_package(llk) and runs its programs (C++ and C99 on the interpreter,
# and one over the compiler's C++ API),
# builds the C99 program again through pkg-config, and checks what libllk.so
# exports and that the programs hold no copy of it. One "PASS <step> (N s)" or "FAIL <step>" line a
# step, then "N passed, N failed" (scripts/test.sh counts them).
#
#   scripts/test-install.sh [BUILD]     # BUILD: build directory (default build)
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-${LLK_BUILD_DIR:-build}}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
export LLK_BACKEND=interpreter LLK_CACHE_DIR=$work/cache
passed=0 failed=0

# step NAME COMMAND...: runs COMMAND, its output kept for a failure's report.
step() {
  local name=$1 start=$SECONDS
  shift
  if "$@" >"$work/log" 2>&1; then
    passed=$((passed + 1))
    echo "PASS $name ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
    tail -40 "$work/log" | sed 's/^/    /'
  fi
}

install_llk() {
  cmake --install "$build" --prefix "$prefix" >/dev/null || return 1
  local missing=0
  for f in lib/libllk.so lib/libllk_runtime.a bin/llkc bin/llk-opt bin/llk-run \
           include/llk/runtime.h include/llk/runtime/JIT.h include/llk/Version.h \
           include/llk/Compiler/Compiler.h include/llk/Dialect/Tile/IR/TileOps.h.inc \
           lib/cmake/llk/llkConfig.cmake lib/cmake/llk/llkTargets.cmake \
           lib/pkgconfig/llk_runtime.pc; do
    [[ -e $prefix/$f ]] || { echo "not installed: $f"; missing=1; }
  done
  # The kernel checks are test code (test/lib/Checks), never installed.
  if find "$prefix" \( -name 'KernelChecks.h' -o -name '*LLKChecks*' -o -path '*/llk/Checks' \) |
       grep .; then
    echo "installed, but test code"; missing=1
  fi
  return $missing
}

installed_llkc() {
  "$prefix/bin/llkc" --version | tee /dev/stderr | grep -q "^llk .* (build [0-9a-f]\{16\})" &&
    "$prefix/bin/llkc" examples/vector_add.mlir -D BLOCK=1024 -o "$work/add.ptx" &&
    grep -q '.entry add_kernel' "$work/add.ptx" && [[ -s $work/add.ptx.json ]]
}

build_consumer() {
  cmake -S examples/consumer -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" && cmake --build "$work/consumer"
}

pkg_config_c99() {
  local flags
  flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs llk_runtime) &&
    cc -std=c99 -pedantic -Wall -Wextra -Werror examples/consumer/jit_c99.c $flags \
      -Wl,-rpath,"$prefix/lib" -o "$work/jit_c99_pkgconfig" &&
    "$work/jit_c99_pkgconfig"
}

# Every symbol libllk.so exports is llk's API (the C interface, llk_*, and
# C++ in namespace llk) or MLIR's, which libllk.so holds for llk's programs
# and the compiler's C++ API (cmake/LLKLibrary.cmake says why): not LLVM's
# (libLLVM.so has it) nor the standard library's, and none of llk's
# internals (the driver table, the C handles' registry).
exports() {
  local all others
  all=$(nm -D --defined-only "$prefix/lib/libllk.so" | awk '{print $3}' | c++filt) || return 1
  others=$(grep -v -e 'llk' -e 'mlir' -e '^_init$' -e '^_fini$' \
                   -e '^_edata$' -e '^_end$' -e '^__bss_start$' <<<"$all")
  echo "$(wc -l <<<"$all") exported symbols: $(grep -c '^llk_' <<<"$all") llk_* C" \
       "functions, $(grep -c '^llk::' <<<"$all") in namespace llk, the rest MLIR's"
  [[ -z $others ]] || { echo "exported, neither llk's nor MLIR's:"; head -20 <<<"$others"; return 1; }
  grep -qx 'llk_jit_compile' <<<"$all" && grep -qx 'llk_arg_bf16' <<<"$all" &&
    ! grep -e 'llk::rt::detail::' -e 'llk::rt::capi::' <<<"$all"
}

# The programs link libllk.so and, for what it does not hold, MLIR's static
# libraries (llk-opt's MlirOptMain): none holds a second copy of anything
# libllk.so defines (two copies of MLIR in a process break its registries).
no_second_copy() {
  local library program copies
  library=$(nm --defined-only "$prefix/lib/libllk.so" | awk '$2 ~ /[TDBR]/ {print $3}' | sort -u)
  for program in llkc llk-opt llk-run; do
    copies=$(nm --defined-only "$prefix/bin/$program" | awk '$2 ~ /[TDBR]/ {print $3}' |
             sort -u | comm -12 - <(echo "$library"))
    echo "$program: $(grep -c . <<<"$copies") symbols also in libllk.so"
    [[ -z $copies ]] || { c++filt <<<"$copies" | head -5; return 1; }
  done
}

step "install to a prefix" install_llk
step "installed llkc --version, compiles" installed_llkc
step "consumer project: find_package(llk), build" build_consumer
step "consumer C++ program (llk::jit) on the interpreter" "$work/consumer/jit_add"
step "consumer C99 program (llk::runtime) on the interpreter" "$work/consumer/jit_c99"
step "consumer compiler program (llk::compiler) to PTX" \
  "$work/consumer/compile_ptx" examples/vector_add.mlir BLOCK=1024
step "C99 program through pkg-config llk_runtime" pkg_config_c99
step "libllk.so exports llk's and MLIR's API only" exports
step "programs hold no second copy of libllk.so" no_second_copy
echo "$passed passed, $failed failed"
exit $((failed > 0))
