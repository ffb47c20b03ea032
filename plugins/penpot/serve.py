#!/usr/bin/python3
"""Serves this folder as the root of a static host for Penpot, with the CORS grant Penpot needs to read
manifest.json and plugin.js from its own origin. The plugin's manifest URL is then
http://localhost:PORT/manifest.json, and Hinge must allow this origin: `hinge serve --cors-origin
http://localhost:PORT`.

    python3 plugins/penpot/serve.py [--port 4400] [--bind 127.0.0.1]
"""
import argparse
import functools
import http.server
import os


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=4400)
    parser.add_argument("--bind", default="127.0.0.1")
    args = parser.parse_args()
    handler = functools.partial(Handler, directory=os.path.dirname(os.path.abspath(__file__)))
    server = http.server.ThreadingHTTPServer((args.bind, args.port), handler)
    print(f"Penpot manifest: http://localhost:{server.server_address[1]}/manifest.json", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
