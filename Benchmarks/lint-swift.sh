#!/usr/bin/env bash
# hinge lint over Swift sources, speed (docs/lint.md#swift): the FILES presenting SwiftUI files of Benchmarks/scenes.sh
# (default 1,000, about 200 lines each), linted in lint's 16 combinations (iphone-16 portrait and landscape × ltr and
# rtl, iphone-duo flat, halfOpened and closed × the same) with the text reporter to a file. Prints, in one run:
#   - the parser's floor: every file parsed on one thread, nothing else (hinge-bench with HINGE_BENCH_SWIFT_PARSE);
#   - `hinge scenes DIR`: reading the scenes alone;
#   - `hinge lint DIR --no-cache`: reading and linting (target: at most 1 s more than `hinge scenes`);
#   - `hinge lint DIR` a second time over the unchanged files, its results from the cache (target: at most 0.5 s);
#   each as the best and the median wall time of RUNS runs (default 3), with its CPU time (user + system).
# On a machine shared with other work, wall times measure the CPU share the run got: compare CPU times too.
#
#   Benchmarks/lint-swift.sh [FILES] [RUNS]       # LINT_NO_BUILD=1 skips `swift build -c release`
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-1000}
runs=${2:-3}
if [ -z "${LINT_NO_BUILD:-}" ]; then
    swift build -c release --product hinge >/dev/null
    swift build -c release --product hinge-bench >/dev/null
fi
bin=$PWD/.build/release
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SCENES_GENERATE=$tmp Benchmarks/scenes.sh "$files"
# The working directory holds no hinge.sqlite (a database turns the cache off), the cache its own directory.
cd "$tmp"
export XDG_CACHE_HOME=$tmp/cache

matrix=(--devices iphone-16,iphone-duo --postures flat,halfOpened,closed --orientations portrait,landscape
    --layout-directions ltr,rtl)
lint=("$bin/hinge" lint src --no-config "${matrix[@]}" --fail-on never --report "text=$tmp/lint.txt")
echo "== hinge lint over $files Swift files × 16 combinations ($(nproc) processors, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%d))"

run() { /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/stderr" && cat "$tmp/time"; }
: >"$tmp/floor"
: >"$tmp/scenes"
: >"$tmp/cold"
: >"$tmp/warm"
for _ in $(seq "$runs"); do
    run env HINGE_BENCH_SWIFT_PARSE="$tmp/src" "$bin/hinge-bench" >>"$tmp/floor"
    run "$bin/hinge" scenes src >>"$tmp/scenes"
    run "${lint[@]}" --no-cache >>"$tmp/cold"
    "${lint[@]}" >/dev/null 2>&1 # fills the cache
    run "${lint[@]}" >>"$tmp/warm"
done
grep -q ' 0 parsed' "$tmp/stderr" || { echo "the second run did not read from the cache: $(cat "$tmp/stderr")"; exit 1; }
summary() { sort -n "$1" | awk '{w[NR]=$1; c[NR]=$2+$3} END {m=int((NR+1)/2); printf "%.2f %.2f %.2f\n", w[1], w[m], c[m]}'; }
printf '%-52s %9s %9s %9s\n' "($runs runs)" "best s" "median s" "cpu s"
for row in "floor|parse only, one thread (the parser's floor)" "scenes|hinge scenes ($(nproc) threads)" \
    "cold|hinge lint --no-cache, 16 combinations" "warm|hinge lint, unchanged files (from the cache)"; do
    IFS='|' read -r file name <<<"$row"
    read -r best median cpu < <(summary "$tmp/$file")
    printf '%-52s %9s %9s %9s\n' "$name" "$best" "$median" "$cpu"
done
read -r scenes_best _ _ < <(summary "$tmp/scenes")
read -r cold_best _ _ < <(summary "$tmp/cold")
echo "lint − scenes (best): $(awk -v a="$cold_best" -v b="$scenes_best" 'BEGIN {printf "%.2f", a - b}') s;" \
    "$(grep -c '' "$tmp/lint.txt") text lines; $(cat "$tmp/stderr")"
