// The plugins' panel, the same in every host: it edits the selected frame's scene (pickers from
// GET /v1/devices, a presentation form in the API's vocabulary, the scene as JSON), calls Hinge from the
// panel's own origin, lists diagnostics and errors, and posts resolutions to the main thread to draw. "Copy
// SwiftUI" copies the SwiftUI view Hinge writes for the scene (POST /v1/swiftui) and shows it.
// `transport` is the host's message channel ({post(message), listen(callback)}). Nothing from the API or
// the scene is inserted as markup: every text goes through textContent.
const HingePanel = (() => {
  const KINDS = ["sheet", "fullScreenCover", "popover", "adaptivePanel"];
  const CHOICES = {
    posture: ["flat", "halfOpened", "closed"],
    orientation: ["portrait", "landscape"],
    layoutDirection: ["ltr", "rtl"],
  };
  const SHEET_PLACEMENTS = ["automatic", "center", "leading", "trailing"];
  const TOOLBAR_PLACEMENTS = ["automatic", "cancellationAction", "confirmationAction", "primaryAction"];
  // A new frame starts with the presentations of Benchmarks/scenes/typical.json.
  const DEFAULT_PRESENTATIONS = [
    { id: "tools", kind: "adaptivePanel" },
    { id: "editor", kind: "sheet", placement: "trailing", detents: ["medium", "large"],
      backgroundInteraction: { upThrough: "medium" },
      toolbar: [{ title: "Cancel", placement: "cancellationAction", systemImage: "xmark" },
        { title: "Save", placement: "confirmationAction", systemImage: "checkmark" }] },
    { id: "help", kind: "popover", presentedFrom: "editor", anchor: { x: 120, y: 200, width: 44, height: 44 } },
  ];
  const SAVE_DELAY_MS = 300;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "on") for (const [event, fn] of Object.entries(v)) node.addEventListener(event, fn);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
    return node;
  }
  function fill(node, ...children) { node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined)); }
  function options(select, pairs, value) {
    fill(select, pairs.map(([v, label]) => el("option", { value: v }, label)));
    select.value = pairs.some(([v]) => v === value) ? value : pairs.length ? pairs[0][0] : "";
  }

  // Detents as a designer types them: medium, large, fitted, 300 (points), 40% (a fraction).
  function detentText(d) {
    if (typeof d === "string") return d;
    if (d && typeof d.height === "number") return String(d.height);
    if (d && typeof d.fraction === "number") return `${Math.round(d.fraction * 1000) / 10}%`;
    return JSON.stringify(d);
  }
  function parseDetent(token) {
    const t = token.trim();
    if (/^\d+(\.\d+)?%$/.test(t)) return { fraction: parseFloat(t) / 100 };
    if (/^\d+(\.\d+)?$/.test(t)) return { height: parseFloat(t) };
    return t;
  }
  // Toolbar items as "Title:placement:icon", separated by commas.
  function toolbarText(items) {
    return (items || []).map((i) => [i.title || "", i.placement || "", i.systemImage || ""].join(":").replace(/:+$/, "")).join(", ");
  }
  function parseToolbar(text) {
    return text.split(",").map((s) => s.trim()).filter(Boolean).map((s) => {
      const [title, placement, systemImage] = s.split(":").map((x) => x.trim());
      const item = { title };
      if (placement && placement !== "automatic") item.placement = placement;
      if (systemImage) item.systemImage = systemImage;
      return item;
    });
  }

  function start(transport, hostName) {
    const state = { frame: null, settings: { url: "http://localhost:8080", docsUrl: "", credential: "" }, devices: [], sets: null, busy: false };
    const $ = {};
    const root = document.getElementById("hinge");
    $.frame = el("p", { id: "frame", class: "frame" }, "Select a frame to describe its scene.");
    $.url = el("input", { id: "url", type: "url", spellcheck: "false" });
    $.docs = el("input", { id: "docs-url", type: "url", spellcheck: "false", placeholder: "where docs/ is published" });
    $.credential = el("input", { id: "credential", type: "password", spellcheck: "false", autocomplete: "off",
      placeholder: "only for a server that asks for one" });
    $.saveSettings = el("button", { id: "save-settings", type: "button", on: { click: saveSettings } }, "Save and reconnect");
    $.device = el("select", { id: "device", on: { change: () => patch("device", $.device.value) } });
    $.display = el("select", { id: "display", on: { change: () => patch("display", $.display.value) } });
    $.choices = {};
    for (const key of Object.keys(CHOICES)) {
      $.choices[key] = el("select", { id: key, on: { change: () => patch(key, $.choices[key].value) } });
    }
    $.set = el("select", { id: "constant-set", on: { change: () => patch("constantSet", $.set.value) } });
    $.setField = el("label", { class: "field", id: "constant-set-field", hidden: true }, "Constant set", $.set);
    $.arrangement = el("select", { id: "arrangement", on: { change: setArrangement } });
    $.presentations = el("div", { id: "presentations" });
    $.add = el("button", { id: "add", type: "button", on: { click: addPresentation } }, "Add presentation");
    $.json = el("textarea", { id: "scene-json", spellcheck: "false", rows: 10, on: { input: jsonEdited } });
    $.draw = el("button", { id: "draw", type: "button", class: "primary", on: { click: resolveAndDraw } }, "Resolve and draw");
    $.copy = el("button", { id: "copy-swiftui", type: "button", on: { click: copySwiftUI } }, "Copy SwiftUI");
    $.code = el("textarea", { id: "swiftui-code", readonly: true, spellcheck: "false", rows: 10 });
    $.codeField = el("label", { class: "field", id: "swiftui-field", hidden: true }, "SwiftUI", $.code);
    $.matrixDevices = el("div", { id: "matrix-devices", class: "checks" });
    $.matrixPostures = el("div", { id: "matrix-postures", class: "checks" });
    $.matrix = el("button", { id: "matrix", type: "button", on: { click: drawMatrix } }, "Draw the matrix");
    $.status = el("p", { id: "status", class: "status", role: "status", "aria-live": "polite" });
    $.errors = el("div", { id: "errors" });
    $.diagnostics = el("ul", { id: "diagnostics" });

    fill(root,
      el("header", {}, el("h1", {}, "Hinge"), $.frame),
      el("details", { id: "settings" }, el("summary", {}, "Settings"),
        el("label", { class: "field" }, "Hinge URL", $.url),
        el("label", { class: "field" }, "Rules documentation URL", $.docs),
        el("label", { class: "field" }, "API key or pairing token", $.credential), $.saveSettings),
      el("fieldset", { class: "pickers" }, el("legend", {}, "Environment"),
        el("label", { class: "field" }, "Device", $.device), el("label", { class: "field" }, "Display", $.display),
        el("label", { class: "field" }, "Posture", $.choices.posture),
        el("label", { class: "field" }, "Orientation", $.choices.orientation),
        el("label", { class: "field" }, "Layout direction", $.choices.layoutDirection), $.setField),
      el("fieldset", {}, el("legend", {}, "Presentations"), $.presentations, $.add,
        el("label", { class: "field" }, "Arrangement", $.arrangement)),
      el("details", { id: "json" }, el("summary", {}, "Scene JSON (paste a scene here)"), $.json),
      el("div", { class: "actions" }, $.draw, $.copy),
      $.status, $.errors, $.codeField,
      el("h2", {}, "Diagnostics"), $.diagnostics,
      el("details", { id: "matrix-box" }, el("summary", {}, "Matrix: devices × postures"),
        $.matrixDevices, $.matrixPostures, $.matrix));
    options($.arrangement, [["", "none"], ["split", "split"], ["overlay", "overlay"]], "");
    renderMatrixChoices();

    let saveTimer = null;

    function base() { return state.settings.url.replace(/\/+$/, ""); }
    function origin() { return self.origin; }
    function say(text) { $.status.textContent = text; }

    function currentScene() {
      try {
        const s = JSON.parse($.json.value);
        return s && typeof s === "object" && !Array.isArray(s) ? s : null;
      } catch {
        return null;
      }
    }
    function writeScene(scene) {
      $.json.value = JSON.stringify(scene, null, 2);
      render();
      scheduleSave();
    }
    function scheduleSave() {
      if (!state.frame) return;
      clearTimeout(saveTimer);
      const frameId = state.frame.id;
      saveTimer = setTimeout(() => transport.post({ type: "save-scene", frameId, scene: $.json.value }), SAVE_DELAY_MS);
    }
    // Without a device the window is the frame's size, unless the scene gives one.
    function frameWindow(scene, force) {
      if (!scene.device && state.frame && (force || !scene.window)) scene.window = { width: state.frame.width, height: state.frame.height };
      return scene;
    }

    function patch(key, value) {
      const scene = currentScene();
      if (!scene) { say("The scene JSON is not an object: fix it before using the pickers."); return; }
      if (value) scene[key] = value; else delete scene[key];
      if (key === "device") {
        delete scene.display;
        delete scene.window;
      }
      writeScene(frameWindow(scene, key === "device"));
    }

    function setArrangement() {
      const scene = currentScene();
      if (!scene) return;
      if ($.arrangement.value) scene.arrangement = Object.assign({}, scene.arrangement, { style: $.arrangement.value });
      else delete scene.arrangement;
      writeScene(scene);
    }

    function jsonEdited() {
      if (currentScene()) { render(); scheduleSave(); }
      else say("The scene JSON does not parse yet.");
    }

    function addPresentation() {
      const scene = currentScene();
      if (!scene) return;
      const list = Array.isArray(scene.presentations) ? scene.presentations : [];
      let n = list.length + 1;
      while (list.some((p) => p && p.id === `sheet-${n}`)) n++;
      list.push({ id: `sheet-${n}`, kind: "sheet" });
      scene.presentations = list;
      writeScene(scene);
    }

    // The form for one presentation: only members that differ from the API's defaults are written.
    function presentationRow(scene, p, index) {
      const list = scene.presentations;
      const update = (fn) => {
        const s = currentScene();
        if (!s || !Array.isArray(s.presentations) || !s.presentations[index]) return;
        fn(s.presentations[index], s);
        writeScene(s);
      };
      const set = (key, value, fallback) => update((q) => { if (value === fallback || value === "" || value === undefined) delete q[key]; else q[key] = value; });
      const id = el("input", { class: "p-id", value: p.id || "", "aria-label": "id", on: { change: (e) => set("id", e.target.value) } });
      const kind = el("select", { class: "p-kind", "aria-label": "kind", on: { change: (e) => update((q) => { q.kind = e.target.value; }) } });
      options(kind, KINDS.map((k) => [k, k]), p.kind);
      const from = el("select", { class: "p-from", "aria-label": "presented from", on: { change: (e) => set("presentedFrom", e.target.value, "") } });
      options(from, [["", "(root)"]].concat(list.slice(0, index).filter((q) => q && q.id).map((q) => [q.id, `from ${q.id}`])), p.presentedFrom || "");
      const remove = el("button", { type: "button", class: "p-remove", "aria-label": `remove ${p.id}`, on: { click: () => {
        const s = currentScene();
        if (!s) return;
        s.presentations.splice(index, 1);
        writeScene(s);
      } } }, "×");
      const details = [];
      if (p.kind === "sheet") {
        const detents = Array.isArray(p.detents) ? p.detents : ["large"];
        details.push(el("label", { class: "field" }, "Detents", el("input", { class: "p-detents", value: detents.map(detentText).join(", "),
          on: { change: (e) => update((q) => {
            const d = e.target.value.split(",").map((t) => t.trim()).filter(Boolean).map(parseDetent);
            if (d.length === 1 && d[0] === "large") delete q.detents; else q.detents = d;
          }) } })));
        const placement = el("select", { class: "p-placement", on: { change: (e) => set("placement", e.target.value, "automatic") } });
        options(placement, SHEET_PLACEMENTS.map((v) => [v, v]), p.placement || "automatic");
        details.push(el("label", { class: "field" }, "Placement", placement));
        const bi = p.backgroundInteraction;
        const biValue = bi && typeof bi === "object" && bi.upThrough !== undefined ? `upThrough:${detentText(bi.upThrough)}` : (bi || "disabled");
        const interaction = el("select", { class: "p-interaction", on: { change: (e) => update((q) => {
          const v = e.target.value;
          if (v === "disabled") delete q.backgroundInteraction;
          else if (v.startsWith("upThrough:")) q.backgroundInteraction = { upThrough: parseDetent(v.slice(10)) };
          else q.backgroundInteraction = v;
        }) } });
        options(interaction, [["disabled", "background disabled"], ["enabled", "background enabled"]]
          .concat(detents.map((d) => [`upThrough:${detentText(d)}`, `enabled up through ${detentText(d)}`])), biValue);
        details.push(el("label", { class: "field" }, "Background", interaction));
        details.push(el("label", { class: "field" }, "Toolbar", el("input", { class: "p-toolbar", value: toolbarText(p.toolbar),
          placeholder: "Cancel:cancellationAction:xmark, Save:confirmationAction:checkmark",
          on: { change: (e) => update((q) => { const t = parseToolbar(e.target.value); if (t.length) q.toolbar = t; else delete q.toolbar; }) } })));
      } else if (p.kind === "popover") {
        const a = p.anchor || {};
        details.push(el("label", { class: "field" }, "Anchor x, y, w, h", el("input", { class: "p-anchor",
          value: ["x", "y", "width", "height"].map((k) => (typeof a[k] === "number" ? a[k] : "")).join(", "),
          on: { change: (e) => update((q) => {
            const v = e.target.value.split(",").map((t) => parseFloat(t));
            if (v.length === 4 && v.every(Number.isFinite)) q.anchor = { x: v[0], y: v[1], width: v[2], height: v[3] };
            else delete q.anchor;
          }) } })));
      } else if (p.kind === "adaptivePanel") {
        const align = el("select", { class: "p-alignment", on: { change: (e) => set("alignment", e.target.value, "trailing") } });
        options(align, [["trailing", "trailing"], ["leading", "leading"]], p.alignment || "trailing");
        details.push(el("label", { class: "field" }, "Alignment", align));
        details.push(el("label", { class: "check" }, el("input", { type: "checkbox", class: "p-modal", checked: p.modal === true,
          on: { change: (e) => set("modal", e.target.checked, false) } }), "modal"));
      }
      return el("div", { class: "presentation", "data-index": index }, el("div", { class: "row" }, id, kind, from, remove), details);
    }

    function render() {
      const scene = currentScene();
      if (!scene) return;
      const profile = state.devices.find((d) => d.id === scene.device);
      const frameLabel = state.frame ? `(frame, ${state.frame.width}×${state.frame.height})` : "(the scene's window)";
      const devices = [["", frameLabel]].concat(state.devices.map((d) => [d.id, `${d.name} (${d.id})`]));
      if (typeof scene.device === "string" && !profile) devices.push([scene.device, `${scene.device} (unknown)`]);
      options($.device, devices, typeof scene.device === "string" ? scene.device : "");
      options($.display, [["", "(default)"]].concat((profile ? profile.displays : []).map((d) => [d.id, `${d.id} (${d.width}×${d.height})`])), scene.display || "");
      for (const key of Object.keys(CHOICES)) options($.choices[key], [["", "(default)"]].concat(CHOICES[key].map((v) => [v, v])), scene[key] || "");
      $.arrangement.value = scene.arrangement && scene.arrangement.style ? scene.arrangement.style : "";
      if (state.sets) options($.set, [["", "(defaults)"]].concat(state.sets.map((s) => [s, s])), scene.constantSet || "");
      const list = Array.isArray(scene.presentations) ? scene.presentations : [];
      fill($.presentations, list.map((p, i) => (p && typeof p === "object" ? presentationRow(scene, p, i) : null)));
      $.draw.disabled = !state.frame;
      $.matrix.disabled = !state.frame;
    }

    function renderMatrixChoices() {
      const checked = (name) => new Set([...document.querySelectorAll(`input[name=${name}]:checked`)].map((i) => i.value));
      const keepDevices = checked("matrix-device");
      const devices = state.devices.length ? state.devices.map((d) => d.id) : [];
      fill($.matrixDevices, devices.map((id) => el("label", { class: "check" },
        el("input", { type: "checkbox", name: "matrix-device", value: id, checked: keepDevices.size ? keepDevices.has(id) : ["iphone-16", "iphone-duo"].includes(id) }), id)));
      if (!$.matrixPostures.childElementCount) {
        fill($.matrixPostures, CHOICES.posture.map((p) => el("label", { class: "check" },
          el("input", { type: "checkbox", name: "matrix-posture", value: p, checked: p !== "closed" }), p)));
      }
    }

    // fetch from the panel's origin. A failure that is not an HTTP answer is either no server or no CORS
    // grant: an opaque (no-cors) request to /healthz tells them apart. With a credential in the settings
    // every call carries it as a bearer token (which makes the browser ask the server first: a preflight).
    async function call(method, path, body) {
      const url = base() + path;
      const headers = {};
      if (body) headers["Content-Type"] = "application/json";
      const credential = (state.settings.credential || "").trim();
      if (credential) headers.Authorization = `Bearer ${credential}`;
      let response;
      try {
        response = await fetch(url, { method, headers, body });
      } catch {
        return { ok: false, status: 0, problem: await unreachable() };
      }
      const text = await response.text();
      let data = null;
      try { data = text ? JSON.parse(text) : null; } catch { data = null; }
      return { ok: response.ok, status: response.status, data, text };
    }

    async function unreachable() {
      const port = (() => { try { return new URL(base()).port; } catch { return ""; } })();
      const command = `hinge serve${port ? ` --port ${port}` : ""} --cors-origin ${origin()}`;
      try {
        await fetch(`${base()}/healthz`, { mode: "no-cors" });
        return { kind: "cors", message: `Hinge at ${base()} answered, but not to this panel: its origin ${origin()} is not allowed. Restart it with: ${command}` };
      } catch {
        const where = hostName === "figma" ? " (and list its domain in the manifest's networkAccess)" : "";
        return { kind: "unreachable", message: `No Hinge server answers at ${base()}. Start one with: ${command} — or set the Hinge URL in Settings${where}.` };
      }
    }

    function showProblem(result) {
      const problem = result.problem || result.data || {};
      const items = [];
      if (result.problem) items.push(el("p", { class: `problem ${result.problem.kind}` }, result.problem.message));
      else {
        items.push(el("p", { class: "problem" }, `${result.status} ${problem.title || ""}: ${problem.detail || "the server refused the scene"}`));
        if (Array.isArray(problem.errors)) {
          items.push(el("ul", { class: "violations" }, problem.errors.map((e) => el("li", {}, el("code", {}, e.path || "/"), " ", e.message || ""))));
        }
      }
      fill($.errors, items);
    }

    function showDiagnostics(resolution) {
      // Only an http(s) address becomes a link.
      const docs = /^https?:\/\//.test(state.settings.docsUrl) ? state.settings.docsUrl.replace(/\/+$/, "") : "";
      fill($.diagnostics, (resolution.diagnostics || []).map((d) => {
        const anchor = HingeDrawing.ruleAnchor(d.code);
        const ref = anchor ? `rules.md#${anchor}` : null;
        const link = ref && docs ? el("a", { href: `${docs}/${ref}`, target: "_blank", rel: "noopener" }, ref) : ref ? el("code", {}, ref) : null;
        return el("li", { class: `diagnostic ${d.severity}` },
          el("span", { class: "severity" }, d.severity), " ", el("code", {}, d.code),
          d.presentation ? ` [${d.presentation}]` : "", " ", d.message, " ", link);
      }));
      if (!(resolution.diagnostics || []).length) fill($.diagnostics, el("li", { class: "none" }, "No diagnostics."));
    }

    async function resolveAndDraw() {
      const scene = currentScene();
      if (!scene || !state.frame) { say(state.frame ? "The scene JSON does not parse." : "Select a frame first."); return; }
      clearTimeout(saveTimer);  // drawing saves the scene on the frame
      say("Resolving…");
      const text = JSON.stringify(frameWindow(scene));
      const result = await call("POST", "/v1/resolve", text);
      if (!result.ok) {
        showProblem(result);
        fill($.diagnostics);
        say(result.status ? `Not resolved (${result.status}): nothing drawn.` : "Hinge did not answer: nothing drawn.");
        return;
      }
      fill($.errors);
      showDiagnostics(result.data);
      say("Drawing…");
      transport.post({ type: "draw", frameId: state.frame.id, scene: text, resolution: result.data });
    }

    // The clipboard API first; where the host's frame refuses it (Figma's, a Penpot frame without the
    // clipboard-write grant), the code is selected in the textarea and copied with execCommand; where that is
    // refused too, it stays selected for Ctrl+C.
    async function copySwiftUI() {
      const scene = currentScene();
      if (!scene) { say("The scene JSON does not parse."); return; }
      say("Writing SwiftUI…");
      const result = await call("POST", "/v1/swiftui", JSON.stringify(frameWindow(scene)));
      if (!result.ok) {
        showProblem(result);
        say(result.status ? `No SwiftUI (${result.status}).` : "Hinge did not answer: no SwiftUI.");
        return;
      }
      fill($.errors);
      const source = result.text;
      const lines = source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
      $.code.value = source;
      $.codeField.hidden = false;
      // A frame whose permissions policy leaves out clipboard-write is not asked (the browser would log a
      // violation): the code goes straight to execCommand.
      const policy = document.permissionsPolicy || document.featurePolicy;
      let copied = false;
      if (navigator.clipboard && (!policy || policy.allowsFeature("clipboard-write"))) {
        try {
          await navigator.clipboard.writeText(source);
          copied = true;
        } catch {
          copied = false;
        }
      }
      if (!copied) {
        $.code.focus();
        $.code.select();
        $.code.scrollTop = 0;
        try { copied = document.execCommand("copy"); } catch { copied = false; }
      }
      say(copied ? `Copied ${lines} lines of SwiftUI.` : `The panel may not use the clipboard: the SwiftUI (${lines} lines) is selected below, to copy with Ctrl+C or ⌘C.`);
    }

    async function drawMatrix() {
      const scene = currentScene();
      if (!scene || !state.frame) return;
      const devices = [...document.querySelectorAll("input[name=matrix-device]:checked")].map((i) => i.value);
      const postures = [...document.querySelectorAll("input[name=matrix-posture]:checked")].map((i) => i.value);
      if (!devices.length || !postures.length) { say("Choose at least one device and one posture."); return; }
      const base = Object.assign({}, scene);
      for (const key of ["device", "display", "posture", "orientation", "layoutDirection"]) delete base[key];
      if (!scene.device) delete base.window;
      const request = { scene: base, devices, postures, orientations: [scene.orientation || "portrait"], layoutDirections: [scene.layoutDirection || "ltr"] };
      clearTimeout(saveTimer);
      say("Resolving the matrix…");
      const result = await call("POST", "/v1/resolve/matrix", JSON.stringify(request));
      if (!result.ok) { showProblem(result); say(result.status ? `Matrix not resolved (${result.status}).` : "Hinge did not answer: nothing drawn."); return; }
      fill($.errors);
      say("Drawing the matrix…");
      transport.post({ type: "draw-matrix", frameId: state.frame.id, scene: JSON.stringify(base), results: result.data.results });
    }

    // Only the latest connection speaks: one started by an earlier save that answers late is dropped.
    let connection = 0;
    async function connect() {
      const mine = ++connection;
      const url = base();
      say(`Connecting to ${url}…`);
      const devices = await call("GET", "/v1/devices");
      if (mine !== connection) return;
      if (!devices.ok) { showProblem(devices); say(`Hinge did not answer at ${url}: check the URL in Settings.`); return; }
      fill($.errors);
      state.devices = Array.isArray(devices.data && devices.data.items) ? devices.data.items : [];
      // Constant sets are offered only by a server that lists them.
      const sets = await call("GET", "/v1/constant-sets");
      if (mine !== connection) return;
      // `{"constantSets": [{"name", "latestVersion", …}]}` (docs/api.md#constant-sets): each set pinned at its
      // latest version, as `name@n`.
      const items = sets.ok && sets.data && Array.isArray(sets.data.constantSets) ? sets.data.constantSets : null;
      state.sets = items
        ? items.filter((s) => s && s.name && s.latestVersion > 0).map((s) => `${s.name}@${s.latestVersion}`)
        : null;
      $.setField.hidden = !state.sets || state.sets.length === 0;
      renderMatrixChoices();
      render();
      say(`Connected to ${url}: ${state.devices.length} devices.`);
    }

    function saveSettings() {
      state.settings = { url: $.url.value.trim() || "http://localhost:8080", docsUrl: $.docs.value.trim(),
        credential: $.credential.value.trim() };
      transport.post({ type: "settings", settings: state.settings });
      connect();
    }

    let settingsLoaded = false;
    transport.listen((msg) => {
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "selection") {
        if (!settingsLoaded && msg.settings) {
          settingsLoaded = true;
          state.settings = Object.assign(state.settings, msg.settings);
          $.url.value = state.settings.url;
          $.docs.value = state.settings.docsUrl || "";
          $.credential.value = state.settings.credential || "";
          connect();
        }
        const changed = (msg.frame && msg.frame.id) !== (state.frame && state.frame.id);
        state.frame = msg.frame;
        if (!msg.frame) { $.frame.textContent = `Select a ${hostName === "penpot" ? "board" : "frame"} to describe its scene.`; render(); return; }
        $.frame.textContent = `${msg.frame.name} · ${msg.frame.width}×${msg.frame.height}`;
        if (changed) {
          const saved = msg.scene ? msg.scene : null;
          $.json.value = saved || JSON.stringify(frameWindow({ presentations: DEFAULT_PRESENTATIONS, arrangement: { style: "split", secondary: { ratio: 0.35 } } }, true), null, 2);
          fill($.errors);
          fill($.diagnostics);
          say(saved ? "The scene saved on this frame." : "A new scene for this frame.");
        }
        render();
      } else if (msg.type === "drawn") {
        say(`Drawn: ${msg.name}, ${msg.shapes} shapes ${msg.where} the frame.`);
      } else if (msg.type === "matrix-drawn") {
        say(`Matrix drawn: ${msg.frames} frames.`);
      } else if (msg.type === "error") {
        say(`Not drawn: ${msg.message}`);
      } else if (msg.type === "notice") {
        if (msg.error) say(msg.message);
      }
    });
    transport.post({ type: "ready" });
  }

  return { start };
})();
