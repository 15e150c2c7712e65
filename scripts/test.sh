#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with ctest.
# Usage: scripts/test.sh [--sanitize]   (--sanitize: ASan + UBSan build)
# Ends with ctest's summary line; exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
scripts/build.sh "$@"
dir=build
if [ "${1:-}" = "--sanitize" ]; then dir=build-asan; fi
jobs=$(nproc 2>/dev/null || echo 2)
cd "$dir"
ctest --output-on-failure -j "$jobs"
