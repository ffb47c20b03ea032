"""The Hinge Studio checks of scripts/browser-tests.py for the Scene view: resolving as one types, the pickers
and Undo, layers under others, errors beside the editor, the XSS cases, tables, narrow and dark windows.
The other views are in browser_studio_views.py, constant sets in browser_studio_constants.py. Console errors
and failed requests are checked after every step; screenshots go to docs/studio/."""
import json

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_harness import API_KEY, check, expect, mean_luminance, svg_text_px
from browser_studio_constants import constant_checks
from browser_studio_views import view_checks
from browser_studio_work import work_checks

XSS_ID = "<img src=x onerror=window.hingeXSS=1>"
XSS_SCRIPT = "</script><script>window.hingeXSS=2</script>"

# The Scene view's default scene: on the iPhone 16 the help sheet covers tools and editor completely.
DEFAULT_SCENE = {
    "device": "iphone-16",
    "presentations": [
        {"id": "tools", "kind": "adaptivePanel"},
        {"id": "editor", "kind": "sheet", "placement": "trailing", "detents": ["medium", "large"],
         "backgroundInteraction": {"upThrough": "medium"},
         "toolbar": [{"title": "Cancel", "placement": "cancellationAction", "systemImage": "xmark"},
                     {"title": "Save", "placement": "confirmationAction", "systemImage": "checkmark"}]},
        {"id": "help", "kind": "popover", "presentedFrom": "editor", "anchor": {"x": 120, "y": 200, "width": 44, "height": 44}},
    ],
    "arrangement": {"style": "split", "secondary": {"ratio": 0.35}},
}

VIEWPORT_JS = """
const box = (id) => document.getElementById(id).getBoundingClientRect();
const issue = document.querySelector('#scene-errors .issue');
return {errorsTop: box('scene-errors').top, errorsBottom: box('scene-errors').bottom, editorBottom: box('scene-json').bottom,
        issueBottom: issue ? issue.getBoundingClientRect().bottom : null, height: innerHeight};
"""

# Lines a piece of text takes: the distinct tops of its rectangles.
LINES_JS = """
return [...document.querySelectorAll(arguments[0])].map((node) => {
  const range = document.createRange(); range.selectNodeContents(node);
  return [node.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
});
"""


def studio_checks(b, hinge, shots, shots_dir):
    """Runs every studio check against `hinge`; screenshot paths are appended to `shots`."""
    d = b.driver
    state = {}

    def editor_text():
        return b.by("#scene-json").get_attribute("value")

    def show_scene(scene):
        """Types a scene into the editor and waits for its picture."""
        before = b.pictures_shown()
        b.set_scene(json.dumps(scene, indent=2))
        b.wait(lambda _: b.pictures_shown() > before and b.by("#panel-scene").get_attribute("data-state") == "resolved",
               "the scene's picture")

    def toggle(css):
        """Clicks a checkbox that redraws the picture and waits for the new one."""
        before = b.pictures_shown()
        b.by(css).click()
        b.wait(lambda _: b.pictures_shown() > before, f"the picture after {css}")
        return b.picture_pixels()

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
        # Every request says it comes from the studio.
        sent = [(url, headers) for _, url, headers in b.requests_since(0) if "/v1/" in url]
        expect(sent, "no API request seen")
        unnamed = [url for url, headers in sent
                   if {k.lower(): v for k, v in headers.items()}.get("hinge-client") != "studio"]
        expect(not unnamed, f"requests without Hinge-Client: studio: {unnamed}")
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")
        return f"{len(rows)} diagnostics; first wireframe {first:.0f} ms after navigation start ({state['reload_render_ms']:.0f} ms on reload)"

    def live_edits_are_not_recorded():
        # Two page loads and a few edits: the studio's own resolutions leave the log empty.
        show_scene({**DEFAULT_SCENE, "layoutDirection": "rtl"})
        show_scene(DEFAULT_SCENE)
        records = hinge.records()
        expect(not records, f"{len(records)} records from live edits, e.g. {records[0] if records else ''}")
        return "no record"

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

    def pickers_change_the_picture_and_undo():
        before = b.pictures_shown()
        Select(b.by("#scene-device")).select_by_value("iphone-duo")
        b.wait(lambda _: b.pictures_shown() > before, "a picture for iphone-duo")
        Select(b.by("#scene-posture")).select_by_value("halfOpened")
        b.wait(lambda _: "halfOpened" in b.by("#scene-caption").text and b.by("#panel-scene").get_attribute("data-state") == "resolved",
               "the halfOpened picture")
        scene = json.loads(editor_text())
        expect(scene.get("device") == "iphone-duo" and scene.get("posture") == "halfOpened", f"scene not patched: {scene}")
        expect(scene["presentations"] == DEFAULT_SCENE["presentations"], "the pickers changed the presentations")
        after = b.picture_pixels()
        expect(after != state["picture"], "the picture did not change")
        expect("iphone-duo" in b.by("#scene-caption").text, "caption does not name iphone-duo")
        # Half-opened in portrait every sheet keeps to its region: the fold is not covered, so not outlined.
        expect(b.by("#scene-picture").get_attribute("data-fold-outlined") == "false", "an uncovered fold is outlined")
        # The pickers' changes can be undone, one by one.
        undo = b.by("#scene-undo")
        expect("halfOpened" in undo.text and undo.is_enabled(), f"Undo does not offer the posture: {undo.text!r}")
        undo.click()
        b.wait(lambda _: "posture" not in json.loads(editor_text()), "the posture undone")
        expect(json.loads(editor_text()).get("device") == "iphone-duo", "Undo went back too far")
        Select(b.by("#scene-posture")).select_by_value("halfOpened")
        b.wait(lambda _: "halfOpened" in b.by("#scene-caption").text and b.by("#panel-scene").get_attribute("data-state") == "resolved",
               "the halfOpened picture again")
        shots.append(b.shot(shots_dir, "scene.png"))
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")

    def layers_under_others_stay_visible():
        # iPhone 16: the help sheet covers tools and editor completely.
        show_scene(DEFAULT_SCENE)
        items = [li.text for li in b.all("#scene-layer-list li")]
        expect([t.split()[0] for t in items] == ["help", "editor", "tools"], f"layers not top first: {items}")
        expect("under help" in items[1] and "under editor, help" in items[2], f"covered layers not named: {items}")
        expect(b.by("#scene-picture").get_attribute("data-outlined").split() == ["tools", "editor"], "tools and editor not outlined")
        outlined = b.picture_pixels()
        plain = toggle("#scene-outline")
        expect(plain != outlined, "the outlines draw nothing")
        expect(toggle("#scene-outline") == outlined, "the outlines do not come back")
        without_help = toggle('#scene-layer-list input[data-id="help"]')
        expect(without_help != outlined, "hiding help did not change the picture")
        expect(b.by("#scene-picture").get_attribute("data-hidden") == "help", "help is not the hidden layer")
        expect(toggle('#scene-layer-list input[data-id="help"]') == outlined, "help does not come back")
        # The iPhone Duo half-opened in landscape: the popover becomes a cover over the whole window, fold included.
        show_scene({**DEFAULT_SCENE, "device": "iphone-duo", "orientation": "landscape", "posture": "halfOpened"})
        items = [li.text for li in b.all("#scene-layer-list li")]
        expect(items[0].startswith("help fullWindow"), f"the cover is not the top layer: {items}")
        expect(all("help" in t for t in items[1:]), f"the layers under the cover are not named: {items}")
        expect(set(b.by("#scene-picture").get_attribute("data-outlined").split()) == {"tools", "editor"},
               "the layers under the cover are not outlined")
        expect(b.by("#scene-picture").get_attribute("data-fold-outlined") == "true", "the fold under the cover is not outlined")
        shots.append(b.shot(shots_dir, "scene-layers.png"))
        covered = b.picture_pixels()
        expect(toggle('#scene-layer-list input[data-id="help"]') != covered, "hiding the cover did not change the picture")
        toggle('#scene-layer-list input[data-id="help"]')
        # The subtitle's size classes and the diagnostic agree: the anchor's region is vertically compact.
        message = next(r.text for r in b.all("#scene-diagnostics tbody tr") if "popover-adapted" in r.text)
        expect("the anchor's region is vertically compact" in message, f"the reason contradicts the window: {message}")
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")
        return "iPhone 16: tools, editor outlined under help; Duo landscape: tools, editor and the fold under the cover"

    def errors_are_beside_the_editor():
        d.set_window_size(1400, 1000)
        show_scene(DEFAULT_SCENE)
        good_src = b.by("#scene-picture").get_attribute("src")
        scene = json.loads(json.dumps(DEFAULT_SCENE))
        scene["presentations"][0]["kind"] = "bogus"
        b.js("window.scrollTo(0, 0)")
        b.set_scene(json.dumps(scene, indent=2))
        b.wait(lambda _: b.by("#panel-scene").get_attribute("data-state") == "error", "the 422")
        pointers = [e.text for e in b.all("#scene-errors .issue .pointer")]
        expect("/presentations/0/kind" in pointers, f"pointer not shown: {pointers}")
        expect("bogus" in b.by("#scene-errors").text, "message not shown")
        box = b.js(VIEWPORT_JS)
        expect(0 <= box["errorsTop"] and box["issueBottom"] <= box["height"], f"the error is off-screen in 1400×1000: {box}")
        expect(0 <= box["errorsTop"] - box["editorBottom"] < 24, f"the errors are not under the editor: {box}")
        expect(b.by("#scene-stale").is_displayed() and b.by("#scene-output").get_attribute("data-stale") == "true",
               "what is shown is not marked stale")
        expect("error" in b.by("#scene-status").text, f"status: {b.by('#scene-status').text}")
        expect(b.by("#scene-picture").get_attribute("src") == good_src, "the last good picture was replaced")
        b.by('#scene-errors button[aria-label="Show /presentations/0/kind in the editor"]').click()
        selected = b.js("const t = document.getElementById('scene-json'); return t.value.slice(t.selectionStart, t.selectionEnd)")
        expect(selected == '"kind": "bogus"', f"the editor selects {selected!r}")
        shots.append(b.shot(shots_dir, "scene-error.png"))
        # A JSON syntax error: the same place, the same stale mark, the character shown.
        text = '{"device": "iphone-16", "presentations": [}'
        b.set_scene(text)
        b.wait(lambda _: "line 1" in b.by("#scene-errors").text, "the 400 with its line and column")
        box = b.js(VIEWPORT_JS)
        expect(0 <= box["errorsTop"] and box["issueBottom"] <= box["height"], f"the syntax error is off-screen: {box}")
        expect(b.by("#scene-stale").is_displayed(), "stale mark missing after a syntax error")
        b.by("#scene-errors .show-in-editor").click()
        at = b.js("return document.getElementById('scene-json').selectionStart")
        expect(at == text.index("}"), f"the editor's caret is at {at}, not at the '}}' the parser stopped at")
        expect(b.by("#scene-picture").get_attribute("src") == good_src, "the last good picture was replaced")
        # Messages that lead with the cause.
        b.set_scene(json.dumps({"device": "iphone-16", "presentations": [{"id": "s", "kind": "sheeet", "detents": ["medium"]}]}))
        b.wait(lambda _: "sheeet" in b.by("#scene-errors").text, "the unknown kind")
        issues = [e.text for e in b.all("#scene-errors .issue")]
        expect(len(issues) == 1 and 'did you mean "sheet"?' in issues[0], f"the kind's error: {issues}")
        b.set_scene(json.dumps({"devices": "iphone-16", "presentations": []}))
        b.wait(lambda _: "devices" in b.by("#scene-errors").text, "the misspelt device")
        first = b.all("#scene-errors .issue")[0].text
        expect(first.startswith('/devices unknown field "devices": did you mean "device"?'), f"first error: {first!r}")
        show_scene(DEFAULT_SCENE)
        expect(not b.by("#scene-stale").is_displayed() and not b.all("#scene-errors .issue"), "stale mark or errors left")
        bad = b.collect(allowed=[("/v1/resolve", 422), ("/v1/resolve", 400)])
        expect(not bad, f"console errors or failed requests: {bad}")

    def xss_shows_as_text():
        scripts = b.js("return document.scripts.length")
        scene = {"device": "iphone-16", "presentations": [
            {"id": XSS_ID, "kind": "sheet"},
            {"id": XSS_SCRIPT, "kind": "popover", "presentedFrom": XSS_ID, "anchor": {"x": 10, "y": 10}}]}
        show_scene(scene)
        text = b.by("#panel-scene").text
        expect(XSS_ID in text and XSS_SCRIPT in text, "the ids are not shown as text")
        # Hiding a layer whose id is markup: the picture is redrawn, nothing runs.
        toggle("#scene-layer-list li:first-child input")
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

    def swiftui_answer(scene_text):
        """What `POST /v1/swiftui` answers for a scene's text (not recorded)."""
        status, headers, body = hinge.request("POST", "/v1/swiftui", scene_text.encode(),
                                              {"Content-Type": "application/json", "Hinge-Record": "off"})
        expect(status == 200, f"POST /v1/swiftui: {status} {body[:200]!r}")
        expect(headers.get("Content-Type", "").startswith("text/x-swift"), f"Content-Type {headers.get('Content-Type')}")
        return body.decode()

    def copy_ended():
        b.wait(lambda _: b.by("#scene-swiftui-status").text.startswith(("Copied", "The browser refused", "No SwiftUI")),
               "Copy SwiftUI to end")
        return b.by("#scene-swiftui-status").text

    def press_copy():
        """Copy SwiftUI from the keyboard: focus the button, press Enter."""
        b.js("document.getElementById('scene-swiftui-status').textContent = ''")
        button = b.by("#scene-copy-swiftui")
        b.js("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", button)
        button.send_keys(Keys.ENTER)
        return copy_ended()

    def copies_swiftui():
        d.set_window_size(1400, 1000)
        show_scene(DEFAULT_SCENE)
        want = swiftui_answer(editor_text())
        lines = want.count("\n") + (0 if want.endswith("\n") else 1)
        d.execute_cdp_cmd("Browser.grantPermissions", {"origin": hinge.base,
                                                       "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        status = press_copy()
        expect(status == f"Copied {lines} lines of SwiftUI.", f"status: {status!r}")
        copied = d.execute_async_script("const done = arguments[arguments.length - 1];"
                                        "navigator.clipboard.readText().then(done, (e) => done('refused: ' + e))")
        expect(copied == want, f"the clipboard holds {copied[:120]!r}, not the API's answer")
        expect(copied.startswith("import SwiftUI"), f"the copied text starts {copied[:40]!r}")
        ids = [p["id"] for p in DEFAULT_SCENE["presentations"]]
        missing = [i for i in ids if f'"{i}"' not in copied]
        expect(not missing, f"presentation ids not named in the SwiftUI: {missing}")
        expect(not b.by("#scene-swiftui-fallback").is_displayed(), "the fallback shows though the clipboard took the code")
        sent = [(m, u, h) for m, u, h in b.requests_since(0) if u.endswith("/v1/swiftui")]
        expect(sent and {k.lower(): v for k, v in sent[-1][2].items()}.get("hinge-client") == "studio",
               f"the call does not say it comes from the studio: {sent[-1:]}")
        shots.append(b.shot(shots_dir, "scene-swiftui.png"))
        # A browser that refuses the clipboard: the code is shown, focused and selected whole.
        b.js("navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'))")
        status = press_copy()
        expect(status.startswith("The browser refused the clipboard") and f"({lines} lines)" in status, f"status: {status!r}")
        expect(b.by("#scene-swiftui-fallback").is_displayed(), "the code is not shown")
        shown = b.js("const t = document.getElementById('scene-swiftui-code');"
                     "return {value: t.value, focused: document.activeElement === t, readOnly: t.readOnly,"
                     " selected: t.value.slice(t.selectionStart, t.selectionEnd)}")
        expect(shown["value"] == want and shown["selected"] == want, "the code shown is not the API's answer, selected whole")
        expect(shown["focused"] and shown["readOnly"], f"the code is not focused and read-only: {shown}")
        # 390 px: the button, the status and the code fit the window.
        d.set_window_size(390, 844)
        b.wait(lambda _: b.js("return document.documentElement.clientWidth") <= 390, "the narrow window")
        overflow = b.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        expect(overflow <= 0, f"the page scrolls sideways by {overflow} px at 390 px with the code shown")
        box = b.js("const r = document.getElementById('scene-copy-swiftui').getBoundingClientRect(); return [r.left, r.right]")
        expect(box[0] >= 0 and box[1] <= 390, f"the button is outside the window at 390 px: {box}")
        shots.append(b.shot(shots_dir, "scene-swiftui-390.png", scroll_to="#scene-copy-swiftui"))
        d.set_window_size(1400, 1000)
        # A scene the API refuses: its problem under the button, pointing into the text.
        scene = json.loads(json.dumps(DEFAULT_SCENE))
        scene["presentations"][0]["kind"] = "bogus"
        b.set_scene(json.dumps(scene, indent=2))
        b.wait(lambda _: b.by("#panel-scene").get_attribute("data-state") == "error", "the 422 of the edit")
        status = press_copy()
        expect(status.startswith("No SwiftUI (422)"), f"status: {status!r}")
        pointers = [e.text for e in b.all("#scene-swiftui-errors .issue .pointer")]
        expect("/presentations/0/kind" in pointers, f"the problem's pointer is not shown: {pointers}")
        expect(not b.by("#scene-swiftui-fallback").is_displayed(), "the last code still shows after a refusal")
        b.js("delete navigator.clipboard.writeText")  # the browser's own method again
        show_scene(DEFAULT_SCENE)
        bad = b.collect(allowed=[("/v1/resolve", 422), ("/v1/swiftui", 422)])
        expect(not bad, f"console errors or failed requests: {bad}")
        return f"{lines} lines copied from the keyboard; shown selected when refused; the 422's pointer listed"

    def tables_keep_words_whole():
        d.set_window_size(1400, 1000)
        show_scene({**DEFAULT_SCENE, "device": "iphone-duo", "orientation": "landscape", "posture": "halfOpened"})
        cells = b.js(LINES_JS, "#scene-diagnostics th, #scene-diagnostics .severity, #scene-placements th")
        broken = [(text, lines) for text, lines in cells if lines != 1]
        expect(cells and not broken, f"words broken across lines at 1400 px: {broken}")
        expect(any(text == "warning" for text, _ in cells), f"no warning shown to check: {cells}")
        return f"{len(cells)} headers and severities on one line each"

    def narrow_and_dark():
        # A window made narrow asks for a picture laid out for its new width.
        b.by("#tab-scene").click()
        b.wait(lambda _: b.pictures_shown() >= 1, "the wireframe")
        before = b.pictures_shown()
        d.set_window_size(390, 844)
        img = b.by("#scene-picture")
        width_matches = "return Math.abs(Number(arguments[0].dataset.width) - arguments[0].clientWidth) <= 2"
        b.wait(lambda _: b.pictures_shown() > before and b.js(width_matches, img), "a picture asked at the new width")
        # And a page loaded narrow asks for it from the start.
        d.refresh()
        b.wait(lambda _: b.pictures_shown() >= 1, "the wireframe at 390 px")
        overflow = b.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        expect(overflow <= 0, f"the page scrolls sideways by {overflow} px at 390 px")
        img = b.by("#scene-picture")
        width = int(img.get_attribute("data-width"))
        shown = b.js("return arguments[0].clientWidth", img)
        expect(abs(width - shown) <= 2, f"the picture was asked {width} px wide and is shown {shown} px wide")
        smallest = svg_text_px(hinge.picture(editor_text(), width), shown)
        expect(smallest >= 10, f"the smallest label is {smallest:.1f} px at 390 px")
        shots.append(b.shot(shots_dir, "scene-390.png"))
        b.by("#tab-matrix").click()
        b.wait(lambda _: b.all('#matrix-devices input[value="iphone-duo"]'), "device checkboxes")
        b.click("#matrix-run")
        b.wait(lambda _: "pictures loaded" in b.by("#matrix-status").text, "the matrix at 390 px", timeout=30)
        overflow = b.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        expect(overflow <= 0, f"the matrix scrolls the page sideways by {overflow} px at 390 px")
        narrowest = b.js("return Math.min(...[...document.querySelectorAll('#matrix-grid img')].map(i => i.clientWidth))")
        expect(narrowest >= 320, f"a matrix picture is {narrowest} px wide at 390 px")
        # Each picture fits its card, and is shown at most a quarter wider than it was drawn for (text size).
        cards = b.js("return [...document.querySelectorAll('#matrix-grid .cell')].map(c => { const i = c.querySelector('img');"
                     " return i && [c.clientWidth, i.getBoundingClientRect().width, Number(i.getAttribute('width')), c.textContent.slice(0, 60)]; })"
                     ".filter(Boolean)")
        unfit = [c for c in cards if c[1] > c[0] or c[1] / c[2] > 1.25]
        expect(cards and not unfit, f"matrix pictures wider than their card or than drawn (card, shown, asked): {unfit}")
        shots.append(b.shot(shots_dir, "matrix-390.png", scroll_to="#matrix-status"))
        d.set_window_size(1400, 1000)
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        d.refresh()
        b.by("#tab-scene").click()
        b.wait(lambda _: b.pictures_shown() >= 1, "the wireframe in dark mode")
        background = b.js("return getComputedStyle(document.body).backgroundColor")
        expect(background != "rgb(246, 247, 249)", f"dark mode not applied: {background}")
        luminance = mean_luminance(b.element_png("#scene-picture"))
        expect(luminance < 110, f"the wireframe stays bright in dark mode (mean luminance {luminance:.0f} of 255)")
        shots.append(b.shot(shots_dir, "scene-dark.png"))
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        d.refresh()
        b.wait(lambda _: b.pictures_shown() >= 1, "the wireframe in light mode")
        light = mean_luminance(b.element_png("#scene-picture"))
        expect(light > 160, f"the wireframe is dark in light mode ({light:.0f})")
        bad = b.collect(allowed=[("/v1/resolve/matrix", 400)])
        expect(not bad, f"console errors or failed requests: {bad}")
        return f"smallest label {smallest:.1f} px at 390 px; picture luminance {luminance:.0f} dark, {light:.0f} light"

    def run(checks):
        for name, fn in checks:
            # What a failed check left in the logs is not the next one's.
            check(name, lambda fn=fn: (b.discard(), fn())[1])

    run([
        ("studio loads, resolves the default scene, shows a wireframe and diagnostics", loads_and_resolves),
        ("live edits are not recorded in the request log", live_edits_are_not_recorded),
        ("tabs work from the keyboard; every control has a label", tabs_work_from_the_keyboard),
        ("picking iphone-duo + halfOpened changes the picture; Undo takes a change back", pickers_change_the_picture_and_undo),
        ("layers under others stay visible: outlined, listed, and hidden on request", layers_under_others_stay_visible),
        ("errors show under the editor, on screen, point into the text; the rest is marked stale", errors_are_beside_the_editor),
        ("ids and names holding markup show as text (no script, no element, no alert)", xss_shows_as_text),
        ("Copy SwiftUI copies the API's SwiftUI, shows it selected when the clipboard is refused, lists a 422", copies_swiftui),
    ])
    work_checks(b, hinge, shots, shots_dir, run, DEFAULT_SCENE)
    view_checks(b, hinge, shots, shots_dir, run)
    constant_checks(b, hinge, shots, shots_dir, run)
    run([
        ("tables keep words whole at 1400 px", tables_keep_words_whole),
        ("readable at 390 px (labels ≥ 10 px), and in dark mode the wireframe is dark", narrow_and_dark),
    ])
    return state
