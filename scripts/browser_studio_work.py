"""The Hinge Studio checks of scripts/browser-tests.py for work that must not be lost or misread, each walked as a
designer would: an edited scene across a reload, the pickers during a JSON typo, the covered layers' outlines and
their key, right-to-left with anchors and the covered-presentation diagnostic, and the Scene view at 390 px.
Run by browser_studio.studio_checks."""
import json

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_harness import expect

KEPT = "hinge.studio.sceneText"

# A `beforeunload` event as the browser sends it when leaving: cancelled means the browser asks first.
ASKS_BEFORE_LEAVING_JS = """
const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented;
"""

# The studio's own compose() (picture.js, loaded as the page loads it) over a picture and its resolution.
COMPOSE_JS = """
const [svg, resolution, done] = arguments;
const href = document.querySelector('link[rel=modulepreload][href*="/studio/picture."]').href;
import(href).then((m) => done(m.compose(svg, resolution, {outline: true}).svg)).catch((e) => done('error: ' + e));
"""

RECTS_JS = """
const r = (id) => document.getElementById(id).getBoundingClientRect().toJSON();
return {pickers: r('scene-pickers'), picture: r('scene-figure'), editor: r('scene-json'),
        details: document.querySelector('.scene-details').getBoundingClientRect().toJSON(),
        scrollY: scrollY, height: innerHeight};
"""


def work_checks(b, hinge, shots, shots_dir, run, default_scene):
    d = b.driver
    example = json.dumps(default_scene, indent=2)

    def editor_text():
        return b.by("#scene-json").get_attribute("value")

    def resolved():
        return b.by("#panel-scene").get_attribute("data-state") == "resolved"

    def type_scene(scene):
        """Puts a scene in the editor as typing does (the editor's input event), after a click in it."""
        before = b.pictures_shown()
        b.click("#scene-json")
        b.set_scene(json.dumps(scene, indent=2))
        b.wait(lambda _: b.pictures_shown() > before and resolved(), "the scene's picture")

    def reload():
        d.refresh()
        try:
            d.switch_to.alert.accept()  # the browser asks before leaving an edited page
        except NoAlertPresentException:
            pass
        b.wait(lambda _: b.pictures_shown() >= 1 and resolved(), "the wireframe after the reload")

    def edited_scene_survives_a_reload():
        reload()  # a page with nothing edited yet (it opens with what the checks before left)
        expect(not b.js(ASKS_BEFORE_LEAVING_JS), "the browser is asked to warn before any edit")
        edited = {**default_scene, "device": "iphone-duo", "posture": "halfOpened"}
        type_scene(edited)
        expect(b.js(ASKS_BEFORE_LEAVING_JS), "leaving the edited scene does not warn")
        text = editor_text()
        reload()
        expect(editor_text() == text, "the edited text was not kept across the reload")
        expect("iphone-duo" in b.by("#scene-caption").text, f"the picture is not the kept scene's: {b.by('#scene-caption').text!r}")
        expect(b.by("#scene-example").is_displayed(), "the kept scene is not said to be kept")
        expect(not b.js(ASKS_BEFORE_LEAVING_JS), "a reload with nothing edited since warns")
        before = b.pictures_shown()
        b.click("#scene-example")
        b.wait(lambda _: b.pictures_shown() > before and resolved() and editor_text() == example, "the example again")
        expect(b.js(f"return localStorage.getItem('{KEPT}')") is None, "the example is kept as if it were an edit")
        expect(b.by("#scene-undo").is_enabled(), "opening the example cannot be undone")
        bad = b.collect()
        expect(not bad, f"console errors or failed requests: {bad}")
        return "the iPhone Duo scene came back after the reload"

    def pickers_keep_their_values_during_a_typo():
        Select(b.by("#scene-device")).select_by_value("iphone-duo")
        b.wait(lambda _: "iphone-duo" in b.by("#scene-caption").text and resolved(), "the iphone-duo picture")
        Select(b.by("#scene-posture")).select_by_value("halfOpened")
        b.wait(lambda _: "halfOpened" in b.by("#scene-caption").text and resolved(), "the halfOpened picture")
        text = editor_text()
        editor = b.by("#scene-json")
        b.js("arguments[0].scrollIntoView({block: 'center'})", editor)
        editor.send_keys(Keys.CONTROL, Keys.END)
        editor.send_keys(Keys.BACKSPACE)  # the closing brace: the text is no longer JSON
        b.wait(lambda _: b.by("#scene-pickers").get_attribute("data-stale") == "true", "the pickers marked stale")
        values = [b.by(f"#scene-{k}").get_attribute("value") for k in ("device", "posture")]
        expect(values == ["iphone-duo", "halfOpened"], f"the pickers jumped during the typo: {values}")
        expect(b.by("#scene-pickers-stale").is_displayed(), "the pickers are not said to be stale")
        shots.append(b.shot(shots_dir, "scene-typo.png", scroll_to="#scene-pickers"))
        editor.send_keys("}")
        b.wait(lambda _: b.by("#scene-pickers").get_attribute("data-stale") == "false" and resolved(), "the fixed text")
        expect(editor_text() == text and not b.by("#scene-pickers-stale").is_displayed(), "the stale mark stays")
        b.collect(allowed=[("/v1/resolve", 400)])
        return "iphone-duo and halfOpened kept while the text was not JSON"

    def covered_layers_are_labelled():
        type_scene(default_scene)
        expect(b.by("#scene-picture").get_attribute("data-outlined").split() == ["tools", "editor"], "tools and editor not outlined")
        key = b.by("#scene-outline-key")
        expect(key.is_displayed() and "covered" in key.text and "not a detent" in key.text, f"the key entry: {key.text!r}")
        svg = hinge.picture(editor_text(), 600)
        status, _, body = hinge.request("POST", "/v1/resolve", editor_text().encode(),
                                        {"Content-Type": "application/json", "Hinge-Record": "off"})
        composed = d.execute_async_script(COMPOSE_JS, svg, json.loads(body))
        expect(not composed.startswith("error"), composed)
        for pid in ("tools", "editor"):
            expect(f'>{pid} (covered)</text>' in composed, f"the outline of {pid} has no tag")
        detent_dashes = set(part.split('"')[1] for part in svg.split("stroke-dasharray=")[1:])
        outline_dashes = set(part.split('"')[1] for part in composed.split('class="covered-layer"', 1)[1].split("stroke-dasharray=")[1:])
        expect(outline_dashes and not outline_dashes & detent_dashes, f"outlines dashed like the picture's lines: {outline_dashes}")
        shots.append(b.shot(shots_dir, "scene-covered.png", scroll_to="#scene-layers"))
        b.collect()
        return f"tags on tools and editor; outline dashes {sorted(outline_dashes)} unlike the picture's"

    def right_to_left_says_where_anchors_are():
        # On an iPad the popover is a real one; grown past the card it comes from, it hides the card.
        scene = {"device": "ipad-pro-11", "presentations": [
            {"id": "editor", "kind": "sheet"},
            {"id": "help", "kind": "popover", "presentedFrom": "editor", "anchor": {"x": 120, "y": 200, "width": 44, "height": 44},
             "contentSize": {"width": 2000, "height": 2000}}]}
        type_scene(scene)
        expect(not b.by("#scene-rtl-note").is_displayed(), "the right-to-left note shows in ltr")
        Select(b.by("#scene-layoutDirection")).select_by_value("rtl")
        b.wait(lambda _: "rtl" in b.by("#scene-caption").text and resolved(), "the rtl picture")
        note = b.by("#scene-rtl-note")
        expect(note.is_displayed() and "not mirrored" in note.text, f"the note: {note.text!r}")
        rows = [r.text for r in b.all("#scene-diagnostics tbody tr") if "presentation-covered" in r.text]
        expect(rows and "warning" in rows[0] and '"editor" is wholly covered by "help"' in rows[0],
               f"no presentation-covered warning for the editor: {rows}")
        shots.append(b.shot(shots_dir, "scene-rtl.png", scroll_to="#scene-pickers"))
        type_scene(default_scene)
        b.collect()
        return rows[0][:100]

    def at_390_an_edit_shows():
        d.set_window_size(390, 844)
        try:
            reload()
            at = b.js(RECTS_JS)
            top = lambda k: at[k]["top"] + at["scrollY"]
            expect(top("pickers") < top("picture"), f"the pickers are not above the picture: {at}")
            expect(top("picture") < at["height"], f"the picture starts {top('picture'):.0f} px down")
            gap = top("editor") - (top("picture") + at["picture"]["height"])
            expect(0 <= gap < 250, f"the editor is {gap:.0f} px below the picture")
            expect(top("details") > top("editor"), "the tables come before the editor")
            # An edit from the pickers, scrolled to as a user does: the picture it changes is on screen.
            b.js("document.getElementById('scene-device').scrollIntoView({block: 'start'})")
            before = b.pictures_shown()
            Select(b.by("#scene-device")).select_by_value("iphone-duo")
            b.wait(lambda _: b.pictures_shown() > before and resolved(), "the picture of the edit")
            box = b.js("return document.getElementById('scene-picture').getBoundingClientRect().toJSON()")
            visible = min(box["bottom"], at["height"]) - max(box["top"], 0)
            expect(visible > at["height"] * 0.4, f"only {visible:.0f} px of the changed picture is on screen")
            shots.append(b.shot(shots_dir, "scene-390-edit.png", scroll_to="#scene-device"))
            b.click("#scene-undo")
            b.wait(lambda _: resolved() and "iphone-duo" not in editor_text(), "the edit undone")
        finally:
            d.set_window_size(1400, 1000)
        b.collect()
        return f"pickers at {top('pickers'):.0f}, picture at {top('picture'):.0f}, editor {gap:.0f} px under it"

    run([
        ("an edited scene survives a reload (kept in this browser), and leaving an edited page asks first", edited_scene_survives_a_reload),
        ("during a JSON typo the pickers keep the last parsed values, marked stale", pickers_keep_their_values_during_a_typo),
        ("covered layers are outlined unlike detent lines, tagged with their ids, with their own key entry", covered_layers_are_labelled),
        ("right-to-left says anchors are not mirrored; a popover hiding a presentation gets presentation-covered", right_to_left_says_where_anchors_are),
        ("at 390 px the pickers, the picture and the editor come first, and an edit's picture is on screen", at_390_an_edit_shows),
    ])
