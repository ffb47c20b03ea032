#!/usr/bin/env bash
# Load benchmark on loopback: nginx vs `hinge serve`, measured in one run with the same wrk settings,
# printing req/s, p50, p99 and the ratios (see BENCHMARKS.md). Scenarios:
#   nginx GET /healthz: a fixed 300-byte JSON;
#   nginx POST /v1/resolve ("the fair limit"): the same POST as hinge's (the scene as body), answered with a
#     fixed body that is hinge's own answer to that scene (fetched from hinge at start), so the same bytes
#     cross the wire in both directions;
#   hinge GET /healthz; hinge POST /v1/resolve --no-record; hinge POST /v1/resolve with recording (fresh
#     temporary database), then the records in that database vs wrk's completed requests.
# Every hinge resolve figure is also given as a ratio of the fair limit. Rounds alternate the scenarios
# (odd rounds in the order above, even rounds reversed) and the summary gives the median of every ratio.
#
#   Benchmarks/load.sh                 # defaults: wrk -t2 -c64 -d10s, 3 rounds
#   ROUNDS=5 WRK_DURATION=5s WRK_CONNECTIONS=64 Benchmarks/load.sh
#   SCENE=Benchmarks/scenes/typical.json SKIP_IDLE=1 Benchmarks/load.sh
#   HINGE_BIN=/path/to/older/hinge Benchmarks/load.sh   # measure another build instead of this checkout's
#
# To add a scenario, call `scenario NAME METHOD PATH [BODY_FILE]` in the round loop.
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
chmod 755 "$tmp"  # nginx's workers run as nobody: they must be able to read the fixed body under it
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

# --- hinge -----------------------------------------------------------------------------------------
# HINGE_BIN: a hinge binary to measure instead of this checkout's release build (e.g. an older build).
HINGE_BIN=${HINGE_BIN:-}
if [ -z "$HINGE_BIN" ]; then
    swift build -c release --product hinge >/dev/null
    HINGE_BIN=.build/release/hinge
fi
# start_hinge DB [OPTIONS...]: sets HINGE_PORT_BENCH and HINGE_PID.
start_hinge() {
    local db=$1
    shift
    HINGE_PORT_BENCH=$(free_port)
    "$HINGE_BIN" serve --port "$HINGE_PORT_BENCH" --threads "$HINGE_THREADS" --db "$db" \
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

# hinge's answer to the scene: the fixed body of nginx's fair-limit scenario (same bytes, same size).
python3 - "$A_PORT" "$SCENE" "$tmp/resolution.json" <<'PY'
import http.client, sys
port, scene, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port)
c.request("POST", "/v1/resolve", body=open(scene, "rb").read(), headers={"Content-Type": "application/json"})
r = c.getresponse()
body = r.read()
if r.status != 200:
    sys.exit(f"hinge answered {r.status} to the scene: {body[:300]!r}")
open(out, "wb").write(body)
PY
RESOLUTION_BYTES=$(wc -c <"$tmp/resolution.json")

# --- nginx: 2 workers, own config, own port, no root site --------------------------------------------
#   GET /healthz: a fixed 300-byte JSON; POST /v1/resolve: hinge's resolution as a fixed body (`return`,
#   which reads and discards the request body, as hinge reads and parses it).
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
# The resolution as nginx string literals: `"` and `\` escaped; `$` would start a variable (none in a
# resolution of the typical scene; refused rather than served changed). nginx reads a directive's parameter
# into a 4 KiB buffer, so the text is set in pieces of 1,500 bytes and `return` joins them.
python3 - "$tmp/resolution.json" "$tmp/resolution.conf" <<'PY'
import sys
text = open(sys.argv[1], "rb").read().decode()
if "$" in text:
    sys.exit("the resolution contains '$', which nginx's return directive would read as a variable")
pieces = [text[i:i + 1500] for i in range(0, len(text), 1500)]
with open(sys.argv[2], "w") as f:
    for k, piece in enumerate(pieces):
        f.write(f'set $resolution{k} "' + piece.replace("\\", "\\\\").replace('"', '\\"') + '";\n')
    f.write('return 200 "' + "".join(f"${{resolution{k}}}" for k in range(len(pieces))) + '";\n')
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
    client_body_buffer_size 64k;
    server {
        listen 127.0.0.1:$NGINX_PORT reuseport;
        location = /healthz {
            default_type application/json;
            alias $tmp/body.json;
        }
        location = /v1/resolve {
            default_type application/json;
            include $tmp/resolution.conf;
        }
    }
}
NGX
"$NGINX" -p "$tmp/nginx" -c "$tmp/nginx.conf"
wait_port "$NGINX_PORT"
# nginx must answer 200 with the expected bytes: the fixed JSON, and for the fair limit hinge's own answer.
python3 - "$NGINX_PORT" "$SCENE" "$tmp/resolution.json" "$tmp/body.json" <<'PY'
import http.client, sys
port, scene = int(sys.argv[1]), sys.argv[2]
expected, fixed = open(sys.argv[3], "rb").read(), open(sys.argv[4], "rb").read()
c = http.client.HTTPConnection("127.0.0.1", port)
c.request("POST", "/v1/resolve", body=open(scene, "rb").read(), headers={"Content-Type": "application/json"})
r = c.getresponse()
body = r.read()
if r.status != 200 or body != expected:
    sys.exit(f"nginx's fair-limit answer differs from hinge's: {r.status}, {len(body)} vs {len(expected)} bytes")
c.request("GET", "/healthz")
r = c.getresponse()
body = r.read()
if r.status != 200 or body != fixed:
    sys.exit(f"nginx's GET /healthz answered {r.status} with {len(body)} bytes instead of the fixed JSON")
PY

# run_wrk NAME URL [METHOD BODY_FILE] -> prints "req/s p50_ms p99_ms non2xx socket_errors completed"
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
def ms(label):
    m = re.search(label + r"%\s+([\d.]+)(us|ms|s)\b", t)
    v, u = float(m.group(1)), m.group(2)
    return v / 1000 if u == "us" else v * 1000 if u == "s" else v
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
completed = int(re.search(r"(\d+) requests in", t).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
sock = re.search(r"Socket errors: (.*)", t)
print(f"{rps:.0f} {ms('50'):.2f} {ms('99'):.2f} {errors.group(1) if errors else 0} {'|'.join(sock.group(1).split()) if sock else '-'} {completed}")
PY
}

# scenario NAME METHOD URL [BODY_FILE]: prints a line, sets RPS, P50, P99, NON2XX, COMPLETED and appends
# "NAME RPS P50 P99" to this round's results.
scenario() {
    local name=$1 method=$2 url=$3 body=${4:-}
    read -r RPS P50 P99 NON2XX sockerr COMPLETED < <(run_wrk "$name" "$url" "$method" "$body")
    printf '%-34s %8s req/s   p50 %6s ms   p99 %6s ms   non-2xx %s   socket errors %s\n' \
        "$name" "$RPS" "$P50" "$P99" "$NON2XX" "$sockerr"
    echo "${name// /_} $RPS $P50 $P99" >>"$tmp/round"
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

NGINX_URL="http://127.0.0.1:$NGINX_PORT"
A_URL="http://127.0.0.1:$A_PORT"
B_URL="http://127.0.0.1:$B_PORT"
run_one() {
    case $1 in
        nginx-healthz) scenario "nginx GET /healthz (300 B)" GET "$NGINX_URL/healthz" ;;
        nginx-fair) scenario "nginx POST /v1/resolve (fair limit)" POST "$NGINX_URL/v1/resolve" "$SCENE" ;;
        hinge-healthz)
            scenario "hinge GET /healthz" GET "$A_URL/healthz"
            # Idle keep-alive connections: RSS of hinge holding 1000 of them (first round only).
            if [ "${SKIP_IDLE:-0}" != 1 ] && [ "$round" = 1 ]; then
                python3 Benchmarks/idle_connections.py "$A_PORT" "$A_PID" 1000
            fi
            ;;
        hinge-norecord) scenario "hinge POST /v1/resolve no-record" POST "$A_URL/v1/resolve" "$SCENE" ;;
        hinge-record)
            # The count is taken after the warm-up settled.
            BEFORE_MEASURE=settle_before scenario "hinge POST /v1/resolve record" POST "$B_URL/v1/resolve" "$SCENE"
            settle "$tmp/records-after"
            local before after recorded
            before=$(cat "$tmp/records-before") after=$(cat "$tmp/records-after")
            recorded=$((after - before))
            echo "  recording run: wrk completed $COMPLETED requests (non-2xx $NON2XX); records committed during it $recorded ($before before, $after after)"
            if [ "$recorded" -ge "$COMPLETED" ] && [ "$((recorded - COMPLETED))" -le "$WRK_CONNECTIONS" ]; then
                echo "  records check: OK (completed <= records <= completed + $WRK_CONNECTIONS in flight)"
            else
                echo "  records check: MISMATCH (expected completed <= records <= completed + $WRK_CONNECTIONS)"
            fi
            ;;
    esac
}

# ROUNDS (default 3): the machine's background load changes within seconds, so the rounds alternate the
# scenarios and the summary gives the median of each ratio.
ROUNDS=${ROUNDS:-3}
echo "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION --latency on loopback; $(nproc) cores; hinge --threads $HINGE_THREADS; scene $SCENE ($(wc -c <"$SCENE") B in, $RESOLUTION_BYTES B resolution out); $ROUNDS round(s)"
: >"$tmp/ratios"
order="nginx-healthz hinge-healthz nginx-fair hinge-norecord hinge-record"
for round in $(seq "$ROUNDS"); do
    echo "--- round $round ($(cut -d' ' -f1-3 /proc/loadavg) load average)"
    : >"$tmp/round"
    if [ $((round % 2)) -eq 1 ]; then names=$order; else names=$(echo "$order" | tr ' ' '\n' | tac | tr '\n' ' '); fi
    for name in $names; do run_one "$name"; done
    python3 - "$tmp/round" "$tmp/ratios" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    name, rps, p50, p99 = line.split()
    rows[name] = (float(rps), p50, p99)
def get(prefix):
    return next(v for k, v in rows.items() if k.startswith(prefix))
n, hz, fair, nr, rec = (get(p) for p in ["nginx_GET", "hinge_GET", "nginx_POST", "hinge_POST_/v1/resolve_no", "hinge_POST_/v1/resolve_rec"])
ratios = [
    ("healthz/nginx-healthz", hz[0] / n[0], ">= 0.8", hz, n),
    ("resolve-no-record/fair-limit", nr[0] / fair[0], ">= 0.7", nr, fair),
    ("resolve-record/fair-limit", rec[0] / fair[0], ">= 0.35", rec, fair),
    ("record/no-record", rec[0] / nr[0], ">= 0.8", rec, nr),
]
for name, r, target, a, b in ratios:
    print(f"ratio {name + ':':30s} {r:.2f}x (target {target}x); p50 {a[1]} vs {b[1]} ms, p99 {a[2]} vs {b[2]} ms")
with open(sys.argv[2], "a") as f:
    f.write(" ".join(f"{r}" for _, r, _, _, _ in ratios) + "\n")
PY
done
python3 - "$tmp/ratios" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
names = ["healthz/nginx-healthz", "resolve-no-record/fair-limit", "resolve-record/fair-limit", "record/no-record"]
for k, name in enumerate(names):
    v = [r[k] for r in rows]
    print(f"median {name}: {statistics.median(v):.2f}x (rounds: {', '.join(f'{x:.2f}' for x in v)})")
PY
# Graceful stop of the recording instance: the count must not move any more (everything was committed).
final_before=$(count_records)
stop_hinge "$B_PID"
echo "records after graceful stop: $(count_records) (was $final_before)"
