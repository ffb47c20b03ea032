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
  8. sandboxed pages (docs/http.md#sandboxed-pages): with `--cors-origin null`, `Origin: null` resolves but reads
     no log and writes nothing without the pairing token; the token opens the log; a preflight gets no grant.
  9. the impact lane (docs/http.md#long-work): over 20,000 records, two clients looping impact reports leave
     another user's 30 pictures <= 250 ms; a client's second report at once is 429; the reports of ten clients
     that went away are dropped (the next report waits <= 1.5 reports).
  10. bodies: a 910 KB constant-set body of 70,000 unknown sources answers a 422 of 101 entries; /healthz max
     <= 50 ms while it and a 64 KB scene of unknown constants are looped.
  11. steady readers (docs/http.md#slow-readers): clients reading the 6.4 MB matrix answer at 500 and 250 KB/s
     get all of it, one at the floor rate (64 KB/s) reads for 12 s; none is shed.
  12. smaller: an absolute-form target's host is checked (421); versions `+1` and `01` are 404; a set named
     `DEFAULT` is 400; `--db 'host=… password=…'` is refused without being printed.

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


def heavy_matrix():
    """A matrix request of a 256-popover chain on every device, flat: a 40 KB request whose answer is several MB."""
    a = {"x": 10, "y": 10, "width": 44, "height": 44}
    chain = [{"id": "p0", "kind": "popover", "anchor": a}] + [
        {"id": f"p{i}", "kind": "popover", "presentedFrom": f"p{i - 1}", "anchor": a} for i in range(1, 256)]
    return json.dumps({"scene": {"presentations": chain}, "devices": "all", "postures": ["flat"]}).encode()


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
        body = heavy_matrix()
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


# --- The surfaces reached by design tools and CI: sandboxed pages, whole-log reports, bodies, downloads ----------

SHEET = b'{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}'


def sandboxed_pages(binary):
    token = "hostile-check-pairing-token-0001"
    s = Server(binary, "--cors-origin", "null", "--pairing-token", token)
    try:
        null = {"Origin": "null"}
        s.request("POST", "/v1/resolve", SHEET)
        resolve = s.request("POST", "/v1/resolve", SHEET, null)
        log = s.request("GET", "/v1/requests?limit=1", None, null)
        profile = json.dumps({"name": "Planted", "kind": "phone", "displays": [
            {"id": "main", "width": 390, "height": 844, "safeArea": {"top": 47, "bottom": 34}}]})
        plant = s.request("PUT", "/v1/devices/planted", profile, null)[0]
        created = s.request("POST", "/v1/constant-sets/planted/versions", b'{"constants":{}}', null)[0]
        absent = (s.request("GET", "/v1/devices/planted")[0], s.request("GET", "/v1/constant-sets/planted")[0])
        check("sandboxed pages: Origin null resolves (200) but reads no log and writes nothing without a credential",
              (resolve[0], log[0], plant, created, absent) == (200, 403, 403, 403, (404, 404))
              and b"iphone-16" not in log[2],
              f"resolve {resolve[0]}, log {log[0]}, PUT {plant}, set {created}, after {absent}")
        paired = {"Origin": "null", "Authorization": f"Bearer {token}"}
        opened = s.request("GET", "/v1/requests?limit=1", None, paired)[0]
        pre = s.request("OPTIONS", "/v1/requests", None,
                        {"Origin": "null", "Access-Control-Request-Method": "GET"})[1]
        check("sandboxed pages: the pairing token opens the log; a preflight without it gets no grant",
              opened == 200 and pre.getheader("Access-Control-Allow-Origin") is None,
              f"with the token {opened}, preflight grant {pre.getheader('Access-Control-Allow-Origin')}")
    finally:
        s.stop()


class Client(threading.Thread):
    """Loops `method path body` from source address `source` until stopped; keeps statuses and latencies."""

    def __init__(self, port, method, path, body, source="127.0.0.1"):
        super().__init__()
        self.port, self.method, self.path, self.body, self.source = port, method, path, body, source
        self.statuses, self.latencies, self.done = [], [], threading.Event()
        self.start()

    def run(self):
        while not self.done.is_set():
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60, source_address=(self.source, 0))
            t = time.monotonic()
            try:
                c.request(self.method, self.path, body=self.body)
                r = c.getresponse()
                r.read()
                self.statuses.append(r.status)
            except OSError:
                self.statuses.append(0)
            self.latencies.append((time.monotonic() - t) * 1000)
            c.close()
            if self.statuses[-1] in (429, 503):
                time.sleep(0.2)  # a polite client honours Retry-After loosely; the attacker's pace is not the point

    def stop(self):
        self.done.set()
        self.join()


def impact_lane(binary):
    s = Server(binary, "--threads", "2")
    try:
        # Records naming the set, then a version that moves them: each report replays them all.
        s.request("POST", "/v1/constant-sets/acme/versions", b'{"constants":{"sheet.topGap":20}}')
        scene = SHEET.replace(b'"device":"iphone-16"', b'"device":"iphone-16","constantSet":"acme"')
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
        for _ in range(20000):
            c.request("POST", "/v1/resolve", scene)
            c.getresponse().read()
        c.close()
        s.request("POST", "/v1/constant-sets/acme/versions", b'{"basedOn":"acme@1","constants":{"sheet.topGap":30}}')
        path = "/v1/constant-sets/acme/versions/2/impact"
        t = time.monotonic()
        alone = s.request("POST", path, b"")
        one = time.monotonic() - t
        # Two attackers (two addresses) loop the report; a third user asks for pictures meanwhile.
        attackers = [Client(s.port, "POST", path, b"", "127.0.0.2"), Client(s.port, "POST", path, b"", "127.0.0.3")]
        time.sleep(0.5)
        pictures = []
        for _ in range(30):
            t = time.monotonic()
            status = s.request("POST", "/v1/resolve/svg", SHEET)[0]
            pictures.append(((time.monotonic() - t) * 1000, status))
            time.sleep(0.1)
        for a in attackers:
            a.stop()
        worst = max(p[0] for p in pictures)
        check("impact lane: another user's 30 pictures stay <= 250 ms and 200 while two clients loop impact reports",
              worst <= 250 and all(p[1] == 200 for p in pictures),
              f"one report {one:.2f} s ({alone[0]}, {json.loads(alone[2])['counts']}); pictures max {worst:.0f} ms; "
              "attackers' statuses "
              f"{sorted(set(a for x in attackers for a in x.statuses))}")
        # One client, two reports at once: the second is 429.
        first = Client(s.port, "POST", path, b"", "127.0.0.4")
        time.sleep(0.3)
        k = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10, source_address=("127.0.0.4", 0))
        k.request("POST", path, b"")
        second = k.getresponse()
        second.read()
        first.stop()
        check("impact lane: a client's second report while its first runs is 429 with Retry-After",
              second.status == 429 and second.getheader("Retry-After") is not None,
              f"{second.status}, Retry-After {second.getheader('Retry-After')}")
        # Clients that go away: ten reports asked and dropped; the lane is free again within one report's time.
        stopped = s.metric("hinge_long_work_stopped_total") or 0
        for i in range(10):
            k = socket.create_connection(("127.0.0.1", s.port), source_address=(f"127.0.1.{i + 1}", 0))
            k.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n" % path.encode())
            time.sleep(0.05)
            k.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            k.close()
        t = time.monotonic()
        after = s.request("POST", path, b"", {}, timeout=60)[0]
        waited = time.monotonic() - t
        gone = (s.metric("hinge_long_work_stopped_total") or 0) - stopped
        check("impact lane: reports of clients that went away are dropped (the next one waits <= 1.5 reports)",
              after == 200 and waited <= 1.5 * one + 1 and gone >= 1,
              f"next report {after} after {waited:.2f} s (one report {one:.2f} s); {gone} stopped")
    finally:
        s.stop()


def bodies_off_the_loop(binary):
    s = Server(binary, "--threads", "1")
    try:
        sources = ",".join(f'"k{i}":"x"' for i in range(70000))
        big = ('{"constants":{"sheet.topGap":12},"sources":{' + sources + '}}').encode()
        scene = ('{"device":"iphone-16","constants":{' + ",".join(f'"z{i}":1' for i in range(5800)) + '}}').encode()
        status, r, data = s.request("POST", "/v1/constant-sets/big/versions", big)
        errors = json.loads(data).get("errors", [])
        check("bodies: 70,000 unknown sources answer a 422 of at most 101 entries (< 64 KB)",
              status == 422 and len(errors) == 101 and len(data) < 65536, f"{status}, {len(data)} bytes")
        probe = HealthProbe(s.port)
        loopers = [Client(s.port, "POST", "/v1/constant-sets/big/versions", big),
                   Client(s.port, "POST", "/v1/resolve", scene)]
        time.sleep(3)
        for c in loopers:
            c.stop()
        worst, n, bad = probe.stop()
        check("bodies: /healthz max <= 50 ms while two clients loop a 910 KB set body and a 64 KB scene body",
              worst <= 50 and bad == 0,
              f"max {worst:.1f} ms over {n} probes; {len(loopers[0].statuses)} set bodies "
              f"({sorted(set(loopers[0].statuses))}), {len(loopers[1].statuses)} scenes ({len(scene)} bytes)")
    finally:
        s.stop()


def steady_readers(binary, rates=(500_000, 250_000), floor=64_000, floor_seconds=12):
    """Clients reading the 6.4 MB matrix answer steadily keep their download: two read it all, and one at the
    documented floor rate (docs/http.md#slow-readers) reads for `floor_seconds` without being shed."""
    s = Server(binary)
    try:
        body = heavy_matrix()
        shed = s.metric("hinge_connections_shed_total") or 0
        results = {}

        def read_at(rate, seconds=None):
            k = socket.socket()
            k.connect(("127.0.0.1", s.port))
            k.sendall(b"POST /v1/resolve/matrix HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                      b"Content-Length: %d\r\n\r\n" % len(body) + body)
            got, start, ended = 0, time.monotonic(), False
            while seconds is None or time.monotonic() - start < seconds:
                chunk = k.recv(min(16384, max(1, rate // 50)))
                if not chunk:
                    ended = True
                    break
                got += len(chunk)
                ahead = got / rate - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)  # pacing the reader at `rate`
            k.close()
            results[rate] = (got, time.monotonic() - start, ended)

        threads = [threading.Thread(target=read_at, args=(r,)) for r in rates]
        threads.append(threading.Thread(target=read_at, args=(floor, floor_seconds)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        full = max(results[r][0] for r in rates)
        floor_got, _, floor_ended = results[floor]
        after = s.metric("hinge_connections_shed_total") or 0
        check(f"steady readers: clients reading at {', '.join(str(r // 1000) for r in rates)} KB/s get the whole "
              f"{full / 1e6:.2f} MB answer, one at {floor // 1000} KB/s keeps reading for {floor_seconds} s; "
              "none shed",
              full > 4_000_000 and all(results[r][0] == full and results[r][2] for r in rates)
              and not floor_ended and floor_got >= floor * floor_seconds * 0.8 and after == shed,
              "; ".join(f"{r // 1000} KB/s: {g} bytes in {t:.1f} s{' (end)' if e else ''}"
                        for r, (g, t, e) in sorted(results.items())) + f"; shed {after - shed}")
    finally:
        s.stop()


def smaller(binary):
    s = Server(binary)
    try:
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
        c.putrequest("GET", "http://evil.example/v1/requests", skip_host=True)
        c.putheader("Host", "127.0.0.1")
        c.endheaders()
        absolute = c.getresponse().status
        c.close()
        s.request("POST", "/v1/constant-sets/acme/versions", b'{"constants":{"sheet.topGap":12}}')
        versions = [s.request("GET", f"/v1/constant-sets/acme/versions/{v}")[0] for v in ("1", "+1", "01")]
        upper = s.request("POST", "/v1/constant-sets/DEFAULT/versions", b'{"constants":{"sheet.topGap":12}}')[0]
        check("smaller: an absolute-form target's host is checked (421); versions +1 and 01 are 404; DEFAULT is 400",
              (absolute, versions, upper) == (421, [200, 404, 404], 400), f"{absolute} {versions} {upper}")
    finally:
        s.stop()
    p = subprocess.run([binary, "devices", "--db", "host=db.example password=hunter2"], capture_output=True,
                       timeout=30)
    out = (p.stdout + p.stderr).decode(errors="replace")
    check("smaller: hinge devices --db 'host=… password=…' is refused without printing it",
          p.returncode == 2 and "hunter2" not in out and "db.example" not in out, f"exit {p.returncode}: {out.strip()}")

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
    for run in (pictures, wide_objects, slow_readers, rebinding, secrets, cli, escapes, lint_hostile_repository,
                sandboxed_pages, impact_lane, bodies_off_the_loop, steady_readers, smaller):
        try:
            run(binary)
        except Exception as error:  # a crash of one group is a failure, the others still run
            check(f"{run.__name__}: ran to the end", False, repr(error))
    print(f"{len(passed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
