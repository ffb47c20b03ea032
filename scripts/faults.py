#!/usr/bin/env python3
"""Process-level faults against the release binary (.ci/run runs it with --kills 20).

Python 3 standard library only, loopback only, every loop bounded in count and time.

  (a) SIGTERM under load: client threads POST /v1/resolve over keep-alive connections while the server
      gets SIGTERM. It must exit 0, and every request answered 200 must be in the request log.
  (b) SIGKILL under load, --kills times in a row on one database: every restart works (ready), the file
      passes PRAGMA integrity_check, and every request answered 200 before a kill is in the log.
  (c) Unwritable database: the database lives on a tiny tmpfs that is then filled up. POST /v1/resolve
      keeps answering 200 with its result, /readyz says 503, /metrics counts commit failures, nothing
      crashes; after space is freed the store recovers; SIGTERM still exits 0. Needs root (mount); skipped
      with a message otherwise. Under the full disk, DELETE /v1/requests answers 204 or a 503 that says the
      log "could not be cleared" (never "could not be read") with a requestId and no path or SQL.
  (d) The files under the store: a second server on the same port, then on the same database, exits 1 with
      one line while `hinge devices` and `hinge replay` keep working beside the server; the database deleted
      under the running server turns /readyz to 503 (the watchdog checks every second, /readyz on each
      call), a device write answers 503 with a requestId and no path or SQL, and the log names the deleted
      file and the failed write under that requestId; a read-only database (a read-only bind mount as root,
      chmod otherwise) is refused at start with one line, exit 1.

Each request carries a unique marker as its presentation id; the log is checked by opening the SQLite
file with Python's sqlite3 and collecting the markers of the stored request bodies, decoded from their
frames by scripts/stored_bodies.py.

Usage: scripts/faults.py [--binary .build/release/hinge] [--kills 5] [--threads 4] [--load-seconds 1.5]
Prints the figures and a closing line 'N passed, M failed'; exits non-zero on any failure.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import stored_bodies  # scripts/stored_bodies.py: the request log's body frames

MARKER = re.compile(rb"fault-[0-9a-z]+-[0-9]+-[0-9]+")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One `hinge serve` process on a free loopback port."""

    def __init__(self, binary, db, log_path, extra=()):
        self.port = free_port()
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            [binary, "serve", "--port", str(self.port), "--db", db, "--threads", "2", "--log-level", "warn", *extra],
            stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL,
            env={k: v for k, v in os.environ.items() if not k.startswith("HINGE_")})

    def wait_ready(self, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early with {self.proc.returncode}")
            try:
                status, _ = request(self.port, "GET", "/readyz", timeout=1)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server not ready in time")

    def stop(self, sig, timeout=20):
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
            rc = f"timeout (killed, {rc})"
        self.log.close()
        return rc


def request(port, method, path, body=None, timeout=5):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request(method, path, body=body)
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def scene(marker, padding=0):
    s = {"device": "iphone-16", "presentations": [{"id": marker, "kind": "sheet", "detents": ["medium", "large"]}]}
    if padding:
        s["padding"] = "x" * padding  # an unknown field: a warning, still a 200
    return json.dumps(s).encode()


class Load:
    """Client threads POSTing /v1/resolve over keep-alive connections until stopped or refused.

    `acked` holds the marker of every request that got a 200 with its own placement back."""

    def __init__(self, port, run, threads, padding=0):
        self.port, self.run, self.padding = port, run, padding
        self.acked, self.errors, self.statuses = [], 0, {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.client, args=(t,), daemon=True) for t in range(threads)]

    def start(self):
        for t in self.threads:
            t.start()
        return self

    def client(self, t):
        conn = None
        i = 0
        deadline = time.monotonic() + 60  # hard bound whatever happens
        while not self.stopping.is_set() and time.monotonic() < deadline:
            i += 1
            marker = f"fault-{self.run}-{t}-{i}"
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("POST", "/v1/resolve", body=scene(marker, self.padding),
                             headers={"Content-Type": "application/json"})
                r = conn.getresponse()
                data = r.read()
                with self.lock:
                    self.statuses[r.status] = self.statuses.get(r.status, 0) + 1
                if r.status == 200 and marker.encode() in data:
                    with self.lock:
                        self.acked.append(marker)
                if r.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException):
                with self.lock:
                    self.errors += 1
                if conn is not None:
                    conn.close()
                    conn = None
                # The server is gone or going: stop once it refuses connections.
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                except OSError:
                    return
        if conn is not None:
            conn.close()

    def stop(self):
        self.stopping.set()
        for t in self.threads:
            t.join(timeout=30)


def wait_for_count(load, n, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with load.lock:
            if len(load.acked) >= n:
                return True
        time.sleep(0.01)
    return False


def stored_markers(db):
    """Markers of every stored request body, and the integrity check, read with Python's sqlite3."""
    con = sqlite3.connect(f"file:{db}?mode=rw", uri=True, timeout=10)
    try:
        integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
        found = set()
        for body in stored_bodies.request_bodies(con):  # decoded: bodies are stored compressed
            found.update(m.decode() for m in MARKER.findall(body))
        return integrity, found
    finally:
        con.close()


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        print(("  ok    " if ok else "  FAIL  ") + what, flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def sigterm_under_load(args, tmp, report):
    print("== (a) SIGTERM under load", flush=True)
    db = os.path.join(tmp, "sigterm.sqlite")
    server = Server(args.binary, db, os.path.join(tmp, "sigterm.log"))
    server.wait_ready()
    load = Load(server.port, "t", args.threads).start()
    wait_for_count(load, 50, 20)
    time.sleep(args.load_seconds)  # let the load run for a while (not synchronisation)
    rc = server.stop(signal.SIGTERM)
    load.stop()
    integrity, found = stored_markers(db)
    acked = set(load.acked)
    lost = acked - found
    print(f"  requests acknowledged (200): {len(acked)}, records found: {len(found)}, lost: {len(lost)}, "
          f"client errors after shutdown: {load.errors}, statuses: {load.statuses}", flush=True)
    report.check(rc == 0, f"exit code after SIGTERM is 0 (got {rc})")
    report.check(len(acked) >= 50, f"the load got answers ({len(acked)} acknowledged)")
    report.check(not lost, f"every acknowledged request is in the log (lost {len(lost)})")
    report.check(integrity == "ok", f"integrity_check: {integrity}")


def sigkill_under_load(args, tmp, report):
    print(f"== (b) SIGKILL under load, {args.kills} times on one database", flush=True)
    db = os.path.join(tmp, "sigkill.sqlite")
    acked_total = set()
    restarts_ok = 0
    integrity_ok = 0
    lost_total = 0
    for k in range(args.kills):
        server = Server(args.binary, db, os.path.join(tmp, "sigkill.log"))
        try:
            server.wait_ready()
            restarts_ok += 1
        except RuntimeError as e:
            report.check(False, f"restart {k + 1}: {e}")
            server.stop(signal.SIGKILL)
            break
        load = Load(server.port, f"k{k}", args.threads).start()
        wait_for_count(load, 20, 20)
        time.sleep(args.load_seconds / 2)
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(timeout=20)
        server.log.close()
        load.stop()
        acked_total.update(load.acked)
        integrity, found = stored_markers(db)
        lost = acked_total - found
        lost_total = len(lost)
        if integrity == "ok":
            integrity_ok += 1
        print(f"  kill {k + 1}: acknowledged so far {len(acked_total)}, records found {len(found)}, "
              f"lost {len(lost)}, integrity {integrity}", flush=True)
        if lost or integrity != "ok":
            break
    # One last restart after the final kill must work too.
    server = Server(args.binary, db, os.path.join(tmp, "sigkill.log"))
    try:
        server.wait_ready()
        final_ok = True
    except RuntimeError:
        final_ok = False
    rc = server.stop(signal.SIGTERM)
    report.check(restarts_ok == args.kills and final_ok, f"every restart works ({restarts_ok}/{args.kills} + final)")
    report.check(rc == 0, f"final SIGTERM exit code 0 (got {rc})")
    report.check(integrity_ok == args.kills, f"integrity_check ok after every kill ({integrity_ok}/{args.kills})")
    report.check(len(acked_total) >= 20 * args.kills, f"the load got answers ({len(acked_total)} acknowledged)")
    report.check(lost_total == 0, f"every request acknowledged before a kill is in the log (lost {lost_total})")


def metric(text, name):
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def unwritable_database(args, tmp, report):
    print("== (c) unwritable database (a full 1 MiB tmpfs)", flush=True)
    if os.geteuid() != 0:
        print("  skipped: needs root to mount a tmpfs", flush=True)
        return
    mnt = os.path.join(tmp, "small")
    os.mkdir(mnt)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt], capture_output=True, text=True)
    if r.returncode != 0:
        report.check(False, f"mount tmpfs: {r.stderr.strip()}")
        return
    try:
        db = os.path.join(mnt, "hinge.sqlite")
        server = Server(args.binary, db, os.path.join(tmp, "full.log"))
        server.wait_ready()
        status, _ = request(server.port, "POST", "/v1/resolve", scene("fault-c-0-0"))
        report.check(status == 200, "a first resolution is recorded")
        # Fill the filesystem: new WAL or database pages cannot be written any more.
        filler = os.path.join(mnt, "filler")
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            for _ in range(1024):  # 4 MiB at most: more than the filesystem holds
                os.write(fd, b"\0" * 4096)
        except OSError:
            pass  # ENOSPC: full
        finally:
            os.close(fd)
        answered, with_result = 0, 0
        for i in range(20):  # bodies of 200 KB: each commit needs new pages
            marker = f"fault-c-1-{i}"
            status, body = request(server.port, "POST", "/v1/resolve", scene(marker, padding=200_000), timeout=10)
            answered += status == 200
            with_result += status == 200 and marker.encode() in body
        ready, _ = request(server.port, "GET", "/readyz")
        _, text = request(server.port, "GET", "/metrics")
        text = text.decode()
        failures = metric(text, "hinge_request_log_commit_failures_total")
        record_failures = metric(text, "hinge_record_failures_total")
        healthy = metric(text, "hinge_store_healthy")
        print(f"  answered 200: {answered}/20 (with their placement: {with_result}), /readyz: {ready}, "
              f"commit failures: {failures}, record failures: {record_failures}, healthy: {healthy}", flush=True)
        report.check(with_result == 20, "POST /v1/resolve keeps answering 200 with its result")
        status, body = request(server.port, "DELETE", "/v1/requests")
        print(f"  DELETE /v1/requests under the full disk: {status} {body[:160]!r}", flush=True)
        report.check(status == 204 or (status == 503 and b"could not be cleared" in body and b"requestId" in body
                                        and db.encode() not in body),
                     "DELETE /v1/requests clears, or says truthfully that it could not clear")
        report.check(ready == 503, f"/readyz is 503 (got {ready})")
        report.check((failures or 0) >= 1 and (record_failures or 0) >= 1, "/metrics counts commit failures")
        report.check(server.proc.poll() is None, "the server is still running")
        status, _ = request(server.port, "GET", "/healthz")
        report.check(status == 200, "/healthz still 200")
        # Space again: the next commit succeeds and readiness comes back.
        os.unlink(filler)
        status, _ = request(server.port, "POST", "/v1/resolve", scene("fault-c-2-0"))
        ready_again, _ = request(server.port, "GET", "/readyz")
        report.check(status == 200 and ready_again == 200, f"after space is freed /readyz is 200 again (got {ready_again})")
        rc = server.stop(signal.SIGTERM)
        report.check(rc == 0, f"SIGTERM exit code 0 (got {rc})")
        integrity, found = stored_markers(db)
        report.check(integrity == "ok", f"integrity_check: {integrity}")
        report.check({"fault-c-0-0", "fault-c-2-0"} <= found, "records before the fault and after recovery are kept")
    finally:
        subprocess.run(["umount", "-l", mnt], capture_output=True)

def read_only_overlay(directory):
    """Bind-mounts `directory` read-only over itself (EROFS for every user, root included); False if not allowed."""
    if os.geteuid() != 0:
        return False
    r = subprocess.run(["mount", "--bind", directory, directory], capture_output=True)
    if r.returncode != 0:
        return False
    r = subprocess.run(["mount", "-o", "remount,ro,bind", directory], capture_output=True)
    if r.returncode != 0:
        subprocess.run(["umount", "-l", directory], capture_output=True)
        return False
    return True


def run_once(args, *argv, timeout=20):
    r = subprocess.run([args.binary, *argv], capture_output=True, text=True, timeout=timeout,
                       env={k: v for k, v in os.environ.items() if not k.startswith("HINGE_")})
    return r.returncode, r.stderr.strip().splitlines()


def files_under_the_store(args, tmp, report):
    print("== (d) the store tells the truth: one server per port and database, deleted and read-only files",
          flush=True)
    db = os.path.join(tmp, "files.sqlite")
    log_path = os.path.join(tmp, "files.log")
    server = Server(args.binary, db, log_path)
    server.wait_ready()
    status, _ = request(server.port, "POST", "/v1/resolve", scene("fault-d-0"))
    report.check(status == 200, "a first resolution is recorded")
    # A second server on the same port, then on the same database: one line, exit 1.
    rc, lines = run_once(args, "serve", "--port", str(server.port), "--db", os.path.join(tmp, "other.sqlite"))
    report.check(rc == 1 and len(lines) == 1 and "in use by another process" in lines[0],
                 f"a second server on the port exits 1 with one line (got {rc}: {lines})")
    rc, lines = run_once(args, "serve", "--port", "0", "--db", db)
    report.check(rc == 1 and len(lines) == 1 and "in use by another hinge serve" in lines[0],
                 f"a second server on the database exits 1 with one line (got {rc}: {lines})")
    rc, _ = run_once(args, "devices", "--db", db)
    report.check(rc == 0, f"hinge devices works while the server runs (exit {rc})")
    rc, _ = run_once(args, "replay", "--db", db)
    report.check(rc == 0, f"hinge replay works while the server runs (exit {rc})")
    ready, _ = request(server.port, "GET", "/readyz")
    report.check(ready == 200, f"the server is still ready after the CLI opened and closed the database (got {ready})")
    # The database deleted under the running server.
    os.unlink(db)
    deadline = time.monotonic() + 5
    ready = 200
    while time.monotonic() < deadline and ready == 200:
        ready, body = request(server.port, "GET", "/readyz")
    report.check(ready == 503 and db.encode() not in body, f"/readyz is 503 once the database is deleted (got {ready})")
    device = json.dumps({"name": "P", "kind": "phone", "displays": [{
        "id": "main", "width": 400, "height": 800, "scale": 3,
        "sizeClasses": {"portrait": {"horizontal": "compact", "vertical": "regular"},
                        "landscape": {"horizontal": "compact", "vertical": "compact"}}}]}).encode()
    status, body = request(server.port, "PUT", "/v1/devices/after-delete", device)
    problem = json.loads(body) if body else {}
    request_id = problem.get("requestId", "")
    report.check(status == 503 and request_id and db.encode() not in body and b"INSERT" not in body,
                 f"a device write answers 503 with a requestId and no path or SQL (got {status}: {body[:200]!r})")
    rc = server.stop(signal.SIGTERM)
    report.check(rc == 0, f"SIGTERM exit code 0 (got {rc})")
    with open(log_path, "rb") as f:
        logged = f.read().decode(errors="replace")
    report.check(f"error: store: {db} was deleted" in logged, "the log says which file was deleted")
    report.check(f"error: request {request_id}: PUT /v1/devices/after-delete" in logged,
                 "the log has the failed write under its requestId")
    # A read-only database at start: refused with one line, exit 1.
    ro = os.path.join(tmp, "readonly")
    os.mkdir(ro)
    ro_db = os.path.join(ro, "hinge.sqlite")
    rc, _ = run_once(args, "devices", "--db", ro_db)  # never creates: make one with a short-lived server
    seed = Server(args.binary, ro_db, os.path.join(tmp, "ro-seed.log"))
    seed.wait_ready()
    seed.stop(signal.SIGTERM)
    if os.geteuid() == 0:
        if not read_only_overlay(ro):
            print("  skipped: read-only database at start (cannot bind-mount read-only here; as root, chmod "
                  "does not stop writes)", flush=True)
            return
    else:
        os.chmod(ro_db, 0o444)
    try:
        rc, lines = run_once(args, "serve", "--port", "0", "--db", ro_db)
        report.check(rc == 1 and len(lines) == 1 and "is read-only" in lines[0],
                     f"a read-only database is refused at start with one line (got {rc}: {lines})")
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", "-l", ro], capture_output=True)
        else:
            os.chmod(ro_db, 0o644)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", default=".build/release/hinge")
    p.add_argument("--kills", type=int, default=5, help="SIGKILL rounds (.ci/run: 20)")
    p.add_argument("--threads", type=int, default=4, help="client threads")
    p.add_argument("--load-seconds", type=float, default=1.5)
    p.add_argument("--only", choices=["sigterm", "sigkill", "full", "files"], action="append")
    args = p.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"faults: no binary at {args.binary} (swift build -c release --product hinge)")
    report = Report()
    tmp = tempfile.mkdtemp(prefix="hinge-faults-")
    started = time.monotonic()
    try:
        only = args.only or ["sigterm", "sigkill", "full", "files"]
        if "sigterm" in only:
            sigterm_under_load(args, tmp, report)
        if "sigkill" in only:
            sigkill_under_load(args, tmp, report)
        if "full" in only:
            unwritable_database(args, tmp, report)
        if "files" in only:
            files_under_the_store(args, tmp, report)
    except Exception as e:  # a crash of the harness is a failure, not a pass
        report.check(False, f"harness error: {e!r}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"faults: {time.monotonic() - started:.1f}s")
    print(f"{report.passed} passed, {report.failed} failed")
    sys.exit(1 if report.failed else 0)


if __name__ == "__main__":
    main()
