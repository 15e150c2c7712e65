#!/usr/bin/env bash
# Installs the build tree into a temp prefix and embeds it as a user would.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR CXX_COMPILER
#  1. `cmake --install` puts bin/ddblab, only the public headers
#     (include/emulator/api/*.h), the libraries and lib/cmake/ddblab/ there;
#  2. tests/tools/install_consumer (find_package(ddblab), ddblab::emulator)
#     configures, builds and runs against that prefix: it creates a table,
#     writes an item and must print it back exactly;
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
others=$(cd "$tmp/prefix/include" && find . -type f ! -path './emulator/api/*.h')
[ -z "$others" ] || fail "headers beyond emulator/api/ installed: $others"
[ -f "$tmp/prefix/include/emulator/api/emulator.h" ] || fail "emulator.h not installed"
ls "$tmp"/prefix/lib*/cmake/ddblab/ddblabConfig.cmake >/dev/null ||
  fail "no CMake package config installed"

cmake -S "$src/tests/tools/install_consumer" -B "$tmp/consumer" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/consumer" >/dev/null
out=$("$tmp/consumer/consumer")
want='{"id":{"S":"k1"},"n":{"N":"42"}}'
[ "$out" = "$want" ] || fail "consumer printed '$out', want '$want'"
echo "find_package(ddblab): consumer printed $out"

cmake -S "$src/tests/tools/install_consumer" -B "$tmp/sub" \
  -DDDBLAB_SOURCE_DIR="$src" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null ||
  fail "add_subdirectory(ddblab) does not configure"
echo "add_subdirectory(ddblab): configures"
