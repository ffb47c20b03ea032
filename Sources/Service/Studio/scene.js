// The Scene view: a JSON editor with pickers that patch it; every change is resolved by the API (debounced,
// one request at a time, the latest text wins) and shown as the server's wireframe, the placements and the
// diagnostics. A scene the API refuses shows each error beside its JSON pointer and keeps the last picture.
import { call, devices, pictureURL, showPicture } from "./api.js";
import { el, fill, frameText, problemList, select, setOptions, table } from "./dom.js";

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
const DEBOUNCE_MS = 250;

export function mountScene(panel, studio) {
  const editor = el("textarea", { id: "scene-json", spellcheck: "false", autocapitalize: "off", rows: 24, "aria-describedby": "scene-status" });
  const status = el("p", { id: "scene-status", class: "status", role: "status", "aria-live": "polite" });
  const [deviceLabel, device] = select("scene-device", "Device", [["", "(scene's window)"]], () => patch("device", device.value));
  const [displayLabel, display] = select("scene-display", "Display", [["", "(default)"]], () => patch("display", display.value));
  const pickers = { device, display };
  const pickerFields = [el("div", { class: "field" }, deviceLabel, device), el("div", { class: "field" }, displayLabel, display)];
  for (const [key, values] of Object.entries(CHOICES)) {
    const [label, control] = select(`scene-${key}`, { posture: "Posture", orientation: "Orientation", layoutDirection: "Layout direction" }[key],
      [["", "(default)"], ...values.map((v) => [v, v])], () => patch(key, control.value));
    pickers[key] = control;
    pickerFields.push(el("div", { class: "field" }, label, control));
  }
  const picture = el("img", { id: "scene-picture", class: "wireframe", alt: "Wireframe of the resolved scene" });
  const caption = el("figcaption", { id: "scene-caption" }, "Resolving…");
  const errors = el("div", { id: "scene-errors" });
  const placements = el("div", { id: "scene-placements" });
  const diagnostics = el("div", { id: "scene-diagnostics" });

  fill(panel,
    el("div", { class: "scene-layout" },
      el("div", { class: "scene-input" },
        el("fieldset", { class: "pickers" }, el("legend", {}, "Environment"), pickerFields),
        el("label", { for: "scene-json" }, "Scene (JSON, resolved as you type)"),
        editor, status),
      el("div", { class: "scene-output" },
        el("figure", { class: "picture" }, picture, caption),
        errors,
        el("h2", {}, "Diagnostics"), diagnostics,
        el("h2", {}, "Placements"), placements)));

  let catalog = [];
  let timer = null;
  let inFlight = false;
  let again = false;
  let shownFirst = false;

  function currentScene() {
    try {
      const scene = JSON.parse(editor.value);
      return scene && typeof scene === "object" && !Array.isArray(scene) ? scene : null;
    } catch {
      return null;
    }
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
    editor.value = JSON.stringify(scene, null, 2);
    syncPickers();
    schedule();
  }

  function syncPickers() {
    const scene = currentScene() ?? {};
    const profile = catalog.find((d) => d.id === scene.device);
    const deviceOptions = [["", "(scene's window)"], ...catalog.map((d) => [d.id, `${d.name} (${d.id})`])];
    if (typeof scene.device === "string" && !profile) deviceOptions.push([scene.device, `${scene.device} (unknown)`]);
    setOptions(device, deviceOptions);
    device.value = typeof scene.device === "string" ? scene.device : "";
    setOptions(display, [["", "(default)"], ...(profile?.displays ?? []).map((d) => [d.id, `${d.id} (${d.width} × ${d.height})`])]);
    display.value = profile?.displays.some((d) => d.id === scene.display) ? scene.display : "";
    for (const key of Object.keys(CHOICES)) pickers[key].value = CHOICES[key].includes(scene[key]) ? scene[key] : "";
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

  async function resolve(text) {
    status.textContent = "Resolving…";
    const result = await call("POST", "/v1/resolve", { body: text });
    if (text !== editor.value) return;  // a newer edit is waiting; its answer is the one to show
    if (!result.ok) {
      fill(errors, problemList(result.data));
      status.textContent = `Not resolved (${result.status || "no answer"}): see the errors beside the picture.`;
      caption.textContent = shownFirst ? "The last scene that resolved (the current text has errors)." : "No scene has resolved yet.";
      panel.dataset.state = "error";
      return;
    }
    fill(errors);
    showResolution(result.data);
    const recordId = result.headers.get("Hinge-Record-Id");
    const pic = recordId
      ? await pictureURL("GET", `/v1/requests/${encodeURIComponent(recordId)}/svg`)
      : await pictureURL("POST", "/v1/resolve?format=svg", text);
    if (!pic.url) {
      fill(errors, problemList(pic.problem));
      return;
    }
    showPicture(picture, pic.url);
    const env = result.data.environment ?? {};
    caption.textContent = [env.device ?? "custom window", env.display, env.posture, env.orientation, env.layoutDirection]
      .filter(Boolean).join(" · ");
    status.textContent = `Resolved: ${result.data.placements?.length ?? 0} placements, ${result.data.diagnostics?.length ?? 0} diagnostics.`;
  }

  function showResolution(resolution) {
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

  // The picture counts as shown once decoded (the browser tests wait on data-pictures).
  picture.addEventListener("load", () => {
    if (!shownFirst) performance.mark("hinge-first-wireframe");
    shownFirst = true;
    panel.dataset.state = "resolved";
    panel.dataset.pictures = String(Number(panel.dataset.pictures ?? 0) + 1);
  });
  editor.addEventListener("input", () => { syncPickers(); schedule(); });
  editor.value = JSON.stringify(DEFAULT_SCENE, null, 2);
  devices().then((items) => { catalog = items; syncPickers(); });
  syncPickers();
  run();

  return {
    load(scene) {
      editor.value = JSON.stringify(scene, null, 2);
      syncPickers();
      clearTimeout(timer);
      run();
    },
    text: () => editor.value,
    shown() { devices().then((items) => { catalog = items; syncPickers(); }); },
  };
}
