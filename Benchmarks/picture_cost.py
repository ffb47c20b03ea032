#!/usr/bin/env python3
"""What a matrix picture costs the server, against `Matrix.Pictures.work`'s estimate.

  picture_cost.py PORT [ROUNDS]

PORT is a running `hinge serve` that records (the default). For scenes of growing size (sheets, popovers,
long toolbar titles), one combination each on three devices, it posts the matrix with and without
`?pictures=svg` ROUNDS times (default 7) and reads the server's own `durationMicros` of each from the request
log; the median difference is the picture. Prints it in µs and in work units of 0.6 µs (the unit of
`--max-matrix-work`, docs/api.md#matrix-pictures), beside the estimate 3000 + 400 × presentations + 8 × nodes.
"""

import json
import sys
import urllib.request

PORT = int(sys.argv[1])
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 7
BASE = f"http://127.0.0.1:{PORT}"
UNIT_MICROS = 0.6


def post(path, body):
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request) as response:
        return response.status


def last_duration():
    with urllib.request.urlopen(BASE + "/v1/requests?limit=1") as response:
        return json.loads(response.read())["items"][0]["durationMicros"]


def nodes(value):
    """JSON nodes as the server counts them (`JSONValue.nodeCount`): a member's name is a node."""
    if isinstance(value, dict):
        return 1 + sum(1 + nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(nodes(v) for v in value)
    return 1


def median_micros(path, body):
    durations = []
    for _ in range(ROUNDS):
        assert post(path, body) == 200
        durations.append(last_duration())
    return sorted(durations)[len(durations) // 2]


def popover(i):
    return {"id": f"p{i}", "kind": "popover", "anchor": {"x": 10 + i, "y": 10, "width": 20, "height": 20}}


def scenes():
    yield "empty", {}
    for n in (4, 16, 64):
        yield f"{n} sheets", {"presentations": [{"id": f"s{i}", "kind": "sheet"} for i in range(n)]}
    for n in (8, 32, 128):
        yield f"{n} popovers", {"presentations": [popover(i) for i in range(n)]}
    toolbar = [{"title": "t" * 60 + str(j)} for j in range(20)]
    yield "16 sheets, long titles", {
        "presentations": [{"id": "x" * 60 + str(i), "kind": "sheet", "toolbar": toolbar} for i in range(16)]}


def main():
    print(f"{'scene':24} {'nodes':>6} {'device':12} {'picture µs':>10} {'units':>7} {'estimate':>8}")
    for name, scene in scenes():
        count = len(scene.get("presentations", []))
        estimate = 3000 + 400 * count + 8 * nodes(scene)
        for device in ("iphone-16", "iphone-duo", "ipad-pro-13"):
            body = {"scene": scene, "devices": [device], "postures": ["halfOpened"], "orientations": ["portrait"],
                    "layoutDirections": ["ltr"]}
            plain = median_micros("/v1/resolve/matrix", body)
            drawn = median_micros("/v1/resolve/matrix?pictures=svg", body)
            picture = drawn - plain
            print(f"{name:24} {nodes(scene):6d} {device:12} {picture:10d} {picture / UNIT_MICROS:7.0f} {estimate:8d}")


main()
