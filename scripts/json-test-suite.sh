#!/usr/bin/env bash
# Runs JSONTestSuite's test_parsing corpus through the JSON parser (see Tests/JSONTests/JSONTestSuiteTests.swift):
# every y_ file accepted, every n_ file rejected, every i_ file handled without a crash or a hang.
#
# Usage: scripts/json-test-suite.sh DIR   DIR is a checkout of https://github.com/nst/JSONTestSuite (it holds
# test_parsing/). The corpus is public conformance data, not part of this repository; .ci/run passes its copy.
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
dir=${1:-}
if [ -z "$dir" ] || [ ! -d "$dir/test_parsing" ]; then
    echo "json-test-suite: no JSONTestSuite at '${dir}' (expected DIR/test_parsing/; usage: $0 DIR)" >&2
    exit 1
fi
dir=$(cd "$dir" && pwd)
cd "$root"

swift build --build-tests
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
JSON_TEST_SUITE_DIR="$dir" timeout 300 swift test --skip-build --filter 'JSONTestSuite' >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    cat "$log"
    [ "$status" -eq 124 ] && echo "json-test-suite: timed out (a hang in the parser?)" >&2
    echo "json-test-suite: FAILED (exit $status)" >&2
    exit 1
fi
if ! grep -q '^JSONTestSuite: ' "$log"; then
    cat "$log"
    echo "json-test-suite: FAILED (the suite did not run)" >&2
    exit 1
fi
grep '^JSONTestSuite: ' "$log"
