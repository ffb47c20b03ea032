"""The Hinge Studio checks of scripts/browser-tests.py: each view driven as a designer would, the XSS
cases, console errors and failed requests after every step, screenshots."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_harness import API_KEY, check, expect

XSS_ID = "<img src=x onerror=window.hingeXSS=1>"
XSS_SCRIPT = "</script><script>window.hingeXSS=2</script>"


def studio_checks(b, hinge, shots, shots_dir):
    """Runs every studio check against `hinge`; screenshot paths are appended to `shots`."""
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
