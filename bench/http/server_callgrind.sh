#!/usr/bin/env bash
# bench/http/server_callgrind.sh: instructions per request of `ddblab serve`
# (all its threads), counted by callgrind: the load-independent figure of
# what the HTTP server and the engine cost per request.
#
# Usage: bench/http/server_callgrind.sh [BIN] [PORT] [SECONDS] [WORKLOADS]
#   BIN        ddblab binary (default build/cli/ddblab)
#   PORT       a free port (default 8799)
#   SECONDS    wrk run per workload (default 4)
#   WORKLOADS  space-separated, of put_item update_add get_item (the default:
#              all three)
# Runs each workload with one wrk connection, and prints
# "workload: N instructions per request (R requests)". Needs valgrind, wrk
# and python3. Run from /tmp (callgrind writes its files there).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${1:-$here/../../build/cli/ddblab}"
port="${2:-8799}"
secs="${3:-4}"
workloads="${4:-put_item update_add get_item}"
out="/tmp/ddblab-server-callgrind.$port"
endpoint="http://127.0.0.1:$port"
rm -f "$out".*
valgrind --tool=callgrind --callgrind-out-file="$out.cg" \
  "$bin" serve --port "$port" --log-level warn >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -s -o /dev/null "$endpoint/_ddblab/health" && break
  sleep 0.2
done
python3 "$here/ddb.py" "$endpoint" create bench_put >/dev/null
python3 "$here/ddb.py" "$endpoint" create bench_update >/dev/null
python3 "$here/ddb.py" "$endpoint" create bench_get >/dev/null
python3 "$here/ddb.py" "$endpoint" preload-get bench_get 1000 >/dev/null
callgrind_control -z "$pid" >/dev/null 2>&1
n=0
for w in $workloads; do
  case $w in
    put_item) table=bench_put ;;
    update_add) table=bench_update ;;
    get_item) table=bench_get ;;
    *) echo "unknown workload $w (put_item, update_add, get_item)" >&2; exit 2 ;;
  esac
  requests=$(BENCH_TABLE=$table BENCH_KEYS=1000 wrk -t1 -c1 -d"${secs}s" \
      -s "$here/$w.lua" "$endpoint/" | sed -n 's/^RESULT requests=\([0-9]*\).*/\1/p')
  callgrind_control -d "$pid" >/dev/null 2>&1
  n=$((n + 1))
  total=$(callgrind_annotate "$out.cg.$n" 2>/dev/null |
      sed -n 's/^\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
  echo "$w: $((total / requests)) instructions per request ($requests requests)"
done
