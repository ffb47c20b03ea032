#!/usr/bin/env bash
# Every shell command of README.md runs as written, against a fresh server, and succeeds.
#
# The ```sh blocks are extracted in order (continuation lines and multi-line quoted arguments kept
# together) and run one command at a time by bash -e in an empty directory, where `hinge serve` (the
# release binary) listens on the README's port 8080 with the default ./hinge.sqlite, so `hinge replay`
# and `hinge devices` see what the curl commands recorded. `hinge` is the release binary; `curl` fails on
# an HTTP status >= 400 (--fail-with-body), so a command that gets an error answer fails the script.
# Commands that start the server, run the tests, need a Docker engine or run one of the repository's own
# checks (`swift …`, `docker …`, `scripts/…`: .ci/run runs those itself) are listed as skipped.
#
#   scripts/readme-commands.sh            # needs .build/release/hinge (swift build -c release --product hinge)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin=$root/.build/release/hinge
[ -x "$bin" ] || swift build -c release --product hinge
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; rm -rf "$work"' EXIT

python3 - README.md "$work/commands" <<'PY'
import os, shlex, sys
lines = open(sys.argv[1]).read().splitlines()
blocks, inside = [], None
for line in lines:
    if inside is None and line.strip() == "```sh":
        inside = []
    elif inside is not None and line.strip() == "```":
        blocks.append(inside); inside = None
    elif inside is not None:
        inside.append(line)
commands = []
for block in blocks:
    pending = ""
    for line in block:
        pending = pending + "\n" + line if pending else line
        text = pending.rstrip()
        if text.endswith("\\"):
            continue
        try:  # an open quote: the command goes on on the next line
            shlex.split(text, comments=True)
        except ValueError:
            continue
        if text.strip() and not text.lstrip().startswith("#"):
            commands.append(text)
        pending = ""
os.makedirs(sys.argv[2])
for i, c in enumerate(commands):
    open(os.path.join(sys.argv[2], f"{i:03d}.sh"), "w").write(c + "\n")
PY

if ! python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',8080))==0)"; then
    echo "readme-commands: something already listens on 127.0.0.1:8080; the README's commands need that port" >&2
    exit 1
fi
mkdir -p "$work/run/bin"
ln -s "$bin" "$work/run/bin/hinge"
ln -s "$root/Benchmarks" "$work/run/Benchmarks"
ln -s "$root/Tests" "$work/run/Tests"
cd "$work/run"
"$bin" serve --log-level warn 2>"$work/server.log" &
pid=$!
for _ in $(seq 100); do curl -fsS localhost:8080/healthz >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS localhost:8080/healthz >/dev/null

ran=0 skipped=0 failed=0
for f in "$work"/commands/*.sh; do
    cmd=$(cat "$f")
    case "$(echo "$cmd" | sed 's/^ *//')" in
        swift\ *|docker\ *|scripts/*) echo "skip: ${cmd%%$'\n'*}"; skipped=$((skipped + 1)); continue ;;
    esac
    if PATH="$work/run/bin:$PATH" bash -e -o pipefail -c "curl() { command curl --fail-with-body \"\$@\"; }; $cmd" \
        >"$work/out" 2>&1 </dev/null; then
        ran=$((ran + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $cmd"
        sed 's/^/    /' "$work/out" | head -20
    fi
done
kill -TERM "$pid"; wait "$pid" || true; pid=""
echo "readme-commands: $ran passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$ran" -gt 0 ]
