#!/usr/bin/env bash
# Configures and builds ddblab.
# Usage: scripts/build.sh [--sanitize|--tsan [TARGET...]]
# Build trees: build/ (RelWithDebInfo), build-asan/ (ASan + UBSan) or
# build-tsan/ (ThreadSanitizer, -O1); the sanitized ones only the TARGETs if
# given, e.g. value_test.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=build
# -O2 without debug info: the fastest full build on small CI machines.
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG")
targets=()
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug -DDDBLAB_SANITIZE=ON -DDDBLAB_BENCH=OFF)
  shift
  for t in "$@"; do targets+=(--target "$t"); done
elif [ "${1:-}" = "--tsan" ]; then
  dir=build-tsan
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g"
         -DDDBLAB_TSAN=ON -DDDBLAB_BENCH=OFF)
  shift
  for t in "$@"; do targets+=(--target "$t"); done
fi
# Clang 16 or later when installed (scripts/setup.sh installs clang-16): it
# compiles ddblab in less time than GCC (CI builds from scratch on two cores),
# and with it the build itself runs -Wthread-safety over every target
# (cmake/Warnings.cmake). CXX/CC from the environment win; a build tree keeps
# the compiler it was configured with.
if [ -z "${CXX:-}" ]; then
  for v in 19 18 17 16; do
    if command -v "clang++-$v" >/dev/null && command -v "clang-$v" >/dev/null; then
      export CXX="clang++-$v" CC="clang-$v"
      break
    fi
  done
fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$jobs" "${targets[@]}"
