#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with ctest: first the
# whole suite on the normal build (build/), then the unit tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/).
# Usage: scripts/test.sh [--quick]   (--quick: skip the sanitizer pass)
# Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)

scripts/build.sh
(cd build && ctest --output-on-failure -j "$jobs")

if [ "${1:-}" != "--quick" ]; then
  echo "== unit tests under ASan + UBSan (build-asan/)"
  scripts/build.sh --sanitize
  (cd build-asan && ctest --output-on-failure -j "$jobs" -L unit)
fi
