#!/usr/bin/env bash
# Builds the libFuzzer targets into Fuzz/out/: swiftc -sanitize=fuzzer,address over the parser sources.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p Fuzz/out
swiftc -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    Sources/HTTPServer/HTTPParser.swift Sources/HTTPServer/HTTPTypes.swift Fuzz/http-parser/main.swift \
    -o Fuzz/out/http-parser 2> >(grep -v "Cannot export local symbol" >&2)
echo "built Fuzz/out/http-parser"
