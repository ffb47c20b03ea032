#!/usr/bin/env bash
# Recording to PostgreSQL vs recording to SQLite vs --no-record, and a fleet of three replicas behind nginx,
# on loopback (see BENCHMARKS.md, "PostgreSQL store and the fleet"). Prints, for each scenario and round,
# req/s, p99 and the CPU per request of hinge, of postgres and (fleet) of nginx, then the medians.
#
#   Benchmarks/postgres.sh                        # wrk -t2 -c64 -d10s, 3 alternating rounds
#   ROUNDS=5 WRK_DURATION=5s Benchmarks/postgres.sh
#
# A throw-away PostgreSQL cluster is started with scripts/postgres-cluster.sh and removed at the end; every
# process is stopped by its PID.
set -euo pipefail
cd "$(dirname "$0")/.."

WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-64}
WRK_DURATION=${WRK_DURATION:-10s}
ROUNDS=${ROUNDS:-3}
SCENE=${SCENE:-Benchmarks/scenes/typical.json}
SCENE=$(cd "$(dirname "$SCENE")" && pwd)/$(basename "$SCENE")

need_install=()
command -v wrk >/dev/null 2>&1 || need_install+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_install+=(nginx-light)
command -v sqlite3 >/dev/null 2>&1 || need_install+=(sqlite3)
command -v psql >/dev/null 2>&1 || need_install+=(postgresql-client)
[ -x /usr/lib/postgresql/15/bin/initdb ] || need_install+=(postgresql)
if [ ${#need_install[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_install[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || true
    scripts/postgres-cluster.sh stop "$tmp/pg" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_ready() {  # wait_ready PORT: poll /readyz until 200 (deadline 30 s)
    for _ in $(seq 300); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/readyz" || true)" = 200 ] && return 0
        sleep 0.1
    done
    echo "nothing ready on $1" >&2; return 1
}

swift build -c release --product hinge >/dev/null
BIN=$(swift build -c release --show-bin-path)/hinge

PG_PORT=$(free_port)
PG_URL=$(scripts/postgres-cluster.sh start "$tmp/pg" "$PG_PORT" | tail -n 1)
PG_PID=$(head -1 "$tmp/pg/data/postmaster.pid")   # the postmaster; its backends are its children

# start_hinge NAME DB [OPTIONS...]: sets PORT_<NAME> and PID_<NAME>.
start_hinge() {
    local name=$1 db=$2 port
    shift 2
    port=$(free_port)
    "$BIN" serve --port "$port" --threads 2 --db "$db" --replica-id "$name" --log-level warn "$@" \
        2>>"$tmp/hinge-$name.log" &
    pids+=("$!")
    printf -v "PID_$name" '%s' "$!"
    printf -v "PORT_$name" '%s' "$port"
    wait_ready "$port"
}
BIG=(--max-records 100000000 --max-log-bytes 1125899906842624)
start_hinge norecord "$tmp/norecord.sqlite" --no-record
start_hinge sqlite "$tmp/record.sqlite" "${BIG[@]}"
start_hinge postgres "$PG_URL" "${BIG[@]}"

cat >"$tmp/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$SCENE", "rb"); wrk.body = f:read("*a"); f:close()
LUA

# run_wrk URL -> "req/s p99_ms completed non2xx"
run_wrk() {
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d1s -s "$tmp/post.lua" "$1" >/dev/null
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" --latency -s "$tmp/post.lua" "$1" >"$tmp/wrk.out"
    python3 - "$tmp/wrk.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
completed = int(re.search(r"(\d+) requests in", t).group(1))
m = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", t)
v, u = float(m.group(1)), m.group(2)
p99 = v / 1000 if u == "us" else v * 1000 if u == "s" else v
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", t)
print(f"{rps:.0f} {p99:.2f} {completed} {errors.group(1) if errors else 0}")
PY
}

cpu() { python3 Benchmarks/cpu_snapshot.py "$@"; }
# measure NAME PORT HINGE_PIDS: one wrk run; appends "name rps p99 hinge_us postgres_us nginx_us" to results.
measure() {
    local name=$1 port=$2 hinge_pids=$3 nginx_spec=${4:-} before after line
    before=$(cpu hinge="$hinge_pids" postgres="$PG_PID+" ${nginx_spec:+nginx="$nginx_spec"})
    read -r rps p99 completed non2xx < <(run_wrk "http://127.0.0.1:$port/v1/resolve")
    after=$(cpu hinge="$hinge_pids" postgres="$PG_PID+" ${nginx_spec:+nginx="$nginx_spec"})
    line=$(python3 - "$name" "$rps" "$p99" "$completed" "$non2xx" "$before" "$after" <<'PY'
import sys
name, rps, p99, completed, non2xx = sys.argv[1], float(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
b = dict(kv.split("=") for kv in sys.argv[6].split())
a = dict(kv.split("=") for kv in sys.argv[7].split())
# The warm-up second is outside the CPU window (taken after it), the measured run inside: CPU per completed
# request of the measured run. wrk's own CPU is not counted.
per = {k: (float(a[k]) - float(b[k])) / completed * 1e6 for k in a}
print(f"{rps:.0f}", p99, f"{per.get('hinge', 0):.1f}", f"{per.get('postgres', 0):.1f}",
      f"{per.get('nginx', 0):.1f}", non2xx, name)
PY
)
    echo "$line" >>"$tmp/results"
    read -r r p h pg ng bad _ <<<"$line"
    printf '%-30s %8s req/s  p99 %7s ms  CPU/request: hinge %6s µs  postgres %6s µs  nginx %6s µs  non-2xx %s\n' \
        "$name" "$r" "$p" "$h" "$pg" "$ng" "$bad"
}

echo "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION on loopback; $(nproc) cores; hinge --threads 2; scene $SCENE ($(wc -c <"$SCENE") B); $ROUNDS alternating round(s)"
: >"$tmp/results"
for round in $(seq "$ROUNDS"); do
    echo "--- round $round ($(cut -d' ' -f1-3 /proc/loadavg) load average)"
    measure "one replica, --no-record" "$PORT_norecord" "$PID_norecord"
    measure "one replica, SQLite" "$PORT_sqlite" "$PID_sqlite"
    measure "one replica, PostgreSQL" "$PORT_postgres" "$PID_postgres"
done
echo "records: SQLite $(sqlite3 "$tmp/record.sqlite" 'SELECT count(*) FROM requests'), PostgreSQL $(psql -X -At -d "$PG_URL" -c 'SELECT count(*) FROM requests')"

# --- the fleet: three replicas on PostgreSQL behind nginx (2 workers, round robin, keep-alive upstreams).
kill -TERM "$PID_norecord" "$PID_sqlite" "$PID_postgres"
wait "$PID_norecord" "$PID_sqlite" "$PID_postgres" || true
start_hinge a "$PG_URL" "${BIG[@]}"
start_hinge b "$PG_URL" "${BIG[@]}"
start_hinge c "$PG_URL" "${BIG[@]}"
NGINX_PORT=$(free_port)
mkdir -p "$tmp/nginx/tmp" && chmod 777 "$tmp/nginx/tmp"
cat >"$tmp/nginx.conf" <<NGX
worker_processes 2;
pid $tmp/nginx.pid;
error_log $tmp/nginx/error.log warn;
daemon on;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $tmp/nginx/tmp/body;
    proxy_temp_path $tmp/nginx/tmp/proxy;
    upstream hinge {
        server 127.0.0.1:$PORT_a;
        server 127.0.0.1:$PORT_b;
        server 127.0.0.1:$PORT_c;
        keepalive 64;
    }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / {
            proxy_pass http://hinge;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # The name the client called: hinge answers only names it knows (README, "Host names").
            proxy_set_header Host $host;
        }
    }
}
NGX
"$NGINX" -p "$tmp/nginx" -c "$tmp/nginx.conf"
for _ in $(seq 100); do [ -s "$tmp/nginx.pid" ] && break; sleep 0.05; done
NGINX_PID=$(cat "$tmp/nginx.pid")
wait_ready "$NGINX_PORT"
for round in $(seq "$ROUNDS"); do
    measure "fleet of 3 behind nginx" "$NGINX_PORT" "$PID_a,$PID_b,$PID_c" "$NGINX_PID+"
done

echo "--- medians over $ROUNDS round(s)"
python3 - "$tmp/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    rps, p99, h, pg, ng, bad, *name = line.split()
    rows.setdefault(" ".join(name), []).append((float(rps), float(p99), float(h), float(pg), float(ng)))
base = None
for name, rs in rows.items():
    med = [statistics.median(col) for col in zip(*rs)]
    if base is None:
        base = med[0]
    print(f"{name:30s} {med[0]:8.0f} req/s ({med[0] / base:.2f}x no-record)  p99 {med[1]:6.2f} ms  "
          f"CPU/request: hinge {med[2]:5.1f} µs, postgres {med[3]:5.1f} µs, nginx {med[4]:5.1f} µs")
PY
