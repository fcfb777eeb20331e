#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install what llk needs, build it,
# then compile every example kernel to PTX and check each with ptxas, run
# each on the CPU interpreter against its float64 reference, and run the
# runtime's softmax host program with LLK_BACKEND=interpreter.
#
#   scripts/build.sh            # install + build + main job
#   LLK_SKIP_INSTALL=1 scripts/build.sh   # when the packages are there
#   LLK_BUILD_DIR=build-debug LLK_CMAKE_ARGS=-DLLK_ENABLE_DEBUG_OUTPUT=ON \
#     scripts/build.sh                    # another build dir, more CMake options
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ python3 llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          libgtest-dev zlib1g-dev libzstd-dev xz-utils python3-numpy)
if [[ -z "${LLK_SKIP_INSTALL:-}" ]]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "== installing: ${missing[*]}"
    sudo=""; [[ $(id -u) -ne 0 ]] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

build=${LLK_BUILD_DIR:-build}
echo "== configuring and building in $build"
# shellcheck disable=SC2086 # LLK_CMAKE_ARGS: words, each an argument
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir ${LLK_CMAKE_ARGS:-} >/dev/null
# libllk.so (the compiler, the interpreter, the runtime and the JIT) comes
# with the tools, which link it.
targets=(llk llkc llk-opt llk-run llk-check-kernels llk-interp-tests)
# The runtime's example host program and the static runtime (built when
# cuda.h is there); the main job runs the program on the interpreter backend.
ninja -C "$build" -t query llk-softmax-jit >/dev/null 2>&1 && targets+=(llk-softmax-jit LLKRuntime)
ninja -C "$build" "${targets[@]}"

[[ -n "${LLK_BUILD_ONLY:-}" ]] && exit 0
echo "== main job: compile every example to PTX, run each on the interpreter"
scripts/compile-examples.sh "$build"
