#!/usr/bin/env bash
# HTTP caching lint: REDbot (PyPI `redbot`, "lint for HTTP") on every GET route of the release binary.
# Starts `hinge serve` on a free loopback port with a temporary database, records one resolution (so the
# request-log routes have a record), runs `redbot -o har` on each URL and fails when REDbot reports a
# problem (level WARN or BAD) about caching or validation (ETag, If-None-Match, 304). Other notes are
# printed, not judged.
#
# Environment: REDBOT_VENV (default .build/redbot-venv), HINGE_BIN (default .build/release/hinge, built
# when it is the default), REDBOT_EXTRA_PATHS (space-separated paths to check as well).
set -euo pipefail
cd "$(dirname "$0")/.."

REDBOT_VERSION=2.7.1
venv=${REDBOT_VENV:-.build/redbot-venv}
bin=${HINGE_BIN:-.build/release/hinge}

tmp=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "redbot FAILED: $*" >&2; [ -f "$tmp/server.log" ] && tail -20 "$tmp/server.log" >&2; exit 1; }

echo "== redbot: REDbot $REDBOT_VERSION"
if [ ! -x "$venv/bin/redbot" ] || ! "$venv/bin/pip" show redbot 2>/dev/null | grep -q "^Version: $REDBOT_VERSION$"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "redbot==$REDBOT_VERSION"
fi

if [ -z "${HINGE_BIN:-}" ]; then
    echo "== redbot: building release binary"
    swift build -c release --product hinge
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
echo "== redbot: starting hinge on port $port"
env -u HINGE_API_KEY -u HINGE_CORS_ORIGINS "$bin" serve --port "$port" --db "$tmp/hinge.sqlite" --log-level warn \
    2>"$tmp/server.log" &
server_pid=$!
for _ in $(seq 100); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || fail "server exited early"
    sleep 0.1
done
record=$(curl -fsS -D - -o /dev/null "$base/v1/resolve" \
    -d '{"device":"iphone-16","presentations":[{"id":"settings","kind":"sheet","detents":["medium","large"]}]}' |
    tr -d '\r' | awk -F': ' 'tolower($1)=="hinge-record-id" {print $2}')
[ -n "$record" ] || fail "POST /v1/resolve sent no Hinge-Record-Id"

paths=(/healthz /readyz /metrics /openapi.yaml /v1/constants /v1/devices /v1/devices/iphone-16
    /v1/requests "/v1/requests/$record" "/v1/requests/$record/svg")
# Hinge Studio: the page, and one of its assets under the content-hashed name the page gives it.
studio_asset=$(curl -fsS "$base/" | grep -o '/studio/app\.[0-9a-f]*\.js' | head -1)
[ -n "$studio_asset" ] || fail "GET / names no /studio/app.<hash>.js"
paths+=(/ "$studio_asset")
# shellcheck disable=SC2206
paths+=(${REDBOT_EXTRA_PATHS:-})

problems=0
for path in "${paths[@]}"; do
    if ! timeout 60 "$venv/bin/redbot" -o har "$base$path" >"$tmp/report.json" 2>"$tmp/redbot.err"; then
        cat "$tmp/redbot.err" >&2
        fail "redbot could not check $path"
    fi
    # One line per note: "<verdict> <level> <category> <summary>"; the verdict is FAIL for a caching or
    # validation note at WARN or BAD.
    python3 - "$tmp/report.json" "$path" >"$tmp/notes.txt" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
entries = report["log"]["entries"]
if not entries:
    print(f"FAIL BAD GENERAL no response for {sys.argv[2]}")
for entry in entries:
    status = entry["response"]["status"]
    if status != 200:
        print(f"FAIL BAD GENERAL status {status}, expected 200")
    for note in entry.get("_red_messages", []):
        level, category = note["level"], note["category"]
        failing = level in ("WARN", "BAD") and category in ("CACHING", "VALIDATION")
        print(f"{'FAIL' if failing else 'ok  '} {level:5} {category:10} {note['summary']}")
PY
    echo "-- GET $path"
    sed 's/^/   /' "$tmp/notes.txt"
    if grep -q '^FAIL' "$tmp/notes.txt"; then problems=$((problems + 1)); fi
done

kill -TERM "$server_pid"
set +e
wait "$server_pid"; server_rc=$?
set -e
server_pid=""
[ "$server_rc" -eq 0 ] || fail "server exit code after SIGTERM: $server_rc (want 0)"
[ "$problems" -eq 0 ] || fail "$problems of ${#paths[@]} routes have caching or validation problems (FAIL lines above)"
echo "== redbot: OK (${#paths[@]} routes, no caching or validation problem)"
