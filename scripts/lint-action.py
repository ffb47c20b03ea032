#!/usr/bin/env python3
"""The GitHub Actions job of docs/lint.md, run as written with the repository's action.yml (docs/lint.md#ci).

  1. action.yml is checked against GitHub's documented metadata syntax for a composite action: `name` and
     `description`; inputs with a `description` (and `required`, `default`, `deprecationMessage`); outputs with a
     `description` and a `value`; `runs.using: composite` and `runs.steps`, each step a `run` with its `shell` or a
     `uses`, and only the keys a composite step may have (`name`, `id`, `if`, `env`, `working-directory`, `with`,
     `continue-on-error`).
  2. The ```yaml block of docs/lint.md that names `runs-on` is the job. Its steps run in a throw-away git repository
     holding examples/lint under design/ (the project passes), then with a new scene that fails: `run:` steps with
     `bash --noprofile --norc -eo pipefail`, as a runner does, with GITHUB_ENV, GITHUB_OUTPUT and
     GITHUB_STEP_SUMMARY; `uses:` steps through a stub per action. The stubs model only what they say, and fail
     on anything else (an unknown action, an unknown `with:` key, an expression they do not evaluate):
       - actions/checkout@v4: the repository is already checked out (no `with:`);
       - your-org/hinge@v1 (the job's name for this repository's action): this checkout's action.yml, its steps run
         in turn with its inputs;
       - github/codeql-action/upload-sarif@v3 (`sarif_file`, `category`): the file is validated with
         scripts/lint_validate.py (PyPI's jsonschema and the OASIS schema) and kept as "uploaded".
  3. Checks: the passing run exits 0 and uploads a SARIF file without results; the failing run fails the job on
     its last step, after the upload, with an annotation at design/scenes/... (a path from the repository root), a
     SARIF result with that URI, and a step summary.

    scripts/lint-action.py [--venv .build/lint-venv]    # the venv scripts/lint-check.sh makes
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
ACTION_REF = "your-org/hinge@v1"
COMPOSITE_KEYS = {"name", "author", "description", "inputs", "outputs", "runs", "branding"}
INPUT_KEYS = {"description", "required", "default", "deprecationMessage"}
STEP_KEYS = {"name", "id", "if", "env", "working-directory", "run", "shell", "uses", "with", "continue-on-error"}
passed, failed = [], []


class Unmodelled(Exception):
    """Something the stubs do not model: the check fails loudly instead of guessing."""


def check(name, ok, detail=""):
    (passed if ok else failed).append(name)
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}", flush=True)


def check_action_syntax(action):
    problems = []
    for key in set(action) - COMPOSITE_KEYS:
        problems.append(f"unknown top-level key {key}")
    for key in ("name", "description", "runs"):
        if key not in action:
            problems.append(f"no {key}")
    for name, spec in (action.get("inputs") or {}).items():
        if "description" not in spec:
            problems.append(f"input {name} has no description")
        problems += [f"input {name}: unknown key {k}" for k in set(spec) - INPUT_KEYS]
    for name, spec in (action.get("outputs") or {}).items():
        if "description" not in spec or "value" not in spec:
            problems.append(f"output {name} needs a description and a value (composite)")
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        problems.append("runs.using is not composite")
    for i, step in enumerate(runs.get("steps") or []):
        problems += [f"step {i}: unknown key {k}" for k in set(step) - STEP_KEYS]
        if ("run" in step) == ("uses" in step):
            problems.append(f"step {i}: needs exactly one of run and uses")
        if "run" in step and "shell" not in step:
            problems.append(f"step {i}: a run step of a composite action needs its shell")
        if "with" in step and "uses" not in step:
            problems.append(f"step {i}: with without uses")
    if not runs.get("steps"):
        problems.append("runs.steps is empty")
    return problems


def documented_job():
    text = open(os.path.join(ROOT, "docs/lint.md"), encoding="utf-8").read()
    for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
        if "runs-on:" in block:
            workflow = yaml.safe_load(block)
            (job,) = workflow["jobs"].values()
            return job
    raise Unmodelled("docs/lint.md has no GitHub Actions job (a ```yaml block with runs-on)")


class Context:
    """The expression context of one job: inputs of the action running, step outputs, github.* and runner.*."""

    def __init__(self, workspace, temp):
        self.github = {"workspace": workspace, "action_path": ROOT}
        self.runner = {"temp": temp}
        self.inputs = {}
        self.steps = {}
        self.status = "success"

    def value(self, expr):
        expr = expr.strip()
        m = re.fullmatch(r"'((?:[^']|'')*)'", expr)
        if m:
            return m.group(1).replace("''", "'")
        parts = expr.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            if parts[1] not in self.inputs:
                raise Unmodelled(f"unknown input in {expr}")
            return self.inputs[parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        if parts[0] in ("github", "runner") and len(parts) == 2:
            table = self.github if parts[0] == "github" else self.runner
            if parts[1] not in table:
                raise Unmodelled(f"{expr} is not modelled")
            return table[parts[1]]
        raise Unmodelled(f"the expression {expr!r} is not modelled")

    def condition(self, expr):
        """`if:`: terms joined by &&, each always(), success(), failure(), or A == B / A != B."""
        if expr is None:
            return self.status == "success"
        expr = str(expr).strip()
        if expr.startswith("${{") and expr.endswith("}}"):
            expr = expr[3:-2]
        result, has_status = True, False
        for term in expr.split("&&"):
            term = term.strip()
            if term in ("always()", "success()", "failure()"):
                has_status = True
                result = result and {"always()": True, "success()": self.status == "success",
                                     "failure()": self.status == "failure"}[term]
            elif m := re.fullmatch(r"(.+?)\s*(==|!=)\s*(.+)", term):
                a, b = self.value(m.group(1)), self.value(m.group(3))
                result = result and ((a == b) == (m.group(2) == "=="))
            else:
                raise Unmodelled(f"the condition {term!r} is not modelled")
        return result and (has_status or self.status == "success")

    def substitute(self, text):
        return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(self.value(m.group(1))), str(text))


class Runner:
    """Runs steps as a GitHub runner would, in one workspace."""

    def __init__(self, workspace, venv):
        self.workspace = workspace
        self.venv = venv
        self.temp = tempfile.mkdtemp(prefix="runner-temp-")
        self.ctx = Context(workspace, self.temp)
        self.env = {"GITHUB_ENV": os.path.join(self.temp, "env"), "GITHUB_STEP_SUMMARY": os.path.join(self.temp,
                    "summary.txt"), "GITHUB_WORKSPACE": workspace, "RUNNER_TEMP": self.temp, "CI": "true",
                    "GITHUB_ACTIONS": "true"}
        open(self.env["GITHUB_ENV"], "w").close()
        self.log = []
        self.uploaded = []
        self.stdout = self.stderr = ""

    def run_step(self, step, prefix):
        name = step.get("name") or step.get("uses") or step.get("run", "").split("\n")[0]
        if not self.ctx.condition(step.get("if")):
            self.log.append(f"{prefix}skipped: {name}")
            return
        ok = self.uses(step) if "uses" in step else self.run(step)
        if not ok and not step.get("continue-on-error"):
            self.ctx.status = "failure"
        self.log.append(f"{prefix}{'ok' if ok else 'failed'}: {name}")

    def run(self, step):
        if step.get("shell") not in ("bash", None):
            raise Unmodelled(f"shell {step.get('shell')} is not modelled")
        output = os.path.join(self.temp, f"output-{len(self.log)}")
        open(output, "w").close()
        env = dict(os.environ)
        env.update(self.env)
        env.update(self.read_pairs(self.env["GITHUB_ENV"]))
        env.update({k: self.ctx.substitute(v) for k, v in (step.get("env") or {}).items()})
        env["GITHUB_OUTPUT"] = output
        env["GITHUB_ACTION_PATH"] = self.ctx.github["action_path"]
        cwd = self.ctx.substitute(step.get("working-directory", self.workspace))
        script = os.path.join(self.temp, "step.sh")
        open(script, "w").write(self.ctx.substitute(step["run"]))
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=cwd, env=env,
                           capture_output=True, text=True)
        self.stdout += p.stdout
        self.stderr += p.stderr
        if p.returncode not in (0, 1):
            sys.stdout.write(p.stderr[-2000:])
        if "id" in step:
            self.ctx.steps[step["id"]] = self.read_pairs(output)
        return p.returncode == 0

    @staticmethod
    def read_pairs(path):
        pairs = {}
        for line in open(path, encoding="utf-8").read().splitlines():
            if "<<" in line.split("=")[0]:
                raise Unmodelled(f"multi-line values in {path} are not modelled")
            key, eq, value = line.partition("=")
            if not eq:
                raise Unmodelled(f"{path}: a line without =: {line!r}")
            pairs[key] = value
        return pairs

    def uses(self, step):
        ref = step["uses"]
        given = {k: self.ctx.substitute(v) for k, v in (step.get("with") or {}).items()}
        if ref == "actions/checkout@v4":
            if given:
                raise Unmodelled(f"actions/checkout with {sorted(given)}")
            return os.path.isdir(os.path.join(self.workspace, ".git"))
        if ref == "github/codeql-action/upload-sarif@v3":
            unknown = set(given) - {"sarif_file", "category"}
            if unknown:
                raise Unmodelled(f"upload-sarif with {sorted(unknown)}")
            path = os.path.join(self.workspace, given.get("sarif_file", "../results"))
            p = subprocess.run([os.path.join(self.venv, "bin/python"), os.path.join(ROOT, "scripts/lint_validate.py"),
                                "sarif", path], capture_output=True, text=True)
            if p.returncode == 0:
                self.uploaded.append((open(path, encoding="utf-8").read(), given.get("category")))
            else:
                print(p.stdout + p.stderr)
            return p.returncode == 0
        if ref == ACTION_REF:
            return self.composite(given)
        raise Unmodelled(f"the action {ref} is not modelled")

    def composite(self, given):
        action = yaml.safe_load(open(os.path.join(ROOT, "action.yml"), encoding="utf-8"))
        declared = action.get("inputs") or {}
        unknown = set(given) - set(declared)
        if unknown:
            raise Unmodelled(f"inputs the action does not declare: {sorted(unknown)}")
        inputs = {}
        for name, spec in declared.items():
            if spec.get("required") and name not in given:
                raise Unmodelled(f"the required input {name} is not given")
            inputs[name] = str(given.get(name, spec.get("default", "")))
        outer_inputs, outer_steps, outer_status = self.ctx.inputs, self.ctx.steps, self.ctx.status
        self.ctx.inputs, self.ctx.steps = inputs, {}
        for step in action["runs"]["steps"]:
            self.run_step(step, "  ")
        ok = self.ctx.status == "success"
        self.ctx.inputs, self.ctx.steps, self.ctx.status = outer_inputs, outer_steps, outer_status
        return ok


def make_repository(work):
    repo = os.path.join(work, "repo")
    os.makedirs(repo)
    shutil.copytree(os.path.join(ROOT, "examples/lint"), os.path.join(repo, "design"),
                    ignore=shutil.ignore_patterns("mistakes"))
    git = ["git", "-C", repo, "-c", "user.name=ci", "-c", "user.email=ci@example.org"]
    subprocess.run(git + ["init", "--quiet"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "--quiet", "-m", "design"], check=True)
    return repo


def run_job(job, repo, venv):
    runner = Runner(repo, venv)
    for step in job["steps"]:
        runner.run_step(step, "")
    return runner


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--venv", default=os.path.join(ROOT, ".build/lint-venv"))
    venv = os.path.abspath(parser.parse_args().venv)
    if not os.path.exists(os.path.join(venv, "bin/python")):
        sys.exit(f"lint-action: no venv at {venv}: run scripts/lint-check.sh first (it makes it)")
    action = yaml.safe_load(open(os.path.join(ROOT, "action.yml"), encoding="utf-8"))
    problems = check_action_syntax(action)
    check("action.yml: GitHub's composite action syntax", not problems, "; ".join(problems))
    job = documented_job()
    unknown = set(job) - {"runs-on", "container", "permissions", "steps"}
    check("docs/lint.md: the job has only what the runner here models", not unknown, str(sorted(unknown)))
    check("docs/lint.md: the job may upload to code scanning",
          (job.get("permissions") or {}).get("security-events") == "write")
    check("docs/lint.md: the job uses this action", any(s.get("uses") == ACTION_REF for s in job["steps"]))
    work = tempfile.mkdtemp(prefix="hinge-lint-action-")
    try:
        repo = make_repository(work)
        good = run_job(job, repo, venv)
        print("\n".join("  " + line for line in good.log))
        check("passing project: the job succeeds", good.ctx.status == "success")
        check("passing project: a SARIF file without results uploaded",
              len(good.uploaded) == 1 and '"results":[\n]' in good.uploaded[0][0].replace(" ", ""),
              str([u[0][-200:] for u in good.uploaded]))
        check("passing project: hinge lint named the configuration it found from design/scenes",
              "hinge lint: configuration: design/hinge-lint.json" in good.stderr, good.stderr[-400:])
        new = os.path.join(repo, "design/scenes/new-flow.json")
        open(new, "w").write('{"device": "iphone-16", "presentations": [\n  {"id": "a", "kind": "sheet"},\n'
                             '  {"id": "b", "kind": "sheet", "presentedFrom": "a"}]}\n')
        bad = run_job(job, repo, venv)
        print("\n".join("  " + line for line in bad.log))
        check("new finding: the job fails on its last step, after the upload",
              bad.ctx.status == "failure" and [line.strip() for line in bad.log[-4:]] == [
                  "ok: hinge lint", "ok: Upload to code scanning", "failed: Findings at or above --fail-on fail the step",
                  "failed: hinge lint"], "; ".join(bad.log))
        check("new finding: an annotation at its line, the path from the repository root",
              "::error file=design/scenes/new-flow.json,line=3," in bad.stdout, bad.stdout[-400:])
        check("new finding: uploaded SARIF names the file from the repository root",
              len(bad.uploaded) == 1 and '"uri":"design/scenes/new-flow.json"' in bad.uploaded[0][0])
        summary = open(os.path.join(bad.temp, "summary.txt"), encoding="utf-8").read()
        check("new finding: a step summary", summary.startswith("### hinge lint") and "new\\-flow" in summary,
              summary[:400])
    except Unmodelled as e:
        check("the stubs model every step of the job", False, str(e))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"lint-action: {len(passed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
