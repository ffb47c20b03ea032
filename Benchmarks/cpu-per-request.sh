#!/usr/bin/env bash
# CPU time per request, server and client, for hinge builds and nginx answering the same POST: what each
# request costs the machine, independent of how much of the CPU other processes take meanwhile (throughput
# on a shared machine mostly measures the share of CPU a server got). For each target, rounds alternating:
# wrk -t2 -c64 for WRK_DURATION, the server's user+system CPU from /proc/PID/stat (all its threads, or all
# nginx workers) and wrk's from its rusage, divided by the requests wrk completed.
#
#   Benchmarks/cpu-per-request.sh OLD_HINGE NEW_HINGE            # ROUNDS=3 WRK_DURATION=8s by default
#
# Prints per run: req/s, server µs/request (and its system share: the kernel's work on the server's
# behalf), wrk µs/request, total; then the medians per target and the ratio nginx total / hinge total (the
# throughput ratio a quiet machine whose CPU is the limit would show).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: Benchmarks/cpu-per-request.sh OLD_HINGE NEW_HINGE" >&2; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2")
ROUNDS=${ROUNDS:-3}
WRK_DURATION=${WRK_DURATION:-8s}
SCENE=$(realpath "${SCENE:-Benchmarks/scenes/typical.json}")
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() {
    for _ in $(seq 200); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$1)))" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on $1" >&2; return 1
}
start() {  # start NAME BINARY: --no-record, port in $tmp/NAME.port, pid in $tmp/NAME.pid
    local port
    port=$(free_port)
    "$2" serve --port "$port" --threads 2 --db "$tmp/$1.sqlite" --log-level warn --no-record 2>>"$tmp/$1.log" &
    pids+=("$!")
    echo "$!" >"$tmp/$1.pid"
    wait_port "$port"
    echo "$port" >"$tmp/$1.port"
}
start old "$OLD"
start new "$NEW"

# nginx answering the same POST with hinge's answer as a fixed body (as in Benchmarks/load.sh).
python3 - "$(cat "$tmp/new.port")" "$SCENE" "$tmp/resolution.json" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
c.request("POST", "/v1/resolve", body=open(sys.argv[2], "rb").read(), headers={"Content-Type": "application/json"})
r = c.getresponse()
open(sys.argv[3], "wb").write(r.read())
PY
python3 - "$tmp/resolution.json" "$tmp/resolution.conf" <<'PY'
import sys
text = open(sys.argv[1], "rb").read().decode()
assert "$" not in text
pieces = [text[i:i + 1500] for i in range(0, len(text), 1500)]
with open(sys.argv[2], "w") as f:
    for k, piece in enumerate(pieces):
        f.write(f'set $resolution{k} "' + piece.replace("\\", "\\\\").replace('"', '\\"') + '";\n')
    f.write('return 200 "' + "".join(f"${{resolution{k}}}" for k in range(len(pieces))) + '";\n')
PY
NGINX_PORT=$(free_port)
mkdir -p "$tmp/nginx/logs"
cat >"$tmp/nginx.conf" <<NGX
worker_processes 2;
pid $tmp/nginx.pid;
error_log $tmp/nginx/logs/error.log warn;
daemon on;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$NGINX_PORT reuseport;
        location = /v1/resolve { default_type application/json; include $tmp/resolution.conf; }
    }
}
NGX
"$NGINX" -p "$tmp/nginx" -c "$tmp/nginx.conf"
wait_port "$NGINX_PORT"
echo "$NGINX_PORT" >"$tmp/nginx.port"

cat >"$tmp/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$SCENE", "rb"); wrk.body = f:read("*a"); f:close()
LUA
server_ticks() {  # "utime stime" of the server's processes, in clock ticks
    local name=$1 p u=0 s=0 pids
    if [ "$name" = nginx ]; then pids=$(pgrep -P "$(cat "$tmp/nginx.pid")"); else pids=$(cat "$tmp/$name.pid"); fi
    for p in $pids; do
        read -r pu ps < <(awk '{print $14, $15}' "/proc/$p/stat")
        u=$((u + pu))
        s=$((s + ps))
    done
    echo "$u $s"
}
HZ=$(getconf CLK_TCK)
run() {  # run NAME -> "req/s server_us wrk_us server_system_us"
    local name=$1 url="http://127.0.0.1:$(cat "$tmp/$1.port")/v1/resolve" before after
    wrk -t2 -c64 -d1s -s "$tmp/post.lua" "$url" >/dev/null
    before=$(server_ticks "$name")
    /usr/bin/time -f "%U %S" -o "$tmp/wrk.time" wrk -t2 -c64 -d"$WRK_DURATION" -s "$tmp/post.lua" "$url" >"$tmp/wrk.out"
    after=$(server_ticks "$name")
    python3 - "$tmp/wrk.out" "$tmp/wrk.time" "$before" "$after" "$HZ" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
n = int(re.search(r"(\d+) requests in", t).group(1))
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
u, s = map(float, open(sys.argv[2]).read().split()[-2:])
(u0, s0), (u1, s1) = (map(int, a.split()) for a in sys.argv[3:5])
server = (u1 - u0 + s1 - s0) / int(sys.argv[5])
system = (s1 - s0) / int(sys.argv[5])
print(f"{rps:.0f} {server / n * 1e6:.2f} {(u + s) / n * 1e6:.2f} {system / n * 1e6:.2f}")
PY
}
echo "wrk -t2 -c64 -d$WRK_DURATION, scene $SCENE, $ROUNDS rounds, $(nproc) cores; OLD=$OLD NEW=$NEW"
: >"$tmp/rows"
for round in $(seq "$ROUNDS"); do
    echo "--- round $round ($(cut -d' ' -f1-3 /proc/loadavg) load average)"
    order="nginx old new"
    [ $((round % 2)) -eq 0 ] && order="new old nginx"
    for who in $order; do
        read -r rps server client system < <(run "$who")
        printf '%-6s %8s req/s   server %7s us/request (system %6s)   wrk %6s us/request   total %7s\n' "$who" \
            "$rps" "$server" "$system" "$client" "$(python3 -c "print(f'{$server + $client:.2f}')")"
        echo "$who $server $client $system" >>"$tmp/rows"
    done
done
python3 - "$tmp/rows" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
med = {}
for who in ["nginx", "old", "new"]:
    s = [float(r[1]) for r in rows if r[0] == who]
    c = [float(r[2]) for r in rows if r[0] == who]
    t = [a + b for a, b in zip(s, c)]
    k = [float(r[3]) for r in rows if r[0] == who]
    med[who] = statistics.median(t)
    print(f"median {who:5s}: server {statistics.median(s):.2f} us (system {statistics.median(k):.2f}), "
          f"wrk {statistics.median(c):.2f} us, total {med[who]:.2f} us per request")
for who in ["old", "new"]:
    print(f"CPU-bound throughput ratio {who}/fair limit: {med['nginx'] / med[who]:.2f}x")
PY
