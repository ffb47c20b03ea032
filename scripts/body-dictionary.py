#!/usr/bin/env python3
"""Writes the bytes of an LZ4 body dictionary as Swift source (docs/store.md#body-codec).

    python3 scripts/body-dictionary.py HINGE_BINARY OUT.swift NAME

How dictionary 2 (`lz4Dictionary2Bytes`, Sources/Store/BodyDictionary2.swift) was made: dictionary 1's bytes
(`lz4Dictionary1Bytes`, which the Swift source names rather than repeats), then, for each golden scene of
Tests/LayoutEngineTests/Scenes in name order, a line break, the scene as a client sends it (its test device
replaced by the built-in device of the same kind), a line break and the server's answer to it. The server is
HINGE_BINARY, started here with --no-record on a free port. A dictionary is frozen once records refer to it:
running this again after the engine's answers change writes different bytes, which can only become a new
dictionary under a new frame tag, never replace the old one.
"""

import http.client
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
import stored_bodies  # noqa: E402  (dictionary 1, read from its Swift source)

# The golden scenes run on test devices of the engine's tests; a client would name a built-in one.
BUILT_IN = {
    "test-phone": "iphone-16",
    "test-tablet": "ipad-pro-11",
    "test-foldable": "iphone-duo",
    "test-hinged": "iphone-duo",
}
PIECE = 96  # characters per raw string literal


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def resolve_all(binary, scenes):
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [binary, "serve", "--port", str(port), "--no-record", "--db", os.path.join(tmp, "d.sqlite"),
             "--log-level", "warn"], stdout=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.05)
            out = []
            for body in scenes:
                c = http.client.HTTPConnection("127.0.0.1", port)
                c.request("POST", "/v1/resolve", body=body, headers={"Content-Type": "application/json"})
                r = c.getresponse()
                answer = r.read()
                if r.status != 200:
                    sys.exit(f"the server answered {r.status}: {answer[:200]!r}")
                out.append(answer)
            return out
        finally:
            server.terminate()
            server.wait()


def swift_source(data, name):
    """`let NAME: [UInt8] = lz4Dictionary1Bytes + Array(...)` of the bytes after dictionary 1's."""
    text = data.decode("utf-8")
    if '"#' in text or "\\#" in text:
        sys.exit("the bytes hold a raw string delimiter")
    lines = text.split("\n")
    out = [f"let {name}: [UInt8] =", "    lz4Dictionary1Bytes", "    + Array(", "        ["]
    for number, line in enumerate(lines, 1):
        out.append(f"            // line {number}")
        pieces = [line[i:i + PIECE] for i in range(0, len(line), PIECE)] or [""]
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            suffix = ' + "\\n",' if last and number < len(lines) else ","
            out.append(f'            #"{piece}"#{suffix}')
    out += ["        ].joined().utf8)", ""]
    return "\n".join(out)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, target, name = sys.argv[1:]
    directory = os.path.join(ROOT, "Tests", "LayoutEngineTests", "Scenes")
    scenes = []
    for f in sorted(os.listdir(directory)):
        if not f.endswith(".scene.json"):
            continue
        text = open(os.path.join(directory, f), encoding="utf-8").read().rstrip("\n")
        text = re.sub(r'"(test-[a-z]+)"', lambda m: '"' + BUILT_IN.get(m.group(1), m.group(1)) + '"', text)
        scenes.append(text.encode("utf-8"))
    answers = resolve_all(binary, scenes)
    first = stored_bodies.dictionary_1()
    rest = b""
    for scene, answer in zip(scenes, answers):
        rest += b"\n" + scene + b"\n" + answer
    data = first + rest
    if len(data) > 65536:
        sys.exit(f"{len(data)} bytes: LZ4 reads at most 64 KiB of dictionary")
    header = open(target, encoding="utf-8").read().split(f"let {name}")[0] if os.path.exists(target) else ""
    with open(target, "w", encoding="utf-8") as f:
        f.write(header + swift_source(rest, name))
    fnv = 0xCBF29CE484222325
    for b in data:
        fnv = ((fnv ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    print(f"{name}: {len(data)} bytes, FNV-1a 64 {fnv:#018x}")


main()
