#!/usr/bin/env bash
# Checks that the repository stands on its own:
#   1. every citation of a document (`docs/rules.md#detent-heights`, `[api](api.md#matrix)`, `CONTRIBUTING.md`)
#      in code, tests, scripts and documents names a file that exists and, with `#anchor`, an anchor in it (an
#      explicit `<a id="…">` or a heading's GitHub slug);
#   2. every test a rules document names (`Test: "hinge-band"`) exists as a test display name;
#   3. no file of the product cites the original specification or anything outside the checkout.
# Fast (no build); .ci/run runs it first. Exit 1 with one line per problem.
#
# Usage: scripts/check-citations.sh
set -euo pipefail
cd "$(dirname "$0")/.."

exec python3 - <<'PY'
import os, re, sys

ROOTS = ["Sources", "Tests", "Benchmarks", "Fuzz", "scripts", "docs", ".ci"]
TOP = ["README.md", "CONTRIBUTING.md", "BENCHMARKS.md", "RELIABILITY.md", "openapi.yaml", "Package.swift", "Dockerfile"]
TEXT = (".swift", ".md", ".sh", ".py", ".yaml", ".yml", ".toml", ".c", ".h", ".json", ".txt", "")
SKIP_DIRS = {".build", ".git", "corpus"}
SELF = "scripts/check-citations.sh"

def files():
    for name in TOP:
        if os.path.isfile(name):
            yield name
    for root in ROOTS:
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
            for n in names:
                p = os.path.join(d, n)
                if os.path.splitext(n)[1] in TEXT and not os.path.islink(p):
                    yield p

def slug(heading):
    s = re.sub(r"<[^>]+>", "", heading).strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")

anchor_cache = {}
def anchors(path):
    if path not in anchor_cache:
        found = set()
        if path.endswith(".md"):
            seen = {}
            for line in open(path, encoding="utf-8"):
                found.update(re.findall(r'\bid="([^"]+)"', line))
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    s = slug(m.group(1))
                    n = seen.get(s, 0)
                    seen[s] = n + 1
                    found.add(s if n == 0 else f"{s}-{n}")
        anchor_cache[path] = found
    return anchor_cache[path]

# A document path, optionally with an anchor: docs/rules.md#x, rules.md#x, CONTRIBUTING.md, docs/example.png.
CITE = re.compile(r"(?<![\w./-])((?:\.\./|\./)?(?:[\w.-]+/)*[\w.-]+\.md|docs/[\w./-]+\.\w+)(#[\w-]+)?")
FORBIDDEN = [
    (re.compile(r"\bSPEC\b|SPEC\.md"), "cites the original specification"),
    (re.compile(r"\.\./shared"), "points outside the checkout (../shared)"),
    (re.compile(r"\bseeds?/|\bseed \d{3}\b"), "cites a source article outside the repository"),
    (re.compile(r"ENGINEERING\.md"), "cites a guide outside the repository (CONTRIBUTING.md is ours)"),
]

problems = []
test_names = set()
all_files = list(files())
for path in all_files:
    if path.startswith("Tests/") and path.endswith(".swift"):
        text = open(path, encoding="utf-8", errors="replace").read()
        test_names.update(re.findall(r'@(?:Test|Suite)\(\s*"([^"]*)"', text))

for path in all_files:
    try:
        text = open(path, encoding="utf-8").read()
    except UnicodeDecodeError:
        continue
    allowed_outside = path in (SELF, ".ci/run")
    for lineno, line in enumerate(text.splitlines(), 1):
        where = f"{path}:{lineno}"
        if not allowed_outside:
            for pattern, why in FORBIDDEN:
                if pattern.search(line):
                    problems.append(f"{where}: {why}: {line.strip()[:100]}")
        if path == SELF:
            continue
        for m in CITE.finditer(line):
            target, anchor = m.group(1), (m.group(2) or "")[1:]
            if "://" in line[max(0, m.start() - 60):m.start()] and not target.startswith("docs/"):
                continue  # part of a URL
            candidates = [os.path.normpath(os.path.join(os.path.dirname(path), target)), os.path.normpath(target)]
            found = next((c for c in candidates if os.path.isfile(c)), None)
            if found is None:
                problems.append(f"{where}: cites {target}, which does not exist")
            elif anchor and anchor not in anchors(found):
                problems.append(f"{where}: cites {target}#{anchor}, which has no such anchor")
        if path.startswith("docs/") and path.endswith(".md"):
            # `Test: "hinge-band"` or `SheetTests` "sheet-style: …", "drag-indicator": each quoted name (up to
            # an ellipsis) must begin some test's display name.
            for m in re.finditer(r'(?:Test:|`\w+Tests`)\s*((?:"[^"]+"(?:,\s*|\s+and\s+)?)+)', line):
                for name in re.findall(r'"([^"]+)"', m.group(1)):
                    prefix = name.split("…")[0].rstrip()
                    if not any(t.startswith(prefix) for t in test_names):
                        problems.append(f"{where}: names the test \"{name}\", which no @Test is called")

for p in problems:
    print(p)
if problems:
    print(f"check-citations: {len(problems)} problem(s)", file=sys.stderr)
    sys.exit(1)
print(f"check-citations: {len(all_files)} files, every citation resolves")
PY
