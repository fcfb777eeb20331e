#!/usr/bin/env bash
# Runs every test: builds llk (installing what it needs, as scripts/build.sh
# does), then the lit suite and the runtime's CPU tests (GoogleTest).
set -euo pipefail
cd "$(dirname "$0")/.."
LLK_BUILD_ONLY=1 scripts/build.sh
build=${LLK_BUILD_DIR:-build}
# Both suites run even if the first fails; the status says whether both passed.
status=0
ninja -C "$build" check-llk || status=1
ninja -C "$build" check-llk-runtime || status=1
exit $status
