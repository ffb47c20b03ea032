// The Matrix view: the Scene view's scene across the chosen devices × postures × orientations × layout
// directions (POST /v1/resolve/matrix), one card per combination with the server's wireframe and the
// diagnostic codes. A card opens its combination in the Scene view.
import { call, devices, pictureURL, showPicture } from "./api.js";
import { el, fill, problemList } from "./dom.js";

const DIMENSIONS = [
  ["postures", "Postures", ["flat", "halfOpened", "closed"], ["flat", "halfOpened"]],
  ["orientations", "Orientations", ["portrait", "landscape"], ["portrait"]],
  ["layoutDirections", "Layout directions", ["ltr", "rtl"], ["ltr"]],
];
const DEFAULT_DEVICES = ["iphone-16", "iphone-duo"];
const PICTURES_AT_ONCE = 2;

function checkboxes(name, legend, values, checked) {
  return el("fieldset", { class: "choices", id: `matrix-${name}` }, el("legend", {}, legend),
    values.map(([value, label]) => el("label", { class: "check" },
      el("input", { type: "checkbox", name, value, checked: checked.includes(value) }), " ", label)));
}

function chosen(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
}

export function mountMatrix(panel, studio) {
  const deviceBox = el("div", { class: "device-choices" }, el("p", {}, "Loading devices…"));
  const status = el("p", { id: "matrix-status", class: "status", role: "status", "aria-live": "polite" });
  const grid = el("ol", { id: "matrix-grid", class: "grid", "aria-label": "Combinations" });
  const form = el("form", { id: "matrix-form", class: "matrix-form" },
    deviceBox,
    DIMENSIONS.map(([name, legend, values, checked]) => checkboxes(name, legend, values.map((v) => [v, v]), checked)),
    el("div", { class: "actions" }, el("button", { type: "submit", id: "matrix-run" }, "Resolve the matrix")),
  );
  fill(panel, el("p", { class: "hint" }, "Resolves the Scene view's scene in every combination chosen below."), form, status, grid);

  devices().then((items) => {
    fill(deviceBox, checkboxes("devices", "Devices", items.map((d) => [d.id, d.name]), DEFAULT_DEVICES));
  });

  let generation = 0;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const run = ++generation;
    let scene;
    try {
      scene = JSON.parse(studio.sceneText());
    } catch {
      fill(grid);
      status.textContent = "The Scene view's text is not JSON: fix it there first.";
      return;
    }
    const request = { scene, devices: chosen(form, "devices") };
    for (const [name] of DIMENSIONS) request[name] = chosen(form, name);
    status.textContent = "Resolving the matrix…";
    const result = await call("POST", "/v1/resolve/matrix", { json: request });
    if (run !== generation) return;
    if (!result.ok) {
      fill(grid);
      status.textContent = "";
      status.append(problemList(result.data));
      return;
    }
    const results = result.data.results ?? [];
    status.textContent = `${results.length} combinations.`;
    const jobs = [];
    fill(grid, results.map((r) => card(r, scene, jobs)));
    grid.dataset.combinations = String(results.length);
    await drain(jobs, run);
    if (run === generation) status.textContent = `${results.length} combinations, pictures loaded.`;
  });

  function card(result, scene, jobs) {
    const combined = { ...scene, device: result.device, posture: result.posture, orientation: result.orientation, layoutDirection: result.layoutDirection };
    const title = `${result.device} · ${result.posture} · ${result.orientation} · ${result.layoutDirection}`;
    const codes = result.resolution
      ? [...new Set((result.resolution.diagnostics ?? []).map((d) => d.code))]
      : [];
    const body = el("div", { class: "thumb" });
    if (result.resolution) {
      const img = el("img", { alt: `Wireframe: ${title}`, class: "wireframe" });
      body.append(img);
      jobs.push(async () => {
        const pic = await pictureURL("POST", "/v1/resolve?format=svg", JSON.stringify(combined));
        if (pic.url) showPicture(img, pic.url);
        else fill(body, problemList(pic.problem));
      });
    } else {
      body.append(el("ul", { class: "issues" }, (result.errors ?? []).map((e) => el("li", {}, el("code", { class: "pointer" }, e.path), " ", e.message))));
    }
    return el("li", { class: "cell" },
      el("button", { type: "button", class: "open", "aria-label": `Open ${title} in the Scene view`, onclick: () => studio.openScene(combined) },
        el("span", { class: "title" }, title)),
      body,
      el("p", { class: "codes" }, result.resolution ? (codes.length ? codes.map((c) => el("code", {}, c)) : "no diagnostics") : "not resolvable"));
  }

  async function drain(jobs, run) {
    const workers = Array.from({ length: PICTURES_AT_ONCE }, async () => {
      while (jobs.length && run === generation) await jobs.shift()();
    });
    await Promise.all(workers);
  }

  return {};
}
