"""The Hinge Studio checks of scripts/browser-tests.py for constant sets: the Scene view's picker, its compare
mode, and the Devices view's Constants tab with an impact report. Run by browser_studio.studio_checks.

The set has two versions that differ only in `sheet.topGap` (40, then 80; the Constants tab's form makes a third,
120), which moves every sheet's large
detent (docs/rules.md#detent-heights: large = H − safeTop − sheet.topGap, medium = sheet.mediumFraction ×
large). On the iPhone 16 (852 pt tall, safe top 59) the default scene's `editor` (a bottom sheet at its medium
detent) and `help` (a popover shown as a sheet at its large detent) move; `tools` (a bottom panel) does not."""
import json

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_harness import API_KEY, expect

SET = "studio-acme"
GAPS = {1: 40, 2: 80, 3: 120}
HEIGHT, SAFE_TOP = 852, 59
AUTH = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
MOVED = (0xD6, 0x33, 0x6C)  # the compare mode's mark (picture.js)
SHEET_SCENE = {"device": "iphone-16", "presentations": [{"id": "editor", "kind": "sheet", "detents": ["medium", "large"]}]}
PANEL_SCENE = {"device": "iphone-16", "presentations": [{"id": "tools", "kind": "adaptivePanel"}]}
BROKEN_SCENE = {"device": "iphone-16", "presentations": [{"id": "x", "kind": "no-such-kind"}]}

# Pixels of a compare picture close to the mark's colour, read back through a canvas.
MARK_PIXELS_JS = """
const i = document.getElementById(arguments[0]);
if (!i.complete || !i.naturalWidth) return -1;
const c = document.createElement('canvas'); c.width = i.naturalWidth; c.height = i.naturalHeight;
const g = c.getContext('2d'); g.drawImage(i, 0, 0);
const d = g.getImageData(0, 0, c.width, c.height).data; const [r, gr, b] = arguments[1]; let n = 0;
for (let k = 0; k < d.length; k += 4) if (Math.abs(d[k] - r) < 24 && Math.abs(d[k + 1] - gr) < 24 && Math.abs(d[k + 2] - b) < 24) n++;
return n;
"""


def frame_text(x, y, width, height):
    """A frame as the studio writes it (dom.js frameText)."""
    num = lambda v: f"{v:g}"
    return f"x {num(x)}, y {num(y)}, {num(width)} × {num(height)}"


def large(version):
    return HEIGHT - SAFE_TOP - GAPS[version]


def constant_checks(b, hinge, shots, shots_dir, run):
    d = b.driver
    state = {}

    def editor_scene():
        return json.loads(b.by("#scene-json").get_attribute("value"))

    def used():
        return b.by("#scene-constant-set-used").get_attribute("data-constant-set")

    def placement_row(pid):
        for row in b.all("#scene-placements tbody tr"):
            cells = [c.text for c in row.find_elements("css selector", "td")]
            if cells and cells[0] == pid:
                return cells
        return None

    def create_versions():
        for n, note in [(1, "measured on the team's phones"), (2, "a taller gap")]:
            status, _, body = hinge.request("POST", f"/v1/constant-sets/{SET}/versions", {
                "basedOn": "default" if n == 1 else f"{SET}@1", "constants": {"sheet.topGap": GAPS[n]}, "note": note,
                "sources": {"sheet.topGap": f"ruler, version {n}"}}, AUTH)
            expect(status == 201, f"creating {SET}@{n}: {status} {body[:200]!r}")

    def picker_sets_the_version():
        create_versions()
        d.get(hinge.base + "/#scene")
        b.js("localStorage.clear()")  # a first visit: the example scene, not the text kept by the checks before
        d.refresh()  # a new page, which lists the sets just created
        b.wait(lambda _: b.pictures_shown() >= 1, "the first wireframe")
        b.wait(lambda _: b.all(f'#scene-constant-set option[value="{SET}@2"]'), "the set's versions in the picker")
        values = [o.get_attribute("value") for o in b.all("#scene-constant-set option")]
        expect(values[:5] == ["", "default", SET, f"{SET}@1", f"{SET}@2"], f"picker options: {values}")
        expect(used() == "", f"a scene without constantSet shows {used()!r}")
        before = len(hinge.records())
        for choice, version in [(f"{SET}@1", 1), (SET, 2)]:
            Select(b.by("#scene-constant-set")).select_by_value(choice)
            b.wait(lambda _: used() == f"{SET}@{version}", f"the answer naming {SET}@{version}")
            expect(editor_scene().get("constantSet") == choice, f"the scene's constantSet: {editor_scene().get('constantSet')!r}")
            medium = large(version) / 2
            row = placement_row("editor")
            expect(row and row[3] == frame_text(0, HEIGHT - medium, 393, medium), f"editor under {choice}: {row}")
        expect(b.by("#scene-undo").text == f"Undo: Constants {SET}", f"Undo: {b.by('#scene-undo').text!r}")
        # A set named in the text shows in the picker; one the server does not know is marked and refused.
        b.set_scene(json.dumps({**editor_scene(), "constantSet": f"{SET}@1"}))
        b.wait(lambda _: used() == f"{SET}@1", "the set typed in the text")
        expect(b.by("#scene-constant-set").get_attribute("value") == f"{SET}@1", "the picker does not show the typed set")
        b.set_scene(json.dumps({**editor_scene(), "constantSet": "nobody@3"}))
        b.wait(lambda _: "/constantSet" in b.by("#scene-errors").text, "the 422 at /constantSet")
        picked = Select(b.by("#scene-constant-set")).first_selected_option.text
        expect(picked == "nobody@3 (unknown)", f"the picker shows {picked!r}")
        expect(len(hinge.records()) == before, "the picker's resolutions were recorded")
        bad = b.collect(allowed=[("/v1/resolve", 422)])
        expect(not bad, f"console errors or failed requests: {bad}")
        return f"{len(values)} choices; {SET} answered as {SET}@2"

    def compare_marks_what_moved():
        scene = json.loads(json.dumps(editor_scene()))
        scene["constantSet"] = f"{SET}@1"
        b.set_scene(json.dumps(scene, indent=2))
        b.wait(lambda _: used() == f"{SET}@1", "the scene under version 1")
        mark = len(b.requests_since(0))
        records = len(hinge.records())
        output = b.by("#scene-compare-output")
        toggle = b.by("#scene-compare")
        b.js("arguments[0].scrollIntoView({block: 'center'})", toggle)
        toggle.send_keys(Keys.SPACE)  # from the keyboard
        b.wait(lambda _: output.is_displayed(), "the compare view")
        expect(not b.by("#scene-figure").is_displayed(), "the single picture shows beside the two")
        Select(b.by("#compare-with")).select_by_value(f"{SET}@2")
        ready = lambda _: (output.get_attribute("data-state") == "resolved" and b.by("#compare-caption-1").text.endswith(f"{SET}@2")
                           and all(b.js("const i = document.getElementById(arguments[0]); return i.complete && i.naturalWidth > 0", f"compare-picture-{k}")
                                   for k in (0, 1)))
        b.wait(ready, "two pictures under versions 1 and 2")
        expect(b.by("#compare-caption-0").text.endswith(f"{SET}@1"), f"left caption: {b.by('#compare-caption-0').text!r}")
        marked = [b.by(f"#compare-picture-{k}").get_attribute("data-marked") for k in (0, 1)]
        expect(marked == ["editor help", "editor help"], f"marked placements: {marked}")
        rows = [[c.text for c in r.find_elements("css selector", "td")] for r in b.all("#compare-moves tbody tr")]
        m1, m2 = large(1) / 2, large(2) / 2
        wanted = [
            ["editor", "/placements/1/frame", frame_text(0, HEIGHT - m1, 393, m1), frame_text(0, HEIGHT - m2, 393, m2)],
            ["editor", "/placements/1/detents", f"medium {m1:g}, large {large(1)}", f"medium {m2:g}, large {large(2)}"],
            ["help", "/placements/2/frame", frame_text(0, HEIGHT - large(1), 393, large(1)), frame_text(0, HEIGHT - large(2), 393, large(2))],
            ["help", "/placements/2/detents", f"medium {m1:g}, large {large(1)}", f"medium {m2:g}, large {large(2)}"],
        ]
        expect(rows == wanted, f"listed moves: {rows}")
        heads = [h.text for h in b.all("#compare-moves thead th")]
        expect(heads == ["id", "pointer", f"{SET}@1", f"{SET}@2"], f"the columns are not headed with the sets: {heads}")
        pink = [b.js(MARK_PIXELS_JS, f"compare-picture-{k}", MOVED) for k in (0, 1)]
        expect(min(pink) > 200, f"the marks are not drawn: {pink} pixels of the mark's colour")
        shots.append(b.shot(shots_dir, "compare.png"))
        # The same version on both sides: nothing marked, nothing drawn in the mark's colour.
        Select(b.by("#compare-with")).select_by_value(f"{SET}@1")
        b.wait(lambda _: output.get_attribute("data-state") == "resolved" and b.by("#compare-caption-1").text.endswith(f"{SET}@1"), "the comparison")
        b.wait(lambda _: b.by("#compare-picture-1").get_attribute("data-marked") == "", "no marks")
        expect("Nothing moved" in b.by("#compare-status").text, f"status: {b.by('#compare-status').text!r}")
        expect(not b.all("#compare-moves tbody tr"), "moves listed for one version against itself")
        b.wait(lambda _: b.js(MARK_PIXELS_JS, "compare-picture-1", MOVED) == 0, "a picture without marks")
        # Not recorded: every resolution the comparison sent said Hinge-Record: off.
        sent = [(url, {k.lower(): v for k, v in h.items()}) for _, url, h in b.requests_since(mark) if "/v1/resolve" in url]
        expect(len(sent) >= 6, f"{len(sent)} resolutions sent for two comparisons")
        recorded = [url for url, h in sent if h.get("hinge-record") != "off"]
        expect(not recorded and len(hinge.records()) == records, f"recorded: {recorded}")
        state["compare"] = True
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")
        return f"editor and help marked in both pictures; {len(rows)} moves listed; {min(pink)}+ mark pixels"

    def compare_stacks_at_390():
        expect(state.get("compare"), "compare mode is not on (the previous check failed)")
        Select(b.by("#compare-with")).select_by_value(f"{SET}@2")
        d.set_window_size(390, 844)
        try:
            output = b.by("#scene-compare-output")
            b.wait(lambda _: output.get_attribute("data-state") == "resolved" and b.by("#compare-caption-1").text.endswith(f"{SET}@2"),
                   "the comparison")
            boxes = b.js("return [0, 1].map(k => document.getElementById('compare-picture-' + k).getBoundingClientRect().toJSON())")
            expect(boxes[1]["top"] >= boxes[0]["bottom"], f"the pictures are not stacked: {boxes}")
            overflow = b.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            expect(overflow <= 0, f"the page scrolls sideways by {overflow} px at 390 px")
        finally:
            d.set_window_size(1400, 1000)
        b.by("#scene-compare").click()
        b.wait(lambda _: not output.is_displayed() and b.by("#scene-figure").is_displayed(), "the single picture again")
        b.collect()
        return f"pictures {boxes[0]['width']:.0f} px wide, one under the other"

    def record(scene, named=SET):
        body = {**scene, "constantSet": named} if named else scene
        status, headers, body = hinge.request("POST", "/v1/resolve", body, {"Content-Type": "application/json"})
        return headers.get("Hinge-Record-Id")

    def constants_tab_and_impact():
        # Scenes that name the set (its latest, @2, now): the next version moves them. Two pin @1 and one names
        # no set: the next version does not touch them, and the report counts them apart.
        ids = [record(SHEET_SCENE) for _ in range(3)]
        ids.append(record(PANEL_SCENE))
        ids.append(record(BROKEN_SCENE))
        apart = [record(SHEET_SCENE, f"{SET}@1"), record(SHEET_SCENE, f"{SET}@1"), record(SHEET_SCENE, None)]
        expect(all(ids + apart), f"records: {ids + apart}")
        status, _, body = hinge.request("GET", f"/v1/requests/{ids[0]}")
        since = json.loads(body)["receivedAt"]
        b.by("#tab-devices").click()
        b.by("#devices-tab-profiles").send_keys(Keys.ARROW_RIGHT)  # the view's own tabs, from the keyboard
        b.wait(lambda _: b.by("#devices-tab-constants").get_attribute("aria-selected") == "true", "the Constants tab")
        b.wait(lambda _: b.all(f'#constants-sets button[aria-label="Show set {SET}"]'), "the set in the list")
        cells = [c.text for c in b.by("#constants-sets tbody tr").find_elements("css selector", "td")]
        expect(cells[0] == SET and cells[1] == "@2" and cells[3] == "a taller gap", f"the set's row: {cells}")
        b.by(f'#constants-sets button[aria-label="Show set {SET}"]').click()
        value = lambda key: [[c.text for c in r.find_elements("css selector", "td")] for r in b.all("#constants-version tbody tr")
                             if r.text.startswith(key)]
        b.wait(lambda _: b.by("#constants-version").get_attribute("data-version") == f"{SET}@2", "the latest version's constants")
        versions = [r.find_elements("css selector", "td")[0].text for r in b.all("table.constant-versions tbody tr")]
        expect(versions == [f"{SET}@1", f"{SET}@2"], f"versions: {versions}")
        expect(value("sheet.topGap") == [["sheet.topGap", "80", "10", "ruler, version 2"]], f"@2: {value('sheet.topGap')}")
        expect(value("sheet.margin") == [["sheet.margin", "20", "20", "default"]], f"@2: {value('sheet.margin')}")
        b.by(f'button[aria-label="Show the constants of {SET}@1"]').click()
        b.wait(lambda _: b.by("#constants-version").get_attribute("data-version") == f"{SET}@1", "version 1's constants")
        expect(value("sheet.topGap") == [["sheet.topGap", "40", "10", "ruler, version 1"]], f"@1: {value('sheet.topGap')}")
        unlabelled = b.js("return [...document.querySelectorAll('#devices-panel-constants input, #devices-panel-constants select')]"
                          ".filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map(e => e.id || e.name)")
        expect(not unlabelled, f"controls without a label: {unlabelled}")
        # The next version, made in the tab: based on the latest, one constant changed, a note.
        expect(Select(b.by("#version-based-on")).first_selected_option.get_attribute("value") == f"{SET}@2",
               "the form does not start from the latest version")
        b.by("#version-constants").send_keys(f"sheet.topGap = {GAPS[3]}")
        b.by("#version-note").send_keys("made in the studio")
        b.click("#version-create")
        b.wait(lambda _: b.by("#api-key-dialog").get_attribute("open") is not None or b.all("#version-created"),
               "the key dialog or the new version")
        if b.by("#api-key-dialog").get_attribute("open") is not None:
            b.by("#api-key-input").send_keys(API_KEY)
            b.by("#api-key-save").click()
        b.wait(lambda _: b.by("#constants-version").get_attribute("data-version") == f"{SET}@3", "the new version's constants")
        expect(b.by("#version-created").text == f"Created {SET}@3.", f"status: {b.by('#constants-status').text!r}")
        expect(value("sheet.topGap") == [["sheet.topGap", str(GAPS[3]), "10", "made in the studio"]], f"@3: {value('sheet.topGap')}")
        status, _, body = hinge.request("GET", f"/v1/constant-sets/{SET}/versions/3")
        expect(status == 200 and json.loads(body)["basedOn"] == f"{SET}@2", f"@3 as stored: {status} {body[:200]!r}")
        # A refused filter shows the problem's pointer; then the report of version 3 over the records above.
        Select(b.by("#impact-version")).select_by_value("3")
        b.by("#impact-since").send_keys("yesterday")
        b.click("#impact-run")
        b.wait(lambda _: b.by("#impact-result").get_attribute("data-state") == "error", "the refused report")
        expect("/since" in b.by("#impact-result").text, f"no pointer in {b.by('#impact-result').text!r}")
        b.by("#impact-since").clear()
        b.by("#impact-since").send_keys(since)
        b.click("#impact-run")
        b.wait(lambda _: b.by("#impact-result").get_attribute("data-state") == "done", "the impact report", timeout=30)
        counts = {k: b.by(f"#impact-{k}").get_attribute("data-count") for k in ["replayed", "unchanged", "changed", "skipped"]}
        expect(counts == {"replayed": "4", "unchanged": "1", "changed": "3", "skipped": "1"}, f"counts: {counts}")
        expect(b.by("#impact-run").is_enabled() and b.by("#impact-result").get_attribute("aria-busy") is None, "still busy")
        elsewhere = [[c.text for c in r.find_elements("css selector", "td")] for r in b.all("table.impact-elsewhere tbody tr")]
        expect(elsewhere == [[f"{SET}@1", "the scene pins another version of this set", "2"],
                             ["default", "the scene names no set: built-in values", "1"]], f"counted apart: {elsewhere}")
        groups = {tuple(c.text for c in r.find_elements("css selector", "td")[:3]): [c.text for c in r.find_elements("css selector", "td")[3:]]
                  for r in b.all("table.impact-groups tbody tr")}
        shift = (GAPS[3] - GAPS[2]) / 2
        expect(groups.get(("/placements/*/frame/y", "—", "increase")) == ["3", f"+{shift:g}"], f"groups: {groups}")
        expect(groups.get(("/placements/*/detents/*/height", "large", "decrease")) == ["3", f"-{2 * shift:g}"], f"groups: {groups}")
        changed = [r.find_elements("css selector", "td")[0].text for r in b.all("table.impact-changes tbody tr")]
        expect(sorted(changed) == sorted(f"#{i}" for i in ids[:3]), f"changed records {changed}, recorded {ids}")
        shots.append(b.shot(shots_dir, "constants.png"))
        b.by(f'button[aria-label="Show record {ids[0]} in the request log"]').click()
        b.wait(lambda _: b.by("#tab-requests").get_attribute("aria-selected") == "true"
               and b.by("#record-title").text.startswith("iphone-16 · "), f"record {ids[0]} in the request log")
        b.by("#tab-devices").click()
        b.by("#devices-tab-profiles").click()
        b.wait(lambda _: b.by("#device-form").is_displayed(), "the profiles again")
        bad = b.collect(allowed=[("/impact", 422)])
        expect(not bad, f"console errors or failed requests: {bad}")
        # The next checks start from a new page's Scene view, as after loading the studio.
        d.get(hinge.base + "/#scene")
        b.js("localStorage.clear()")
        d.refresh()
        b.wait(lambda _: b.pictures_shown() >= 1, "the first wireframe")
        b.collect()
        return f"counts {counts}; records {', '.join(changed)} changed"

    run([
        ("the constant-set picker lists the versions, sets constantSet, and shows the version the answer used", picker_sets_the_version),
        ("compare mode draws two versions side by side, marks and lists exactly the moved placements, records nothing", compare_marks_what_moved),
        ("compare mode stacks its pictures at 390 px", compare_stacks_at_390),
        ("the Constants tab lists sets, versions and constants, makes the next version, and reports what it moves among "
         "the records that would use it, the others apart", constants_tab_and_impact),
    ])
