#!/usr/bin/python3
"""Hinge Studio and cross-origin calls in a real browser (Debian's chromium + chromedriver, Selenium).

Builds nothing: starts the release binary (`swift build -c release --product hinge` first) on free loopback
ports with temporary databases, drives headless Chromium, writes screenshots to docs/studio/, prints
`N passed, M failed` and exits 1 on any failure.

    scripts/browser-tests.py [--binary .build/release/hinge] [--screenshots docs/studio]
"""
import argparse
import os
import sys

from selenium.webdriver.common.by import By

from browser_harness import API_KEY, ROOT, Browser, Hinge, PageServer, check, expect, make_driver, results
from browser_studio import studio_checks


FETCH_RECORD_ID = """
const done = arguments[arguments.length - 1];
fetch(arguments[0] + "/v1/resolve", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({device: "iphone-16", presentations: [{id: "plugin", kind: "sheet"}]})})
  .then(r => r.json().then(body => done({status: r.status, recordId: r.headers.get("Hinge-Record-Id"),
                                         placements: (body.placements || []).length, origin: location.origin})))
  .catch(e => done({error: String(e), origin: location.origin}));
"""


# Every call the attacking frame tries; each result is {status} or {error} (a blocked call).
ATTACK_FROM_A_SANDBOX = """
const done = arguments[arguments.length - 1];
const base = arguments[0], token = arguments[1];
const auth = token ? {Authorization: "Bearer " + token} : {};
const call = (method, path, body) => fetch(base + path, {method, body,
    headers: Object.assign(body ? {"Content-Type": "application/json"} : {}, auth)})
  .then(r => r.text().then(text => ({status: r.status, text: text.slice(0, 200)})))
  .catch(e => ({error: String(e)}));
Promise.all([
  call("GET", "/v1/requests?limit=1"),
  call("PUT", "/v1/devices/planted", JSON.stringify({name: "Planted", kind: "phone",
       displays: [{id: "main", width: 390, height: 844, safeArea: {top: 47, bottom: 34}}]})),
  call("POST", "/v1/constant-sets/planted/versions", JSON.stringify({constants: {}})),
  call("POST", "/v1/resolve", JSON.stringify({device: "iphone-16", presentations: []})),
]).then(r => done({log: r[0], plant: r[1], set: r[2], resolve: r[3], origin: location.origin}));
"""
PAIRING_TOKEN = "browser-check-pairing-token-01"


def cross_origin_checks(b, binary, page):
    d = b.driver
    servers = {}

    def start(name, args):
        if name not in servers:
            try:
                servers[name] = Hinge(binary, args)
            except Exception as error:
                servers[name] = error
        if isinstance(servers[name], Exception):
            raise AssertionError(f"hinge with {args} did not start: {servers[name]}")
        return servers[name]

    def fetch_from(url, hinge, script=FETCH_RECORD_ID, *args):
        d.switch_to.default_content()
        d.get(url)
        if url.endswith("-frame.html"):
            d.switch_to.frame(d.find_element(By.ID, "plugin"))
        try:
            return d.execute_async_script(script, hinge.base, *args)
        finally:
            d.switch_to.default_content()

    def allowed_origin_reads_the_record_id():
        hinge = start("cors", ["--cors-origin", page.origin, "--cors-origin", "null"])
        out = fetch_from(page.origin + "/plugin.html", hinge)
        expect(out.get("origin") == page.origin, f"not on the second origin: {out}")
        expect(out.get("status") == 200 and out.get("placements") == 1, f"the resolution was not read: {out}")
        expect(out.get("recordId"), f"Hinge-Record-Id not readable: {out}")
        status, _, _ = hinge.request("GET", f"/v1/requests/{out['recordId']}")
        expect(status == 200, f"record {out['recordId']} not found: {status}")
        b.collect()
        return f"record {out['recordId']} from {page.origin}"

    def null_origin_reads_the_record_id():
        hinge = start("cors", ["--cors-origin", page.origin, "--cors-origin", "null"])
        out = fetch_from(page.origin + "/data-frame.html", hinge)
        expect(out.get("origin") == "null", f"not an opaque origin: {out}")
        expect(out.get("status") == 200 and out.get("recordId"), f"the data: page could not read the answer: {out}")
        b.collect()
        return f"record {out['recordId']} from origin null"

    def a_sandboxed_page_reads_no_log_and_plants_nothing():
        hinge = start("sandbox", ["--cors-origin", "null", "--pairing-token", PAIRING_TOKEN])
        hinge.request("POST", "/v1/resolve", '{"device":"iphone-16","presentations":[]}')
        out = fetch_from(page.origin + "/sandbox-frame.html", hinge, ATTACK_FROM_A_SANDBOX, None)
        expect(out.get("origin") == "null", f"not an opaque origin: {out}")
        expect(out["resolve"].get("status") == 200, f"the stateless route was refused: {out['resolve']}")
        expect(out["log"].get("status") == 403 and "iphone-16" not in out["log"].get("text", ""),
               f"the log was read: {out['log']}")
        for name in ("plant", "set"):  # refused at the preflight (no grant): the browser never sends them
            expect("error" in out[name] or out[name].get("status") == 403, f"{name} was not refused: {out[name]}")
        expect(hinge.request("GET", "/v1/devices/planted")[0] == 404, "a profile was planted")
        expect(hinge.request("GET", "/v1/constant-sets/planted")[0] == 404, "a constant set was created")
        paired = fetch_from(page.origin + "/sandbox-frame.html", hinge, ATTACK_FROM_A_SANDBOX, PAIRING_TOKEN)
        expect(paired["log"].get("status") == 200, f"the pairing token did not open the log: {paired['log']}")
        b.collect()  # the refusals are logged as console errors
        return f"log {out['log'].get('status')}, writes blocked; with the pairing token the log answers 200"

    def without_cors_origin_both_fail():
        hinge = start("plain", [])
        for url in [page.origin + "/plugin.html", page.origin + "/data-frame.html"]:
            out = fetch_from(url, hinge)
            expect("error" in out and "recordId" not in out, f"{url} read the answer without --cors-origin: {out}")
        b.collect(allowed=[("/v1/resolve", 200)])  # the blocked responses are logged as console errors
        return "both blocked"

    try:
        for name, fn in [
            ("a page on another origin reads a resolution and Hinge-Record-Id (--cors-origin ORIGIN)", allowed_origin_reads_the_record_id),
            ("a data: document (origin null) reads them (--cors-origin null)", null_origin_reads_the_record_id),
            ("a sandboxed iframe on any page (origin null) resolves but reads no log and plants nothing",
             a_sandboxed_page_reads_no_log_and_plants_nothing),
            ("without --cors-origin both are blocked", without_cors_origin_both_fail),
        ]:
            check(name, fn)
    finally:
        for server in servers.values():
            if isinstance(server, Hinge):
                server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "hinge"))
    parser.add_argument("--screenshots", default=os.path.join(ROOT, "docs", "studio"))
    args = parser.parse_args()
    shots_dir = args.screenshots
    os.makedirs(shots_dir, exist_ok=True)
    if not os.access(args.binary, os.X_OK):
        print(f"no binary at {args.binary}: run `swift build -c release --product hinge` first", file=sys.stderr)
        return 2

    hinge = Hinge(args.binary, ["--api-key", API_KEY])
    page = PageServer()
    driver = make_driver()
    shots = []
    try:
        b = Browser(driver)
        state = studio_checks(b, hinge, shots, shots_dir)
        cross_origin_checks(b, args.binary, page)
    finally:
        driver.quit()
        page.stop()
        hinge.stop()
    if "first_render_ms" in state:
        print(f"first render: {state['first_render_ms']:.0f} ms from navigation start to the first wireframe shown"
              f" (first visit), {state.get('reload_render_ms', float('nan')):.0f} ms on reload")
    print("screenshots: " + ", ".join(shots))
    failed = [r for r in results if not r[1]]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
