#!/usr/bin/env bash
# User-space instructions per typical resolve of the whole server (HTTP parsing, routing, the engine,
# sending), without noise: `hinge serve --threads 1 --no-record` under callgrind answers 1,000 and then
# 3,000 `POST /v1/resolve` of the scene on keep-alive connections of 500 requests; the difference ÷ 2,000
# is one request (start-up and shutdown cancel out). Both runs hash with a fixed seed
# (SWIFT_DETERMINISTIC_HASHING=1): with the usual random seed the start-up's dictionaries probe differently in
# each run, and the difference of the two runs moved by about 2,000 instructions for the same binary.
#
#   Benchmarks/callgrind-server.sh [HINGE_BINARY]    # default .build/release/hinge; needs valgrind
#   OUT=/tmp/cg Benchmarks/callgrind-server.sh       # keep the callgrind files (callgrind_annotate them)
#   RECORD=1 Benchmarks/callgrind-server.sh          # recording instead of --no-record: the client sends one
#                                                    # request at a time, so each record commits alone
#   SETUP_PATH=/v1/constant-sets/acme/versions SETUP_BODY='{"constants": {}}' \
#   SCENE=pinned.json Benchmarks/callgrind-server.sh # POST SETUP_BODY to SETUP_PATH once before the requests
#                                                    # (e.g. the constant set a pinned scene names)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-.build/release/hinge}")
SCENE=$(realpath "${SCENE:-Benchmarks/scenes/typical.json}")
MODE=--no-record
[ "${RECORD:-0}" = 1 ] && MODE=recording
command -v valgrind >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
tmp=$(mktemp -d)
OUT=${OUT:-$tmp}
mkdir -p "$OUT"
trap 'rm -rf "$tmp"' EXIT
# valgrind 3.19 cannot read this toolchain's debug information ("Possibly corrupted debuginfo file"): run a
# copy without it (the symbols stay, for callgrind_annotate).
objcopy --strip-debug "$BIN" "$tmp/hinge"
BIN_NAME=$BIN
BIN=$tmp/hinge
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
count() {  # count N -> instructions collected while serving N requests
    local n=$1 pid
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$OUT/server-$n.out" "$BIN" serve --port "$port" --threads 1 \
        --db "$tmp/db-$n.sqlite" --log-level warn $([ "$MODE" = --no-record ] && echo --no-record) 2>"$tmp/valgrind-$n.log" &
    pid=$!
    python3 - "$port" "$n" "$SCENE" "${SETUP_PATH:-}" "${SETUP_BODY:-}" <<'PY'
import http.client, socket, sys, time
port, n, scene, setup_path, setup_body = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
body = open(scene, "rb").read()
request = (b"POST /v1/resolve HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
           b"Content-Length: %d\r\n\r\n" % (port, len(body))) + body
for _ in range(600):  # valgrind starts slowly
    try:
        socket.create_connection(("127.0.0.1", port)).close()
        break
    except OSError:
        time.sleep(0.1)
if setup_path:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("POST", setup_path, setup_body)
    r = c.getresponse()
    r.read()
    if r.status >= 300:
        sys.exit(f"setup: {r.status}")
    c.close()
s = None
for i in range(n):
    if i % 500 == 0:
        if s:
            s.close()
        s = socket.create_connection(("127.0.0.1", port))
        buf = b""
    s.sendall(request)
    while True:
        end = buf.find(b"\r\n\r\n")
        if end >= 0:
            head = buf[:end].decode()
            length = int(next(l.split(":")[1] for l in head.split("\r\n") if l.lower().startswith("content-length")))
            if not head.startswith("HTTP/1.1 200"):
                sys.exit("not 200: " + head.split("\r\n")[0])
            if len(buf) >= end + 4 + length:
                buf = buf[end + 4 + length:]
                break
        data = s.recv(65536)
        if not data:
            sys.exit("connection closed")
        buf += data
PY
    kill -TERM "$pid"
    wait "$pid" || true
    grep -o "Collected : [0-9]*" "$tmp/valgrind-$n.log" | awk '{print $3}'
}
a=$(count 1000)
b=$(count 3000)
echo "$BIN_NAME: $(((b - a) / 2000)) instructions per typical resolve (user space, $MODE)"
