#!/usr/bin/env bash
# Instructions per typical request of each engine stage, counted by callgrind (repeatable, unlike times on
# a shared machine): `hinge-bench` loops one stage 1,000 and then 3,000 times under
# `valgrind --tool=callgrind`; the difference ÷ 2,000 is one request (start-up cancels out).
#
#   Benchmarks/instructions.sh [HINGE_BENCH_BINARY ...]   # default .build/release/hinge-bench (built first)
#   STAGES="decode resolve" Benchmarks/instructions.sh OLD NEW
#
# Stages: parse, decode, onepass (the one-pass reader, bytes to `Scene`, which the service tries before parse
# and decode; a binary older than it runs its pipeline instead), resolve, encode, and `pipeline` (bytes in,
# bytes out, as the service does it). valgrind 3.19
# cannot read this toolchain's debug information ("Possibly corrupted debuginfo file"), so each binary is
# run as a copy without it (`objcopy --strip-debug`; the symbols stay, for `callgrind_annotate`).
# OUT=DIR keeps the callgrind files (DIR/<binary#>-<stage>-<n>.out). Every run hashes with a fixed seed
# (SWIFT_DETERMINISTIC_HASHING=1): with the usual random seed, three runs of one binary gave 63,587–63,821
# instructions for the pipeline (a request's dictionary look-ups probe differently with each seed); with it, the
# same count every time.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
    swift build -c release --product hinge-bench >/dev/null
    binaries=(.build/release/hinge-bench)
fi
STAGES=${STAGES:-parse decode onepass resolve encode pipeline}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
OUT=${OUT:-$tmp}
mkdir -p "$OUT"

count() {  # count BINARY MODE N -> instructions collected
    local file="$OUT/$4-$2-$3.out"
    SWIFT_DETERMINISTIC_HASHING=1 HINGE_BENCH_PROFILE=$2 HINGE_BENCH_ITERATIONS=$3 \
        valgrind --tool=callgrind --callgrind-out-file="$file" "$1" >/dev/null 2>"$tmp/valgrind.log" \
        || { cat "$tmp/valgrind.log" >&2; exit 1; }
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$tmp/valgrind.log"
}

printf '%-40s' "binary"
for stage in $STAGES; do printf '%12s' "$stage"; done
echo
i=0
for binary in "${binaries[@]}"; do
    i=$((i + 1))
    copy="$tmp/hinge-bench-$i"
    objcopy --strip-debug "$binary" "$copy"
    printf '%-40s' "$binary"
    for stage in $STAGES; do
        mode=$stage
        [ "$stage" = pipeline ] && mode=1
        a=$(count "$copy" "$mode" 1000 "$i")
        b=$(count "$copy" "$mode" 3000 "$i")
        printf '%12s' "$(( (b - a) / 2000 ))"
    done
    echo
done
