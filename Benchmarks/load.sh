#!/usr/bin/env bash
# Load benchmark on loopback: nginx serving a fixed 300-byte JSON vs `hinge serve`, measured in one run
# with the same wrk settings, printing req/s, p99 and the ratio (see BENCHMARKS.md).
#
#   Benchmarks/load.sh                 # defaults: wrk -t2 -c64 -d10s
#   WRK_DURATION=5s WRK_CONNECTIONS=64 Benchmarks/load.sh
#
# To add a scenario (e.g. POST /v1/resolve), call `scenario NAME METHOD PATH [BODY_FILE]` at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-64}
WRK_DURATION=${WRK_DURATION:-10s}
HINGE_THREADS=${HINGE_THREADS_BENCH:-2}

need_install=()
command -v wrk >/dev/null 2>&1 || need_install+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_install+=(nginx-light)
command -v python3 >/dev/null 2>&1 || need_install+=(python3)
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
HINGE_PORT_BENCH=$(free_port)
.build/release/hinge serve --port "$HINGE_PORT_BENCH" --threads "$HINGE_THREADS" --db "$tmp/hinge.sqlite" \
    --log-level warn 2>"$tmp/hinge.log" &
pids+=($!)
HINGE_PID=$!
wait_port "$HINGE_PORT_BENCH"

# run_wrk NAME URL [METHOD BODY_FILE] -> prints "req/s p99_ms" and stores them in RESULT_*
run_wrk() {
    local name=$1 url=$2 method=${3:-GET} body=${4:-}
    local script="$tmp/$name.lua"
    {
        echo "wrk.method = \"$method\""
        echo 'wrk.headers["Content-Type"] = "application/json"'
        if [ -n "$body" ]; then
            printf 'local f = io.open("%s", "rb"); wrk.body = f:read("*a"); f:close()\n' "$body"
        fi
    } >"$script"
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d1s -s "$script" "$url" >/dev/null  # warm-up
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" --latency -s "$script" "$url" >"$tmp/$name.out"
    python3 - "$tmp/$name.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
m = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", t)
v, u = float(m.group(1)), m.group(2)
p99 = v / 1000 if u == "us" else v * 1000 if u == "s" else v
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
sock = re.search(r"Socket errors: (.*)", t)
print(f"{rps:.0f} {p99:.2f} {errors.group(1) if errors else 0} {'|'.join(sock.group(1).split()) if sock else '-'}")
PY
}

# scenario NAME METHOD PATH [BODY_FILE]: hinge only (for later issues, e.g. POST /v1/resolve).
scenario() {
    local name=$1 method=$2 path=$3 body=${4:-}
    read -r rps p99 non2xx sockerr < <(run_wrk "$name" "http://127.0.0.1:$HINGE_PORT_BENCH$path" "$method" "$body")
    printf '%-24s %10s req/s   p99 %6s ms   non-2xx %s   socket errors %s\n' "$name" "$rps" "$p99" "$non2xx" "$sockerr"
}

echo "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION --latency on loopback; $(nproc) cores; hinge --threads $HINGE_THREADS"
read -r n_rps n_p99 _ _ < <(run_wrk nginx "http://127.0.0.1:$NGINX_PORT/healthz")
printf '%-24s %10s req/s   p99 %6s ms\n' "nginx (2 workers)" "$n_rps" "$n_p99"
read -r h_rps h_p99 h_non2xx _ < <(run_wrk hinge-healthz "http://127.0.0.1:$HINGE_PORT_BENCH/healthz")
printf '%-24s %10s req/s   p99 %6s ms   non-2xx %s\n' "hinge GET /healthz" "$h_rps" "$h_p99" "$h_non2xx"
python3 -c "print(f'ratio hinge/nginx: {$h_rps/$n_rps:.2f}x (target >= 0.8x); hinge p99 {$h_p99} ms (target <= 5 ms)')"

# Idle keep-alive connections: RSS of hinge holding 1000 of them.
if [ "${SKIP_IDLE:-0}" != 1 ]; then
    python3 Benchmarks/idle_connections.py "$HINGE_PORT_BENCH" "$HINGE_PID" 1000
fi

# Later scenarios go here, e.g.:
# scenario resolve POST /v1/resolve Benchmarks/scenes/basic.json
