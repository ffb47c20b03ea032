#!/usr/bin/env bash
# What a person waits for when reading the request log (BENCHMARKS.md, "Request log"): each binary records
# its own log of the default 100,000 records (wrk POSTing Benchmarks/scenes/typical.json until the log is
# full and pruning), then, with nothing else running, times over HTTP (one connection, median and p90 of 40):
# listings (no filter, device, status, code, a code nothing has: a full walk), one record's detail, its
# picture and its replay. The binaries take turns (ROUNDS rounds, the order reversed every other round), each
# on its own log.
#
#   ROUNDS=3 Benchmarks/read_times.sh OLD_BINARY NEW_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null 2>&1 || { echo "needs wrk (apt-get install wrk)" >&2; exit 2; }
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$tmp/resolve.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$PWD/Benchmarks/scenes/typical.json", "rb"); wrk.body = f:read("*a"); f:close()
LUA
wait_port() {
    for _ in $(seq 200); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$PORT)))" 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}
start() { # binary, database
    "$1" serve --port "$PORT" --threads 2 --db "$2" --log-level warn >/dev/null 2>>"$tmp/hinge.log" &
    pid=$!
    wait_port
}
stop() {
    kill -TERM "$pid"; wait "$pid" || true
    pid=""
}
# Each binary's log is named by its position among the arguments (two builds are often both called `hinge`).
db_of() {
    local i=0 b
    for b in "${binaries[@]}"; do
        i=$((i + 1))
        if [ "$b" = "$1" ]; then echo "$tmp/log-$i.sqlite"; return; fi
    done
}
binaries=("$@")
for bin in "$@"; do
    db=$(db_of "$bin")
    start "$bin" "$db"
    # Different devices and codes across the log besides the typical scene's.
    python3 - "$PORT" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
for body in ['{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet","detents":["medium","large"]}]}',
             '{"device":"ipad-pro-13","presentations":[{"id":"p","kind":"popover","anchor":{"x":1,"y":1,"width":2,"height":2}}]}']:
    c.request("POST", "/v1/resolve", body=body); c.getresponse().read()
PY
    wrk -t2 -c64 -d12s -s "$tmp/resolve.lua" "http://127.0.0.1:$PORT/v1/resolve" >/dev/null
    stop
    echo "$bin: $(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM requests').fetchone()[0])" "$db") records, $(stat -c %s "$db") bytes"
done
for round in $(seq "${ROUNDS:-3}"); do
    order=("$@")
    if [ $((round % 2)) -eq 0 ]; then order=($(printf '%s\n' "$@" | tac)); fi
    for bin in "${order[@]}"; do
        start "$bin" "$(db_of "$bin")"
        python3 - "$PORT" "$bin" "$round" <<'PY'
import http.client, json, sys, time
port, name, round = int(sys.argv[1]), sys.argv[2], sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port)
def call(method, path):
    s = time.perf_counter()
    c.request(method, path)
    r = c.getresponse(); body = r.read()
    assert r.status == 200, (path, r.status)
    return time.perf_counter() - s, body
newest = json.loads(call("GET", "/v1/requests?limit=1")[1])["items"][0]["id"]
cases = [("list", "GET", "/v1/requests?limit=50"),
         ("device", "GET", "/v1/requests?device=iphone-duo&limit=50"),
         ("status", "GET", "/v1/requests?status=200&limit=50"),
         ("code", "GET", "/v1/requests?code=chained-modal&limit=50"),
         ("full-walk", "GET", "/v1/requests?code=no-such-code&limit=50"),
         ("detail", "GET", f"/v1/requests/{newest}"),
         ("svg", "GET", f"/v1/requests/{newest}/svg"),
         ("replay", "POST", f"/v1/requests/{newest}/replay")]
out = []
for label, method, path in cases:
    times = sorted(call(method, path)[0] for _ in range(40))
    out.append(f"{label} {times[20] * 1000:.2f}/{times[36] * 1000:.2f}")
print(f"round {round} {name} (median/p90 ms): " + ", ".join(out))
PY
        stop
    done
done
