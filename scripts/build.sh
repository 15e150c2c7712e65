#!/usr/bin/env bash
# Configures and builds ddblab. Usage: scripts/build.sh [--sanitize [TARGET...]]
# Build trees: build/ (RelWithDebInfo) or build-asan/ (ASan + UBSan; only the
# TARGETs if given, e.g. value_test).
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
fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$jobs" "${targets[@]}"
