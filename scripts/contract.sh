#!/usr/bin/env bash
# Contract check: schemathesis (property-based, every check) against the release binary, driven by
# openapi.yaml. Starts `hinge serve` on a free loopback port with a temporary database and no API key,
# runs `st run … --checks all`, then stops the server with SIGTERM and expects exit 0.
#
# Environment: CONTRACT_MAX_EXAMPLES (default 50), CONTRACT_TIMEOUT seconds for the run (default 600),
# CONTRACT_SEED (default 1, so a CI failure reproduces), CONTRACT_VENV (default .build/contract-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5   # works with Python 3.11 (needs ≥ 3.10)
max_examples=${CONTRACT_MAX_EXAMPLES:-50}
run_timeout=${CONTRACT_TIMEOUT:-600}
seed=${CONTRACT_SEED:-1}
venv=${CONTRACT_VENV:-.build/contract-venv}

tmp=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "contract FAILED: $*" >&2; [ -f "$tmp/server.log" ] && tail -20 "$tmp/server.log" >&2; exit 1; }

echo "== contract: schemathesis $SCHEMATHESIS_VERSION"
if [ ! -x "$venv/bin/st" ] || ! "$venv/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
"$venv/bin/st" --version

echo "== contract: building release binary"
swift build -c release --product hinge
bin=.build/release/hinge

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
echo "== contract: starting hinge on port $port"
env -u HINGE_API_KEY "$bin" serve --port "$port" --db "$tmp/hinge.sqlite" --log-level warn 2>"$tmp/server.log" &
server_pid=$!
for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || fail "server exited early"
    sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || fail "not ready"
# A record for the request-log operations to find (GET /v1/requests/1, its svg, its replay).
curl -fsS -o /dev/null "http://127.0.0.1:$port/v1/resolve" \
    -d '{"device":"iphone-16","presentations":[{"id":"settings","kind":"sheet","detents":["medium","large"]}]}'

echo "== contract: st run openapi.yaml --checks all --max-examples $max_examples (seed $seed)"
set +e
timeout "$run_timeout" "$venv/bin/st" --config-file scripts/schemathesis.toml run openapi.yaml \
    --url "http://127.0.0.1:$port" --checks all --max-examples "$max_examples" --seed "$seed" \
    --request-timeout 10 --generation-database none --no-color --report junit --report-dir "$tmp/report"
st_rc=$?
set -e

kill -TERM "$server_pid"
set +e
wait "$server_pid"; server_rc=$?
set -e
server_pid=""
[ "$server_rc" -eq 0 ] || fail "server exit code after SIGTERM: $server_rc (want 0)"
grep -q "Fatal error\|panic" "$tmp/server.log" && fail "server log shows a crash"
[ "$st_rc" -eq 0 ] || fail "schemathesis exit code $st_rc (124 = timed out)"
echo "== contract: OK (schemathesis found no failure; server exited 0 on SIGTERM)"
