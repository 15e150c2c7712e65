#!/usr/bin/env bash
# Fails if clang-format (Google base, .clang-format) would change any C++
# file; prints each offending file. One clang-format call for every file.
set -euo pipefail
cd "${1:-.}"
if ! command -v clang-format >/dev/null; then
  echo "clang-format not installed (apt-get install clang-format)"; exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files -z --cached --others --exclude-standard -- '*.h' '*.cc'; }
else
  list() { find emulator harness common cli tests bench fuzz \( -name '*.h' -o -name '*.cc' \) -print0 2>/dev/null; }
fi
# Deleted-but-tracked files are dropped; --Werror makes any change an error.
out=$(list | xargs -0 -r sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh |
      xargs -0 -r clang-format --dry-run --Werror 2>&1) && exit 0
printf '%s\n' "$out" | sed -n 's/^\([^:]*\.\(h\|cc\)\):[0-9]*:[0-9]*: error: .*/needs clang-format: \1/p' | sort -u
echo "(run clang-format -i on the files above)"
exit 1
