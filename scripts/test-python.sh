#!/usr/bin/env bash
# The Python package as a user installs it: a venv over the system's Python
# (/usr/bin/python3, with Debian's setuptools, numpy and pytest), `pip
# install --no-build-isolation -e python` (nothing downloaded), then pytest
# on python/tests against BUILD's libllk.so (LLK_LIBRARY) on the
# interpreter backend (unless LLK_BACKEND says otherwise). Prints pytest's
# output, then "N passed, N failed" (scripts/test.sh counts them; skipped
# tests count as neither).
#
#   scripts/test-python.sh [BUILD] [pytest args...]   # BUILD: default build
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-${LLK_BUILD_DIR:-build}}" && pwd)
shift $(( $# > 0 ? 1 : 0 ))
python=${LLK_PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LLK_LIBRARY=${LLK_LIBRARY:-$build/lib/libllk.so}
export LLK_BACKEND=${LLK_BACKEND:-interpreter}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1
if ! { "$python" -m venv --system-site-packages "$work/venv" &&
       "$work/venv/bin/pip" install -q --no-build-isolation -e python; } >"$work/log" 2>&1; then
  cat "$work/log"
  echo "0 passed, 1 failed"
  exit 1
fi
# Out of the source folder, so that the installed package is what imports.
(cd "$work" && "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
   "$OLDPWD/python/tests" "$@") 2>&1 | tee "$work/pytest.log"
status=${PIPESTATUS[0]}
summary=$(tail -1 "$work/pytest.log")
passed=$(grep -oE '[0-9]+ passed' <<<"$summary" | grep -oE '[0-9]+')
failed=0
for n in $(grep -oE '[0-9]+ (failed|errors?)' <<<"$summary" | awk '{print $1}'); do
  failed=$(( failed + n ))
done
(( status != 0 && failed == 0 )) && failed=1  # pytest itself failed (collection, ...)
echo "${passed:-0} passed, $failed failed"
exit $(( status != 0 ))
