#!/usr/bin/env bash
# Fuzz/run.sh NAME SECONDS — runs Fuzz/out/NAME (built by Fuzz/build.sh if missing) for SECONDS on a working
# copy of the checked-in seed corpus Fuzz/corpus/NAME; prints the executions and crashes.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: Fuzz/run.sh NAME SECONDS}
seconds=${2:?usage: Fuzz/run.sh NAME SECONDS}
[ -x "Fuzz/out/$name" ] || Fuzz/build.sh
work=Fuzz/corpus-work/$name
mkdir -p "$work" Fuzz/out/artifacts
log=Fuzz/out/$name.log
set +e
"Fuzz/out/$name" -max_total_time="$seconds" -print_final_stats=1 -max_len=4096 \
    -artifact_prefix=Fuzz/out/artifacts/ "$work" "Fuzz/corpus/$name" >"$log" 2>&1
rc=$?
set -e
execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
crashes=$(ls Fuzz/out/artifacts 2>/dev/null | grep -c '^crash-' || true)
echo "$name: ${seconds}s, executions $execs, crashes $crashes, libFuzzer exit $rc (log $log)"
[ "$rc" -eq 0 ]
