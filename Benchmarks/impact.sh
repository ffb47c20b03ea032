#!/usr/bin/env bash
# Benchmark of the constant-set impact report (docs/api.md#constant-set-impact): a server's request log is
# filled with 100,000 recorded resolutions of scenes naming acme (its latest, acme@1, then), acme@2 is made, and
# POST /v1/constant-sets/acme/versions/2/impact replays all of them with acme@2 while a probe asks GET /healthz
# every 20 ms on its own connection. Prints the impact run's wall time, its counts, and the probe's latencies
# (median, p99, max), and the server's CPU time during the run (user + system, from /proc: on a machine shared
# with other work the wall time measures the CPU share the server got, the CPU time what the run costs).
# Targets: the run ≤ 10 s, /healthz < 50 ms throughout.
#
#   Benchmarks/impact.sh                        # needs .build/release/hinge (built if missing)
#   RECORDS=20000 Benchmarks/impact.sh          # a smaller log
#   HINGE_BIN=/path/to/hinge Benchmarks/impact.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${RECORDS:-100000}
bin=${HINGE_BIN:-.build/release/hinge}
[ -x "$bin" ] || swift build -c release --product hinge
command -v wrk >/dev/null 2>&1 || { echo "impact.sh needs wrk (apt-get install wrk)" >&2; exit 1; }
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
"$bin" serve --port "$port" --db "$tmp/hinge.sqlite" --max-records "$RECORDS" --log-level warn &
pid=$!
for _ in $(seq 200); do curl -sf "localhost:$port/healthz" >/dev/null && break; sleep 0.1; done
base=http://127.0.0.1:$port
curl -sf "$base/v1/constant-sets/acme/versions" -d '{"constants": {"sheet.topGap": 12}}' >/dev/null
# The records that would use acme@2 (docs/api.md#constant-set-impact): scenes naming the set without a version.
named=$(python3 -c 'import json; d=json.load(open("Benchmarks/scenes/typical.json")); d["constantSet"]="acme"; print(json.dumps(d))')
# Fill the log: each body in turn until the log holds RECORDS records (the store prunes beyond them).
fill() {  # fill BODY SECONDS
    printf 'wrk.method = "POST"\nwrk.body = [[%s]]\nwrk.headers["Content-Type"] = "application/json"\n' "$1" > "$tmp/post.lua"
    wrk -t2 -c32 -d"$2" -s "$tmp/post.lua" "$base/v1/resolve" >/dev/null
}
count() { curl -sf "$base/metrics" | awk '/^hinge_request_log_records_written_total/ {print int($2)}'; }
while [ "$(count)" -lt "$RECORDS" ]; do
    fill "$named" 4s
done
curl -sf "$base/v1/constant-sets/acme/versions" -d '{"basedOn": "acme@1", "constants": {"sheet.topGap": 20}}' >/dev/null
echo "log: $(count) records written (the newest $RECORDS kept), each naming acme (resolved with acme@1)"
python3 - "$port" "$RECORDS" "$pid" <<'PY'
import http.client, json, os, statistics, sys, threading, time
port, records, pid = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
def cpu_seconds():  # the server's user + system time so far (/proc/PID/stat fields 14 and 15)
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
latencies, done = [], threading.Event()
def probe():
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    while not done.is_set():
        t = time.perf_counter()
        c.request("GET", "/healthz")
        r = c.getresponse(); r.read()
        latencies.append((time.perf_counter() - t) * 1000)
        time.sleep(0.02)
t = threading.Thread(target=probe); t.start()
c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
start, cpu = time.perf_counter(), cpu_seconds()
c.request("POST", "/v1/constant-sets/acme/versions/2/impact", json.dumps({"limit": records}))
r = c.getresponse(); body = json.loads(r.read())
elapsed, cpu = time.perf_counter() - start, cpu_seconds() - cpu
done.set(); t.join()
q = sorted(latencies)
print(f"impact over {records} records: {elapsed:.2f} s, status {r.status}, counts {body.get('counts')}")
print(f"server CPU meanwhile: {cpu:.2f} s ({cpu / records * 1e6:.0f} µs per record; load average before: "
      f"{os.getloadavg()[0]:.2f})")
print(f"groups: {[(g['pattern'], g['detent'], g['direction'], g['records'], g['typical']) for g in body.get('groups', [])]}")
print(f"/healthz meanwhile: {len(q)} probes, median {statistics.median(q):.2f} ms, "
      f"p99 {q[int(len(q) * 0.99) - 1]:.2f} ms, max {q[-1]:.2f} ms")
PY
