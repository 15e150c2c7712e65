#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with ctest.
# Usage: scripts/test.sh [--sanitize]
#   --sanitize: the unit tests in an AddressSanitizer + UndefinedBehaviorSanitizer
#   build (build-asan/) instead of the whole suite in build/.
# Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
if [ "${1:-}" = "--sanitize" ]; then
  scripts/build.sh --sanitize
  cd build-asan && ctest --output-on-failure -j "$jobs" -L unit
else
  scripts/build.sh
  cd build && ctest --output-on-failure -j "$jobs"
fi
