#!/usr/bin/env bash
# Load benchmark on loopback: nginx serving a fixed 300-byte JSON vs `hinge serve`, measured in one run
# with the same wrk settings, printing req/s, p99 and the ratios (see BENCHMARKS.md):
#   nginx fixed JSON; hinge GET /healthz; hinge POST /v1/resolve --no-record; hinge POST /v1/resolve with
#   recording (fresh temporary database), then the records in that database vs wrk's completed requests.
#
#   Benchmarks/load.sh                 # defaults: wrk -t2 -c64 -d10s
#   WRK_DURATION=5s WRK_CONNECTIONS=64 Benchmarks/load.sh
#   SCENE=Benchmarks/scenes/typical.json SKIP_IDLE=1 Benchmarks/load.sh
#
# To add a scenario (e.g. POST /v1/resolve), call `scenario NAME METHOD PATH [BODY_FILE]` at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-64}
WRK_DURATION=${WRK_DURATION:-10s}
HINGE_THREADS=${HINGE_THREADS_BENCH:-2}
SCENE=${SCENE:-Benchmarks/scenes/typical.json}
SCENE=$(cd "$(dirname "$SCENE")" && pwd)/$(basename "$SCENE")

need_install=()
command -v wrk >/dev/null 2>&1 || need_install+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_install+=(nginx-light)
command -v python3 >/dev/null 2>&1 || need_install+=(python3)
command -v sqlite3 >/dev/null 2>&1 || need_install+=(sqlite3)
if [ ${#need_install[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_install[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() {  # wait_port PORT: poll until something listens (deadline 20 s)
    for _ in $(seq 200); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$1)))" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on $1" >&2; return 1
}

# --- nginx: 2 workers, a fixed 300-byte JSON, own config, own port, no root site -------------------
NGINX_PORT=$(free_port)
mkdir -p "$tmp/nginx/logs"
python3 - "$tmp/body.json" <<'PY'
import sys, json
body = {"status": "ok", "pad": ""}
s = json.dumps(body, separators=(",", ":"))
body["pad"] = "x" * (300 - len(s))
out = json.dumps(body, separators=(",", ":"))
assert len(out) == 300, len(out)
open(sys.argv[1], "w").write(out)
PY
cat > "$tmp/nginx.conf" <<NGX
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
        location = /healthz {
            default_type application/json;
            alias $tmp/body.json;
        }
    }
}
NGX
"$NGINX" -p "$tmp/nginx" -c "$tmp/nginx.conf"
wait_port "$NGINX_PORT"

# --- hinge -----------------------------------------------------------------------------------------
swift build -c release --product hinge >/dev/null
# start_hinge DB [OPTIONS...]: sets HINGE_PORT_BENCH and HINGE_PID.
start_hinge() {
    local db=$1
    shift
    HINGE_PORT_BENCH=$(free_port)
    .build/release/hinge serve --port "$HINGE_PORT_BENCH" --threads "$HINGE_THREADS" --db "$db" \
        --log-level warn "$@" 2>>"$tmp/hinge.log" &
    HINGE_PID=$!
    pids+=("$HINGE_PID")
    wait_port "$HINGE_PORT_BENCH"
}
# stop_hinge PID: SIGTERM (graceful: drains and commits the request log), wait for exit.
stop_hinge() {
    kill -TERM "$1"
    wait "$1" || echo "hinge exited with status $?" >&2
}
# Two instances, both started before any measurement (an idle instance costs nothing), so that rounds can
# alternate between them: A with --no-record (GET /healthz, POST /v1/resolve without the request log);
# B recording into a fresh database, without pruning so that every committed record is there to count.
start_hinge "$tmp/norecord.sqlite" --no-record
A_PORT=$HINGE_PORT_BENCH A_PID=$HINGE_PID
start_hinge "$tmp/record.sqlite" --max-records 100000000 --max-log-bytes 1125899906842624
B_PORT=$HINGE_PORT_BENCH B_PID=$HINGE_PID
HINGE_PORT_BENCH=$A_PORT HINGE_PID=$A_PID

# run_wrk NAME URL [METHOD BODY_FILE] -> prints "req/s p99_ms non2xx socket_errors completed"
run_wrk() {
    local name=${1//[^A-Za-z0-9]/_} url=$2 method=${3:-GET} body=${4:-}
    local script="$tmp/$name.lua"
    {
        echo "wrk.method = \"$method\""
        echo 'wrk.headers["Content-Type"] = "application/json"'
        if [ -n "$body" ]; then
            printf 'local f = io.open("%s", "rb"); wrk.body = f:read("*a"); f:close()\n' "$body"
        fi
    } >"$script"
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d1s -s "$script" "$url" >/dev/null  # warm-up
    if [ -n "${BEFORE_MEASURE:-}" ]; then "$BEFORE_MEASURE"; fi
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" --latency -s "$script" "$url" >"$tmp/$name.out"
    python3 - "$tmp/$name.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
completed = int(re.search(r"(\d+) requests in", t).group(1))
m = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", t)
v, u = float(m.group(1)), m.group(2)
p99 = v / 1000 if u == "us" else v * 1000 if u == "s" else v
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
sock = re.search(r"Socket errors: (.*)", t)
print(f"{rps:.0f} {p99:.2f} {errors.group(1) if errors else 0} {'|'.join(sock.group(1).split()) if sock else '-'} {completed}")
PY
}

# scenario NAME METHOD PATH [BODY_FILE]: hinge only; prints a line and sets RPS, P99, NON2XX, COMPLETED.
scenario() {
    local name=$1 method=$2 path=$3 body=${4:-}
    read -r RPS P99 NON2XX sockerr COMPLETED < <(run_wrk "$name" "http://127.0.0.1:$HINGE_PORT_BENCH$path" "$method" "$body")
    printf '%-32s %10s req/s   p99 %6s ms   non-2xx %s   socket errors %s\n' "$name" "$RPS" "$P99" "$NON2XX" "$sockerr"
}

count_records() { sqlite3 "$tmp/record.sqlite" 'SELECT count(*) FROM requests'; }
# Waits until the record count stops moving (the in-flight requests of a finished wrk are committed), then
# writes it to the file named by $1.
settle() {
    local a b
    b=$(count_records)
    while :; do
        sleep 0.2
        a=$(count_records)
        [ "$a" = "$b" ] && break
        b=$a
    done
    echo "$a" >"$1"
}
settle_before() { settle "$tmp/records-before"; }

# ROUNDS (default 1): the machine's background load changes within seconds, so more rounds alternate the
# scenarios and the summary gives the median of each ratio.
ROUNDS=${ROUNDS:-1}
echo "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION --latency on loopback; $(nproc) cores; hinge --threads $HINGE_THREADS; scene $SCENE ($(wc -c <"$SCENE") B); $ROUNDS round(s)"
: >"$tmp/ratios"
for round in $(seq "$ROUNDS"); do
    [ "$ROUNDS" -gt 1 ] && echo "--- round $round ($(cut -d' ' -f1-3 /proc/loadavg) load average)"
    read -r n_rps n_p99 _ _ _ < <(run_wrk nginx "http://127.0.0.1:$NGINX_PORT/healthz")
    printf '%-32s %10s req/s   p99 %6s ms\n' "nginx (2 workers) fixed JSON" "$n_rps" "$n_p99"
    HINGE_PORT_BENCH=$A_PORT
    scenario "hinge GET /healthz" GET /healthz
    h_rps=$RPS h_p99=$P99
    # Idle keep-alive connections: RSS of hinge holding 1000 of them (first round only).
    if [ "${SKIP_IDLE:-0}" != 1 ] && [ "$round" = 1 ]; then
        python3 Benchmarks/idle_connections.py "$A_PORT" "$A_PID" 1000
    fi
    # POST /v1/resolve without the request log.
    scenario "hinge POST /v1/resolve no-record" POST /v1/resolve "$SCENE"
    nr_rps=$RPS nr_p99=$P99
    # POST /v1/resolve with recording; the count is taken after the warm-up settled.
    HINGE_PORT_BENCH=$B_PORT
    BEFORE_MEASURE=settle_before scenario "hinge POST /v1/resolve record" POST /v1/resolve "$SCENE"
    r_rps=$RPS r_p99=$P99 r_completed=$COMPLETED r_non2xx=$NON2XX
    settle "$tmp/records-after"
    before=$(cat "$tmp/records-before") after=$(cat "$tmp/records-after")
    recorded=$((after - before))
    python3 - "$n_rps" "$h_rps" "$nr_rps" "$r_rps" "$h_p99" "$nr_p99" "$r_p99" "$tmp/ratios" <<'PY'
import sys
n, h, nr, r = map(float, sys.argv[1:5])
hp, nrp, rp = sys.argv[5:8]
print(f"ratio healthz/nginx:            {h/n:.2f}x (target >= 0.8x); p99 {hp} ms")
print(f"ratio resolve-no-record/nginx:  {nr/n:.2f}x (target >= 0.5x); p99 {nrp} ms")
print(f"ratio record/no-record:         {r/nr:.2f}x (target >= 0.8x); p99 {rp} ms vs {nrp} ms")
open(sys.argv[8], "a").write(f"{h/n} {nr/n} {r/nr}\n")
PY
    echo "recording run: wrk completed $r_completed requests (non-2xx $r_non2xx); records committed during it $recorded ($before before, $after after)"
    if [ "$recorded" -ge "$r_completed" ] && [ "$((recorded - r_completed))" -le "$WRK_CONNECTIONS" ]; then
        echo "records check: OK (completed <= records <= completed + $WRK_CONNECTIONS in flight)"
    else
        echo "records check: MISMATCH (expected completed <= records <= completed + $WRK_CONNECTIONS)"
    fi
done
if [ "$ROUNDS" -gt 1 ]; then
    python3 - "$tmp/ratios" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
for k, name in enumerate(["healthz/nginx", "resolve-no-record/nginx", "record/no-record"]):
    v = [r[k] for r in rows]
    print(f"median {name}: {statistics.median(v):.2f}x (rounds: {', '.join(f'{x:.2f}' for x in v)})")
PY
fi
# Graceful stop of the recording instance: the count must not move any more (everything was committed).
final_before=$(count_records)
stop_hinge "$B_PID"
echo "records after graceful stop: $(count_records) (was $final_before)"
