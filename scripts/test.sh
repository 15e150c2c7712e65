#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with ctest.
# Usage: scripts/test.sh [--sanitize]
#   (default) the whole suite in build/, then the unit tests of the parsers
#   of untrusted input (api, value, expr, SigV4) again under AddressSanitizer
#   + UndefinedBehaviorSanitizer (build-asan/): what fits CI's 30 minutes.
#   --sanitize: every unit test in the sanitized build instead.
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
  # As root (CI), the ctest `package` also installs the .deb (dpkg -i/-r).
  if [ "$(id -u)" = 0 ]; then export DDBLAB_DPKG_INSTALL=1; fi
  (cd build && ctest --output-on-failure -j "$jobs")
  sanitized=(api_test value_test expr_test expr_legacy_test sigv4_test
             control_token_test)
  scripts/build.sh --sanitize "${sanitized[@]}"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  export UBSAN_OPTIONS=print_stacktrace=1
  for t in "${sanitized[@]}"; do
    bin=$(find build-asan/tests -type f -name "$t" -perm -u+x | head -1)
    echo "== $t (ASan + UBSan)"
    "$bin" --gtest_brief=1
  done
fi
