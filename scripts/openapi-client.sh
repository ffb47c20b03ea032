#!/usr/bin/env bash
# openapi.yaml as client generators read it, checked end to end:
#   1. loaded with a YAML loader that refuses a key repeated in one mapping (YAML requires unique keys), and
#      refuses prose cut off a flow mapping by an unquoted ", " (it leaves a stray key with no value);
#   2. validated with openapi-spec-validator (OpenAPI 3.1);
#   3. turned into a Python client with openapi-python-client (scripts/openapi-client-config.yaml), which
#      must not warn about any part of the document;
#   4. the release binary started on a free loopback port (temporary database, an API key), and every
#      operation driven through the generated typed models by scripts/openapi_client_drive.py, which checks
#      that each JSON answer re-serialised by its model equals what the server sent.
# Prints the checks with passed/failed counts; exits non-zero on any failure.
#
# Usage: scripts/openapi-client.sh [--binary PATH]   (default .build/release/hinge, built when absent)
# Environment: OPENAPI_CLIENT_VENV (default .build/openapi-client-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

PYYAML_VERSION=6.0.4
SPEC_VALIDATOR_VERSION=0.9.0
GENERATOR_VERSION=0.29.1   # needs Python >= 3.11
venv=${OPENAPI_CLIENT_VENV:-.build/openapi-client-venv}
bin=.build/release/hinge
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) bin=$2; shift 2 ;;
        *) echo "usage: $0 [--binary PATH]" >&2; exit 2 ;;
    esac
done

tmp=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "openapi-client FAILED: $*" >&2; [ -f "$tmp/server.log" ] && tail -20 "$tmp/server.log" >&2; exit 1; }

echo "== openapi-client: pyyaml $PYYAML_VERSION, openapi-spec-validator $SPEC_VALIDATOR_VERSION, openapi-python-client $GENERATOR_VERSION"
wanted="pyyaml==$PYYAML_VERSION openapi-spec-validator==$SPEC_VALIDATOR_VERSION openapi-python-client==$GENERATOR_VERSION"
if [ ! -f "$venv/installed" ] || [ "$(cat "$venv/installed")" != "$wanted" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    # shellcheck disable=SC2086
    "$venv/bin/pip" install --quiet --disable-pip-version-check $wanted
    echo "$wanted" >"$venv/installed"
fi
venv=$(cd "$venv" && pwd)
py=$venv/bin/python

echo "== openapi-client: YAML with unique keys and no prose split off a flow mapping"
"$py" - openapi.yaml <<'PY'
import sys
import yaml

class UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses a mapping holding the same key twice (PyYAML keeps the last one)."""

def unique_mapping(loader, node, deep=False):
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} repeated (first at line {seen[key]})", key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep)

UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, unique_mapping)

def stray_keys(node, path=""):
    """Keys holding words and no value: what `{description: a, b}` leaves of `b`."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if value is None and isinstance(key, str) and " " in key.strip():
                found.append(f"{path}/{key}")
            found += stray_keys(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            found += stray_keys(item, f"{path}/{i}")
    return found

def load(text):
    return yaml.load(text, Loader=UniqueKeyLoader)

# The checks must be able to fail: each refuses its example first.
try:
    load("a: 1\nb: 2\na: 3\n")
    sys.exit("the loader accepted a repeated key")
except yaml.constructor.ConstructorError:
    pass
if stray_keys(load("h: {schema: {type: string}, description: The origin, or `*` when any.}")) == []:
    sys.exit("a description cut by an unquoted comma went unnoticed")

path = sys.argv[1]
try:
    document = load(open(path, encoding="utf-8"))
except yaml.YAMLError as error:
    sys.exit(f"{path}: {error}")
stray = stray_keys(document)
if stray:
    sys.exit(f"{path}: keys without a value, prose cut off a flow mapping (quote it): {stray}")
print(f"{path}: {len(document['paths'])} paths, every key unique, no stray key")
PY

echo "== openapi-client: openapi-spec-validator"
"$venv/bin/openapi-spec-validator" openapi.yaml

echo "== openapi-client: openapi-python-client generate"
# The generator formats its output with ruff, which it installs beside itself.
if ! PATH="$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate --path openapi.yaml \
    --config scripts/openapi-client-config.yaml --meta none --output-path "$tmp/client/hinge_client" \
    >"$tmp/generate.log" 2>&1; then
    cat "$tmp/generate.log" >&2
    fail "openapi-python-client could not generate a client"
fi
# It skips what it cannot read with a warning and still succeeds: a warning is a part of the document lost.
if grep -v '^Generating ' "$tmp/generate.log" | grep -qiE "warning|error|cannot|unable|unsupported"; then
    cat "$tmp/generate.log" >&2
    fail "openapi-python-client warned about the document"
fi
# openapi-python-client 0.29.1 writes an operation whose request body has two media types (JSON, and the design
# tokens that POST /v1/constant-sets/{name}/versions takes too) with `Unset` in its signature but not imported.
# The import is added, named in the output, so that the rest of the check still runs: a client author does the
# same, or removes the second media type from their copy of the document.
for module in $(grep -l 'Unset' "$tmp/client/hinge_client/api"/*/*.py); do
    if ! grep -q 'import.*\bUnset\b' "$module"; then
        sed -i '1i from ...types import UNSET, Unset' "$module"
        echo "generator workaround: imported Unset in ${module#"$tmp/client/"}"
    fi
done
echo "generated $(find "$tmp/client/hinge_client/api" -name '*.py' ! -name '__init__.py' | wc -l) operations," \
    "$(find "$tmp/client/hinge_client/models" -name '*.py' ! -name '__init__.py' | wc -l) models"

if [ ! -x "$bin" ]; then
    echo "== openapi-client: building release binary"
    swift build -c release --product hinge
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
key=openapi-client-$RANDOM$RANDOM
echo "== openapi-client: starting $bin on port $port"
env -u HINGE_CORS_ORIGINS "$bin" serve --port "$port" --db "$tmp/hinge.sqlite" --api-key "$key" --log-level warn \
    2>"$tmp/server.log" &
server_pid=$!
for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || fail "server exited early"
    sleep 0.1
done

echo "== openapi-client: every operation through the generated client (scripts/openapi_client_drive.py)"
set +e
"$py" scripts/openapi_client_drive.py --client-dir "$tmp/client" --base-url "http://127.0.0.1:$port" \
    --api-key "$key" --openapi openapi.yaml
drive_rc=$?
set -e

kill -TERM "$server_pid"
set +e
wait "$server_pid"; server_rc=$?
set -e
server_pid=""
[ "$server_rc" -eq 0 ] || fail "server exit code after SIGTERM: $server_rc (want 0)"
[ "$drive_rc" -eq 0 ] || fail "the generated client's checks failed (FAIL lines above)"
echo "== openapi-client: OK"
