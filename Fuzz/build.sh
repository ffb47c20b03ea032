#!/usr/bin/env bash
# Builds the libFuzzer targets into Fuzz/out/ with swiftc -sanitize=fuzzer,address:
#   http-parser     the HTTP/1.1 parser (Sources/HTTPServer/HTTP{Parser,HeadParser,ParseError,Status,Types}.swift)
#   scene           JSON parser → Scene.decode → resolve → encoders → SVG (JSON + LayoutEngine + Wireframe)
#   device-profile  JSON parser → DeviceProfile.decode (JSON + LayoutEngine)
#   matrix          POST /v1/resolve/matrix's body → Matrix.plan → Matrix.run (JSON + LayoutEngine + HTTP types +
#                   the core's Matrix, Resolver, Problem, Picture and constant-set context, with the store's
#                   constant-set types, which need no database)
# Each target is one module: the sources of the modules it needs are copied with their `import JSON` /
# `import LayoutEngine` / `import HTTPServer` / `import Resolving` / `import Store` / `import Wireframe` lines removed (swiftc without SwiftPM has no module map for them).
# Usage: Fuzz/build.sh [NAME...]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p Fuzz/out
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(http-parser scene device-profile matrix)

flatten() {  # flatten DIR FILES... : copies FILES into DIR without imports of the project's own modules
    local dir=$1; shift
    rm -rf "$dir"; mkdir -p "$dir"
    for f in "$@"; do sed -E '/^(@testable )?import (JSON|LayoutEngine|HTTPServer|Resolving|Store|Wireframe|Threads)$/d' "$f" >"$dir/$(basename "$f")"; done
}

for t in "${targets[@]}"; do
    case "$t" in
    http-parser)
        flatten Fuzz/out/src-http-parser Sources/HTTPServer/HTTPParser.swift Sources/HTTPServer/HTTPHeadParser.swift \
            Sources/HTTPServer/HTTPParseError.swift Sources/HTTPServer/HTTPStatus.swift Sources/HTTPServer/HTTPTypes.swift \
            Sources/HTTPServer/Configuration.swift \
            Sources/Threads/LoopShard.swift Fuzz/http-parser/main.swift
        srcs=(Fuzz/out/src-http-parser/*.swift) ;;
    scene)
        flatten Fuzz/out/src-scene Sources/JSON/*.swift Sources/LayoutEngine/*.swift Sources/Wireframe/*.swift \
            Fuzz/Fixtures.swift Fuzz/scene/main.swift
        srcs=(Fuzz/out/src-scene/*.swift) ;;
    device-profile)
        flatten Fuzz/out/src-device-profile Sources/JSON/*.swift Sources/LayoutEngine/*.swift Fuzz/device-profile/main.swift
        srcs=(Fuzz/out/src-device-profile/*.swift) ;;
    matrix)
        flatten Fuzz/out/src-matrix Sources/JSON/*.swift Sources/LayoutEngine/*.swift Sources/Wireframe/*.swift \
            Sources/Resolving/Matrix.swift Sources/Resolving/MatrixResults.swift Sources/Resolving/Resolver.swift \
            Sources/Resolving/Problem.swift Sources/Resolving/Picture.swift Sources/Resolving/ConstantSetContext.swift \
            Sources/Store/ConstantSet.swift Sources/Store/Timestamp.swift Sources/Store/EntityTag.swift \
            Fuzz/Fixtures.swift Fuzz/matrix/main.swift
        srcs=(Fuzz/out/src-matrix/*.swift) ;;
    *) echo "unknown fuzz target $t" >&2; exit 2 ;;
    esac
    swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 "${srcs[@]}" -lm \
        -o "Fuzz/out/$t" 2> >(grep -v "Cannot export local symbol" >&2)
    echo "built Fuzz/out/$t"
done
