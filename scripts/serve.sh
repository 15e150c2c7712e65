#!/usr/bin/env bash
# Installs what is missing, builds, and runs the emulator over HTTP
# (127.0.0.1:8000, in-memory). Extra arguments go to `ddblab serve`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
scripts/build.sh
if [ ! -x build/cli/ddblab ]; then
  echo "ddblab: build/cli/ddblab was not built (it needs the engine" >&2
  echo "and harness/consumer; see the output of scripts/build.sh above)." >&2
  exit 1
fi
exec build/cli/ddblab serve "$@"
