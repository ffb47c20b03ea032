#!/usr/bin/env bash
# A throw-away PostgreSQL 15 cluster on a loopback port, for tests and local runs (Debian's postgresql-15).
#
#   scripts/postgres-cluster.sh start DIR PORT   create DIR/data (initdb --no-sync), start the server on
#                                                127.0.0.1:PORT with its unix socket in DIR/socket, create the
#                                                database "hinge"; prints the URL on stdout
#   scripts/postgres-cluster.sh url DIR          prints the URL again
#   scripts/postgres-cluster.sh stop-server DIR  stops the server (pg_ctl stop -m fast), keeps the data
#   scripts/postgres-cluster.sh start-server DIR starts it again on the same port, same data
#   scripts/postgres-cluster.sh stop DIR         stops the server by the PID in postmaster.pid and removes DIR
#
# DIR is made by the caller (mktemp -d) or created here; it is chowned to the `postgres` user when the
# script runs as root, and the server programs then run as that user (`runuser -u postgres --`), since
# PostgreSQL refuses to run as root. Authentication is `trust` for the cluster's own user `postgres`, on
# loopback and the socket only: the cluster is for tests, never for data that matters. Everything it
# prints besides the URL goes to stderr; the server's log is DIR/server.log (initdb's: DIR/initdb.log).
set -euo pipefail

bin=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}

usage() {
    echo "usage: $0 start DIR PORT | url DIR | stop-server DIR | start-server DIR | stop DIR" >&2
    exit 2
}

# Runs a server program as the cluster's owner.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

need_dir() {
    [ -n "${1:-}" ] || usage
    [ -f "$1/port" ] || { echo "postgres-cluster: no cluster in $1 (no $1/port)" >&2; exit 1; }
}

url() { echo "postgres://postgres@127.0.0.1:$(cat "$1/port")/hinge"; }

start_server() {
    local dir=$1 port
    port=$(cat "$dir/port")
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir/socket -c listen_addresses=127.0.0.1" start >&2
}

cmd=${1:-}
case "$cmd" in
start)
    dir=${2:-}; port=${3:-}
    [ -n "$dir" ] && [ -n "$port" ] || usage
    [ -x "$bin/initdb" ] || { echo "postgres-cluster: $bin/initdb not found (apt-get install postgresql)" >&2; exit 1; }
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    mkdir -p "$dir/socket"
    echo "$port" >"$dir/port"
    [ "$(id -u)" -eq 0 ] && chown -R postgres: "$dir"
    # --no-sync: a throw-away cluster needs no fsync at creation.
    if ! as_owner "$bin/initdb" --no-sync -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
        >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        exit 1
    fi
    start_server "$dir"
    as_owner "$bin/createdb" -h "$dir/socket" -p "$port" -U postgres hinge >&2
    url "$dir"
    ;;
url)
    need_dir "${2:-}"
    url "$2"
    ;;
stop-server)
    need_dir "${2:-}"
    as_owner "$bin/pg_ctl" -D "$2/data" -m fast -w stop >&2
    ;;
start-server)
    need_dir "${2:-}"
    start_server "$2"
    ;;
stop)
    dir=${2:-}
    [ -n "$dir" ] || usage
    [ -d "$dir" ] || exit 0
    pidfile="$dir/data/postmaster.pid"
    if [ -f "$pidfile" ]; then
        pid=$(head -1 "$pidfile")
        # SIGINT: PostgreSQL's fast shutdown. Wait up to 30 s, then SIGKILL.
        if kill -INT "$pid" 2>/dev/null; then
            for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    rm -rf "$dir"
    ;;
*)
    usage
    ;;
esac
