#!/usr/bin/env bash
# Runs every test: builds llk (installing what it needs, as scripts/build.sh
# does), then the lit suite (which also runs the interpreter's unit tests).
# Ends with a "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."
LLK_BUILD_ONLY=1 scripts/build.sh
build=${LLK_BUILD_DIR:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
ninja -C "$build" check-llk 2>&1 | tee "$log" || status=$?
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
