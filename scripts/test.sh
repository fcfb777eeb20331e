#!/usr/bin/env bash
# Runs every test: builds llk (installing what it needs, as scripts/build.sh
# does), then the lit suite (which also runs the interpreter's unit tests),
# the runtime's CPU tests (GoogleTest), the install tests
# (scripts/test-install.sh: install to a prefix, a project built against it
# with find_package(llk), C++ and C99 programs on the interpreter) and the
# Python package's (scripts/test-python.sh: installed in a venv, pytest on
# the interpreter). All run even if one fails; the last line is "N passed,
# N failed" over all four.
set -euo pipefail
cd "$(dirname "$0")/.."
LLK_BUILD_ONLY=1 scripts/build.sh
build=${LLK_BUILD_DIR:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
ninja -C "$build" check-llk 2>&1 | tee "$log" || status=1
lit_passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
lit_failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
ninja -C "$build" check-llk-runtime 2>&1 | tee "$log" || status=1
gt_total=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$log" | tail -1)
gt_passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*/\1/p' "$log" | tail -1)
gt_failed=$(( ${gt_total:-0} - ${gt_passed:-0} ))
install_passed=0 install_failed=0 python_passed=0 python_failed=0
if ninja -C "$build" -t query LLKRuntime >/dev/null 2>&1; then
  scripts/test-install.sh "$build" 2>&1 | tee "$log" || status=1
  install_passed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log" | tail -1)
  install_failed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log" | tail -1)
  [[ -n $install_passed ]] || install_failed=1
  scripts/test-python.sh "$build" 2>&1 | tee "$log" || status=1
  python_passed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log" | tail -1)
  python_failed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log" | tail -1)
  [[ -n $python_passed ]] || python_failed=1
fi
echo "$(( ${lit_passed:-0} + ${gt_passed:-0} + ${install_passed:-0} + ${python_passed:-0} )) passed," \
     "$(( ${lit_failed:-0} + ${gt_failed:-0} + ${install_failed:-0} + ${python_failed:-0} )) failed"
exit "$status"
