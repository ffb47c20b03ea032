#!/usr/bin/env bash
# Compares the two accept strategies (every loop accepts from the one socket vs loop 0 alone accepts) with
# two hinge processes started side by side and wrk runs alternated ROUNDS times, so machine noise
# hits both alike. Also measures a connection-churn case (wrk with Connection: close).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
command -v wrk >/dev/null || { echo "wrk missing: run Benchmarks/load.sh once" >&2; exit 1; }
swift build -c release --product hinge >/dev/null
tmp=$(mktemp -d); pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
declare -A port
for s in sharedListener singleAcceptor; do
    port[$s]=$(free_port)
    HINGE_ACCEPT_STRATEGY=$s .build/release/hinge serve --port "${port[$s]}" --threads 2 --log-level warn --db "$tmp/$s.sqlite" &
    pids+=($!)
done
for s in sharedListener singleAcceptor; do
    for _ in $(seq 100); do curl -fs "http://127.0.0.1:${port[$s]}/healthz" >/dev/null && break; sleep 0.1; done
done
echo 'wrk.headers["Connection"] = "close"' >"$tmp/close.lua"
rps() { grep Requests/sec | awk '{print $2}'; }
for mode in keepalive close; do
    for s in sharedListener singleAcceptor; do echo -n >"$tmp/$mode-$s"; done
    for r in $(seq "$ROUNDS"); do
        for s in sharedListener singleAcceptor; do
            extra=(); [ $mode = close ] && extra=(-s "$tmp/close.lua")
            wrk -t2 -c64 -d"$DURATION" "${extra[@]}" "http://127.0.0.1:${port[$s]}/healthz" | rps >>"$tmp/$mode-$s"
        done
    done
    for s in sharedListener singleAcceptor; do
        printf '%-10s %-15s req/s per round: %s  mean %s\n' "$mode" "$s" "$(paste -sd' ' "$tmp/$mode-$s")" \
            "$(awk '{t+=$1} END {printf "%.0f", t/NR}' "$tmp/$mode-$s")"
    done
done
