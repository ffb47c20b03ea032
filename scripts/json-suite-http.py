#!/usr/bin/env python3
"""POST every JSONTestSuite test_parsing file to a running hinge and check the answer (testdata README):
a body the service refuses as not-JSON is a 400, one it accepts as JSON but is not a valid scene is a 422
(or a 200 when it happens to be a valid scene) -- never a 5xx, never a dropped connection.
y_ files must not get 400 (they are JSON; a repeated key is valid grammar that Hinge refuses with a 422);
n_ files must get 400; i_ files may get either.

Usage: scripts/json-suite-http.py PORT DIR   (DIR holds test_parsing/)"""
import http.client, os, sys

port, root = int(sys.argv[1]), sys.argv[2]
folder = os.path.join(root, "test_parsing")
files = sorted(os.listdir(folder))
if not files:
    sys.exit("json-suite-http: no files in " + folder)
counts, failures = {}, []
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
for name in files:
    body = open(os.path.join(folder, name), "rb").read()
    try:
        conn.request("POST", "/v1/resolve", body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        status = resp.status
    except Exception as e:  # a dropped connection is a failure
        failures.append(f"{name}: {type(e).__name__} {e}")
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        continue
    kind = name[0]
    counts[(kind, status)] = counts.get((kind, status), 0) + 1
    ok = {"y": status in (200, 422), "n": status in (400, 413), "i": status in (200, 400, 413, 422)}[kind]
    if not ok:
        failures.append(f"{name}: HTTP {status}")
summary = ", ".join(f"{k}_→{s}: {n}" for (k, s), n in sorted(counts.items()))
print(f"json-suite-http: {len(files)} files; {summary}")
if failures:
    print("\n".join(failures))
    print(f"{len(failures)} failed")
    sys.exit(1)
print(f"{len(files)} passed, 0 failed")
