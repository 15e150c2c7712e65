#!/bin/sh
# Instructions per call of each operation of bench/ops_callgrind.cc, counted
# by callgrind: the difference of a run with many calls and one with few, so
# that start-up and loading cancel out. Deterministic (no timing).
#   bench/ops_callgrind.sh [BINARY] [OPS...]   default build/bench/ops_callgrind
#   LAG=1h bench/ops_callgrind.sh ...          with the consistency model on
set -eu
bin=${1:-build/bench/ops_callgrind}
[ $# -gt 0 ] && shift
ops=${*:-get pget put cput del add query bdel psel pins}
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" ${LAG:-} 2>&1 |
    sed -n 's/.*Collected : //p'
}
for op in $ops; do
  lo=200 hi=1200
  [ "$op" = bdel ] && lo=40 hi=240
  a=$(count "$op" $lo)
  b=$(count "$op" $hi)
  echo "$op $(( (b - a) / (hi - lo) )) instructions per call"
done
