#!/usr/bin/env bash
# Fails if clang-format (Google base, .clang-format) would change any C++ file.
set -euo pipefail
cd "${1:-.}"
if ! command -v clang-format >/dev/null; then
  echo "clang-format not installed (apt-get install clang-format)"; exit 1
fi
files=$(git ls-files '*.h' '*.cc' 2>/dev/null || find emulator harness tests bench fuzz -name '*.h' -o -name '*.cc')
bad=0
for f in $files; do
  [ -f "$f" ] || continue
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "needs clang-format: $f"; bad=1
  fi
done
exit $bad
