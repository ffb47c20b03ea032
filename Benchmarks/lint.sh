#!/usr/bin/env bash
# hinge lint, speed and memory (docs/lint.md#speed): FILES generated scene files (default 1,000; four kinds of scene,
# each file with its own ids and sizes) linted in 16 combinations each — iphone-16 (portrait, landscape × ltr, rtl)
# and iphone-duo (flat, halfOpened, closed × the same) — with every reporter on: text and JUnit and SARIF to files,
# GitHub workflow commands to /dev/null and a step summary. Prints the wall time (hyperfine: 1 warm-up, 5 runs, or
# one timed run without it), the same with --jobs 1, and the peak RSS (/usr/bin/time -v) at 100 files and at
# FILES, which should be about the same: files are streamed, reports written as they go.
#
#   Benchmarks/lint.sh [FILES]       # LINT_NO_BUILD=1 skips `swift build -c release --product hinge`
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-1000}
[ -n "${LINT_NO_BUILD:-}" ] || swift build -c release --product hinge >/dev/null
bin=$PWD/.build/release/hinge
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" "$files" <<'PY'
import json, os, sys
root, count = sys.argv[1], int(sys.argv[2])

def scene(i):
    kind = i % 4
    s = f"s{i}"
    if kind == 0:  # the README's typical scene: panel, trailing sheet with a toolbar, a popover from it, a split
        return {"device": "iphone-duo", "posture": "halfOpened",
                "presentations": [
                    {"id": f"tools-{s}", "kind": "adaptivePanel"},
                    {"id": f"editor-{s}", "kind": "sheet", "placement": "trailing", "detents": ["medium", "large"],
                     "backgroundInteraction": {"upThrough": "medium"},
                     "toolbar": [{"title": "Cancel", "placement": "cancellationAction", "systemImage": "xmark"},
                                 {"title": "Save", "placement": "confirmationAction", "systemImage": "checkmark"}]},
                    {"id": f"help-{s}", "kind": "popover", "presentedFrom": f"editor-{s}",
                     "anchor": {"x": 20 + i % 200, "y": 200, "width": 44, "height": 44}}],
                "arrangement": {"style": "split", "secondary": {"ratio": 0.25 + (i % 50) / 100}}}
    if kind == 1:  # a sheet, a chained one, an unknown member
        return {"device": "iphone-16", "colour": "blue",
                "presentations": [
                    {"id": f"settings-{s}", "kind": "sheet", "detents": ["medium", "large"]},
                    {"id": f"confirm-{s}", "kind": "sheet", "presentedFrom": f"settings-{s}"}]}
    if kind == 2:  # fitted content, a cover
        return {"device": "iphone-16",
                "presentations": [
                    {"id": f"picker-{s}", "kind": "sheet", "detents": ["fitted"],
                     "contentSize": {"width": 300, "height": 200 + i % 400}},
                    {"id": f"photo-{s}", "kind": "fullScreenCover", "presentedFrom": f"picker-{s}"}]}
    return {"device": "iphone-16",  # a panel and a popover
            "presentations": [
                {"id": f"filters-{s}", "kind": "adaptivePanel"},
                {"id": f"info-{s}", "kind": "popover",
                 "anchor": {"x": 10 + i % 300, "y": 100, "width": 44, "height": 44}}]}

for n in sorted({100, count}):
    for i in range(n):
        d = os.path.join(root, f"scenes-{n}", f"group-{i // 100:02d}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"scene-{i:04d}.json"), "w") as f:
            json.dump(scene(i), f, indent=2)
PY

matrix=(--devices iphone-16,iphone-duo --postures flat,halfOpened,closed --orientations portrait,landscape
    --layout-directions ltr,rtl)
mkdir -p "$tmp/out"
export GITHUB_STEP_SUMMARY=$tmp/out/step-summary.txt
command_for() {  # FILES [extra flags]
    local n=$1
    shift
    echo "$bin lint $tmp/scenes-$n --no-config ${matrix[*]} --fail-on never" \
        "--report text=$tmp/out/lint.txt --report junit=$tmp/out/lint.xml --report sarif=$tmp/out/lint.sarif" \
        "--report github $* >/dev/null"
}

echo "== hinge lint: $files files × 16 combinations, every reporter on ($(nproc) cores, $(date -u +%Y-%m-%d))"
bash -c "$(command_for "$files")"
echo "   findings: $(grep -c '' "$tmp/out/lint.txt") text lines; SARIF $(du -h "$tmp/out/lint.sarif" | cut -f1)," \
    "JUnit $(du -h "$tmp/out/lint.xml" | cut -f1)"
tail -1 "$tmp/out/lint.txt"
rm -f "$tmp/out/step-summary.txt"

if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --warmup 1 --runs 5 --shell bash -n "default workers" "$(command_for "$files")" \
        -n "one worker (--jobs 1)" "$(command_for "$files" --jobs 1)"
else
    for label in "default jobs" "--jobs 1"; do
        extra=""
        [ "$label" = "--jobs 1" ] && extra="--jobs 1"
        start=$(date +%s.%N)
        bash -c "$(command_for "$files" $extra)"
        echo "$label: $(echo "$(date +%s.%N) - $start" | bc) s (one run)"
    done
fi

for n in 100 "$files"; do
    /usr/bin/time -v bash -c "exec $(command_for "$n")" 2>"$tmp/time-$n"
    rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$tmp/time-$n")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$tmp/time-$n")
    echo "peak RSS at $n files: $rss KiB (wall $wall)"
done
