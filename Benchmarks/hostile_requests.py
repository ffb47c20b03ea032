#!/usr/bin/env python3
"""Hostile requests that must degrade no one but the attacker, each with its target (docs/http.md#slow-readers,
docs/api.md#host-check, docs/svg.md#text-bounds). Runs the release binary; `.ci/run` runs it, and so does
Benchmarks/hostile.sh.

  1. pictures: two SVGs of a scene whose unknown member is named with 60,000 characters, and 32 connections
     asking for a 256-presentation picture: /healthz every 10 ms meanwhile, max <= 50 ms; then four clients
     asking for the picture of that scene's record: a one-item listing meanwhile, max <= 50 ms.
  1b. wide objects: a `constants` object with 60,000 unknown keys answers 422 within 2 s (one walk, not one
     per key).
  2. slow readers: forty clients send a heavy matrix request (a 4 KiB receive buffer) and never read their
     multi-MB answers: /healthz every 10 ms for 5 s, max <= 50 ms and all 200; a fresh client's resolve
     answers 200; the readers are shed (hinge_connections_shed_total), hinge_buffered_bytes goes back to 0.
  3. DNS rebinding: PUT /v1/devices and DELETE /v1/requests with a foreign Host and Origin get 421 and change
     nothing.
  4. a PostgreSQL URL with a percent-encoded password or an sslpassword: hinge serve and hinge devices exit 1
     within 5 s, the value never printed.
  5. the CLI: `hinge resolve /dev/zero` exits 1 with a clear error within 2 s and <= 100 MiB RSS; on a FIFO
     with no writer it ends within 1 s of SIGTERM (and of SIGINT).
  6. terminal escapes: a profile named with ESC and BEL sequences is listed by `hinge devices` without a
     control character.
  7. lint in a pull request (lint_hostile_repository, docs/lint.md#escaping, docs/lint.md#writes): in a throw-away
     git repository, scene members, ids and file names with line breaks, `::` workflow commands, ESC and BEL reach
     the log, the text report and the step summary escaped (no injected command line, no control byte, no HTML);
     a file name that is not UTF-8 is reported, also when named; a baseline or a symlinked snapshot directory out
     of the repository is refused with nothing written; a configuration above the repository is not read; a scene
     symlink out of the repository is neither followed nor echoed.

Prints one line per check and `N passed, M failed`; exits 1 on any failure.

    Benchmarks/hostile_requests.py [--binary .build/release/hinge]
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

passed, failed = [], []


def check(name, ok, detail=""):
    (passed if ok else failed).append(name)
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, binary, *args):
        self.dir = tempfile.mkdtemp(prefix="hinge-hostile-")
        self.db = os.path.join(self.dir, "hinge.sqlite")
        self.port = free_port()
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", str(self.port), "--db", self.db, "--log-level", "warn", *args],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)  # polling for readiness
        raise RuntimeError("hinge did not start")

    def request(self, method, path, body=None, headers=None, timeout=30):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, r, data

    def metric(self, name):
        text = self.request("GET", "/metrics")[2].decode()
        m = re.search(rf"^{name} (\d+)$", text, re.M)
        return int(m.group(1)) if m else None

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)


class HealthProbe:
    """GET /healthz every 10 ms on its own keep-alive connection until stopped; keeps the latencies."""

    def __init__(self, port):
        self.port, self.latencies, self.bad, self.done = port, [], 0, threading.Event()
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def run(self):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        while not self.done.is_set():
            t = time.monotonic()
            c.request("GET", "/healthz")
            r = c.getresponse()
            r.read()
            self.latencies.append((time.monotonic() - t) * 1000)
            self.bad += r.status != 200
            time.sleep(max(0, 0.010 - (time.monotonic() - t)))

    def stop(self):
        self.done.set()
        self.thread.join()
        return max(self.latencies), len(self.latencies), self.bad


def pictures(binary):
    s = Server(binary)
    try:
        name = "d" * 60000
        body = ('{"device":"iphone-16","presentations":[],"' + name + '":1}').encode()
        a = {"x": 10, "y": 10, "width": 44, "height": 44}
        many = {"device": "iphone-duo", "presentations": [{"id": "p0", "kind": "popover", "anchor": a}] + [
            {"id": f"p{i}", "kind": "popover", "presentedFrom": f"p{i - 1}", "anchor": a} for i in range(1, 256)]}
        many = json.dumps(many).encode()
        probe = HealthProbe(s.port)
        time.sleep(0.1)
        results = []

        def svg(b):
            t = time.monotonic()
            status, r, data = s.request("POST", "/v1/resolve?format=svg", b)
            results.append((status, len(data), time.monotonic() - t))

        workers = [threading.Thread(target=svg, args=(body,)) for _ in range(2)]
        workers += [threading.Thread(target=svg, args=(many,)) for _ in range(32)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        time.sleep(0.1)
        worst, n, bad = probe.stop()
        statuses = sorted({r[0] for r in results})
        check("pictures: /healthz max <= 50 ms while 34 pictures are drawn", worst <= 50 and bad == 0,
              f"max {worst:.1f} ms over {n} probes, statuses of the pictures {statuses}, slowest "
              f"{max(r[2] for r in results):.2f} s")
        status, r, data = s.request("POST", "/v1/resolve?format=svg", body)
        check("pictures: a 60,000-character member name is drawn ellipsised",
              status == 200 and name[:1000] not in data.decode() and len(data) < 64 * 1024,
              f"{status}, {len(data)} bytes")
        status, r, data = s.request("POST", "/v1/resolve", body)
        check("pictures: the JSON answer keeps the whole name", status == 200 and name in data.decode())

        # That answer is recorded: four clients ask for the record's picture again and again while a one-item
        # listing is asked for 20 times, every 5 ms. The pictures are drawn on the worker pool, so the listing
        # never waits for them.
        record = r.getheader("Hinge-Record-Id")
        listing, drawn, listed = [], [], threading.Event()

        def lister():
            time.sleep(0.05)
            for _ in range(20):
                t = time.monotonic()
                status = s.request("GET", "/v1/requests?limit=1")[0]
                listing.append((status, (time.monotonic() - t) * 1000))
                time.sleep(0.005)
            listed.set()

        def draw():
            while not listed.is_set():
                drawn.append(s.request("GET", f"/v1/requests/{record}/svg")[0])

        drawers = [threading.Thread(target=draw) for _ in range(4)]
        listers = [threading.Thread(target=lister)]
        for w in drawers + listers:
            w.start()
        for w in drawers + listers:
            w.join()
        worst = max((ms for _, ms in listing), default=0.0)
        check("pictures: a one-item listing answers within 50 ms while 4 clients ask for a record's picture",
              record is not None and listing and all(st == 200 for st, _ in listing) and worst <= 50
              and set(drawn) <= {200, 503} and 200 in drawn,
              f"record {record}, listing max {worst:.1f} ms over {len(listing)} requests; "
              f"{len(drawn)} pictures, statuses {sorted(set(drawn))}")
    finally:
        s.stop()


def wide_objects(binary):
    s = Server(binary)
    try:
        # The reporting source reads a `constants` object member by member: 60,000 unknown keys (650 KB) are one
        # error each, found in one walk of the object.
        members = ",".join(f'"k{i}":1' for i in range(60000))
        body = ('{"device":"iphone-16","presentations":[],"constants":{' + members + '}}').encode()
        t = time.monotonic()
        status, r, data = s.request("POST", "/v1/resolve", body)
        seconds = time.monotonic() - t
        check("wide objects: 60,000 unknown constants answer 422 within 2 s", status == 422 and seconds <= 2,
              f"{status} in {seconds:.2f} s, {len(data)} bytes")
    finally:
        s.stop()


def slow_readers(binary):
    s = Server(binary)
    try:
        a = {"x": 10, "y": 10, "width": 44, "height": 44}
        chain = [{"id": "p0", "kind": "popover", "anchor": a}] + [
            {"id": f"p{i}", "kind": "popover", "presentedFrom": f"p{i - 1}", "anchor": a} for i in range(1, 256)]
        body = json.dumps({"scene": {"presentations": chain}, "devices": "all", "postures": ["flat"]}).encode()
        probe = HealthProbe(s.port)
        held = []
        for _ in range(40):
            k = socket.socket()
            k.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            k.connect(("127.0.0.1", s.port))
            k.sendall(b"POST /v1/resolve/matrix HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n"
                      % len(body) + body)
            held.append(k)
        time.sleep(1)
        buffered = s.metric("hinge_buffered_bytes")
        status, r, data = s.request("POST", "/v1/resolve", open("Benchmarks/scenes/typical.json", "rb").read())
        check("slow readers: a fresh client's resolve answers 200", status == 200, f"{status}; "
              f"hinge_buffered_bytes {buffered}")
        time.sleep(4)
        worst, n, bad = probe.stop()
        check("slow readers: /healthz max <= 50 ms and always 200", worst <= 50 and bad == 0,
              f"max {worst:.1f} ms over {n} probes, {bad} not 200")
        shed = s.metric("hinge_connections_shed_total")
        check("slow readers: the readers are shed", (shed or 0) > 0, f"hinge_connections_shed_total {shed}")
        deadline = time.monotonic() + 10
        while s.metric("hinge_buffered_bytes") != 0 and time.monotonic() < deadline:
            time.sleep(0.1)  # polling a gauge
        check("slow readers: hinge_buffered_bytes back to 0", s.metric("hinge_buffered_bytes") == 0)
        for k in held:
            k.close()
    finally:
        s.stop()


def rebinding(binary):
    s = Server(binary)
    try:
        s.request("POST", "/v1/resolve", b'{"device":"iphone-16","presentations":[]}')
        profile = json.dumps({"name": "Rebound", "kind": "phone", "displays": [
            {"id": "main", "width": 390, "height": 844, "safeArea": {"top": 47, "bottom": 34}}]})
        evil = {"Host": f"evil.example:{s.port}", "Origin": f"http://evil.example:{s.port}",
                "Content-Type": "text/plain"}
        put = s.request("PUT", "/v1/devices/rebound", profile, evil)[0]
        clear = s.request("DELETE", "/v1/requests", None,
                          {"Host": "attacker.test", "Origin": "http://attacker.test"})[0]
        read = s.request("GET", "/v1/requests", None, {"Host": "attacker.test"})[0]
        kept = len(json.loads(s.request("GET", "/v1/requests")[2])["items"])
        absent = s.request("GET", "/v1/devices/rebound")[0]
        check("rebinding: foreign Host refused (PUT, DELETE, GET) and nothing changed",
              (put, clear, read, absent, kept) == (421, 421, 421, 404, 1), f"{put} {clear} {read} {absent} {kept}")
    finally:
        s.stop()


def secrets(binary):
    for url in ("postgres://u@127.0.0.1:1/db?pass%77ord=hunter2", "postgres://u@127.0.0.1:1/db?sslpassword=hunter2"):
        for args in (["serve", "--port", "0", "--db", url], ["devices", "--db", url]):
            t = time.monotonic()
            p = subprocess.run([binary, *args], capture_output=True, timeout=30)
            out = (p.stdout + p.stderr).decode(errors="replace")
            check(f"secrets: hinge {args[0]} refuses {url.split('?')[1].split('=')[0]}=…",
                  p.returncode == 1 and "hunter2" not in out and time.monotonic() - t <= 5,
                  f"exit {p.returncode} in {time.monotonic() - t:.2f} s: {out.strip()[:160]}")


def cli(binary):
    # A child of its own reports the peak RSS of `hinge resolve` alone (RUSAGE_CHILDREN covers its children).
    measure = ("import resource, subprocess, sys, time; t = time.monotonic(); "
               "p = subprocess.run(sys.argv[1:], capture_output=True); "
               "print(p.returncode, time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
               "sys.stdout.write(p.stderr.decode())")
    out = subprocess.run([sys.executable, "-c", measure, binary, "resolve", "/dev/zero"], capture_output=True,
                         timeout=30, text=True).stdout
    code, took, rss = out.split("\n")[0].split()
    code, took, rss = int(code), float(took), int(rss)
    check("cli: hinge resolve /dev/zero exits 1 within 2 s, <= 100 MiB RSS",
          code == 1 and took <= 2 and rss <= 100 * 1024 and "larger than" in out,
          f"exit {code} in {took:.2f} s, max RSS {rss / 1024:.1f} MiB, {out.split(chr(10), 1)[1].strip()}")
    d = tempfile.mkdtemp(prefix="hinge-fifo-")
    fifo = os.path.join(d, "scene.fifo")
    os.mkfifo(fifo)
    for sig in (signal.SIGTERM, signal.SIGINT):
        p = subprocess.Popen([binary, "resolve", fifo], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.3)
        t = time.monotonic()
        p.send_signal(sig)
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        took = time.monotonic() - t
        check(f"cli: hinge resolve on a FIFO without a writer ends on {sig.name} within 1 s", took <= 1,
              f"{took:.2f} s, exit {p.returncode}")


def escapes(binary):
    s = Server(binary)
    try:
        profile = json.dumps({"name": "\u001b[2J\u001b]0;pwned\u0007Rogue", "kind": "phone", "displays": [
            {"id": "main", "width": 390, "height": 844, "safeArea": {"top": 47, "bottom": 34}}]})
        status = s.request("PUT", "/v1/devices/rogue", profile)[0]
        p = subprocess.run([binary, "devices", "--db", s.db], capture_output=True, timeout=30)
        control = [c for c in p.stdout if c < 0x20 and c not in (0x0A,)]
        check("escapes: hinge devices prints a stored name's control characters escaped",
              status in (200, 201) and p.returncode == 0 and not control and b"\\x1b[2J" in p.stdout,
              f"PUT {status}, exit {p.returncode}, control bytes {control[:5]}")
    finally:
        s.stop()


def lint_hostile_repository(binary):
    """Item 7: what a pull request's scene files can make `hinge lint` print or write (docs/lint.md#escaping)."""
    top = tempfile.mkdtemp(prefix="hinge-lint-hostile-")
    repo = os.path.join(top, "repo")
    scenes = os.path.join(repo, "scenes")
    os.makedirs(scenes)
    subprocess.run(["git", "init", "--quiet", repo], check=True)

    def lint(*args, env=None):
        return subprocess.run([binary, "lint", *args], cwd=repo, capture_output=True, timeout=60,
                              env=dict(os.environ, **(env or {})))

    def write(path, text):
        with open(path, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode())

    injection = "zz\n::stop-commands::x\n::error file=README.md,line=1::X"
    members = {f"{injection}{i}": i for i in range(12)}
    hostile = {"device": "iphone-16", **members, "presentations": [
        {"id": "\u001b[2J\u001b]0;pwned\u0007<script>|`x`", "kind": "sheet"},
        {"id": "b", "kind": "sheet", "presentedFrom": "\u001b[2J\u001b]0;pwned\u0007<script>|`x`"}]}
    write(os.path.join(scenes, "a.json"), json.dumps(hostile))
    write(os.path.join(scenes, "x\n::error file=README.md::forged.json"), json.dumps(hostile))
    write(os.path.join(repo, "##[error]old-form.json"), "{ not json")
    summary = os.path.join(top, "summary.txt")
    p = lint("scenes", "##[error]old-form.json", "--no-config", "--report", "github", "--report", "text",
             env={"GITHUB_STEP_SUMMARY": summary})
    log = p.stdout + p.stderr
    own = (b"::error file=", b"::warning file=", b"::notice file=")
    injected = [line for line in log.split(b"\n") if line.strip().startswith((b"::", b"##["))
                and not line.strip().startswith(own)]
    control = [c for c in log if (c < 0x20 and c != 0x0A) or c == 0x7F]
    table = open(summary, "rb").read() if os.path.exists(summary) else b""
    check("lint: members, ids and file names start no workflow command and send no control byte",
          p.returncode == 1 and not injected and not control and b"more than GitHub annotates" in p.stdout,
          f"exit {p.returncode}, injected {injected[:2]}, control {control[:5]}")
    check("lint: the step summary takes no HTML or control byte from the data",
          b"<script>" not in table and b"&lt;script&gt;" in table and not [c for c in table if c < 0x20 and c != 0x0A],
          f"{len(table)} bytes")

    for name in os.listdir(scenes):
        os.unlink(os.path.join(scenes, name))
    write(os.path.join(scenes, "ok.json"), '{"device": "iphone-16", "presentations": []}')
    write(os.path.join(scenes.encode(), b"bad-\xff.json"), b'{"device": "iphone-16", "presentations": []}')
    p = lint("scenes", "--no-config")
    named = lint(os.path.join(b"scenes", b"bad-\xff.json"), "--no-config")
    check("lint: a scene file whose name is not UTF-8 is reported, not skipped; named, it is no 'No such file'",
          p.returncode == 2 and b"bad-\\xFF.json: its name is not UTF-8" in p.stderr and named.returncode == 2
          and b"not UTF-8" in named.stderr and b"No such file" not in named.stderr,
          f"{p.returncode} {p.stderr[-160:]!r} / {named.returncode} {named.stderr[-160:]!r}")
    os.unlink(os.path.join(scenes.encode(), b"bad-\xff.json"))

    elsewhere = os.path.join(top, "elsewhere")
    write(os.path.join(repo, "hinge-lint.json"), json.dumps({"baseline": "../elsewhere/b.json"}))
    p = lint("scenes", "--update-baseline")
    check("lint: a baseline out of the repository is refused, nothing written",
          p.returncode == 2 and b"resolves outside the project root" in p.stderr and not os.path.exists(elsewhere),
          f"exit {p.returncode}, {p.stderr[-160:]!r}")
    os.makedirs(elsewhere)
    os.symlink("../elsewhere", os.path.join(repo, "snapshots"))
    write(os.path.join(repo, "hinge-lint.json"), json.dumps({"snapshots": "snapshots"}))
    p = lint("scenes", "--update-snapshots")
    check("lint: a snapshot directory symlinked out of the repository is refused, nothing written",
          p.returncode == 2 and not os.listdir(elsewhere), f"exit {p.returncode}, {os.listdir(elsewhere)}")
    os.unlink(os.path.join(repo, "snapshots"))
    os.unlink(os.path.join(repo, "hinge-lint.json"))

    write(os.path.join(top, "hinge-lint.json"), json.dumps({"failOn": "never"}))
    write(os.path.join(scenes, "ok.json"), json.dumps(
        {"device": "iphone-16", "presentations": [{"id": "a", "kind": "sheet"},
                                                  {"id": "b", "kind": "sheet", "presentedFrom": "a"}]}))
    p = lint("scenes")
    check("lint: a hinge-lint.json above the repository is not read",
          p.returncode == 1 and b"no configuration" in p.stderr, f"exit {p.returncode}, {p.stderr[:160]!r}")

    write(os.path.join(top, "secret.txt"), "Xsecret-token")
    os.symlink("../../secret.txt", os.path.join(scenes, "leak.json"))
    p = lint("scenes", "--no-config")
    check("lint: a scene symlink out of the repository is not followed, its content not echoed",
          p.returncode == 2 and b"Xsecret" not in p.stdout + p.stderr and b"symbolic link out of" in p.stderr,
          f"exit {p.returncode}, {p.stderr[-160:]!r}")
    shutil.rmtree(top, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/hinge")
    binary = os.path.abspath(parser.parse_args().binary)
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    for run in (pictures, wide_objects, slow_readers, rebinding, secrets, cli, escapes, lint_hostile_repository):
        try:
            run(binary)
        except Exception as error:  # a crash of one group is a failure, the others still run
            check(f"{run.__name__}: ran to the end", False, repr(error))
    print(f"{len(passed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
