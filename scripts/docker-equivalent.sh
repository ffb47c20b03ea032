#!/usr/bin/env bash
# The Dockerfile's build and run steps, executed directly (no Docker engine runs on the CI machine):
#   build:  swift build -c release --static-swift-stdlib --product hinge
#   run:    hinge serve --host 0.0.0.0 --port 8080 --db /data/hinge.sqlite   (here: a free port, a temp dir)
#   health: curl -fsS http://127.0.0.1:PORT/healthz                          (the HEALTHCHECK)
# Keep this file and the Dockerfile in step.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product hinge
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)/hinge
# The runtime image has only libsqlite3-0, tzdata and ca-certificates: the binary must not need the Swift runtime.
if ldd "$bin" | grep -q 'libswift'; then
    echo "docker-equivalent: $bin still links the Swift runtime dynamically:" >&2; ldd "$bin" >&2; exit 1
fi
data=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$data"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
"$bin" serve --host 0.0.0.0 --port "$port" --db "$data/hinge.sqlite" --log-level warn &
pid=$!
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "http://127.0.0.1:$port/healthz" | grep -q '"ok"'
[ -f "$data/hinge.sqlite" ] || { echo "docker-equivalent: no database in the volume directory" >&2; exit 1; }
kill -TERM "$pid"; rc=0; wait "$pid" || rc=$?; pid=""
[ "$rc" -eq 0 ] || { echo "docker-equivalent: exit code $rc after SIGTERM" >&2; exit 1; }
echo "docker-equivalent: static build runs, answers /healthz on 0.0.0.0, stops cleanly"
