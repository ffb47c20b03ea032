"""The Hinge Studio checks of scripts/browser-tests.py for the Matrix, Devices and Request log views and the
API key, run by browser_studio.studio_checks between the Scene view's checks."""
import json
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_harness import API_KEY, Hinge, expect, svg_text_px, svg_view_width

MATRIX_SCENE = {"device": "iphone-16", "presentations": [
    {"id": "editor", "kind": "sheet", "detents": ["medium", "large"]},
    {"id": "help", "kind": "popover", "presentedFrom": "editor", "anchor": {"x": 120, "y": 200, "width": 44, "height": 44}}]}
LOG_SCENE = {"device": "iphone-duo", "posture": "halfOpened", "presentations": [{"id": "settings", "kind": "sheet"}]}
AUTH = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}


def view_checks(b, hinge, shots, shots_dir, run):
    d = b.driver

    def editor_scene():
        return json.loads(b.by("#scene-json").get_attribute("value"))

    def show_scene(scene):
        b.by("#tab-scene").click()
        before = b.pictures_shown()
        b.set_scene(json.dumps(scene, indent=2))
        b.wait(lambda _: b.pictures_shown() > before and b.by("#panel-scene").get_attribute("data-state") == "resolved",
               "the scene's picture")

    def run_matrix():
        b.click("#matrix-run")
        b.wait(lambda _: "pictures loaded" in b.by("#matrix-status").text, "the matrix pictures", timeout=30)

    def open_matrix(devices, landscape):
        b.by("#tab-matrix").click()
        b.wait(lambda _: b.all('#matrix-devices input[value="iphone-duo"]'), "device checkboxes")
        for box in b.all("#matrix-devices input"):
            if box.is_selected() != (box.get_attribute("value") in devices):
                box.click()
        box = b.by('#matrix-orientations input[value="landscape"]')
        if box.is_selected() != landscape:
            box.click()

    def matrix_at_one_scale():
        show_scene(MATRIX_SCENE)
        open_matrix(["iphone-16", "iphone-duo"], landscape=True)
        before = len(hinge.records())
        run_matrix()
        recorded = len(hinge.records()) - before
        cells = b.all("#matrix-grid .cell")
        expect(len(cells) == 6, f"{len(cells)} cells for 6 combinations")
        loaded = b.js("return [...document.querySelectorAll('#matrix-grid .cell img')].filter(i => i.complete && i.naturalWidth > 0).length")
        expect(loaded == 6, f"{loaded} thumbnails shown of 6")
        codes = " ".join(c.text for c in b.all("#matrix-grid .codes"))
        expect("chained-modal" in codes, f"diagnostic codes missing: {codes}")
        # Every picture at one scale (pixels per point) and every label at least 10 px.
        scales, smallest = [], 99.0
        for cell in cells:
            device, posture, orientation, direction = cell.find_element(By.CSS_SELECTOR, ".title").text.split(" · ")
            combined = {**MATRIX_SCENE, "device": device, "posture": posture, "orientation": orientation, "layoutDirection": direction}
            svg = hinge.picture(json.dumps(combined), 320)
            shown = b.js("return arguments[0].clientWidth", cell.find_element(By.CSS_SELECTOR, "img"))
            scales.append(shown / svg_view_width(svg))
            smallest = min(smallest, svg_text_px(svg, shown))
        expect(max(scales) / min(scales) < 1.01, f"the tiles are drawn at different scales: {scales}")
        expect(smallest >= 10, f"the smallest label of a tile is {smallest:.1f} px")
        shots.append(b.shot(shots_dir, "matrix.png"))
        # Enter on a card opens it in the Scene view and takes the focus there; Undo brings the scene back.
        target = b.all("#matrix-grid .cell .open")[-1]
        target.send_keys(Keys.ENTER)
        b.wait(lambda _: b.by("#tab-scene").get_attribute("aria-selected") == "true", "the Scene view")
        b.wait(lambda _: "landscape" in b.by("#scene-caption").text and "iphone-duo" in b.by("#scene-caption").text,
               "the opened combination")
        focused = b.js("return document.activeElement.id")
        expect(focused == "scene-figure", f"focus fell to {focused or b.js('return document.activeElement.tagName')}")
        expect(editor_scene()["presentations"] == MATRIX_SCENE["presentations"], "the presentations changed")
        b.by("#scene-undo").click()
        b.wait(lambda _: editor_scene() == MATRIX_SCENE, "the scene before the combination")
        # (A server that cannot draw the pictures in the matrix answer refuses ?pictures with a 400 and the
        # studio asks for each picture instead: the next check requires the one request.)
        bad = b.collect(allowed=[("/v1/resolve/matrix", 400)])
        expect(not bad, f"console errors or failed requests: {bad}")
        expect(recorded == 0, f"the matrix run left {recorded} records in the log")
        return f"6 tiles at {min(scales):.3f} px/pt, smallest label {smallest:.1f} px"

    def one_request_draws_the_matrix():
        b.by("#tab-matrix").click()
        mark = len(b.requests_since(0))
        run_matrix()
        sent = [url for _, url, _ in b.requests_since(mark)]
        matrix = [url for url in sent if "/v1/resolve/matrix" in url]
        pictures = [url for url in sent if "/v1/resolve?" in url]
        expect(len(matrix) == 1 and "pictures=svg" in matrix[0], f"matrix requests: {matrix}")
        expect(not pictures, f"{len(pictures)} picture requests beside the matrix request")
        b.collect()
        return matrix[0].split("/", 3)[3]

    def custom_profile_from_the_form():
        b.by("#tab-devices").click()
        b.wait(lambda _: b.all("#device-form"), "the form")
        b.by("#device-new").click()
        Select(b.by("#device-kind")).select_by_value("foldable")
        displays = json.loads(b.by("#device-displays").get_attribute("value"))
        expect(any("fold" in x for x in displays), f"the foldable template has no fold: {displays}")
        expect(not b.by("#device-fold-warning").is_displayed(), "a warning on a foldable that folds")
        b.by("#device-id").send_keys("my-fold")
        b.by("#device-name").send_keys("My fold")
        b.by("#device-save").click()
        # The server runs with --api-key: the first write asks for the key; a wrong one is said to be refused.
        b.wait(lambda _: b.by("#api-key-dialog").get_attribute("open") is not None, "the API key dialog")
        b.by("#api-key-input").send_keys("not-the-key")
        b.by("#api-key-save").click()
        b.wait(lambda _: b.by("#api-key-dialog").get_attribute("open") is not None and "refused" in b.by("#api-key-reason").text,
               "the dialog again, saying the key was refused")
        expect("401" in b.by("#api-key-reason").text, f"no 401 in {b.by('#api-key-reason').text!r}")
        b.by("#api-key-input").clear()
        b.by("#api-key-input").send_keys(API_KEY)
        b.by("#api-key-save").click()
        b.wait(lambda _: "Saved my-fold (created)" in b.by("#device-status").text, "my-fold created")
        expect(b.js("return sessionStorage.getItem('hinge.apiKey')") == API_KEY, "the key is not kept for the tab")
        status, headers, _ = hinge.request("GET", "/v1/devices/my-fold")
        expect(status == 200, f"GET my-fold: {status}")
        tag = headers.get("ETag")
        # A new id is a create: no If-Match of the profile it was copied from.
        b.by("#device-id").clear()
        b.by("#device-id").send_keys("my-fold-2")
        expect("creates my-fold-2" in b.by("#device-etag").text, f"hint: {b.by('#device-etag').text!r}")
        b.by("#device-save").click()
        b.wait(lambda _: "Saved my-fold-2 (created)" in b.by("#device-status").text, "my-fold-2 created")
        status, headers, _ = hinge.request("GET", "/v1/devices/my-fold")
        expect(status == 200 and headers.get("ETag") == tag, "my-fold changed when my-fold-2 was saved")
        # Someone else replaces my-fold-2: the form's ETag is stale, the save is refused in words.
        status, _, _ = hinge.request("PUT", "/v1/devices/my-fold-2", {
            "name": "Changed elsewhere", "kind": "foldable", "displays": json.loads(b.by("#device-displays").get_attribute("value"))}, AUTH)
        expect(status == 200, f"concurrent PUT: {status}")
        b.by("#device-save").click()
        b.wait(lambda _: "412" in b.by("#device-status").text, "the 412 in words")
        expect("changed or deleted" in b.by("#device-status").text, "412 not explained")
        # A new profile under an id that exists is not a silent replace.
        b.by("#device-new").click()
        b.by("#device-id").send_keys("my-fold")
        b.by("#device-name").send_keys("Another")
        b.by("#device-save").click()
        b.wait(lambda _: "already exists" in b.by("#device-status").text, "the existing id refused")
        # A foldable that cannot fold: pointed out in the form, refused by the server at /displays.
        b.by("#device-new").click()
        Select(b.by("#device-kind")).select_by_value("foldable")
        b.by("#device-id").send_keys("flat-fold")
        b.by("#device-name").send_keys("Flat fold")
        area = b.by("#device-displays")
        area.clear()
        area.send_keys('[{"id": "main", "width": 800, "height": 1000}]')
        expect(b.by("#device-fold-warning").is_displayed(), "no warning on a foldable without a fold")
        b.by("#device-save").click()
        b.wait(lambda _: "/displays" in b.by("#device-status").text, "the 422 at /displays")
        expect(hinge.request("GET", "/v1/devices/flat-fold")[0] == 404, "a foldable without a fold was stored")
        # Edit with a fresh ETag, a 422 with its pointer, then delete.
        b.by('#devices-list button[aria-label="Show my-fold-2"]').click()
        b.wait(lambda _: "Changed elsewhere" in b.by("#device-detail").text, "the profile's drawing")
        expect(b.all("#device-detail svg rect.display") and b.all("#device-detail svg line.fold"), "no display or fold drawn")
        b.by("#device-edit").click()
        b.wait(lambda _: "ETag" in b.by("#device-etag").text, "the fresh ETag")
        area = b.by("#device-displays")
        area.clear()
        area.send_keys('[{"id": "main", "width": -5, "height": 10}]')
        b.by("#device-save").click()
        b.wait(lambda _: "/displays/0/width" in b.by("#device-status").text, "the 422 with its pointer")
        b.by("#device-delete").click()
        b.wait(lambda _: "Deleted my-fold-2" in b.by("#device-status").text, "the deletion")
        expect(hinge.request("GET", "/v1/devices/my-fold-2")[0] == 404, "my-fold-2 still there")
        hinge.request("DELETE", "/v1/devices/my-fold", headers=AUTH)
        b.by("#tab-devices").click()  # the catalog again
        b.wait(lambda _: "my-fold" not in b.by("#devices-list").text, "the catalog without the profiles")
        b.by('#devices-list button[aria-label="Show iphone-duo"]').click()
        b.wait(lambda _: b.all("#device-detail svg line.fold"), "iphone-duo's fold")
        shots.append(b.shot(shots_dir, "devices.png"))
        bad = b.collect(allowed=[("/v1/devices/", 401), ("/v1/devices/", 412), ("/v1/devices/", 422)])
        expect(not bad, f"console errors or failed requests: {bad}")

    def a_device_keeps_the_presentations():
        show_scene(MATRIX_SCENE)
        b.by("#tab-devices").click()
        b.wait(lambda _: b.all('#devices-list button[aria-label="Show iphone-duo"]'), "the catalog")
        b.by('#devices-list button[aria-label="Show iphone-duo"]').click()
        b.wait(lambda _: b.all("#device-open-scene") and "iphone-duo" in b.by("#device-detail h2").text, "iphone-duo")
        b.by("#device-open-scene").click()
        b.wait(lambda _: b.by("#tab-scene").get_attribute("aria-selected") == "true", "the Scene view")
        b.wait(lambda _: editor_scene().get("device") == "iphone-duo", "the device in the scene")
        expect(editor_scene()["presentations"] == MATRIX_SCENE["presentations"], "the presentations were replaced")
        expect(b.by("#scene-undo").text == "Undo: device iphone-duo", f"Undo: {b.by('#scene-undo').text!r}")
        b.by("#scene-undo").click()
        b.wait(lambda _: editor_scene() == MATRIX_SCENE, "the scene before the device")
        b.collect()

    def request_log_names_records():
        for i in range(25):  # enough records for a second page (sent with no Hinge-Client)
            hinge.request("POST", "/v1/resolve", {"device": "iphone-16", "presentations": [{"id": f"s{i}", "kind": "sheet"}]})
        show_scene(LOG_SCENE)
        b.by("#scene-record").click()
        b.wait(lambda _: "Recorded as #" in b.by("#scene-recorded").text, "the recorded scene")
        record_id = re.search(r"#(\d+)", b.by("#scene-recorded").text).group(1)
        status, _, body = hinge.request("GET", f"/v1/requests/{record_id}")
        expect(status == 200, f"GET the record: {status}")
        client = json.loads(body).get("client")
        b.by("#scene-show-record").click()
        b.wait(lambda _: b.by("#tab-requests").get_attribute("aria-selected") == "true" and b.all("#replay-button"), "the record")
        title = b.by("#record-title").text
        expect(re.fullmatch(r"iphone-duo · halfOpened · \d\d:\d\d:\d\d", title), f"the record's title: {title!r}")
        b.wait(lambda _: len(b.all("#requests-list tbody tr")) == 20, "a page of 20 records")
        first = b.by("#requests-list tbody tr").find_elements(By.CSS_SELECTOR, "td")
        expect(first[1].text == f"#{record_id}", f"first row: {[c.text for c in first]}")
        row_title, client_cell = first[0].text, first[2].text
        b.by("#replay-button").click()
        b.wait(lambda _: "unchanged" in b.by("#replay-result").text, "the replay of the studio's record")
        b.wait(lambda _: b.js("const i = document.querySelector('#requests-detail img'); return i && i.complete && i.naturalWidth > 0"),
               "the studio record's picture")
        shots.append(b.shot(shots_dir, "requests.png"))
        ids = [int(r.find_elements(By.CSS_SELECTOR, "td")[1].text.lstrip("#")) for r in b.all("#requests-list tbody tr")]
        expect(ids == sorted(ids, reverse=True), f"not newest first: {ids}")
        b.by("#requests-older").click()
        b.wait(lambda _: b.all("#requests-list tbody tr") and int(
            b.by("#requests-list tbody tr").find_elements(By.CSS_SELECTOR, "td")[1].text.lstrip("#")) < ids[-1], "the older page")
        b.by("#requests-newer").click()
        b.wait(lambda _: b.by("#requests-list tbody tr").find_elements(By.CSS_SELECTOR, "td")[1].text == f"#{ids[0]}", "the first page again")
        b.by("#requests-form input[name=device]").send_keys("iphone-16")
        b.by("#requests-apply").click()
        b.wait(lambda _: len(b.all("#requests-list tbody tr")) == 20 and all(
            r.text.startswith("iphone-16 · ") for r in b.all("#requests-list tbody tr td:first-child")), "iphone-16 records")
        # Enter on a record, then Tab: Replay comes next, not the rest of the list.
        b.by("#requests-list tbody tr button").send_keys(Keys.ENTER)
        b.wait(lambda _: b.js("return document.activeElement.id") == "record-title", "the focus on the record")
        d.switch_to.active_element.send_keys(Keys.TAB)
        expect(b.js("return document.activeElement.id") == "replay-button", f"Tab reached {b.js('return document.activeElement.id')!r}")
        b.wait(lambda _: b.js("const i = document.querySelector('#requests-detail img'); return i && i.complete && i.naturalWidth > 0"),
               "the record's picture")
        expect('"presentations"' in b.by("#requests-detail").text, "the request body is not shown")
        expect('"placements"' in b.by("#requests-detail").text, "the response body is not shown")
        b.by("#replay-button").click()
        b.wait(lambda _: "unchanged" in b.by("#replay-result").text, "the replay result")
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")
        # The list names the record as its page does (the list items carry the posture), the record says it
        # came from the studio, and the client filter finds it alone.
        expect(row_title == title, f"the row is named {row_title!r}, the record {title!r}")
        expect(client == "studio", f"the record's client: {client!r}")
        expect(client_cell == "studio", f"the row's client: {client_cell!r}")
        b.by("#requests-form").find_element(By.CSS_SELECTOR, "button[type=reset]").click()
        b.by("#requests-form input[name=client]").send_keys("studio")
        b.by("#requests-apply").click()
        b.wait(lambda _: [r.find_elements(By.CSS_SELECTOR, "td")[1].text for r in b.all("#requests-list tbody tr")] == [f"#{record_id}"],
               "only the studio's record")
        b.collect()
        return f"record #{record_id}: {title}"

    def key_only_where_needed():
        open_server = Hinge(hinge.binary, [])
        try:
            d.get(open_server.base + "/")
            b.wait(lambda _: b.pictures_shown() >= 1, "the wireframe")
            expect(not b.by("#api-key-button").is_displayed(), "the API key button shows on a server without a key")
            b.by("#tab-devices").click()
            b.wait(lambda _: b.all("#device-writes"), "the form")
            expect("without an API key" in b.by("#device-writes").text, f"form says: {b.by('#device-writes').text!r}")
            b.by("#device-new").click()
            b.by("#device-id").send_keys("open-tablet")
            b.by("#device-name").send_keys("Open tablet")
            b.by("#device-save").click()
            b.wait(lambda _: "Saved open-tablet (created)" in b.by("#device-status").text, "the profile saved without a key")
            expect(b.by("#api-key-dialog").get_attribute("open") is None, "the key dialog opened")
            b.collect()
        finally:
            open_server.stop()
        d.get(hinge.base + "/")
        b.wait(lambda _: b.pictures_shown() >= 1, "the wireframe")
        expect(b.by("#api-key-button").is_displayed(), "no API key button on a server with a key")
        b.collect()

    run([
        ("the matrix: one scale, labels ≥ 10 px, not recorded; Enter opens a card and focus follows", matrix_at_one_scale),
        ("one matrix request draws every card (POST /v1/resolve/matrix?pictures=svg)", one_request_draws_the_matrix),
        ("a profile is created, copied under a new id, refused (401, 412, 422) and deleted from the form", custom_profile_from_the_form),
        ("a device used in the Scene view keeps the presentations; Undo takes it back", a_device_keeps_the_presentations),
        ("the request log names records by device · posture · time and client; Tab reaches Replay", request_log_names_records),
        ("the API key is asked for only by a server that needs one", key_only_where_needed),
    ])
