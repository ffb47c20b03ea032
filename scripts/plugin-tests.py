#!/usr/bin/python3
"""The Figma and Penpot plugins without the design tools: each plugin's main code runs in headless Chromium
against a stub of its host's API (plugins/testing/), its panel in a sandboxed iframe (origin `null` for
Figma, the plugin's own static host for Penpot, plugins/penpot/serve.py), against a real `hinge serve`.

Every shape drawn for a frame of the API is compared with the API's answer to the same scene, for the
golden scenes (with the test fixtures' devices) and the typical scene on every built-in device and posture.
Builds nothing: start from the release binary. Prints `N passed, M failed`, exits 1 on any failure, and
writes screenshots of the stubbed canvas and the panel to docs/plugins/.

    scripts/plugin-tests.py [--binary .build/release/hinge] [--screenshots docs/plugins]
"""
import argparse
import glob
import json
import os
import re
import sys
import urllib.request

from selenium.webdriver.common.by import By

from browser_harness import ROOT, Hinge, check, expect, free_port, results
from plugin_host import (FIXTURES, FakeConstantSets, PenpotHost, PluginPage, StaticServer, compare, hinge_groups,
                         hinge_nodes, origin_of, wait_for)

TYPICAL = json.load(open(os.path.join(ROOT, "Benchmarks", "scenes", "typical.json")))
GOLDEN = sorted(glob.glob(os.path.join(ROOT, "Tests", "LayoutEngineTests", "Scenes", "*.scene.json")))
ALLOWED_ALWAYS = ["/v1/constant-sets - Failed to load resource: the server responded with a status of 404",
                  "404 http://127.0.0.1:"]  # the panel's probe for constant sets, where a server answers 404


class Run:
    """One plugin's page and what its checks share."""

    def __init__(self, kind, hinge, static, penpot, shots, extra=None):
        self.kind = kind
        self.hinge = hinge
        self.shots = shots
        self.page = PluginPage(kind, static.origin, penpot.base if kind == "penpot" else None,
                               settings={"url": hinge.base, "docsUrl": f"{static.origin}/docs"}, extra=extra)
        self.origin = "null" if kind == "figma" else penpot.origin
        self.frames = {}

    def clean(self, allowed=(), logged=()):
        """No console error, failed request, stub failure or error notice beyond `allowed` substrings; waits
        until each of `logged` has been logged (the browser's log arrives after the page has moved on)."""
        allowed = list(allowed) + ALLOWED_ALWAYS
        if logged:
            log = []
            wait_for(lambda: log.extend(self.page.b.collect()) or all(any(w in m for m in log) for w in logged),
                     f"the browser to log {logged}")
            unexpected = [m for m in log if not any(a in m for a in allowed)]
            expect(not unexpected, f"unexpected errors: {unexpected[:3]}")
        seen = [m for m in self.page.b.collect() if not any(a in m for a in allowed)]
        seen += self.page.failures() + self.page.error_notices()
        self.page.js("__host.core.failures.length = 0; __host.errors.length = 0;"
                     "__host.stub.notifications.length = 0")
        expect(not seen, f"unexpected errors: {seen[:3]}")

    def resolve(self, scene):
        status, _, body = self.hinge.request("POST", "/v1/resolve", scene)
        expect(status == 200, f"the API refused the scene: {status} {body[:200]}")
        return json.loads(body)

    def saved_scene(self, frame_id):
        frame = self.page.frame(frame_id)
        return json.loads(frame["data"]["hinge.scene"])

    def drawn_matches(self, frame_id, target=None):
        """The frame's (or its companion's) Hinge nodes against the API's answer to the frame's saved scene."""
        scene = self.saved_scene(frame_id)
        frame = self.page.frame(target or frame_id)
        groups = hinge_groups(frame)
        expect(len(groups) == 1, f"{len(groups)} Hinge groups in {frame['name']}, expected 1")
        # On top of the frame's other children, its shapes back to front: the window at the back.
        expect(frame["children"][-1]["id"] == groups[0]["id"], f"the Hinge group is not on top in {frame['name']}")
        drawn = hinge_nodes(frame, self.kind)
        expect(drawn and drawn[0]["role"] == "window", f"the back shape is {drawn[0]['role'] if drawn else None}, not the window")
        problems, checked = compare(drawn, self.resolve(scene), scene, origin_of(frame, self.kind))
        expect(not problems, "; ".join(problems[:4]))
        return checked, len(drawn)

    def draw_scene(self, frame_id, scene):
        self.page.select(frame_id)
        self.page.set_scene(scene)
        return self.page.draw()


def host_checks(run):
    page = run.page
    kind = run.kind

    def boots():
        page.wait_status(lambda s: s.startswith("Connected"), "the panel to connect")
        hidden = page.in_panel("return document.getElementById('constant-set-field').hidden")
        expect(hidden, "the constant-set picker shows though the server lists no constant sets")
        run.clean()
        return page.status()

    def typical_on_the_duo():
        run.frames["duo"] = page.create_frame("iPhone Duo, half open", 0, 0, 752, 832)
        # A designer's layer already in the frame: the drawing goes on top of it.
        if kind == "figma":
            page.create_frame("Screen content", 0, 0, 752, 832, parent=run.frames["duo"])
        else:
            page.create_shape("Screen content", 0, 0, 752, 832, run.frames["duo"])
        done = run.draw_scene(run.frames["duo"], TYPICAL)
        expect("inside the frame" in done, done)
        checked, drawn = run.drawn_matches(run.frames["duo"])
        diagnostics = page.in_panel("return [...document.querySelectorAll('#diagnostics li')].map(l => l.textContent)")
        expect(any("chained-modal" in d for d in diagnostics), f"diagnostics not listed: {diagnostics}")
        page.render(only=[run.frames["duo"]])
        page.in_panel("window.scrollTo(0, 0)")
        run.shots.append(page.shot(run.shots_dir, f"{kind}-typical.png"))
        run.clean()
        return f"{checked} shapes equal to the API's numbers, {drawn} drawn"

    def rerun_replaces():
        before = hinge_nodes(page.frame(run.frames["duo"]), kind)
        page.draw()
        frame = page.frame(run.frames["duo"])
        expect(len(hinge_groups(frame)) == 1, f"{len(hinge_groups(frame))} groups after a second run")
        after = hinge_nodes(frame, kind)
        expect(len(after) == len(before), f"{len(after)} nodes after the second run, {len(before)} before")
        run.clean()
        return f"one group of {len(after)} nodes"

    def undo_in_one_step():
        frame = page.frame(run.frames["duo"])
        expect(len(hinge_groups(frame)) == 1, "no group to undo")
        page.undo()
        frame = page.frame(run.frames["duo"])
        groups = hinge_groups(frame)
        # The second run replaced the first: one undo brings the first back, whole.
        expect(len(groups) == 1, f"{len(groups)} groups after one undo, expected the first run's")
        page.undo()
        frame = page.frame(run.frames["duo"])
        expect(not hinge_groups(frame) and not hinge_nodes(frame, kind), "the first run is not undone in one step")
        page.draw()
        run.drawn_matches(run.frames["duo"])
        run.clean()
        return "each run is one undo step"

    def scene_comes_back():
        run.frames["phone"] = page.create_frame("Phone", 900, 0, 393, 852)
        page.select(run.frames["phone"])
        page.wait_status(lambda s: s.startswith("A new scene"), "a new scene for the new frame")
        fresh = json.loads(page.scene_text())
        expect(fresh.get("window") == {"width": 393, "height": 852}, f"the new frame's window is not its size: {fresh.get('window')}")
        page.select(run.frames["duo"])
        page.wait_status(lambda s: s.startswith("The scene saved"), "the saved scene")
        expect(json.loads(page.scene_text()) == TYPICAL, "the scene shown is not the one drawn on the frame")
        run.clean()
        return "the iPhone Duo frame's scene is restored"

    def beside_when_too_small():
        done = run.draw_scene(run.frames["phone"], TYPICAL)
        expect("beside the frame" in done, done)
        companions = [n for n in page.snapshot() if json.loads(n["data"].get("hinge") or "{}").get("frame") == "companion"]
        expect(len(companions) == 1, f"{len(companions)} companion frames")
        c = companions[0]
        phone = page.frame(run.frames["phone"])
        expect((c["x"], c["y"], c["width"], c["height"]) == (phone["x"] + phone["width"] + 48, phone["y"], 752, 832),
               f"companion at {(c['x'], c['y'], c['width'], c['height'])}")
        run.drawn_matches(run.frames["phone"], c["id"])
        page.draw()
        companions = [n for n in page.snapshot() if json.loads(n["data"].get("hinge") or "{}").get("frame") == "companion"]
        expect(len(companions) == 1, f"{len(companions)} companion frames after a second run")
        run.clean()
        return "a 752×832 frame beside the 393×852 one, replaced on the next run"

    def companions_of(frame_id):
        return [n for n in page.snapshot() if json.loads(n["data"].get("hinge") or "{}").get("frame") == "companion"
                and json.loads(n["data"]["hinge"]).get("of") == frame_id]

    def beside(frame_id, what):
        """Draws the typical scene on a frame that lays out its children: beside it, the frame untouched."""
        before = page.frame(frame_id)
        done = run.draw_scene(frame_id, TYPICAL)
        expect("beside the frame" in done, f"{what}: {done}")
        frame = page.frame(frame_id)
        expect(not frame.get("children") and not hinge_groups(frame), f"{what}: the plugin drew inside it")
        expect((frame["width"], frame["height"]) == (before["width"], before["height"]), f"{what}: the frame was resized")
        companions = companions_of(frame_id)
        expect(len(companions) == 1, f"{what}: {len(companions)} frames beside it")
        run.drawn_matches(frame_id, companions[0]["id"])
        return companions[0]

    def in_a_section():
        # A phone frame in a frame in a section: its x and y are its parent frame's, whose are the section's.
        section = page.create_section("Flows", 3000, 2000, 1400, 1100)
        row = page.create_frame("Onboarding row", 40, 50, 1200, 1000, parent=section)
        run.frames["in-section"] = page.create_frame("Phone in a section", 60, 100, 393, 852, parent=row)
        frame = page.frame(run.frames["in-section"])
        expect((frame["absX"], frame["absY"]) == (3100, 2150), f"the stub's section: {frame}")
        c = beside(run.frames["in-section"], "a frame in a frame in a section")
        expect((c["x"], c["y"]) == (3100 + 393 + 48, 2150), f"the frame beside it is at {(c['x'], c['y'])}, not beside (3100, 2150)")
        page.in_panel("document.getElementById('matrix-box').open = true")
        page.in_panel("document.getElementById('status').textContent = ''")
        page.click("matrix")
        done = page.wait_status(lambda s: s.startswith(("Matrix drawn", "Matrix not", "Hinge did not", "Not drawn")), "the matrix")
        expect(done.startswith("Matrix drawn"), done)
        row = [n for n in page.snapshot() if json.loads(n["data"].get("hinge") or "{}").get("frame") == "matrix"
               and json.loads(n["data"]["hinge"]).get("of") == run.frames["in-section"]]
        expect(row and (row[0]["x"], row[0]["y"]) == (3100, 2150 + 852 + 96), f"the matrix row starts at {[(r['x'], r['y']) for r in row[:1]]}")
        run.clean()
        return f"beside at ({c['x']}, {c['y']}), the matrix row at ({row[0]['x']}, {row[0]['y']}): page coordinates"

    def auto_layout():
        run.frames["auto"] = page.create_frame("Auto layout", 0, 3000, 1400, 1400, layoutMode="VERTICAL")
        c = beside(run.frames["auto"], "an auto-layout frame")
        run.clean()
        return f"drawn in a frame beside it at ({c['x']}, {c['y']}); the auto-layout frame keeps no child"

    def flex_and_grid():
        out = []
        for layout in ("flex", "grid"):
            run.frames[layout] = page.create_frame(f"A {layout} board", 0, 3000 + (2000 if layout == "grid" else 0), 1400, 1400, layout=layout)
            c = beside(run.frames[layout], f"a {layout} board")
            out.append(f"{layout}: beside at ({c['x']}, {c['y']})")
        run.clean()
        return "; ".join(out)

    def canvas_is_no_board():
        shape = page.create_shape("A rectangle on the canvas", -500, -500, 40, 40)
        page.select(shape)  # waits for the panel to ask for a board
        disabled = page.in_panel("return document.getElementById('draw').disabled")
        expect(disabled, "Resolve and draw is enabled for a shape on the canvas")
        run.clean()
        return page.text("frame")

    def empty_label():
        scene = json.loads(json.dumps(TYPICAL))
        editor = next(p for p in scene["presentations"] if p["id"] == "editor")
        editor["toolbar"] = [{"title": "", "placement": "cancellationAction"}] + editor["toolbar"][1:]
        # The popover's toolbar runs along its top (horizontal), where items carry their titles as labels.
        help_ = next(p for p in scene["presentations"] if p["id"] == "help")
        help_["toolbar"] = [{"title": "", "placement": "confirmationAction"}]
        try:
            run.draw_scene(run.frames["duo"], scene)
            checked, _ = run.drawn_matches(run.frames["duo"])
            drawn = hinge_nodes(page.frame(run.frames["duo"]), kind)
        finally:
            run.draw_scene(run.frames["duo"], TYPICAL)  # the scene later checks expect on this frame
        chips = [d for d in drawn if d["role"] == "toolbar-item" and d["name"] == "help · toolbar · "]
        labels = [d for d in drawn if d["role"] == "toolbar-label" and d["ref"].get("placement") == "help"]
        expect(len(chips) == 1, f"the popover's untitled item: {len(chips)} chips")
        # Figma draws the empty text; Penpot creates none for an empty string.
        expect(len(labels) == (1 if kind == "figma" else 0), f"{len(labels)} labels for the untitled item")
        run.clean()
        return f"a toolbar item without a title or icon: {checked} shapes equal to the API's numbers"

    def second_install():
        groups_before = hinge_groups(page.frame(run.frames["duo"]))
        page.reopen(reinstall=True)
        page.wait_status(lambda s: s.startswith(f"Connected to {run.hinge.base}"), "the second install to connect with the saved URL")
        page.select(run.frames["duo"])
        saved = run.saved_scene(run.frames["duo"])
        page.wait_panel(lambda: json.loads(page.scene_text()) == saved, "the scene saved by the first install in the panel")
        page.draw()
        groups = hinge_groups(page.frame(run.frames["duo"]))
        expect(len(groups_before) == 1 and len(groups) == 1 and groups[0]["id"] != groups_before[0]["id"],
               f"{len(groups)} groups after the second install's run (the first install's: {len(groups_before)})")
        run.drawn_matches(run.frames["duo"])
        run.clean()
        return "the scene, the settings and the drawing of the first install are found; its group is replaced"

    def reopen_with_saved_url():
        saved = run.hinge.base + "/"
        page.set_settings(saved, f"{static.origin}/docs")
        page.wait_status(lambda s: s.startswith(f"Connected to {run.hinge.base}"), "the panel to connect")
        # The settings reach the main code as a message of their own: wait for the document to hold them.
        page.wait_panel(lambda: (page.saved_settings() or {}).get("url") == saved, f"the document to keep {saved}")
        page.reopen()
        page.wait_status(lambda s: s.startswith(f"Connected to {run.hinge.base}"), "the reopened panel to connect")
        url = page.in_panel("return document.getElementById('url').value")
        expect(url == saved, f"the reopened panel's URL is {url!r}, not the saved {saved!r}")
        page.select(run.frames["duo"])
        page.draw()
        run.clean()
        return f"reopened with {saved}"

    def every_scene(scenes):
        def fn():
            if "big" not in run.frames:
                run.frames["big"] = page.create_frame("Scenes", -2000, 0, 1400, 1400)
            total = 0
            for name, scene in scenes:
                run.draw_scene(run.frames["big"], scene)
                try:
                    checked, _ = run.drawn_matches(run.frames["big"])
                except AssertionError as error:
                    raise AssertionError(f"{name}: {error}")
                total += checked
            run.clean()
            return f"{len(scenes)} scenes, {total} shapes equal to the API's numbers"
        return fn

    def matrix():
        page.select(run.frames["duo"])
        page.wait_status(lambda s: s.startswith("The scene saved"), "the saved scene")
        page.in_panel("document.getElementById('matrix-box').open = true")
        page.in_panel("document.getElementById('status').textContent = ''")
        page.click("matrix")
        done = page.wait_status(lambda s: s.startswith(("Matrix drawn", "Matrix not", "Hinge did not", "Not drawn")), "the matrix")
        expect(done.startswith("Matrix drawn"), done)
        base = {k: v for k, v in TYPICAL.items() if k not in ("device", "posture")}
        request = {"scene": base, "devices": ["iphone-16", "iphone-duo"], "postures": ["flat", "halfOpened"],
                   "orientations": ["portrait"], "layoutDirections": ["ltr"]}
        answer = json.loads(run.hinge.request("POST", "/v1/resolve/matrix", request)[2])["results"]
        frames = [n for n in page.snapshot() if json.loads(n["data"].get("hinge") or "{}").get("frame") == "matrix"
                  and json.loads(n["data"]["hinge"]).get("of") == run.frames["duo"]]
        expect(len(frames) == len(answer), f"{len(frames)} frames for {len(answer)} combinations")
        for frame, result in zip(frames, answer):
            label = " · ".join([result["device"], result["posture"], result["orientation"], result["layoutDirection"]])
            expect(label in frame["name"], f"frame {frame['name']} for {label}")
            drawn = hinge_nodes(frame, kind)
            problems, _ = compare(drawn, result["resolution"], base, origin_of(frame, kind))
            expect(not problems, f"{label}: {problems[:3]}")
        page.render(only=[run.frames["duo"]] + [f["id"] for f in frames])
        page.in_panel("document.getElementById('matrix-box').scrollIntoView()")
        run.shots.append(page.shot(run.shots_dir, f"{kind}-matrix.png"))
        page.in_panel("document.getElementById('status').textContent = ''")
        page.click("matrix")
        page.wait_status(lambda s: s.startswith("Matrix drawn"), "the second matrix")
        again = [n for n in page.snapshot() if json.loads(n["data"].get("hinge") or "{}").get("frame") == "matrix"
                 and json.loads(n["data"]["hinge"]).get("of") == run.frames["duo"]]
        expect(len(again) == len(answer), f"{len(again)} frames after a second matrix run")
        run.clean()
        return f"{len(frames)} frames, one per combination, each equal to the API"

    def copies_swiftui():
        page.select(run.frames["duo"])
        page.set_scene(TYPICAL)
        status, headers, body = run.hinge.request("POST", "/v1/swiftui", TYPICAL)
        expect(status == 200, f"POST /v1/swiftui: {status} {body[:200]!r}")
        want = body.decode()
        lines = want.count("\n") + (0 if want.endswith("\n") else 1)
        # The system clipboard, read from the host page (its origin may).
        page.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": static.origin,
                                                                  "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        page.js("return navigator.clipboard.writeText('')")
        before = page.snapshot()
        page.in_panel("document.getElementById('status').textContent = ''")
        page.panel()
        try:  # a trusted click, as a designer's: execCommand("copy") needs one
            button = page.driver.find_element(By.ID, "copy-swiftui")
            page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        finally:
            page.driver.switch_to.default_content()
        done = page.wait_status(lambda s: s.startswith(("Copied", "The panel may not", "No SwiftUI", "Hinge did not")),
                                "Copy SwiftUI to end")
        expect(done == f"Copied {lines} lines of SwiftUI.", f"status: {done!r} {page.text('errors')!r}")
        shown = page.in_panel("const t = document.getElementById('swiftui-code');"
                              "return {value: t.value, visible: t.offsetParent !== null, readOnly: t.readOnly}")
        expect(shown["value"] == want and shown["visible"] and shown["readOnly"], "the panel does not show the API's SwiftUI")
        copied = page.driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                                  "navigator.clipboard.readText().then(done, (e) => done('refused: ' + e))")
        expect(copied == want, f"the clipboard holds {copied[:120]!r}, not the API's answer")
        expect(copied.startswith("import SwiftUI"), f"the copied text starts {copied[:40]!r}")
        missing = [p["id"] for p in TYPICAL["presentations"] if f'"{p["id"]}"' not in copied]
        expect(not missing, f"presentation ids not named in the SwiftUI: {missing}")
        expect(shapes_only(page.snapshot()) == shapes_only(before), "copying changed the canvas")
        page.in_panel("document.getElementById('swiftui-field').scrollIntoView()")
        run.shots.append(page.shot(run.shots_dir, f"{kind}-swiftui.png"))
        # A scene the API refuses: its violations, as for a resolution.
        page.set_scene({"device": "iphone-duo", "presentations": [{"id": "s", "kind": "sheeet"}]})
        page.in_panel("document.getElementById('status').textContent = ''")
        page.click("copy-swiftui")
        done = page.wait_status(lambda s: s.startswith(("Copied", "The panel may not", "No SwiftUI", "Hinge did not")),
                                "Copy SwiftUI to end")
        expect(done == "No SwiftUI (422).", f"status: {done!r}")
        errors = page.in_panel("return [...document.querySelectorAll('#errors li')].map(l => l.textContent)")
        expect(any(e.startswith("/presentations/0/kind") for e in errors), f"violations not listed: {errors}")
        page.set_scene(TYPICAL)
        run.clean(["/v1/swiftui - Failed to load resource: the server responded with a status of 422",
                   "422 http://127.0.0.1:"])
        return f"{lines} lines copied and shown; the 422's violations listed"

    def refused_422():
        before = page.snapshot()
        bad = {"device": "iphone-duo-x", "presentations": [{"id": "s", "kind": "sheet", "detents": ["tall"]}]}
        page.select(run.frames["duo"])
        page.set_scene(bad)
        done = page.draw(expect_drawn=False)
        expect(done.startswith("Not resolved (422)"), done)
        errors = page.in_panel("return [...document.querySelectorAll('#errors li')].map(l => l.textContent)")
        expect(any(e.startswith("/device") for e in errors) and any(e.startswith("/presentations/0/detents/0") for e in errors),
               f"violations not listed with their pointers: {errors}")
        expect(shapes_only(page.snapshot()) == shapes_only(before), "the canvas changed after a 422")
        if kind == "figma":
            page.render(only=[run.frames["duo"]])
            page.in_panel("document.getElementById('errors').scrollIntoView()")
            run.shots.append(page.shot(run.shots_dir, "figma-422.png"))
        page.set_scene(TYPICAL)
        run.clean(["/v1/resolve - Failed to load resource: the server responded with a status of 422",
                   "422 http://127.0.0.1:"])
        return "; ".join(errors)

    def unreachable():
        port = free_port()
        before = page.snapshot()
        page.set_settings(f"http://127.0.0.1:{port}")
        page.wait_status(lambda s: s.startswith(f"Hinge did not answer at http://127.0.0.1:{port}"), "the connection to fail")
        done = page.draw(expect_drawn=False)
        expect(done.startswith("Hinge did not answer"), done)
        text = page.in_panel("return document.getElementById('errors').textContent")
        want = f"hinge serve --port {port} --cors-origin {run.origin}"
        expect(f"No Hinge server answers at http://127.0.0.1:{port}" in text and want in text, f"message: {text}")
        expect(shapes_only(page.snapshot()) == shapes_only(before), "the canvas changed without a server")
        if kind == "penpot":
            page.render(only=[run.frames["duo"]])
            page.in_panel("document.getElementById('errors').scrollIntoView()")
            run.shots.append(page.shot(run.shots_dir, "penpot-unreachable.png"))
        run.unreachable_port = port
        # Chromium logs the refused requests of the Penpot panel (a page of its own origin), late; those of
        # the Figma panel (an opaque origin) it does not log.
        run.clean(["ERR_CONNECTION_REFUSED"], logged=["ERR_CONNECTION_REFUSED"] if kind == "penpot" else [])
        return text

    def missing_cors():
        plain = Hinge(args.binary)
        try:
            page.set_settings(plain.base)
            page.wait_status(lambda s: s.startswith(f"Hinge did not answer at {plain.base}"), "the blocked connection")
            text = page.in_panel("return document.getElementById('errors').textContent")
            expect("is not allowed" in text and f"--cors-origin {run.origin}" in text, f"message: {text}")
        finally:
            plain.stop()
        page.set_settings(run.hinge.base, f"{static.origin}/docs")
        page.wait_status(lambda s: s.startswith(f"Connected to {run.hinge.base}"), "the panel to reconnect")
        # The CORS refusals, and whatever the browser logs late of the unreachable server's check.
        run.clean(["CORS policy", "ERR_FAILED", f":{getattr(run, 'unreachable_port', 0)}/"])
        return text

    def constant_sets():
        fake = FakeConstantSets(run.hinge)
        try:
            page.set_settings(fake.base, f"{static.origin}/docs")
            page.wait_status(lambda s: s.startswith(f"Connected to {fake.base}"), "the fake server")
            visible = not page.in_panel("return document.getElementById('constant-set-field').hidden")
            values = page.in_panel("return [...document.querySelectorAll('#constant-set option')].map(o => o.value)")
            expect(visible and values == ["", "calibrated@2", "field-test@5"], f"picker visible {visible}, options {values}")
            page.choose("constant-set", "calibrated@2")
            expect(json.loads(page.scene_text()).get("constantSet") == "calibrated@2", "the scene does not name the set")
        finally:
            fake.stop()
            page.set_settings(run.hinge.base, f"{static.origin}/docs")
        page.wait_status(lambda s: s.startswith(f"Connected to {run.hinge.base}"), "the panel to reconnect")
        hidden = page.in_panel("return document.getElementById('constant-set-field').hidden")
        expect(hidden, "the picker stays after reconnecting to a server without constant sets")
        page.set_scene(TYPICAL)
        run.clean(["/v1/requests", "404 http://127.0.0.1:"])
        return "picker with calibrated@2 and field-test@5; hidden again on a 404"

    def credential():
        fake = FakeConstantSets(run.hinge)
        try:
            page.set_settings(fake.base, f"{static.origin}/docs", "pairing-7f3a")
            page.wait_status(lambda s: s.startswith(f"Connected to {fake.base}"), "the fake server")
            sent = [a for p, a in fake.authorizations]
            expect(sent and all(a == "Bearer pairing-7f3a" for a in sent), f"with a credential the panel sent {sent}")
            page.wait_panel(lambda: (page.saved_settings() or {}).get("credential") == "pairing-7f3a",
                            "the document to keep the credential with the settings")
            fake.authorizations.clear()
            page.set_settings(fake.base, f"{static.origin}/docs", "")
            page.wait_status(lambda s: s.startswith(f"Connected to {fake.base}"), "the fake server without a credential")
            sent = [a for p, a in fake.authorizations]
            expect(sent and all(a is None for a in sent), f"without a credential the panel sent {sent}")
        finally:
            fake.stop()
            page.set_settings(run.hinge.base, f"{static.origin}/docs")
        page.wait_status(lambda s: s.startswith(f"Connected to {run.hinge.base}"), "the panel to reconnect")
        run.clean(["/v1/requests", "404 http://127.0.0.1:"])
        return "Authorization: Bearer <credential> on every call when set, none when empty"

    def diagnostics_link():
        page.select(run.frames["duo"])
        page.set_scene(TYPICAL)
        page.draw()
        links = page.in_panel("return [...document.querySelectorAll('#diagnostics a')].map(a => a.href)")
        want = f"{static.origin}/docs/rules.md#modal-stack"
        expect(want in links, f"no link to the rule: {links}")
        with urllib.request.urlopen(want.split("#")[0]) as r:
            expect('<a id="modal-stack"></a>' in r.read().decode(), "the link's anchor is not in docs/rules.md")
        run.clean()
        return f"{len(links)} links, {want}"

    def calls_documented():
        used = {u.rstrip("=") for u in page.used()}
        documented = documented_calls(kind)
        expect(used == documented, f"used but not listed: {sorted(used - documented)}; listed but not used: "
               f"{sorted(documented - used)} (all used: {' '.join(sorted(used))})")
        return f"{len(used)} members, as docs/plugins.md lists them"

    def stub_is_loud():
        member = "__host.stub.figma.createEllipse()" if kind == "figma" else "__host.stub.penpot.createEllipse()"
        message = page.js(f"try {{ {member}; return null; }} catch (e) {{ return e.message; }}")
        expect(message and "not implemented" in message, f"{member} did not fail: {message}")
        page.js("__host.core.failures.length = 0")
        page.b.collect()
        return message

    golden = [(os.path.basename(p), json.load(open(p))) for p in GOLDEN]
    builtins = [d for d in json.loads(run.hinge.request("GET", "/v1/devices")[2])["items"] if d["builtIn"]]
    typical = []
    for d in builtins:
        folds = any(x.get("fold") for x in d["displays"])
        for posture in (["flat", "halfOpened", "closed"] if folds else ["flat"]):
            typical.append((f"typical on {d['id']} {posture}", dict(TYPICAL, device=d["id"], posture=posture)))

    args = run.args
    static = run.static
    for name, fn in [
        ("boots from its manifest; the panel connects; no constant-set picker when the server lists none", boots),
        ("the typical scene on the iPhone Duo half open: every shape equals the API's numbers", typical_on_the_duo),
        ("running again replaces the group", rerun_replaces),
        ("undo removes a run in one step", undo_in_one_step),
        ("the scene saved on a frame comes back when it is selected again", scene_comes_back),
        ("a window larger than the frame is drawn in a frame beside it", beside_when_too_small),
    ] + ([
        ("a frame in a frame in a section: the frame beside it and the matrix row at page coordinates", in_a_section),
        ("an auto-layout frame: drawn in a frame beside it", auto_layout),
    ] if kind == "figma" else [
        ("a flex board and a grid board: drawn in a board beside each", flex_and_grid),
        ("a shape directly on the canvas selects no board (the page's root)", canvas_is_no_board),
    ]) + [
        ("a toolbar item with an empty label is drawn", empty_label),
        ("a second install finds the scene and settings and replaces the drawing", second_install),
        ("closed and reopened, the plugin connects to the saved URL", reopen_with_saved_url),
        ("every golden scene: every shape equals the API's numbers", every_scene(golden)),
        ("the typical scene on every built-in device and posture equals the API", every_scene(typical)),
        ("the matrix draws one frame per combination, each equal to the API", matrix),
        ("Copy SwiftUI copies and shows the API's SwiftUI for the scene; a 422 lists its violations", copies_swiftui),
        ("a 422 lists each violation with its pointer and draws nothing", refused_422),
        ("an unreachable server says what to run and draws nothing", unreachable),
        ("a server without the CORS grant says which --cors-origin to add", missing_cors),
        ("constant sets: a picker when the server lists them", constant_sets),
        ("an API key or pairing token is sent as a bearer token, and only when set", credential),
        ("diagnostics link to their rule in docs/rules.md", diagnostics_link),
        ("the host calls used are exactly those docs/plugins.md lists", calls_documented),
        ("the stub fails loudly on a call it does not implement", stub_is_loud),
    ]:
        check(f"{kind}: {name}", fn)


def penpot_without_flags(hinge, static, penpot):
    """A Penpot whose API has no `flags` (appendChild always at the back): the drawing still stacks right."""
    def fn():
        run = Run("penpot", hinge, static, penpot, [], extra={"flags": "none"})
        try:
            run.page.wait_status(lambda s: s.startswith("Connected"), "the panel to connect")
            frame = run.page.create_frame("Board, Penpot without flags", 0, 0, 752, 832)
            done = run.draw_scene(frame, TYPICAL)
            expect("inside the frame" in done, done)
            checked, drawn = run.drawn_matches(frame)
            expect(not run.page.js("return __host.core.used.has('Flags.naturalChildOrdering')"), "the plugin set a flag it has not got")
            run.clean()
            return f"{drawn} shapes back to front, {checked} equal to the API's numbers"
        finally:
            run.page.quit()
    check("penpot: without penpot.flags the drawing still stacks back to front", fn)


def shapes_only(snapshot):
    """The canvas without plugin data (the panel saves the scene on the frame as it is edited)."""
    def strip(n):
        return {k: ([strip(c) for c in v] if k == "children" else v) for k, v in n.items() if k != "data"}
    return [strip(n) for n in snapshot]


def documented_calls(kind):
    """The backquoted members between <!-- KIND calls --> and <!-- end KIND calls --> in docs/plugins.md."""
    text = open(os.path.join(ROOT, "docs/plugins.md")).read()
    m = re.search(rf"<!-- {kind} calls -->(.*?)<!-- end {kind} calls -->", text, re.S)
    expect(m, f"docs/plugins.md has no {kind} calls list")
    return set(re.findall(r"`([A-Za-z]+\.[A-Za-z.]+)`", m.group(1)))


def shared_checks(hinge):
    def anchors():
        rules = open(os.path.join(ROOT, "docs/rules.md")).read()
        source = open(os.path.join(ROOT, "plugins", "shared", "drawing.js")).read()
        block = re.search(r"const RULE_ANCHORS = \{(.*?)\};", source, re.S).group(1)
        mapping = dict(re.findall(r'"([a-z-]+)": "([a-z-]+)"', block))
        table = re.search(r'<a id="diagnostics"></a>(.*?)<a id="validation">', rules, re.S).group(1)
        codes = {row[0]: re.findall(r"\(#([a-z-]+)\)", row[1]) for row in re.findall(r"^\| `([a-z-]+)` \|[^|]*\|(.*)\|$", table, re.M)}
        expect(codes, "no diagnostic table found in docs/rules.md")
        expect(set(codes) == set(mapping), f"codes differ: {sorted(set(codes) ^ set(mapping))}")
        wrong = [c for c, a in mapping.items() if a not in codes[c] or f'<a id="{a}"></a>' not in rules]
        expect(not wrong, f"anchors that are not the rule's: {wrong}")
        return f"{len(mapping)} codes, each to its rule's anchor"

    def manifests():
        figma = json.load(open(os.path.join(ROOT, "plugins", "figma", "manifest.json")))
        expect(figma["editorType"] == ["figma"] and figma["main"] == "code.js" and figma["ui"] == "ui.html", "figma manifest")
        net = figma["networkAccess"]
        expect(net["allowedDomains"] and "http://localhost:8080" in net["devAllowedDomains"], f"networkAccess {net}")
        # Figma may refuse an IP address in devAllowedDomains: development imports reach Hinge by name.
        ips = [d for d in net["devAllowedDomains"] if re.match(r"https?://(\d+\.){3}\d+|https?://\[", d)]
        expect(not ips, f"IP addresses in devAllowedDomains: {ips}")
        penpot = json.load(open(os.path.join(ROOT, "plugins", "penpot", "manifest.json")))
        expect({"name", "description", "code", "icon", "permissions"} <= set(penpot), f"penpot manifest {penpot}")
        expect(set(penpot["permissions"]) == {"content:read", "content:write"}, f"permissions {penpot['permissions']}")
        for f in [penpot["code"], penpot["icon"], "/ui.html"]:
            expect(os.path.isfile(os.path.join(ROOT, "plugins", "penpot", f.lstrip("/"))), f"{f} is not in plugins/penpot")
        return "figma: main, ui, editorType, networkAccess; penpot: name, description, code, icon, permissions"

    check("shared: every diagnostic code links to its rule's anchor in docs/rules.md", anchors)
    check("shared: the manifests name the files and grants the plugins need", manifests)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "hinge"))
    parser.add_argument("--screenshots", default=os.path.join(ROOT, "docs", "plugins"))
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        print(f"no binary at {args.binary}: run `swift build -c release --product hinge` first", file=sys.stderr)
        return 2
    os.makedirs(args.screenshots, exist_ok=True)
    penpot = PenpotHost()
    hinge = Hinge(args.binary, ["--cors-origin", "null", "--cors-origin", penpot.origin])
    static = StaticServer()
    shots = []
    try:
        for device_id, profile in FIXTURES.items():
            status, _, body = hinge.request("PUT", f"/v1/devices/{device_id}", profile)
            expect(status in (200, 201), f"PUT {device_id}: {status} {body[:200]}")
        shared_checks(hinge)
        for kind in ("figma", "penpot"):
            try:
                run = Run(kind, hinge, static, penpot, shots)
            except Exception as error:
                check(f"{kind}: the plugin boots", lambda: (_ for _ in ()).throw(error))
                continue
            run.args, run.static, run.shots_dir = args, static, args.screenshots
            try:
                host_checks(run)
            finally:
                run.page.quit()
        penpot_without_flags(hinge, static, penpot)
    finally:
        static.stop()
        hinge.stop()
        penpot.stop()
    print("screenshots: " + ", ".join(shots))
    failed = [r for r in results if not r[1]]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
