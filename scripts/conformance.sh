#!/usr/bin/env bash
# JSONTestSuite through the service: every test_parsing file POSTed to a running release binary
# (scripts/json-suite-http.py says what each answer must be). The parser-level run is scripts/json-test-suite.sh.
#
# Usage: scripts/conformance.sh DIR   DIR is a checkout of https://github.com/nst/JSONTestSuite (it holds
# test_parsing/). The corpus is public conformance data, not part of this repository; .ci/run passes its copy.
set -euo pipefail
dir=${1:-}
[ -n "$dir" ] && [ -d "$dir/test_parsing" ] || {
    echo "conformance: no JSONTestSuite at '${dir}' (expected DIR/test_parsing/; usage: $0 DIR)" >&2
    exit 1
}
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/.."

swift build -c release --product hinge
tmp=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
.build/release/hinge serve --port "$port" --db "$tmp/hinge.sqlite" --log-level warn 2>"$tmp/server.log" &
pid=$!
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
python3 scripts/json-suite-http.py "$port" "$dir"
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
pid=""
[ "$rc" -eq 0 ] || { echo "conformance: server exit code $rc after SIGTERM" >&2; cat "$tmp/server.log" >&2; exit 1; }
echo "conformance: server stopped cleanly"
