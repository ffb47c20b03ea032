#!/usr/bin/env bash
# The Dockerfile replayed without a Docker engine (none runs on the CI machine). The Dockerfile itself is
# read, so the two cannot drift apart:
#   1. the build stage's COPY paths, and only those, are copied into an empty directory;
#   2. the build stage's `swift build` RUN line runs there (what it puts in /opt/hinge goes to a temporary
#      directory instead);
#   3. every Swift library the binary and those libraries load must be among the ones shipped beside it (the
#      run stage has no Swift toolchain), and the binary runs on those alone;
#   4. it is started the way the image starts it: ENTRYPOINT + CMD with the image's ENV, a free port given
#      as `-e HINGE_PORT=…` would be and the /data volume mapped to a temporary directory;
#   5. the HEALTHCHECK command runs with that environment and must succeed; the database must be in the
#      volume; a Swift file must read into its scene (the parser's libraries load); SIGTERM must exit 0.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$work"' EXIT

# Dockerfile → shell assignments (COPY sources, the build command, ENV, ENTRYPOINT + CMD, health command).
python3 - Dockerfile >"$work/plan.sh" <<'PY'
import json, re, shlex, sys
text = open(sys.argv[1]).read().replace("\\\n", " ")
stages, current = [], None
for raw in text.splitlines():
    line = raw.strip()
    if not line or line.startswith("#"):
        continue
    word, _, rest = line.partition(" ")
    word = word.upper()
    if word == "FROM":
        current = {"copy": [], "run": [], "env": {}, "cmd": None, "entrypoint": None, "health": None}
        stages.append(current)
    elif word == "COPY" and not rest.startswith("--from"):
        parts = rest.split()
        current["copy"] += parts[:-1]
    elif word == "RUN":
        current["run"].append(rest)
    elif word == "ENV":
        for pair in shlex.split(rest):
            k, _, v = pair.partition("=")
            current["env"][k] = v
    elif word in ("CMD", "ENTRYPOINT"):
        current[word.lower()] = json.loads(rest)
    elif word == "HEALTHCHECK":
        current["health"] = re.sub(r"^(--\S+\s+)*CMD\s+", "", rest)
build, runtime = stages[0], stages[-1]
swift_build = [r for r in build["run"] if "swift build" in r]
assert len(swift_build) == 1, "expected one RUN with swift build in the build stage"
print("copy_paths=(" + " ".join(shlex.quote(p) for p in build["copy"]) + ")")
print("build_cmd=" + shlex.quote(swift_build[0]))
print("image_env=(" + " ".join(shlex.quote(f"{k}={v}") for k, v in runtime["env"].items()) + ")")
print("image_cmd=(" + " ".join(shlex.quote(a) for a in runtime["cmd"]) + ")")
print("health_cmd=" + shlex.quote(runtime["health"]))
PY
# shellcheck source=/dev/null
. "$work/plan.sh"
echo "docker-equivalent: COPY ${copy_paths[*]}; CMD ${image_cmd[*]}; ENV ${image_env[*]}"

src="$work/src" out="$work/out" data="$work/data"
mkdir -p "$src" "$out" "$data"
for p in "${copy_paths[@]}"; do
    cp -a "$p" "$src/"
done
# The build line puts the binary and the Swift libraries it loads in /opt/hinge in the image; here in $out.
(cd "$src" && bash -c "${build_cmd//\/opt\/hinge/$out}")
bin="$out/hinge"
[ -x "$bin" ] || { echo "docker-equivalent: the build produced no $bin" >&2; exit 1; }
# The image has no toolchain: every Swift library (the runtime's, the parser's) must come from beside the binary.
# LD_LIBRARY_PATH comes before the binary's RUNPATH, so with it every library shipped is the one loaded; one not
# shipped would resolve elsewhere, which this check refuses.
ship=(env -i PATH="$PATH" LD_LIBRARY_PATH="$out")
missing=$("${ship[@]}" ldd "$bin" | grep -Ei 'swift|dispatch|BlocksRuntime' | grep -v "=> $out/" || true)
if [ -n "$missing" ]; then
    echo "docker-equivalent: Swift libraries the image does not ship beside $bin:" >&2; echo "$missing" >&2; exit 1
fi
for lib in "$out"/*.so; do
    missing=$("${ship[@]}" ldd "$lib" | grep -Ei 'swift|dispatch|BlocksRuntime|not found' | grep -v "=> $out/" || true)
    [ -z "$missing" ] || { echo "docker-equivalent: $lib needs what is not shipped:" >&2; echo "$missing" >&2; exit 1; }
done

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
run_env=()
for kv in "${image_env[@]}"; do run_env+=("${kv//\/data/$data}"); done
run_env+=("HINGE_PORT=$port" "HINGE_LOG_LEVEL=warn")   # as `docker run -e HINGE_PORT=… -e HINGE_LOG_LEVEL=warn`
env -i PATH="$PATH" LD_LIBRARY_PATH="$out" "${run_env[@]}" "$bin" "${image_cmd[@]}" &
pid=$!
healthy=0
for _ in $(seq 100); do
    if env -i PATH="$PATH" "${run_env[@]}" sh -c "$health_cmd" >/dev/null 2>&1; then healthy=1; break; fi
    sleep 0.1
done
[ "$healthy" = 1 ] || { echo "docker-equivalent: HEALTHCHECK ($health_cmd) never passed on port $port" >&2; exit 1; }
[ -f "$data/hinge.sqlite" ] || { echo "docker-equivalent: no database in the volume directory" >&2; exit 1; }
# SwiftUI reading works with the shipped parser libraries: one file read into its scene.
swift_file='import SwiftUI
struct V: View {
    @State private var shows = false
    var body: some View { Color.clear.sheet(isPresented: $shows) { Text("a") } }
}'
read=$(curl -fsS -X POST -H 'Content-Type: text/x-swift' --data-binary "$swift_file" "http://127.0.0.1:$port/v1/scenes/from-swift")
case "$read" in
*'"id":"shows"'*) ;;
*) echo "docker-equivalent: POST /v1/scenes/from-swift answered: $read" >&2; exit 1 ;;
esac
kill -TERM "$pid"; rc=0; wait "$pid" || rc=$?; pid=""
[ "$rc" -eq 0 ] || { echo "docker-equivalent: exit code $rc after SIGTERM" >&2; exit 1; }
echo "docker-equivalent: built from the Dockerfile's COPY paths alone, runs on the $(ls "$out" | grep -c '\.so$') Swift libraries shipped beside it, reads SwiftUI, honours HINGE_PORT=$port, health check passes, stops cleanly"
