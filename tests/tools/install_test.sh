#!/usr/bin/env bash
# Installs the build tree into a temp prefix and embeds it as a user would.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR CXX_COMPILER
#  1. `cmake --install` puts bin/ddblab, its man page, only the public
#     headers (include/emulator/api/ and include/harness/{backend,consumer,
#     patterns}/), the libraries and lib/cmake/ddblab/ there; every
#     `#include "..."` of an installed header names an installed header;
#  2. tests/tools/install_consumer (find_package(ddblab), ddblab::emulator
#     and ddblab::harness) configures, builds and runs against that prefix:
#     it creates a table, writes an item and must print it back exactly, then
#     creates a table through an in-process Backend and prints ListTables;
#  3. the same consumer configures with add_subdirectory(SOURCE_DIR)
#     (configure only: it would build the same libraries again).
set -euo pipefail
build=$1 src=$2 cxx=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
[ -x "$tmp/prefix/bin/ddblab" ] || fail "bin/ddblab not installed"
"$tmp/prefix/bin/ddblab" --version
[ -f "$tmp/prefix/share/man/man1/ddblab.1.gz" ] || fail "man page not installed"
inc=$tmp/prefix/include
others=$(cd "$inc" && find . -type f ! -path './emulator/api/*.h' \
  ! -path './harness/backend/*.h' ! -path './harness/consumer/*.h' \
  ! -path './harness/patterns/*.h')
[ -z "$others" ] || fail "headers beyond the public ones installed: $others"
for h in emulator/api/emulator.h harness/backend/backend.h \
         harness/backend/inprocess_backend.h harness/patterns/common.h; do
  [ -f "$inc/$h" ] || fail "$h not installed"
done
# Self-contained: what an installed header includes is installed too (the
# engine's internals, common/ and the rest of harness/ are not).
missing=$(cd "$inc" && grep -ho '^#include "[^"]*"' -r . | sort -u |
  sed 's/^#include "\(.*\)"$/\1/' | while read -r h; do
    [ -f "$h" ] || echo "$h"; done)
[ -z "$missing" ] || fail "installed headers include headers not installed: $missing"
ls "$tmp"/prefix/lib*/cmake/ddblab/ddblabConfig.cmake >/dev/null ||
  fail "no CMake package config installed"

cmake -S "$src/tests/tools/install_consumer" -B "$tmp/consumer" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/consumer" >/dev/null
out=$("$tmp/consumer/consumer")
want='{"id":{"S":"k1"},"n":{"N":"42"}}
emulator: {"TableNames":["claims"]}'
[ "$out" = "$want" ] || fail "consumer printed '$out', want '$want'"
echo "find_package(ddblab): consumer printed"
printf '%s\n' "$out"

cmake -S "$src/tests/tools/install_consumer" -B "$tmp/sub" \
  -DDDBLAB_SOURCE_DIR="$src" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null ||
  fail "add_subdirectory(ddblab) does not configure"
echo "add_subdirectory(ddblab): configures"
