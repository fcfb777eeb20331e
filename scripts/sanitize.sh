#!/usr/bin/env bash
# The lit suite and the llkc fuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer, with our assertions on (not part of
# scripts/test.sh: the instrumented build takes ~20 minutes on 2 cores).
#
#   scripts/sanitize.sh [FUZZ_SEED] [FUZZ_COUNT]     # default: 1 200
#
# Debian's LLVM/MLIR are not instrumented: `vptr` checks need RTTI they lack,
# and their allocators poison memory that instrumented inline code then
# reads legitimately, so user poisoning is ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${LLK_ASAN_BUILD_DIR:-build-asan}
flags="-O1 -g -fsanitize=address,undefined -fno-sanitize=vptr -fno-omit-frame-pointer"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >/dev/null
ninja -C "$build" llkc llk-opt llk-run llk-interp-tests llk-check-kernels llk-gguf llk-llama-tests
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allow_user_poisoning=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
status=0
lit-22 -q "$build/test" || status=1
LLKC="$build/bin/llkc" LLK_FUZZ_DIR="$(mktemp -d)" scripts/fuzz-llkc.py "${1:-1}" "${2:-200}" || status=1
exit "$status"
