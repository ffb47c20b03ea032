#!/usr/bin/python3
"""Hinge Studio and cross-origin calls in a real browser (Debian's chromium + chromedriver, Selenium).

Builds nothing: starts the release binary (`swift build -c release --product hinge` first) on free loopback
ports with temporary databases, drives headless Chromium, writes screenshots to docs/studio/, prints
`N passed, M failed` and exits 1 on any failure.

    scripts/browser-tests.py [--binary .build/release/hinge] [--screenshots docs/studio]
"""
import argparse
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API_KEY = "studio-test-key"
XSS_ID = "<img src=x onerror=window.hingeXSS=1>"
XSS_SCRIPT = "</script><script>window.hingeXSS=2</script>"

results = []  # (name, ok, detail)


def check(name, fn):
    """Runs one check; an exception or a false answer is a failure with its reason."""
    try:
        detail = fn()
        results.append((name, True, detail or ""))
        print(f"ok    {name}" + (f" — {detail}" if detail else ""), flush=True)
    except Exception as error:  # report and go on: every check runs
        reason = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
        results.append((name, False, reason))
        print(f"FAIL  {name} — {reason}", flush=True)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hinge:
    """One `hinge serve` process on a free loopback port with its own temporary database."""

    def __init__(self, binary, extra_args=()):
        self.dir = tempfile.mkdtemp(prefix="hinge-browser-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", str(self.port), "--db", os.path.join(self.dir, "hinge.sqlite"),
             "--threads", "2", "--log-level", "warn", *extra_args],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"hinge {' '.join(extra_args)} exited with {self.process.returncode}: {self.output()}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            expect(time.monotonic() < deadline, "hinge did not answer /healthz within 15 s")
            time.sleep(0.05)  # polling for readiness, not synchronising a result

    def output(self):
        self.log.flush()
        with open(os.path.join(self.dir, "server.log"), "rb") as f:
            return f.read().decode(errors="replace")[-400:]

    def request(self, method, path, body=None, headers=None):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def make_driver(width=1280, height=800):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    # The Debian driver, named explicitly: Selenium never fetches one.
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


class Browser:
    """The driver plus the console and network events seen so far, split by what each step allows."""

    def __init__(self, driver):
        self.driver = driver
        self.console = []   # browser-log entries
        self.failures = []  # (url, status or error text)

    def collect(self, allowed=()):
        """Reads the logs; returns the console errors and failed requests not in `allowed` ((path, status) pairs)."""
        def is_allowed(url, status):
            return any(path in url and status == code for path, code in allowed)

        unexpected = []
        for entry in self.driver.get_log("browser"):
            self.console.append(entry)
            if entry["level"] != "SEVERE":
                continue
            message = entry["message"]
            if entry.get("source") == "network" and any(
                    path in message and f"status of {code}" in message for path, code in allowed):
                continue
            unexpected.append(message)
        for entry in self.driver.get_log("performance"):
            event = json.loads(entry["message"])["message"]
            if event["method"] == "Network.responseReceived":
                response = event["params"]["response"]
                if response["status"] >= 400 and not is_allowed(response["url"], response["status"]):
                    unexpected.append(f"{response['status']} {response['url']}")
            elif event["method"] == "Network.loadingFailed":
                params = event["params"]
                if not params.get("canceled"):
                    unexpected.append(f"request failed: {params.get('errorText')} ({params.get('type')})")
        return unexpected

    def wait(self, condition, what, timeout=15):
        try:
            # A view re-renders while a condition reads it: a stale element means "look again".
            return WebDriverWait(self.driver, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(
                lambda d: condition(d))
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def by(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def set_scene(self, text):
        self.js("const t = document.getElementById('scene-json'); t.value = arguments[0];"
                "t.dispatchEvent(new Event('input', {bubbles: true}));", text)

    def pictures_shown(self):
        return int(self.by("#panel-scene").get_attribute("data-pictures") or "0")

    def picture_pixels(self):
        """The Scene view's wireframe as rendered, read back through a canvas (the page's CSP keeps fetch
        away from blob: URLs, as it should)."""
        return self.js(
            "const i = document.getElementById('scene-picture');"
            "if (!i.complete || !i.naturalWidth) return null;"
            "const c = document.createElement('canvas'); c.width = i.naturalWidth; c.height = i.naturalHeight;"
            "c.getContext('2d').drawImage(i, 0, 0); return c.toDataURL('image/png');")

    def no_alert(self):
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            raise AssertionError(f"an alert opened: {text}")
        except NoAlertPresentException:
            return True

    def shot(self, directory, name):
        self.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        path = os.path.join(directory, name)
        self.driver.save_screenshot(path)
        return os.path.relpath(path, ROOT)


def studio_checks(b, hinge, shots):
    d = b.driver
    state = {}

    def loads_and_resolves():
        d.get(hinge.base + "/")
        b.wait(lambda _: b.pictures_shown() >= 1, "the first wireframe")
        img = b.by("#scene-picture")
        expect(b.js("return arguments[0].complete && arguments[0].naturalWidth", img) > 0, "the wireframe did not render")
        expect(img.get_attribute("src").startswith("blob:"), "the wireframe is not a blob: image")
        rows = b.all("#scene-diagnostics table tbody tr")
        expect(rows, "no diagnostics shown")
        expect(b.all("#scene-placements table tbody tr"), "no placements shown")
        first = b.js("const m = performance.getEntriesByName('hinge-first-wireframe'); return m.length ? m[0].startTime : null")
        expect(first is not None, "no first-wireframe mark")
        state["first_render_ms"] = first
        d.refresh()  # again with the assets cached, as a designer's second visit
        b.wait(lambda _: b.pictures_shown() >= 1, "the first wireframe after a reload")
        state["reload_render_ms"] = b.js("return performance.getEntriesByName('hinge-first-wireframe')[0].startTime")
        state["picture"] = b.picture_pixels()
        expect(state["picture"], "the wireframe cannot be read back")
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")
        return f"{len(rows)} diagnostics; first wireframe {first:.0f} ms after navigation start ({state['reload_render_ms']:.0f} ms on reload)"

    def tabs_work_from_the_keyboard():
        tab = b.by("#tab-scene")
        tab.send_keys(Keys.ARROW_RIGHT)
        b.wait(lambda _: b.by("#tab-matrix").get_attribute("aria-selected") == "true", "Matrix selected by ArrowRight")
        expect(b.js("return document.activeElement.id") == "tab-matrix", "focus did not follow the tab")
        expect(not b.by("#panel-matrix").get_attribute("hidden") and b.by("#panel-scene").get_attribute("hidden"),
               "panels did not switch")
        b.by("#tab-matrix").send_keys(Keys.HOME)
        b.wait(lambda _: b.by("#tab-scene").get_attribute("aria-selected") == "true", "Scene selected by Home")
        unlabelled = b.js("return [...document.querySelectorAll('input, select, textarea')]"
                          ".filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map(e => e.id || e.name)")
        expect(not unlabelled, f"controls without a label: {unlabelled}")

    def pickers_change_the_picture():
        before = b.pictures_shown()
        Select(b.by("#scene-device")).select_by_value("iphone-duo")
        b.wait(lambda _: b.pictures_shown() > before, "a picture for iphone-duo")
        Select(b.by("#scene-posture")).select_by_value("halfOpened")
        b.wait(lambda _: "halfOpened" in b.by("#scene-caption").text and b.by("#panel-scene").get_attribute("data-state") == "resolved",
               "the halfOpened picture")
        scene = json.loads(b.by("#scene-json").get_attribute("value"))
        expect(scene.get("device") == "iphone-duo" and scene.get("posture") == "halfOpened", f"scene not patched: {scene}")
        after = b.picture_pixels()
        expect(after != state["picture"], "the picture did not change")
        expect("iphone-duo" in b.by("#scene-caption").text, "caption does not name iphone-duo")
        state["good_src"] = b.by("#scene-picture").get_attribute("src")
        shots.append(b.shot(shots_dir, "scene.png"))
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")

    def broken_edit_shows_the_pointer():
        scene = json.loads(b.by("#scene-json").get_attribute("value"))
        scene["presentations"][0]["kind"] = "bogus"
        b.set_scene(json.dumps(scene, indent=2))
        b.wait(lambda _: b.by("#panel-scene").get_attribute("data-state") == "error", "the 422")
        pointers = [e.text for e in b.all("#scene-errors .issue .pointer")]
        expect("/presentations/0/kind" in pointers, f"pointer not shown: {pointers}")
        expect("bogus" in b.by("#scene-errors").text, "message not shown")
        expect(b.by("#scene-picture").get_attribute("src") == state["good_src"], "the last good picture was replaced")
        b.set_scene('{"device": "iphone-16", "presentations": [}')
        b.wait(lambda _: "line 1" in b.by("#scene-errors").text, "the 400 with its line and column")
        expect(b.by("#scene-picture").get_attribute("src") == state["good_src"], "the last good picture was replaced")
        bad = b.collect(allowed=[("/v1/resolve", 422), ("/v1/resolve", 400)])
        expect(not bad, f"console errors or failed requests: {bad}")

    def xss_shows_as_text():
        scripts = b.js("return document.scripts.length")
        scene = {"device": "iphone-16", "presentations": [
            {"id": XSS_ID, "kind": "sheet"},
            {"id": XSS_SCRIPT, "kind": "popover", "presentedFrom": XSS_ID, "anchor": {"x": 10, "y": 10}}]}
        before = b.pictures_shown()
        b.set_scene(json.dumps(scene, indent=2))
        b.wait(lambda _: b.pictures_shown() > before, "the XSS scene's picture")
        text = b.by("#panel-scene").text
        expect(XSS_ID in text and XSS_SCRIPT in text, "the ids are not shown as text")
        expect(not b.all('img[src="x"]'), "an injected <img> exists")
        expect(b.js("return document.scripts.length") == scripts, "a script element was injected")
        expect(b.js("return window.hingeXSS === undefined"), "injected code ran")
        b.no_alert()
        # A device profile whose name is markup, shown in the pickers and the catalog.
        status, _, _ = hinge.request("PUT", "/v1/devices/xss-tablet", {
            "name": XSS_ID + XSS_SCRIPT, "kind": "tablet",
            "displays": [{"id": "main", "width": 800, "height": 1200, "sizeClasses": {
                "portrait": {"horizontal": "regular", "vertical": "regular"},
                "landscape": {"horizontal": "regular", "vertical": "regular"}}}]},
            {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"})
        expect(status == 201, f"PUT xss-tablet: {status}")
        b.by("#tab-devices").click()
        b.wait(lambda _: "xss-tablet" in b.by("#devices-list").text, "the xss profile in the catalog")
        expect(XSS_ID + XSS_SCRIPT in b.by("#devices-list").text, "the profile name is not shown as text")
        expect(not b.all('img[src="x"]') and b.js("return window.hingeXSS === undefined"), "markup from a profile name ran")
        b.no_alert()
        hinge.request("DELETE", "/v1/devices/xss-tablet", headers={"Authorization": f"Bearer {API_KEY}"})
        b.by("#tab-scene").click()
        b.collect()

    def matrix_has_one_thumbnail_per_combination():
        b.by("#tab-scene").click()
        before = b.pictures_shown()
        b.set_scene(json.dumps({"device": "iphone-16", "presentations": [
            {"id": "editor", "kind": "sheet", "detents": ["medium", "large"]},
            {"id": "help", "kind": "popover", "presentedFrom": "editor", "anchor": {"x": 120, "y": 200, "width": 44, "height": 44}}]}, indent=2))
        b.wait(lambda _: b.pictures_shown() > before, "the matrix scene's picture")
        b.by("#tab-matrix").click()
        b.wait(lambda _: b.all('#matrix-devices input[value="iphone-duo"]'), "device checkboxes")
        for value in ["iphone-16", "iphone-duo"]:
            box = b.by(f'#matrix-devices input[value="{value}"]')
            if not box.is_selected():
                box.click()
        b.by('#matrix-orientations input[value="landscape"]').click()  # portrait and landscape
        b.by("#matrix-run").click()
        b.wait(lambda _: "pictures loaded" in b.by("#matrix-status").text, "the matrix pictures", timeout=30)
        request = {"scene": json.loads(b.by("#scene-json").get_attribute("value")), "devices": ["iphone-16", "iphone-duo"],
                   "postures": ["flat", "halfOpened"], "orientations": ["portrait", "landscape"], "layoutDirections": ["ltr"]}
        status, _, body = hinge.request("POST", "/v1/resolve/matrix", request, {"Content-Type": "application/json"})
        expected = json.loads(body)["results"]
        cells = b.all("#matrix-grid .cell")
        expect(len(cells) == len(expected) == 6, f"{len(cells)} cells for {len(expected)} combinations")
        loaded = b.js("return [...document.querySelectorAll('#matrix-grid .cell img')].filter(i => i.complete && i.naturalWidth > 0).length")
        expect(loaded == len(expected), f"{loaded} thumbnails shown of {len(expected)}")
        codes = " ".join(c.text for c in b.all("#matrix-grid .codes"))
        expect("chained-modal" in codes, f"diagnostic codes missing: {codes}")
        shots.append(b.shot(shots_dir, "matrix.png"))
        target = b.all("#matrix-grid .cell .open")[-1]
        title = target.text
        target.click()
        b.wait(lambda _: b.by("#tab-scene").get_attribute("aria-selected") == "true", "the Scene view")
        b.wait(lambda _: "landscape" in b.by("#scene-caption").text and "iphone-duo" in b.by("#scene-caption").text,
               f"the opened combination {title}")
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")
        return f"{len(cells)} thumbnails"

    def custom_profile_from_the_form():
        b.by("#tab-devices").click()
        b.wait(lambda _: b.all("#device-form"), "the form")
        b.by("#device-new").click()
        b.by("#device-id").send_keys("studio-tablet")
        b.by("#device-name").send_keys("Studio tablet")
        Select(b.by("#device-kind")).select_by_value("tablet")
        b.by("#device-save").click()
        # The server runs with --api-key: the first write asks for the key once.
        b.wait(lambda _: b.by("#api-key-dialog").get_attribute("open") is not None, "the API key dialog")
        b.by("#api-key-input").send_keys(API_KEY)
        b.by("#api-key-save").click()
        b.wait(lambda _: "Saved studio-tablet (created)" in b.by("#device-status").text, "the created profile")
        status, headers, _ = hinge.request("GET", "/v1/devices/studio-tablet")
        expect(status == 200, f"GET after create: {status}")
        b.wait(lambda _: "studio-tablet" in b.by("#devices-list").text, "the catalog listing the profile")
        expect(b.js("return sessionStorage.getItem('hinge.apiKey')") == API_KEY, "the key is not kept for the tab")
        # Someone else replaces it: the form's ETag is stale, the save is refused in words.
        status, _, _ = hinge.request("PUT", "/v1/devices/studio-tablet", {
            "name": "Changed elsewhere", "kind": "tablet", "displays": json.loads(b.by("#device-displays").get_attribute("value"))},
            {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"})
        expect(status == 200, f"concurrent PUT: {status}")
        b.by("#device-save").click()
        b.wait(lambda _: "412" in b.by("#device-status").text, "the 412 in words")
        expect("changed or deleted" in b.by("#device-status").text, "412 not explained")
        b.by('#devices-list button[aria-label="Show studio-tablet"]').click()
        b.wait(lambda _: "Changed elsewhere" in b.by("#device-detail").text, "the profile's drawing")
        expect(b.all("#device-detail svg rect.display"), "no display drawn")
        b.by("#device-detail .actions button:last-child").click()  # Edit in the form (fresh ETag)
        b.wait(lambda _: "ETag" in b.by("#device-etag").text, "the fresh ETag")
        displays = b.by("#device-displays")
        displays.clear()
        displays.send_keys('[{"id": "main", "width": -5, "height": 10}]')
        b.by("#device-save").click()
        b.wait(lambda _: "/displays/0/width" in b.by("#device-status").text, "the 422 with its pointer")
        b.by("#device-delete").click()
        b.wait(lambda _: "Deleted studio-tablet" in b.by("#device-status").text, "the deletion")
        status, _, _ = hinge.request("GET", "/v1/devices/studio-tablet")
        expect(status == 404, f"GET after delete: {status}")
        b.wait(lambda _: "studio-tablet" not in b.by("#devices-list").text, "the catalog without the profile")
        b.by('#devices-list button[aria-label="Show iphone-duo"]').click()
        b.wait(lambda _: b.all("#device-detail svg line.fold"), "iphone-duo's fold")
        shots.append(b.shot(shots_dir, "devices.png"))
        bad = b.collect(allowed=[("/v1/devices/studio-tablet", 401), ("/v1/devices/studio-tablet", 412),
                                 ("/v1/devices/studio-tablet", 422)])
        expect(not bad, f"console errors or failed requests: {bad}")

    def request_log_and_replay():
        for i in range(25):  # enough records for a second page
            hinge.request("POST", "/v1/resolve", {"device": "iphone-16", "presentations": [{"id": f"s{i}", "kind": "sheet"}]})
        b.by("#tab-requests").click()
        b.wait(lambda _: len(b.all("#requests-list tbody tr")) == 20, "a page of 20 records")
        ids = [int(r.text.lstrip("#")) for r in b.all("#requests-list tbody tr td:first-child")]
        expect(ids == sorted(ids, reverse=True), f"not newest first: {ids}")
        b.by("#requests-older").click()
        b.wait(lambda _: b.all("#requests-list tbody tr") and int(b.by("#requests-list tbody tr td:first-child").text.lstrip("#")) < ids[-1],
               "the older page")
        b.by("#requests-newer").click()
        b.wait(lambda _: int(b.by("#requests-list tbody tr td:first-child").text.lstrip("#")) == ids[0], "the first page again")
        b.by("#requests-form input[name=status]").send_keys("422")
        b.by("#requests-apply").click()
        b.wait(lambda _: b.all("#requests-list tbody tr") and all(
            r.find_elements(By.CSS_SELECTOR, "td")[4].text == "422" for r in b.all("#requests-list tbody tr")), "only 422 records")
        b.by("#requests-form input[name=status]").clear()
        b.by("#requests-form input[name=device]").send_keys("iphone-duo")
        b.by("#requests-apply").click()
        b.wait(lambda _: b.all("#requests-list tbody tr") and all(
            r.find_elements(By.CSS_SELECTOR, "td")[3].text == "iphone-duo" for r in b.all("#requests-list tbody tr")), "iphone-duo records")
        row = next(r for r in b.all("#requests-list tbody tr")
                   if r.find_elements(By.CSS_SELECTOR, "td")[2].text == "/v1/resolve" and r.find_elements(By.CSS_SELECTOR, "td")[4].text == "200")
        row.find_element(By.CSS_SELECTOR, "button").click()
        b.wait(lambda _: b.all("#replay-button"), "the record")
        b.wait(lambda _: b.js("const i = document.querySelector('#requests-detail img'); return i && i.complete && i.naturalWidth > 0"),
               "the record's picture")
        expect('"presentations"' in b.by("#requests-detail").text, "the request body is not shown")
        expect('"placements"' in b.by("#requests-detail").text, "the response body is not shown")
        b.by("#replay-button").click()
        b.wait(lambda _: "unchanged" in b.by("#replay-result").text, "the replay result")
        shots.append(b.shot(shots_dir, "requests.png"))
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")

    def narrow_and_dark():
        d.set_window_size(390, 844)
        d.get(hinge.base + "/#scene")
        d.refresh()
        b.wait(lambda _: b.pictures_shown() >= 1, "the wireframe at 390 px")
        overflow = b.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        expect(overflow <= 0, f"the page scrolls sideways by {overflow} px at 390 px")
        shots.append(b.shot(shots_dir, "scene-390.png"))
        d.set_window_size(1280, 800)
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        d.refresh()
        b.wait(lambda _: b.pictures_shown() >= 1, "the wireframe in dark mode")
        background = b.js("return getComputedStyle(document.body).backgroundColor")
        expect(background != "rgb(246, 247, 249)", f"dark mode not applied: {background}")
        shots.append(b.shot(shots_dir, "scene-dark.png"))
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")

    for name, fn in [
        ("studio loads, resolves the default scene, shows a wireframe and diagnostics", loads_and_resolves),
        ("tabs work from the keyboard; every control has a label", tabs_work_from_the_keyboard),
        ("picking iphone-duo + halfOpened changes the picture", pickers_change_the_picture),
        ("a broken edit shows the error at its pointer and keeps the last picture", broken_edit_shows_the_pointer),
        ("ids and names holding markup show as text (no script, no element, no alert)", xss_shows_as_text),
        ("the matrix shows one thumbnail per combination; a click opens it", matrix_has_one_thumbnail_per_combination),
        ("a custom profile is created, refused (412, 422) and deleted from the form", custom_profile_from_the_form),
        ("the request log pages, filters, shows a record and its replay", request_log_and_replay),
        ("readable at 390 px wide and in dark mode", narrow_and_dark),
    ]:
        check(name, fn)
    return state


FETCH_RECORD_ID = """
const done = arguments[arguments.length - 1];
fetch(arguments[0] + "/v1/resolve", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({device: "iphone-16", presentations: [{id: "plugin", kind: "sheet"}]})})
  .then(r => r.json().then(body => done({status: r.status, recordId: r.headers.get("Hinge-Record-Id"),
                                         placements: (body.placements || []).length, origin: location.origin})))
  .catch(e => done({error: String(e), origin: location.origin}));
"""


class PageServer:
    """A second origin: python's http.server on another loopback port, serving one small page."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="hinge-plugin-")
        with open(os.path.join(self.dir, "plugin.html"), "w") as f:
            f.write("<!doctype html><title>A design-tool plugin</title><p>plugin</p>")
        # A data: document (origin null) framed by a loopback page, as a plugin's sandboxed UI is framed by its
        # host. A data: tab of its own is not a secure context, and Chromium's local-network-access checks
        # refuse its calls to a loopback address whatever the server answers.
        with open(os.path.join(self.dir, "data-frame.html"), "w") as f:
            f.write("<!doctype html><title>A host page</title>"
                    "<iframe id=plugin src=\"data:text/html,<title>plugin</title><p>data: frame</p>\"></iframe>")
        handler = lambda *a, **k: QuietHandler(*a, directory=self.dir, **k)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


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

    def fetch_from(url, hinge):
        d.switch_to.default_content()
        d.get(url)
        if url.endswith("data-frame.html"):
            d.switch_to.frame(d.find_element(By.ID, "plugin"))
        try:
            return d.execute_async_script(FETCH_RECORD_ID, hinge.base)
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
            ("without --cors-origin both are blocked", without_cors_origin_both_fail),
        ]:
            check(name, fn)
    finally:
        for server in servers.values():
            if isinstance(server, Hinge):
                server.stop()


shots_dir = os.path.join(ROOT, "docs", "studio")


def main():
    global shots_dir
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "hinge"))
    parser.add_argument("--screenshots", default=shots_dir)
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
        state = studio_checks(b, hinge, shots)
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
