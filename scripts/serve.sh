#!/usr/bin/env bash
# Installs what is missing, builds, and runs the emulator over HTTP
# (127.0.0.1:8000, in-memory). Extra arguments go to `ddblab serve`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
scripts/build.sh
if [ ! -x build/emulator/server/ddblab ]; then
  echo "ddblab: the HTTP server is not built yet (issue: 'ddblab serve')." >&2
  echo "What exists today: the value and expression core, tested by scripts/test.sh." >&2
  exit 1
fi
exec build/emulator/server/ddblab serve "$@"
