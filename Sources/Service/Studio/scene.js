// The Scene view: a JSON editor with pickers that patch it; every change is resolved by the API (debounced,
// one request at a time, the latest text wins, not recorded) and shown as the server's wireframe at the
// width it has on screen, the layers, the diagnostics and the placements. A scene the API refuses shows
// each error under the editor, and what is shown from the last scene that resolved is marked stale.
// "Record" resolves the current scene once more with recording on. "Copy SwiftUI" asks the API for the SwiftUI
// view of the current text and copies it; when the browser refuses the clipboard, the code is shown selected for
// copying by hand. Changes the studio makes to the text
// (pickers, a matrix combination, a device) can be undone until the designer types. The constant-set picker
// writes the scene's "constantSet" like the other pickers; compare mode (compare.js) draws the scene under a
// second set beside it. The text is kept in this browser across reloads (keep.js). While the text is not
// JSON the pickers keep the values of the last text that was, marked stale.
import { call, constantSets, devices, pictureText, showPicture, svgURL, swiftUISource, widthOf } from "./api.js";
import { el, fill, frameText, problemList, select, setOptions, table } from "./dom.js";
import { compose, coverage, drawnPlacements, outlineKeyEntry } from "./picture.js";
import { indexOfByte, locate } from "./locate.js";
import { mountCompare } from "./compare.js";
import { keepText, keptText, warnOnLeave } from "./keep.js";

const DEFAULT_SCENE = {
  device: "iphone-16",
  presentations: [
    { id: "tools", kind: "adaptivePanel" },
    {
      id: "editor", kind: "sheet", placement: "trailing", detents: ["medium", "large"],
      backgroundInteraction: { upThrough: "medium" },
      toolbar: [
        { title: "Cancel", placement: "cancellationAction", systemImage: "xmark" },
        { title: "Save", placement: "confirmationAction", systemImage: "checkmark" },
      ],
    },
    { id: "help", kind: "popover", presentedFrom: "editor", anchor: { x: 120, y: 200, width: 44, height: 44 } },
  ],
  arrangement: { style: "split", secondary: { ratio: 0.35 } },
};

const CHOICES = {
  posture: ["flat", "halfOpened", "closed"],
  orientation: ["portrait", "landscape"],
  layoutDirection: ["ltr", "rtl"],
};
const LABELS = { posture: "Posture", orientation: "Orientation", layoutDirection: "Layout direction", constantSet: "Constants" };
const DEBOUNCE_MS = 250;
const HISTORY = 50;
const NOTE_CHARACTERS = 40;

/** The constant-set picker's `[value, label]` pairs: none, `default`, then each set (latest) and its versions. */
function setChoices(sets, named) {
  const short = (note) => (note && note.length > NOTE_CHARACTERS ? `${note.slice(0, NOTE_CHARACTERS - 1)}…` : note);
  const choices = [["", "(none: built-in values)"], ["default", "default (built-in values)"]];
  for (const set of sets.filter((s) => !s.retired)) {
    choices.push([set.name, `${set.name} (latest: @${set.latestVersion})`]);
    for (const v of set.versions) choices.push([v.reference, `${v.reference}${v.note ? ` — ${short(v.note)}` : ""}`]);
  }
  if (typeof named === "string" && named && !choices.some(([value]) => value === named)) choices.push([named, `${named} (unknown)`]);
  return choices;
}

export function mountScene(panel, studio) {
  const editor = el("textarea", { id: "scene-json", spellcheck: "false", autocapitalize: "off", rows: 22, "aria-describedby": "scene-status" });
  const status = el("p", { id: "scene-status", class: "status", role: "status", "aria-live": "polite" });
  const errors = el("div", { id: "scene-errors", class: "editor-errors" });
  const [deviceLabel, device] = select("scene-device", "Device", [["", "(scene's window)"]], () => patch("device", device.value));
  const [displayLabel, display] = select("scene-display", "Display", [["", "(default)"]], () => patch("display", display.value));
  const [setLabel, constantSet] = select("scene-constant-set", "Constants", [["", "(none: built-in values)"]], () => patch("constantSet", constantSet.value));
  const pickers = { device, display, constantSet };
  const pickerFields = [el("div", { class: "field" }, deviceLabel, device), el("div", { class: "field" }, displayLabel, display)];
  for (const [key, values] of Object.entries(CHOICES)) {
    const [label, control] = select(`scene-${key}`, LABELS[key], [["", "(default)"], ...values.map((v) => [v, v])], () => patch(key, control.value));
    pickers[key] = control;
    pickerFields.push(el("div", { class: "field" }, label, control));
  }
  pickerFields.push(el("div", { class: "field constant-set-field" }, setLabel, constantSet));
  const compare = mountCompare({
    options: () => setChoices(sets, currentScene()?.constantSet),
    current: () => currentScene()?.constantSet ?? "",
    onToggle: (on) => { output.dataset.compare = String(on); },
  });
  const undo = el("button", { type: "button", id: "scene-undo", class: "secondary", disabled: true, onclick: () => undoLast() }, "Undo");
  const record = el("button", { type: "button", id: "scene-record", class: "secondary", onclick: () => recordScene() }, "Record this scene");
  const recorded = el("p", { id: "scene-recorded", class: "status", role: "status", "aria-live": "polite" });
  const copySwiftUI = el("button", { type: "button", id: "scene-copy-swiftui", class: "secondary", onclick: () => copyScene() }, "Copy SwiftUI");
  const swiftUIStatus = el("p", { id: "scene-swiftui-status", class: "status", role: "status", "aria-live": "polite" });
  const swiftUIErrors = el("div", { id: "scene-swiftui-errors", class: "editor-errors" });
  const swiftUICode = el("textarea", { id: "scene-swiftui-code", readonly: true, spellcheck: "false", autocapitalize: "off", rows: 12 });
  const swiftUIFallback = el("div", { id: "scene-swiftui-fallback", class: "swiftui-fallback", hidden: true },
    el("label", { for: "scene-swiftui-code" }, "SwiftUI (selected: copy it with Ctrl+C or ⌘C)"), swiftUICode);
  const picture = el("img", { id: "scene-picture", class: "wireframe", alt: "Wireframe of the resolved scene" });
  const frame = el("div", { class: "picture-frame" }, picture);
  const caption = el("figcaption", { id: "scene-caption" }, "Resolving…");
  const used = el("p", { id: "scene-constant-set-used", class: "hint" });
  const figure = el("figure", { class: "picture", id: "scene-figure", tabindex: "-1", "aria-labelledby": "scene-caption" }, frame, caption);
  const stale = el("p", { id: "scene-stale", class: "stale-banner", hidden: true },
    "Stale: the picture, layers and tables below are those of the last scene that resolved, not of the text in the editor.");
  const outline = el("input", { type: "checkbox", id: "scene-outline", checked: true, onchange: () => recompose() });
  const layerList = el("ul", { id: "scene-layer-list", class: "layer-list" });
  const outlineKey = outlineKeyEntry();
  const layers = el("fieldset", { id: "scene-layers", class: "layers" },
    el("legend", {}, "Layers, top first: untick one to see what it covers"),
    layerList, el("label", { class: "check outline-choice" }, outline, " Outline layers under others"), outlineKey);
  const placements = el("div", { id: "scene-placements" });
  const diagnostics = el("div", { id: "scene-diagnostics" });
  const details = el("div", { class: "scene-details" }, el("h2", {}, "Diagnostics"), diagnostics, el("h2", {}, "Placements"), placements);
  const output = el("div", { class: "scene-output", id: "scene-output" },
    compare.controls, stale, compare.view, layers, figure, used, details);
  const pickersStale = el("p", { id: "scene-pickers-stale", class: "hint stale-note", hidden: true },
    "Stale: the pickers show the last text that was JSON; fix the text to use them.");
  const rtlNote = el("p", { id: "scene-rtl-note", class: "hint", hidden: true },
    "Right-to-left: anchors (and a fold given in the scene) stay where the scene puts them — x counts from the ",
    "window's left edge in both directions — so they are not mirrored. The mirrored scene has each anchor at x′ = W − x − width.");
  const pickerSet = el("fieldset", { class: "pickers", id: "scene-pickers", "aria-describedby": "scene-pickers-stale" },
    el("legend", {}, "Environment"), pickerFields, pickersStale, rtlNote);

  fill(panel,
    el("div", { class: "scene-layout" },
      el("div", { class: "scene-input" },
        pickerSet,
        el("label", { for: "scene-json" }, "Scene (JSON, resolved as you type)"),
        editor, errors, status,
        el("div", { class: "actions" }, record, copySwiftUI, undo), recorded, swiftUIStatus, swiftUIErrors, swiftUIFallback),
      output));

  let catalog = [];
  let sets = [];
  let timer = null;
  let inFlight = false;
  let again = false;
  let shownFirst = false;
  const history = [];
  const hidden = new Set();
  // The last picture: its SVG text, the resolution it shows and the scene text it was asked for.
  let shown = { svg: null, resolution: null, text: null, width: 0 };
  let pictureRun = 0;

  // The last text that parsed as an object: what the pickers show while the text is not JSON.
  let lastParsed = {};

  function currentScene() {
    try {
      const scene = JSON.parse(editor.value);
      return scene && typeof scene === "object" && !Array.isArray(scene) ? scene : null;
    } catch {
      return null;
    }
  }

  /** Replaces the editor's text on the designer's behalf, keeping the old text for Undo. */
  function replaceText(text, what) {
    if (text === editor.value) return;
    history.push({ text: editor.value, what });
    if (history.length > HISTORY) history.shift();
    editor.value = text;
    keep();
    showUndo();
    syncPickers();
    clearTimeout(timer);
    run();
  }

  function showUndo() {
    const last = history[history.length - 1];
    undo.disabled = !last;
    undo.textContent = last ? `Undo: ${last.what}` : "Undo";
  }

  function undoLast() {
    const last = history.pop();
    if (!last) return;
    editor.value = last.text;
    keep();
    showUndo();
    syncPickers();
    run();
    editor.focus();
  }

  function patch(key, value) {
    const scene = currentScene();
    if (!scene) {
      status.textContent = "The scene is not a JSON object: fix it before using the pickers.";
      syncPickers();
      return;
    }
    if (value) scene[key] = value;
    else delete scene[key];
    if (key === "device") delete scene.display;
    replaceText(JSON.stringify(scene, null, 2), `${LABELS[key] ?? key} ${value || "(default)"}`);
  }

  function syncPickers() {
    const parsed = currentScene();
    if (parsed) lastParsed = parsed;
    const scene = parsed ?? lastParsed;
    pickerSet.dataset.stale = String(!parsed);
    pickersStale.hidden = Boolean(parsed);
    const anchored = (scene.presentations ?? []).some?.((p) => p && typeof p === "object" && p.anchor);
    rtlNote.hidden = !(scene.layoutDirection === "rtl" && (anchored || scene.fold));
    const profile = catalog.find((d) => d.id === scene.device);
    const deviceOptions = [["", "(scene's window)"], ...catalog.map((d) => [d.id, `${d.name} (${d.id})`])];
    if (typeof scene.device === "string" && !profile) deviceOptions.push([scene.device, `${scene.device} (unknown)`]);
    setOptions(device, deviceOptions);
    device.value = typeof scene.device === "string" ? scene.device : "";
    setOptions(display, [["", "(default)"], ...(profile?.displays ?? []).map((d) => [d.id, `${d.id} (${d.width} × ${d.height})`])]);
    display.value = profile?.displays.some((d) => d.id === scene.display) ? scene.display : "";
    for (const key of Object.keys(CHOICES)) pickers[key].value = CHOICES[key].includes(scene[key]) ? scene[key] : "";
    // A set named in the text shows in the picker (one the server does not list, as unknown).
    setOptions(constantSet, setChoices(sets, scene.constantSet));
    constantSet.value = typeof scene.constantSet === "string" ? scene.constantSet : "";
    compare.setChoices();
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  }

  async function run() {
    if (inFlight) { again = true; return; }
    inFlight = true;
    const text = editor.value;
    try {
      await resolve(text);
    } finally {
      inFlight = false;
      if (again || text !== editor.value) { again = false; run(); }
    }
  }

  /** Selects what `target` ({pointer} or {offset}) names in the editor and scrolls it into view. */
  function showInEditor(target) {
    const text = editor.value;
    let range = null;
    if (target.offset !== undefined) {
      const at = indexOfByte(text, target.offset);
      range = { start: at, end: Math.min(text.length, at + 1) };
    } else {
      range = locate(text, target.pointer);
    }
    if (!range) return;
    editor.focus();
    editor.setSelectionRange(range.start, range.end);
    const line = text.slice(0, range.start).split("\n").length - 1;
    const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 18;
    editor.scrollTop = Math.max(0, line * lineHeight - editor.clientHeight / 3);
  }

  function setStale(isStale) {
    output.dataset.stale = String(isStale);
    stale.hidden = !isStale;
  }

  async function resolve(text) {
    status.textContent = "Resolving…";
    const result = await call("POST", "/v1/resolve", { body: text, record: false });
    if (text !== editor.value) return;  // a newer edit is waiting; its answer is the one to show
    if (!result.ok) {
      fill(errors, problemList(result.data, showInEditor));
      const count = (result.data?.errors?.length ?? 0) || 1;
      status.textContent = `Not resolved (${result.status || "no answer"}): ${count} error${count === 1 ? "" : "s"}, listed just above.`;
      setStale(shownFirst);
      panel.dataset.state = "error";
      return;
    }
    fill(errors);
    setStale(false);
    showResolution(result.data);
    status.textContent = `Resolved: ${result.data.placements?.length ?? 0} placements, ${result.data.diagnostics?.length ?? 0} diagnostics.`;
    compare.update(text, result.data);
    await loadPicture(text, result.data);
  }

  /** Asks for the picture of `text` at the width it has on screen, then shows it with the layers applied. */
  async function loadPicture(text, resolution) {
    const run = ++pictureRun;
    const width = widthOf(frame);
    const pic = await pictureText("POST", `/v1/resolve?format=svg&width=${width}`, { body: text, record: false });
    if (run !== pictureRun) return;
    if (!pic.svg) {
      fill(errors, problemList(pic.problem, showInEditor));
      return;
    }
    shown = { svg: pic.svg, resolution, text, width };
    picture.dataset.width = String(width);
    recompose();
    const env = resolution.environment ?? {};
    caption.textContent = [env.device ?? "custom window", env.display, env.posture, env.orientation, env.layoutDirection]
      .filter(Boolean).join(" · ");
  }

  /** Shows the last picture with the hidden layers and outlines as they are now chosen. */
  function recompose() {
    if (!shown.svg) return;
    const composed = compose(shown.svg, shown.resolution, { hidden, outline: outline.checked });
    picture.dataset.hidden = [...hidden].filter((id) => drawnPlacements(shown.resolution).some((p) => p.id === id)).join(" ");
    picture.dataset.outlined = outline.checked ? composed.covered.join(" ") : "";
    outlineKey.hidden = !(outline.checked && composed.covered.length);
    picture.dataset.foldOutlined = String(composed.foldOutlined);
    showPicture(picture, svgURL(composed.svg));
  }

  function showLayers(resolution) {
    const drawn = drawnPlacements(resolution);
    const under = coverage(drawn);
    const rows = drawn.map((p, i) => {
      const box = el("input", { type: "checkbox", "data-id": p.id, checked: !hidden.has(p.id),
        "aria-label": `Show ${p.id}`, onchange: () => { if (box.checked) hidden.delete(p.id); else hidden.add(p.id); recompose(); } });
      return el("li", { class: under[i].length ? "layer covered" : "layer" },
        el("label", {}, box, " ", el("strong", {}, p.id), ` ${p.style ?? p.kind}`,
          under[i].length ? el("span", { class: "under" }, ` (under ${under[i].join(", ")})`) : null));
    }).reverse();
    fill(layerList, rows.length ? rows : el("li", {}, "Nothing is drawn."));
    layers.hidden = drawn.length === 0;
  }

  function showResolution(resolution) {
    showLayers(resolution);
    used.textContent = resolution.constantSet
      ? `Constants: ${resolution.constantSet} (the version the server used).`
      : "Constants: built-in values (the scene names no constant set).";
    used.dataset.constantSet = resolution.constantSet ?? "";
    const rows = (resolution.placements ?? []).map((p) => [
      p.id, p.kind, p.style ?? p.status, frameText(p.frame),
      (p.detents ?? []).map((d) => `${typeof d.detent === "string" ? d.detent : JSON.stringify(d.detent)} ${d.height}`).join(", ") || "—",
    ]);
    fill(placements, table(null, ["id", "kind", "style", "frame", "detents"], rows, "placements"));
    const diag = resolution.diagnostics ?? [];
    fill(diagnostics, diag.length
      ? table(null, ["code", "severity", "message", "path"],
        diag.map((d) => [el("code", {}, d.code), el("span", { class: `severity ${d.severity}` }, d.severity), d.message, el("code", {}, d.path)]), "diagnostics")
      : el("p", {}, "No diagnostics."));
  }

  async function recordScene() {
    fill(recorded, "Recording…");
    const text = editor.value;
    const result = await call("POST", "/v1/resolve", { body: text });
    const id = result.headers.get("Hinge-Record-Id");
    if (!id) {
      return fill(recorded, result.status === 0
        ? "Not recorded: the server did not answer."
        : "Not recorded: this server does not record (it runs with --no-record).");
    }
    fill(recorded, el("span", { class: "ok" }, `Recorded as #${id}${result.ok ? "" : ` (answer ${result.status})`}. `),
      el("button", { type: "button", class: "link", id: "scene-show-record", onclick: () => studio.showRecord(id) }, "Show it in the request log"));
  }

  /** Copies the SwiftUI view of the editor's text; shows the code selected when the clipboard is refused. */
  async function copyScene() {
    if (copySwiftUI.getAttribute("aria-busy") === "true") return;
    // Not disabled while busy: a disabled button would drop the keyboard focus.
    copySwiftUI.setAttribute("aria-busy", "true");
    swiftUIStatus.textContent = "Writing SwiftUI…";
    fill(swiftUIErrors);
    swiftUIFallback.hidden = true;
    try {
      const answer = await swiftUISource(editor.value);
      if (!answer.source) {
        fill(swiftUIErrors, problemList(answer.problem, showInEditor));
        swiftUIStatus.textContent = `No SwiftUI (${answer.status || "no answer"}): the problem is listed just below.`;
        return;
      }
      const lines = answer.source.split("\n").length - (answer.source.endsWith("\n") ? 1 : 0);
      try {
        await navigator.clipboard.writeText(answer.source);
        swiftUIStatus.textContent = `Copied ${lines} line${lines === 1 ? "" : "s"} of SwiftUI.`;
      } catch {
        swiftUICode.value = answer.source;
        swiftUIFallback.hidden = false;
        swiftUICode.focus();
        swiftUICode.select();
        swiftUICode.scrollTop = 0;  // the code's first lines in view, the whole of it selected
        swiftUIStatus.textContent = `The browser refused the clipboard: the SwiftUI (${lines} lines) is selected below, to copy with Ctrl+C or ⌘C.`;
      }
    } finally {
      copySwiftUI.removeAttribute("aria-busy");
    }
  }

  // The picture counts as shown once decoded (the browser tests wait on data-pictures).
  picture.addEventListener("load", () => {
    if (!shownFirst) performance.mark("hinge-first-wireframe");
    shownFirst = true;
    panel.dataset.state = output.dataset.stale === "true" ? "error" : "resolved";
    panel.dataset.pictures = String(Number(panel.dataset.pictures ?? 0) + 1);
  });
  // A new width asks for a picture laid out for it (text keeps its size rather than shrinking).
  let resizeTimer = null;
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (shown.svg && frame.clientWidth > 0 && Math.abs(widthOf(frame) - shown.width) > 8) loadPicture(shown.text, shown.resolution);
    }, 150);
  }).observe(frame);
  // Typing is undone by the editor itself; restoring a text from before it would throw the typing away.
  editor.addEventListener("input", () => { history.length = 0; showUndo(); keep(); syncPickers(); schedule(); });
  const example = JSON.stringify(DEFAULT_SCENE, null, 2);
  const kept = keptText();
  editor.value = kept ?? example;
  // Edited: changed since the page opened (the text it opened with is kept already).
  const opened = editor.value;
  warnOnLeave(() => editor.value !== opened);
  function keep() {
    if (!keepText(editor.value, editor.value === example)) recorded.textContent = "This browser does not keep the text: it is lost on reload.";
  }
  if (kept !== null && kept !== example) {
    fill(recorded, "The scene you were editing, kept in this browser. ",
      el("button", { type: "button", class: "link", id: "scene-example", onclick: () => { fill(recorded); replaceText(example, "open the example"); } },
        "Open the example instead"));
  }
  devices().then((items) => { catalog = items; syncPickers(); });
  constantSets().then((items) => { sets = items; syncPickers(); });
  syncPickers();
  run();

  return {
    /** Opens `scene` (an object), keeping the current text for Undo. */
    load(scene, what = "open a scene") {
      replaceText(JSON.stringify(scene, null, 2), what);
    },
    /** Puts device `id` in the scene, keeping its presentations; false when the text is not an object. */
    useDevice(id) {
      const scene = currentScene();
      if (!scene) {
        status.textContent = `The scene is not a JSON object: fix it, then open ${id} again.`;
        return false;
      }
      scene.device = id;
      delete scene.display;
      replaceText(JSON.stringify(scene, null, 2), `device ${id}`);
      return true;
    },
    focusPicture: () => figure.focus(),
    text: () => editor.value,
    shown() {
      devices().then((items) => { catalog = items; syncPickers(); });
      constantSets(true).then((items) => { sets = items; syncPickers(); });
    },
  };
}
