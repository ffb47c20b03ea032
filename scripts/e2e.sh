#!/usr/bin/env bash
# End-to-end: build the release binary, start it on a free port with a temporary database, drive it
# with real clients (curl, Python's http.client, a raw socket), stop it with SIGTERM, expect exit 0.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "e2e FAILED: $*" >&2; [ -f "$tmp/server.log" ] && tail -20 "$tmp/server.log" >&2; exit 1; }

echo "== e2e: building release binary"
swift build -c release --product hinge
bin=.build/release/hinge

"$bin" --version | grep -q '^hinge ' || fail "--version"
"$bin" --help | grep -q 'serve' || fail "--help"
set +e
"$bin" serve --bogus-flag 2>"$tmp/bad.err"; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "bad flag exit code $rc (want 2)"
[ "$(wc -l <"$tmp/bad.err")" -eq 1 ] || fail "bad flag error is not one line"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
echo "== e2e: starting hinge on port $port"
"$bin" serve --port "$port" --db "$tmp/hinge.sqlite" --threads 2 --log-level info 2>"$tmp/server.log" &
server_pid=$!
for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || fail "server exited early"
    sleep 0.1
done

echo "== e2e: curl"
body=$(curl -fsS "http://127.0.0.1:$port/healthz")
[ "$body" = '{"status":"ok"}' ] || fail "healthz body: $body"
curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" || fail "readyz"
code=$(curl -s -o "$tmp/404.json" -w '%{http_code} %{content_type}' "http://127.0.0.1:$port/nope")
[ "$code" = "404 application/problem+json" ] || fail "404: $code"
grep -q '"status":404' "$tmp/404.json" || fail "404 body"
code=$(curl -s -o /dev/null -D "$tmp/405.h" -w '%{http_code} %{content_type}' -X POST "http://127.0.0.1:$port/healthz")
[ "$code" = "405 application/problem+json" ] || fail "405: $code"
grep -qi '^allow: GET, HEAD' "$tmp/405.h" || fail "405 Allow header"
# Two requests on one curl invocation reuse the connection.
curl -sv "http://127.0.0.1:$port/healthz" "http://127.0.0.1:$port/healthz" -o /dev/null -o /dev/null 2>"$tmp/curl.v"
grep -q 'Re-using existing connection' "$tmp/curl.v" || fail "curl did not reuse the connection"

echo "== e2e: python http.client, raw sockets"
python3 - "$port" <<'PY'
import http.client, socket, sys
port = int(sys.argv[1])

# Keep-alive reuse with http.client: same local port for three requests.
c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
ports = set()
for _ in range(3):
    c.request("GET", "/healthz")
    r = c.getresponse()
    assert r.status == 200, r.status
    assert r.read() == b'{"status":"ok"}'
    assert r.getheader("Server", "").startswith("hinge/"), r.getheader("Server")
    assert r.getheader("Date"), "no Date"
    ports.add(c.sock.getsockname()[1])
assert len(ports) == 1, f"connection not reused: {ports}"
c.request("GET", "/nope")
r = c.getresponse()
assert r.status == 404 and r.getheader("Content-Type") == "application/problem+json"
r.read()
c.close()

def raw(data):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(data)
    out = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        out += chunk
    s.close()
    return out

# A pipelined pair in one write: both answered, in order.
out = raw(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
assert out.count(b"HTTP/1.1 200 OK") == 2, out
assert out.index(b'{"status":"ok"}') < out.index(b'{"status":"ready"}'), out

# A malformed request: 400, Connection: close, closed, and the request after it never answered.
out = raw(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
assert out.startswith(b"HTTP/1.1 400 "), out
assert b"Connection: close" in out and out.count(b"HTTP/1.1") == 1, out
out = raw(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
assert out.startswith(b"HTTP/1.1 505 "), out
print("python checks passed")
PY

echo "== e2e: request log"
grep -q '^GET /healthz 200 [0-9]*us$' "$tmp/server.log" || fail "no request log line"

echo "== e2e: resolutions to replay later (hinge replay, below)"
scenes=Tests/LayoutEngineTests/Scenes
for f in "$scenes"/*.scene.json; do
    curl -s -o /dev/null "http://127.0.0.1:$port/v1/resolve" --data-binary @"$f" || fail "POST $f"
done
curl -fsS -o /dev/null "http://127.0.0.1:$port/v1/resolve" \
    -d '{"device":"iphone-duo","posture":"halfOpened","presentations":[{"id":"s","kind":"sheet"}]}' || fail "POST duo"
svg_scene='{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet","toolbar":[{"title":"Done","placement":"confirmationAction"}]}]}'
curl -fsS -o "$tmp/server.svg" "http://127.0.0.1:$port/v1/resolve?format=svg&width=390" -d "$svg_scene" || fail "POST svg"
curl -fsS -o /dev/null "http://127.0.0.1:$port/v1/resolve/matrix" \
    -d '{"scene":{"presentations":[{"id":"s","kind":"sheet"}]},"devices":["iphone-16","iphone-duo"]}' || fail "POST matrix"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/v1/resolve" -d '{"device":"no-such"}')
[ "$code" = 422 ] || fail "invalid scene over HTTP: $code"

echo "== e2e: SIGTERM"
kill -TERM "$server_pid"
rc=0
wait "$server_pid" || rc=$?
server_pid=""
[ "$rc" -eq 0 ] || fail "exit code after SIGTERM: $rc"
echo "== e2e: CLI (hinge resolve, devices, replay)"
scene=$tmp/scene.json
printf '%s' '{"device":"iphone-16","presentations":[{"id":"settings","kind":"sheet","detents":["medium","large"]}]}' >"$scene"
"$bin" resolve "$scene" --db :memory: >"$tmp/cli.json" || fail "hinge resolve FILE"
python3 - "$tmp/cli.json" <<'PY' || fail "hinge resolve output"
import json, sys
text = open(sys.argv[1]).read()
doc = json.loads(text)
assert text.startswith('{\n  "'), "not pretty"
assert doc["environment"]["window"], doc
assert [p["id"] for p in doc["placements"]] == ["settings"], doc["placements"]
PY
"$bin" resolve - --db :memory: <"$scene" >"$tmp/cli-stdin.json" || fail "hinge resolve - (stdin)"
cmp -s "$tmp/cli.json" "$tmp/cli-stdin.json" || fail "stdin and file outputs differ"
rc=0
"$bin" resolve "$scene" --db "$tmp/absent.sqlite" >/dev/null 2>"$tmp/absent.err" || rc=$?
[ "$rc" -eq 1 ] && grep -q 'no database at' "$tmp/absent.err" || fail "hinge resolve --db ABSENT: exit $rc"
[ ! -e "$tmp/absent.sqlite" ] || fail "hinge resolve created a database"
"$bin" resolve "$scene" --db "$tmp/hinge.sqlite" --device iphone-duo --posture halfOpened --layout-direction rtl >"$tmp/cli-duo.json" \
    || fail "hinge resolve with overrides"
grep -q '"iphone-duo"' "$tmp/cli-duo.json" || fail "--device override not applied"
"$bin" resolve "$scene" --format svg >"$tmp/cli.svg" || fail "hinge resolve --format svg"
head -c 5 "$tmp/cli.svg" | grep -Eq '^(<\?xml|<svg)' || fail "svg output starts with $(head -c 20 "$tmp/cli.svg")"
printf '%s' "$svg_scene" | "$bin" resolve - --format svg --width 390 --db :memory: >"$tmp/cli-390.svg" \
    || fail "hinge resolve --format svg --width 390"
cmp -s "$tmp/server.svg" "$tmp/cli-390.svg" || fail "hinge resolve --format svg differs from the server's SVG"
echo '{"device": "no-such-device"}' >"$tmp/bad.json"
rc=0
"$bin" resolve "$tmp/bad.json" >"$tmp/bad.out" 2>"$tmp/bad.problem" || rc=$?
[ "$rc" -eq 1 ] || fail "invalid scene: exit $rc (want 1)"
[ ! -s "$tmp/bad.out" ] || fail "invalid scene printed on stdout"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); assert p["status"]==422, p' "$tmp/bad.problem" \
    || fail "invalid scene: no problem on stderr"
rc=0
"$bin" resolve "$scene" --posture sideways 2>"$tmp/usage.err" || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/usage.err")" -eq 1 ] || fail "resolve usage error: exit $rc"
"$bin" resolve --help | grep -q 'USAGE: hinge resolve' || fail "resolve --help"
for c in resolve devices replay; do "$bin" --help | grep -q "^  $c " || fail "hinge --help lacks $c"; done

"$bin" devices --db :memory: >"$tmp/devices.txt" || fail "hinge devices"
rc=0
"$bin" devices --db "$tmp/absent.sqlite" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] && [ ! -e "$tmp/absent.sqlite" ] || fail "hinge devices --db ABSENT: exit $rc"
grep -Eq '^iphone-duo +foldable .*built-in$' "$tmp/devices.txt" || fail "hinge devices lacks iphone-duo"
"$bin" devices iphone-duo --db "$tmp/hinge.sqlite" | python3 -c 'import json,sys; assert json.load(sys.stdin)["id"]=="iphone-duo"' \
    || fail "hinge devices iphone-duo"
rc=0
"$bin" devices no-such-device >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "hinge devices unknown id: exit $rc"

# The server recorded the requests above into $tmp/hinge.sqlite and has stopped: replay them all.
rc=0
"$bin" replay --db "$tmp/hinge.sqlite" >"$tmp/replay.txt" 2>"$tmp/replay.err" || rc=$?
cat "$tmp/replay.txt"
[ "$rc" -eq 0 ] || fail "hinge replay: exit $rc: $(cat "$tmp/replay.txt" "$tmp/replay.err")"
grep -Eq '^replayed ([1-9][0-9]*), unchanged \1, changed 0, skipped 0$' "$tmp/replay.txt" || fail "replay summary"
[ ! -s "$tmp/replay.err" ] || fail "hinge replay wrote to stderr while not on a terminal"
"$bin" replay --db "$tmp/hinge.sqlite" --limit 2 | grep -q '^replayed 2, unchanged 2' || fail "replay --limit"
rc=0
"$bin" replay --db "$tmp/absent.sqlite" 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "replay without a database: exit $rc"
[ ! -e "$tmp/absent.sqlite" ] || fail "hinge replay created a database"

echo "e2e passed"
