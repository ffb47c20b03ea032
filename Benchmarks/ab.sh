#!/usr/bin/env bash
# A/B load comparison of two hinge binaries on loopback, rounds alternating between them so that both see
# the same background load: POST /v1/resolve of one scene, with --no-record and with recording (each
# binary records into its own fresh database). Prints req/s and p50/p99 per run and, per mode, the median
# of NEW/OLD over the rounds.
#
#   Benchmarks/ab.sh OLD_BINARY NEW_BINARY
#   ROUNDS=5 WRK_DURATION=10s SCENE=Benchmarks/scenes/typical.json Benchmarks/ab.sh old/hinge .build/release/hinge
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: Benchmarks/ab.sh OLD_BINARY NEW_BINARY" >&2; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2")
ROUNDS=${ROUNDS:-3}
WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-64}
WRK_DURATION=${WRK_DURATION:-10s}
SCENE=$(realpath "${SCENE:-Benchmarks/scenes/typical.json}")
command -v wrk >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }

tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() {
    for _ in $(seq 200); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$1)))" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on $1" >&2; return 1
}
# start NAME BINARY [OPTIONS...]: records the port in $tmp/NAME.port
start() {
    local name=$1 bin=$2 port
    shift 2
    port=$(free_port)
    "$bin" serve --port "$port" --threads 2 --db "$tmp/$name.sqlite" --log-level warn "$@" 2>>"$tmp/$name.log" &
    pids+=("$!")
    wait_port "$port"
    echo "$port" >"$tmp/$name.port"
}
start old-norecord "$OLD" --no-record
start new-norecord "$NEW" --no-record
start old-record "$OLD"
start new-record "$NEW"

cat >"$tmp/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$SCENE", "rb"); wrk.body = f:read("*a"); f:close()
LUA
# run NAME -> "req/s p50_ms p99_ms non2xx"
run() {
    local url="http://127.0.0.1:$(cat "$tmp/$1.port")/v1/resolve"
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d1s -s "$tmp/post.lua" "$url" >/dev/null
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" --latency -s "$tmp/post.lua" "$url" >"$tmp/out"
    python3 - "$tmp/out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def ms(label):
    m = re.search(label + r"%\s+([\d.]+)(us|ms|s)\b", t)
    v, u = float(m.group(1)), m.group(2)
    return v / 1000 if u == "us" else v * 1000 if u == "s" else v
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
print(f"{rps:.0f} {ms('50'):.2f} {ms('99'):.2f} {bad.group(1) if bad else 0}")
PY
}

echo "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION; scene $SCENE; $ROUNDS rounds; OLD=$OLD NEW=$NEW"
: >"$tmp/ratios"
for round in $(seq "$ROUNDS"); do
    echo "--- round $round ($(cut -d' ' -f1-3 /proc/loadavg) load average)"
    line="$round"
    for mode in norecord record; do
        # Alternate which binary goes first, so that neither always runs on a warmer machine.
        if [ $((round % 2)) -eq 1 ]; then order="old new"; else order="new old"; fi
        for who in $order; do
            read -r rps p50 p99 bad < <(run "$who-$mode")
            printf '%-14s %-4s %8s req/s   p50 %6s ms   p99 %6s ms   non-2xx %s\n' "$mode" "$who" "$rps" "$p50" "$p99" "$bad"
            eval "${who}_rps=$rps"
        done
        line="$line $mode $(python3 -c "print(f'{$new_rps/$old_rps:.3f}')")"
    done
    echo "$line" | tee -a "$tmp/ratios" | awk '{printf "new/old: no-record %sx, record %sx\n", $3, $5}'
done
python3 - "$tmp/ratios" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
for col, name in [(2, "no-record"), (4, "record")]:
    v = [float(r[col]) for r in rows]
    print(f"median new/old {name}: {statistics.median(v):.3f}x (rounds: {', '.join(f'{x:.3f}' for x in v)})")
PY
