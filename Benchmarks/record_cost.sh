#!/usr/bin/env bash
# What recording costs per request, by thread, and what a record takes on disk (BENCHMARKS.md, "Request log").
#
#   Benchmarks/record_cost.sh [BINARY ...]     # default .build/release/hinge; binaries alternate each round
#   ROUNDS=3 WRK_DURATION=10s Benchmarks/record_cost.sh OLD NEW
#
# Per binary and round: the server (--threads 2, pruning off) on a fresh database, `wrk -t2 -c64` POSTing
# Benchmarks/scenes/typical.json, first with --no-record, then recording. From /proc it reads each thread's
# CPU time (utime + stime) over the wrk run, grouped by thread name (hinge-loop-*, hinge-db-writer,
# hinge-db-ckpt, the rest), and the writer thread's bytes written (`wchar`: WAL frames, plus the pages of its
# own checkpoint passes), and the machine's idle share from /proc/stat. After SIGTERM (close() checkpoints and
# truncates the WAL) it divides the database file's size by the records in it. Prints per request: CPU µs by
# group, recording's extra CPU (recording total − --no-record total), the machine's idle share during the run,
# records per commit (/metrics), writer bytes per record and file bytes per record.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null 2>&1 || { echo "needs wrk (apt-get install wrk)" >&2; exit 2; }
binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
    swift build -c release --product hinge >/dev/null
    binaries=(.build/release/hinge)
fi
ROUNDS=${ROUNDS:-1}
WRK_DURATION=${WRK_DURATION:-10s}
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; cat "$tmp/hinge.log" >&2 2>/dev/null; rm -rf "$tmp"' EXIT
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

# Thread CPU (clock ticks) and wchar of the writer, as "group ticks" lines, and "writer_wchar N".
snapshot() {
    python3 - "$1" <<'PY'
import os, sys
pid = sys.argv[1]
groups, wchar = {}, 0
for tid in os.listdir(f"/proc/{pid}/task"):
    try:
        name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
        fields = open(f"/proc/{pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        if name == "hinge-db-writer":
            for line in open(f"/proc/{pid}/task/{tid}/io"):
                if line.startswith("wchar:"): wchar = int(line.split()[1])
    except OSError:
        continue
    group = "loops" if name.startswith("hinge-loop") else name if name in ("hinge-db-writer", "hinge-db-ckpt") else "other"
    groups[group] = groups.get(group, 0) + ticks
for g, t in sorted(groups.items()): print(g, t)
print("writer_wchar", wchar)
cpu = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
print("machine_idle", cpu[3] + cpu[4])
print("machine_all", sum(cpu))
PY
}

run() { # binary, mode (record|no-record) → prints one result line
    local bin=$1 mode=$2 db="$tmp/r.sqlite" flags=()
    rm -f "$db" "$db-wal" "$db-shm" "$db.lock"
    [ "$mode" = no-record ] && flags=(--no-record)
    "$bin" serve --port "$PORT" --threads 2 --db "$db" --log-level warn --max-records 100000000 \
        --max-log-bytes 100000000000 "${flags[@]}" >/dev/null 2>>"$tmp/hinge.log" &
    pid=$!
    wait_port
    wrk -t2 -c64 -d1s -s "$tmp/resolve.lua" "http://127.0.0.1:$PORT/v1/resolve" >/dev/null
    snapshot "$pid" >"$tmp/before"
    local out
    out=$(wrk -t2 -c64 -d"$WRK_DURATION" -s "$tmp/resolve.lua" "http://127.0.0.1:$PORT/v1/resolve")
    snapshot "$pid" >"$tmp/after"
    local batch=0
    if [ "$mode" = record ]; then
        batch=$(python3 - "$PORT" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
c.request("GET", "/metrics"); m = c.getresponse().read().decode()
v = lambda k: float(m.split("\n" + k + " ")[1].split()[0])
print(f"{v('hinge_request_log_records_written_total') / v('hinge_request_log_commits_total'):.1f}")
PY
)
    fi
    kill -TERM "$pid"; wait "$pid" || true
    pid=""
    local requests records=0 bytes=0
    requests=$(grep -oP '^\s+\K\d+(?= requests in)' <<<"$out")
    if [ "$mode" = record ]; then
        records=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM requests').fetchone()[0])" "$db")
        bytes=$(stat -c %s "$db")
    fi
    python3 - "$bin" "$mode" "$requests" "$records" "$bytes" "$tmp/before" "$tmp/after" "$(getconf CLK_TCK)" "$batch" <<'PY'
import sys
bin, mode, requests, records, size, before, after, hz, batch = sys.argv[1:]
requests, records, size, hz = int(requests), int(records), int(size), int(hz)
def load(p): return {l.split()[0]: int(l.split()[1]) for l in open(p)}
b, a = load(before), load(after)
us = lambda g: (a.get(g, 0) - b.get(g, 0)) / hz * 1e6 / requests
groups = ["loops", "hinge-db-writer", "hinge-db-ckpt", "other"]
total = sum(us(g) for g in groups)
line = f"{bin} {mode}: {requests} requests; CPU µs/request " + ", ".join(f"{g} {us(g):.1f}" for g in groups)
line += f", total {total:.1f}"
line += f"; machine idle {100 * (a['machine_idle'] - b['machine_idle']) / (a['machine_all'] - b['machine_all']):.0f} %"
if mode == "record":
    wc = (a["writer_wchar"] - b["writer_wchar"]) / requests
    line += f"; {batch} records per commit; writer wrote {wc:.0f} B/request; file {size / max(records, 1):.0f} B/record ({records} records, {size} B)"
print(line)
print(f"TOTAL {bin} {mode} {total:.2f}")
PY
}

for round in $(seq "$ROUNDS"); do
    order=("${binaries[@]}")
    if [ $((round % 2)) -eq 0 ]; then order=($(printf '%s\n' "${binaries[@]}" | tac)); fi
    for bin in "${order[@]}"; do
        n=$(run "$bin" no-record)
        r=$(run "$bin" record)
        grep -v '^TOTAL' <<<"$n"
        grep -v '^TOTAL' <<<"$r"
        nt=$(grep -oP '^TOTAL \S+ \S+ \K\S+' <<<"$n")
        rt=$(grep -oP '^TOTAL \S+ \S+ \K\S+' <<<"$r")
        echo "round $round $bin: recording adds $(python3 -c "print(f'{$rt - $nt:.1f}')") µs of CPU per request"
    done
done
