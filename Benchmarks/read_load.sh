#!/usr/bin/env bash
# What request-log reads do to everything else (figures in BENCHMARKS.md): a log of ~100k records, one
# client listing with a filter that scans the whole log back to back, while wrk hits /healthz.
#
#   Benchmarks/read_load.sh                       # builds and measures .build/release/hinge
#   Benchmarks/read_load.sh OTHER_BINARY ...      # measures each binary in turn on copies of one log
#
# Prints, per binary, wrk's /healthz req/s, mean latency and p99, and the listings' count and median.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null 2>&1 || { echo "needs wrk (apt-get install wrk)" >&2; exit 2; }
swift build -c release --product hinge >/dev/null
binaries=("$@")
[ ${#binaries[@]} -eq 0 ] && binaries=(.build/release/hinge)

tmp=$(mktemp -d)
trap 'pkill -TERM -f "hinge serve --port $PORT" 2>/dev/null || true; rm -rf "$tmp"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
wait_port() {
    for _ in $(seq 200); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$PORT)))" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
cat >"$tmp/resolve.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$PWD/Benchmarks/scenes/typical.json", "rb"); wrk.body = f:read("*a"); f:close()
LUA

# The log: recorded by the service itself (--max-records 100000 keeps the newest 100k).
.build/release/hinge serve --port "$PORT" --db "$tmp/base.sqlite" --log-level warn >/dev/null 2>>"$tmp/hinge.log" &
pid=$!
wait_port
wrk -t2 -c64 -d8s -s "$tmp/resolve.lua" "http://127.0.0.1:$PORT/v1/resolve" >/dev/null
kill -TERM "$pid"; wait "$pid"
echo "log: $(sqlite3 "$tmp/base.sqlite" 'SELECT count(*) FROM requests' 2>/dev/null || echo '?') records, $(du -h "$tmp/base.sqlite" | cut -f1)"

for bin in "${binaries[@]}"; do
    cp "$tmp/base.sqlite" "$tmp/x.sqlite"
    rm -f "$tmp/x.sqlite-wal" "$tmp/x.sqlite-shm"
    "$bin" serve --port "$PORT" --threads 2 --db "$tmp/x.sqlite" --log-level warn >/dev/null 2>>"$tmp/hinge.log" &
    pid=$!
    wait_port
    python3 - "$PORT" >"$tmp/listings" <<'PY' &
import http.client, sys, time
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
end, times = time.time() + 11, []
while time.time() < end:
    s = time.time()
    c.request("GET", "/v1/requests?code=no-such-code&limit=10")
    r = c.getresponse(); r.read()
    assert r.status == 200, r.status
    times.append(time.time() - s)
times.sort()
print(f"listings {len(times)}, median {times[len(times) // 2] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
PY
    lister=$!
    sleep 0.5
    out=$(wrk -t2 -c64 -d10s --latency "http://127.0.0.1:$PORT/healthz")
    wait "$lister"
    kill -TERM "$pid"; wait "$pid"
    rps=$(grep -oP 'Requests/sec:\s+\K[\d.]+' <<<"$out")
    mean=$(grep -oP '^\s+Latency\s+\K[\d.]+\w+' <<<"$out" | head -1)
    p99=$(grep -oP '^\s+99%\s+\K\S+' <<<"$out")
    echo "$bin: /healthz $rps req/s, mean $mean, p99 $p99; $(cat "$tmp/listings")"
done
