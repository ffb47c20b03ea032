"""The plugin tests' pieces (scripts/plugin-tests.py): the static servers, one plugin booted against its host
stub in headless Chromium, and the comparison of what it drew with the API's numbers."""
import http.server
import json
import os
import subprocess
import threading
import time
import urllib.parse

from selenium.common.exceptions import NoSuchFrameException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_harness import ROOT, Browser, QuietHandler, expect, make_driver

# The fixture devices of Tests/LayoutEngineTests/Support.swift, as profiles, so the golden scenes resolve.
PHONE = {"id": "main", "width": 390, "height": 844, "scale": 3, "cornerRadius": 47,
         "safeArea": {"top": 47, "bottom": 34}, "landscapeSafeArea": {"top": 0, "leading": 47, "bottom": 21, "trailing": 47},
         "sizeClasses": {"portrait": {"horizontal": "compact", "vertical": "regular"},
                         "landscape": {"horizontal": "compact", "vertical": "compact"}}}
REGULAR = {"portrait": {"horizontal": "regular", "vertical": "regular"},
           "landscape": {"horizontal": "regular", "vertical": "regular"}}
FIXTURES = {
    "test-phone": {"name": "Test phone", "kind": "phone", "displays": [PHONE]},
    "test-tablet": {"name": "Test tablet", "kind": "tablet", "displays": [
        {"id": "main", "width": 1024, "height": 1366, "scale": 2, "cornerRadius": 18, "safeArea": {"top": 24, "bottom": 20},
         "landscapeSafeArea": {"top": 24, "bottom": 20}, "sizeClasses": REGULAR}]},
    "test-foldable": {"name": "Test foldable", "kind": "foldable", "displays": [
        dict(PHONE, id="outer"),
        {"id": "inner", "width": 780, "height": 844, "scale": 3, "cornerRadius": 30, "safeArea": {"top": 47, "bottom": 34},
         "landscapeSafeArea": {"top": 0, "leading": 47, "bottom": 21, "trailing": 47},
         "fold": {"orientation": "vertical", "position": 390, "thickness": 0}, "sizeClasses": REGULAR}]},
    "test-hinged": {"name": "Test hinged", "kind": "foldable", "displays": [
        {"id": "main", "width": 1200, "height": 900, "scale": 2, "cornerRadius": 0, "safeArea": {},
         "landscapeSafeArea": {}, "fold": {"orientation": "vertical", "position": 600, "thickness": 20}, "sizeClasses": REGULAR}]},
}


class StaticServer:
    """The repository over HTTP on a loopback port: the host page's origin."""

    def __init__(self, directory=ROOT):
        handler = lambda *a, **k: QuietHandler(*a, directory=directory, **k)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


class PenpotHost:
    """plugins/penpot/serve.py, as a designer runs it: the Penpot plugin's own origin."""

    def __init__(self):
        self.process = subprocess.Popen(
            ["/usr/bin/python3", os.path.join(ROOT, "plugins", "penpot", "serve.py"), "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.process.stdout.readline()
        expect("manifest.json" in line, f"serve.py did not start: {line!r}")
        port = line.rsplit(":", 1)[1].split("/")[0]
        self.origin = f"http://127.0.0.1:{port}"
        self.base = self.origin + "/"

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class FakeConstantSets:
    """A server that lists constant sets (and relays /v1/devices from a real Hinge), with CORS for any
    origin: the present case of the panel's constant-set picker. It keeps the `Authorization` header of each
    GET (None without one) in `authorizations`, and answers preflights as Hinge does."""

    def __init__(self, hinge):
        devices = hinge.request("GET", "/v1/devices")[2]
        authorizations = self.authorizations = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_OPTIONS(self):
                self.send_response(204)
                self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
                self.send_header("Access-Control-Allow-Methods", "GET, POST")
                self.send_header("Access-Control-Allow-Headers", "Content-Type, Authorization")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                authorizations.append((self.path, self.headers.get("Authorization")))
                if self.path == "/v1/constant-sets":
                    body = json.dumps({"constantSets": [
                        {"name": "calibrated", "latestVersion": 2, "created": "2026-12-04T10:00:00.000Z", "note": None},
                        {"name": "field-test", "latestVersion": 5, "created": "2026-12-04T11:00:00.000Z", "note": "x"}]}).encode()
                elif self.path == "/v1/devices":
                    body = devices
                else:
                    self.send_response(404)
                    self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


class PluginPage:
    """One plugin in the host stub page: the canvas (the stub) and the panel (an iframe)."""

    def __init__(self, kind, host_origin, penpot_base=None, settings=None, width=1440, height=1060, extra=None):
        self.kind = kind
        self.driver = make_driver(width, height)
        self.b = Browser(self.driver)
        query = dict({"host": kind}, **(extra or {}))
        if penpot_base:
            query["base"] = penpot_base
        if settings:
            query["settings"] = json.dumps(settings)
        url = f"{host_origin}/plugins/testing/host.html?{urllib.parse.urlencode(query)}"
        self.driver.get(url)
        self.b.wait(lambda d: d.execute_script("return !!(window.__host && window.__host.ready)"), "the plugin to boot")
        self.frames = {}

    def quit(self):
        self.driver.quit()

    # --- the canvas --------------------------------------------------------------------------------
    def js(self, script, *args):
        self.driver.switch_to.default_content()
        return self.driver.execute_script(script, *args)

    def create_frame(self, name, x, y, w, h, **options):
        """A frame (Penpot: a board); options: parent (a section's id), layoutMode (Figma), layout (Penpot)."""
        return self.js("return __host.stub.createFrame(arguments[0], arguments[1], arguments[2], arguments[3], arguments[4], arguments[5])",
                       name, x, y, w, h, options)

    def create_section(self, name, x, y, w, h):
        return self.js("return __host.stub.createSection(arguments[0], arguments[1], arguments[2], arguments[3], arguments[4])",
                       name, x, y, w, h)

    def create_shape(self, name, x, y, w, h, parent=None):
        """Penpot: a rectangle on the canvas, or in the board `parent`."""
        return self.js("return __host.stub.createShape(arguments[0], arguments[1], arguments[2], arguments[3], arguments[4], arguments[5])",
                       name, x, y, w, h, parent)

    def select(self, *ids):
        """Selects the nodes and waits until the panel shows the frame the plugin made of the selection."""
        self.js("__host.stub.select(arguments[0])", list(ids))
        node = self.frame(ids[0]) if len(ids) == 1 else None
        if node and node["type"] in ("FRAME", "board"):
            label = f"{node['name']} · {fmt(node['width'])}×{fmt(node['height'])}"
            self.wait_panel(lambda: self.text("frame") == label, f"the panel to show the frame {label}")
        else:
            self.wait_panel(lambda: self.text("frame").startswith("Select a"), "the panel to ask for a frame")

    def reopen(self, reinstall=False):
        """Closes the plugin and opens it again on the same document (another install with `reinstall`)."""
        self.js("__host.reopen(arguments[0])", reinstall)
        self.b.wait(lambda d: d.execute_script("return !!(window.__host && window.__host.ready)"), "the plugin to reopen")

    def saved_settings(self):
        text = self.js("return __host.stub.settings()")
        return json.loads(text) if text else None

    def snapshot(self):
        return self.js("return __host.stub.snapshot()")

    def frame(self, frame_id):
        """The node `frame_id` wherever it is (a frame in a section too), as the snapshot holds it."""
        def walk(nodes):
            for node in nodes:
                if node["id"] == frame_id:
                    return node
                found = walk(node.get("children") or [])
                if found:
                    return found
            return None
        return walk(self.snapshot())

    def failures(self):
        return self.js("return __host.core.failures.slice().concat(__host.errors)")

    def error_notices(self):
        return self.js("return __host.stub.notifications.filter(n => n.error).map(n => n.message)")

    def used(self):
        return sorted(self.js("return [...__host.core.used]"))

    def undo(self):
        return self.js("return __host.stub.undo()")

    def render(self, scale=None, only=None):
        """Draws the stubbed canvas (the frames `only`, or all) as SVG beside the panel."""
        self.js("__host.render(arguments[0], arguments[1])", scale, only)

    # --- the panel ---------------------------------------------------------------------------------
    def panel(self):
        self.driver.switch_to.default_content()
        try:
            self.driver.switch_to.frame(self.driver.find_element(By.ID, "plugin-ui"))
        except NoSuchFrameException as error:
            raise AssertionError(f"no plugin panel: {error}")

    def in_panel(self, script, *args):
        self.panel()
        try:
            return self.driver.execute_script(script, *args)
        finally:
            self.driver.switch_to.default_content()

    def status(self):
        return self.text("status")

    def text(self, element_id):
        return self.in_panel("const e = document.getElementById(arguments[0]); return e ? e.textContent : null", element_id)

    def wait_panel(self, predicate, what, timeout=20):
        def ready(_):
            try:
                return predicate()
            except Exception:
                return False
        self.b.wait(ready, what, timeout)

    def wait_status(self, predicate, what, timeout=20):
        def ready(_):
            try:
                return predicate(self.status())
            except Exception:
                return False
        self.b.wait(ready, what, timeout)
        return self.status()

    def set_scene(self, scene):
        self.in_panel("const t = document.getElementById('scene-json'); t.value = arguments[0];"
                      "t.dispatchEvent(new Event('input', {bubbles: true}));", json.dumps(scene, indent=2))

    def scene_text(self):
        return self.in_panel("return document.getElementById('scene-json').value")

    def choose(self, select_id, value):
        self.panel()
        try:
            Select(self.driver.find_element(By.ID, select_id)).select_by_value(value)
        finally:
            self.driver.switch_to.default_content()

    def click(self, element_id):
        self.panel()
        try:
            element = self.driver.find_element(By.ID, element_id)
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", element)
        finally:
            self.driver.switch_to.default_content()

    def set_settings(self, url, docs="", credential=""):
        """Saves the settings; the status is cleared first, so a wait that follows reads this connection's."""
        self.in_panel("document.getElementById('status').textContent = '';"
                      "document.getElementById('settings').open = true;"
                      "document.getElementById('url').value = arguments[0];"
                      "document.getElementById('docs-url').value = arguments[1];"
                      "document.getElementById('credential').value = arguments[2];"
                      "document.getElementById('save-settings').click();", url, docs, credential)

    def draw(self, expect_drawn=True):
        """Clicks "Resolve and draw" and waits for the panel to say how it ended."""
        self.in_panel("document.getElementById('status').textContent = ''")
        self.click("draw")
        done = self.wait_status(lambda s: s.startswith(("Drawn", "Not resolved", "Hinge did not answer", "Not drawn")),
                                "the run to end")
        if expect_drawn:
            errors = self.in_panel("return document.getElementById('errors').textContent")
            expect(done.startswith("Drawn"), f"not drawn: {done} {errors}")
        return done

    def shot(self, directory, name):
        self.driver.switch_to.default_content()
        path = os.path.join(directory, name)
        self.driver.save_screenshot(path)
        return os.path.relpath(path, ROOT)


# --- what was drawn against what the API answered ------------------------------------------------------

def fmt(v):
    """A number as the panel writes it (JavaScript's String of a number)."""
    return str(int(v)) if float(v).is_integer() else str(v)


def origin_of(frame, kind):
    """Where the window's (0, 0) is in the host's coordinates for the frame's children."""
    return (0, 0) if kind == "figma" else (frame["x"], frame["y"])


def hinge_nodes(node, kind, out=None):
    """Every node Hinge drew under `node` (marked with plugin data `hinge`), as the host holds them."""
    out = [] if out is None else out
    for child in node.get("children") or []:
        if child["type"] in ("GROUP", "group"):
            hinge_nodes(child, kind, out)
            continue
        data = child["data"].get("hinge")
        if not data:
            continue
        mark = json.loads(data)
        item = {"role": mark["role"], "ref": mark["ref"], "name": child["name"], "type": child["type"]}
        # As the host holds them: a Figma frame's children in the frame's coordinates, Penpot's on the canvas
        # (compare() adds the frame's origin to the API's numbers, as the adapter does).
        x, y = child["x"], child["y"]
        if child["type"] in ("LINE", "path"):
            if kind == "figma":
                vertical = child.get("rotation") == -90
                item.update(x1=x, y1=y, x2=x if vertical else x + child["width"], y2=y + child["width"] if vertical else y)
            else:
                a, b = child["content"][0]["params"], child["content"][1]["params"]
                item.update(x1=a["x"], y1=a["y"], x2=b["x"], y2=b["y"])
        else:
            item.update(x=x, y=y, width=child["width"], height=child["height"])
        out.append(item)
    return out


def hinge_groups(frame):
    return [c for c in frame.get("children") or []
            if c["type"] in ("GROUP", "group") and json.loads(c["data"].get("hinge") or "{}").get("group")]


def same(a, b, tolerance):
    return abs(a - b) <= tolerance


def box_of(f):
    return (f["x"], f["y"], f["width"], f["height"])


def compare(drawn, resolution, scene, origin=(0, 0), tolerance=0.0):
    """Checks every shape that stands for a frame of the API against the API's numbers placed at `origin`
    (the window's (0, 0) in the host's coordinates), exactly by default. Returns a list of differences
    (empty when the drawing matches) and the number of shapes checked."""
    ox, oy = origin
    problems = []
    checked = 0
    env = resolution["environment"]
    win = env["window"]
    rtl = env["layoutDirection"] == "rtl"
    by_role = {}
    for d in drawn:
        by_role.setdefault(d["role"], []).append(d)

    def match(role, expected, label, ref=None):
        nonlocal checked
        candidates = [d for d in by_role.get(role, []) if ref is None or all(d["ref"].get(k) == v for k, v in ref.items())]
        if len(candidates) != 1:
            problems.append(f"{label}: {len(candidates)} {role} shapes drawn, expected 1")
            return
        got = (candidates[0]["x"], candidates[0]["y"], candidates[0]["width"], candidates[0]["height"])
        expected = (ox + expected[0], oy + expected[1], expected[2], expected[3])
        if not all(same(g, e, tolerance) for g, e in zip(got, expected)):
            problems.append(f"{label}: drawn at {got}, the API says {expected}")
        checked += 1

    match("window", (0, 0, win["width"], win["height"]), "window")
    fold = env["fold"]
    regions = env["regions"] if fold and fold["separating"] else []
    for i, region in enumerate(regions):
        match("region", box_of(region["frame"]), f"region {i}", {"index": i})
    expect_count(by_role, "region", len(regions), problems)
    s = env["safeArea"]
    left, right = (s["trailing"], s["leading"]) if rtl else (s["leading"], s["trailing"])
    if s["top"] + s["bottom"] + left + right > 0:
        match("safe-area", (left, s["top"], win["width"] - left - right, win["height"] - s["top"] - s["bottom"]), "safe area")
    else:
        expect_count(by_role, "safe-area", 0, problems)
    if fold:
        b = fold["bounds"]
        if b["width"] > 0 and b["height"] > 0:
            match("fold", box_of(b), "fold")
        else:
            lines = by_role.get("fold", [])
            want = (ox + b["x"], oy + b["y"], ox + (b["x"] + b["width"]), oy + (b["y"] + b["height"]))
            if len(lines) != 1 or not all(same(g, e, tolerance) for g, e in zip((lines[0]["x1"], lines[0]["y1"], lines[0]["x2"], lines[0]["y2"]), want)):
                problems.append(f"fold line: drawn {lines}, the API's bounds {b}")
            checked += 1
    else:
        expect_count(by_role, "fold", 0, problems)
    arrangement = resolution.get("arrangement")
    views = 0
    if arrangement:
        for which in ("primary", "secondary"):
            v = arrangement[which]
            if v["visible"] and v["frame"]:
                match("arrangement", box_of(v["frame"]), f"{which} view", {"view": which})
                views += 1
    expect_count(by_role, "arrangement", views, problems)
    presented = [p for p in resolution["placements"] if p["status"] == "presented" and p["frame"]]
    expect_count(by_role, "placement", len(presented), problems)
    scrims = 0
    for index, p in enumerate(resolution["placements"]):
        if p not in presented:
            if any((d["ref"] or {}).get("placement") == p["id"] for d in drawn):
                problems.append(f"{p['id']} is {p['status']} but was drawn")
            continue
        f = p["frame"]
        match("placement", box_of(f), f"placement {p['id']}", {"placement": p["id"]})
        if p["dimsBackground"] or (p["kind"] == "adaptivePanel" and p["tapOutsideToDismiss"]):
            match("scrim", (0, 0, win["width"], win["height"]), f"dimming behind {p['id']}", {"placement": p["id"]})
            scrims += 1
        checked += check_detents(p, resolution["placements"][index + 1:], by_role, origin, tolerance, problems)
        checked += check_toolbar(p, scene, by_role, origin, problems)
    expect_count(by_role, "scrim", scrims, problems)
    return problems, checked


def expect_count(by_role, role, n, problems):
    if len(by_role.get(role, [])) != n:
        problems.append(f"{len(by_role.get(role, []))} {role} shapes drawn, expected {n}")


def check_detents(p, later, by_role, origin, tolerance, problems):
    """A sheet whose selected detent sets its height has one dashed line per detent at that height from its
    bottom, unless a later presented sheet in the same column covers it."""
    f = p["frame"]
    lines = [d for d in by_role.get("detent", []) if d["ref"].get("placement") == p["id"]]
    covered = any(q["status"] == "presented" and q["frame"] and q["detents"]
                  and abs(q["frame"]["x"] - f["x"]) < 0.01 and abs(q["frame"]["width"] - f["width"]) < 0.01 for q in later)
    wanted = p["detents"] if p["selectedDetent"] is not None and p["detents"] and not covered else []
    if len(lines) != len(wanted):
        problems.append(f"{p['id']}: {len(lines)} detent lines drawn, expected {len(wanted)}")
        return 0
    for detent, line in zip(wanted, lines):
        y = f["y"] + f["height"] - detent["height"]
        got = (line["x1"], line["y1"], line["x2"], line["y2"])
        want = (origin[0] + f["x"], origin[1] + y, origin[0] + (f["x"] + f["width"]), origin[1] + y)
        if not all(same(g, e, tolerance) for g, e in zip(got, want)):
            problems.append(f"{p['id']}: detent {detent['detent']} drawn at {got}, expected y {y}")
        if (line["ref"].get("selected") is True) != (detent["detent"] == p["selectedDetent"]):
            problems.append(f"{p['id']}: detent {detent['detent']} selected mark is wrong")
    return len(wanted)


def check_toolbar(p, scene, by_role, origin, problems):
    """With items in the scene and a toolbar orientation, one bar of that orientation inside the placement
    and one chip per item inside the bar; otherwise none."""
    items = next((q.get("toolbar") or [] for q in scene.get("presentations", []) if q.get("id") == p["id"]), [])
    bars = [d for d in by_role.get("toolbar", []) if d["ref"].get("placement") == p["id"]]
    chips = [d for d in by_role.get("toolbar-item", []) if d["ref"].get("placement") == p["id"]]
    if not items or not p["toolbarOrientation"]:
        if bars or chips:
            problems.append(f"{p['id']}: a toolbar drawn without items or orientation")
        return 0
    f = dict(p["frame"], x=origin[0] + p["frame"]["x"], y=origin[1] + p["frame"]["y"])
    if len(bars) != 1:
        problems.append(f"{p['id']}: {len(bars)} toolbars drawn for {len(items)} items")
        return 0
    bar = bars[0]
    if bar["ref"].get("orientation") != p["toolbarOrientation"]:
        problems.append(f"{p['id']}: toolbar {bar['ref'].get('orientation')}, the API says {p['toolbarOrientation']}")
    if not inside(bar, f):
        problems.append(f"{p['id']}: toolbar {box_of(bar)} outside the placement {box_of(f)}")
    if len(chips) != len(items) or not all(inside(c, bar) for c in chips):
        problems.append(f"{p['id']}: {len(chips)} toolbar items drawn inside the bar, the scene has {len(items)}")
    if p["toolbarOrientation"] == "vertical" and not all(c["height"] > c["width"] for c in chips):
        problems.append(f"{p['id']}: a vertical toolbar's items do not run down")
    return 1 + len(chips)


def inside(a, b, slack=1e-6):
    return (a["x"] >= b["x"] - slack and a["y"] >= b["y"] - slack and a["x"] + a["width"] <= b["x"] + b["width"] + slack
            and a["y"] + a["height"] <= b["y"] + b["height"] + slack)


def wait_for(predicate, what, timeout=15):
    deadline = time.monotonic() + timeout
    while not predicate():
        expect(time.monotonic() < deadline, f"timed out waiting for {what}")
        time.sleep(0.05)  # polling a condition, not synchronising a result
