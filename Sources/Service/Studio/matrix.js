// The Matrix view: the Scene view's scene across the chosen devices × postures × orientations × layout
// directions, in one request (POST /v1/resolve/matrix?pictures=svg&width=…, not recorded) that answers each
// combination with its wireframe; one card per combination with the diagnostic codes. Every wireframe is
// shown at one scale (pixels per point), so shapes compare across devices: a wider window gets a wider
// card. A card opens its combination in the Scene view.
import { call, devices, pictureText, showPicture, svgURL } from "./api.js";
import { el, fill, problemList } from "./dom.js";
import { viewBox } from "./picture.js";

const DIMENSIONS = [
  ["postures", "Postures", ["flat", "halfOpened", "closed"], ["flat", "halfOpened"]],
  ["orientations", "Orientations", ["portrait", "landscape"], ["portrait"]],
  ["layoutDirections", "Layout directions", ["ltr", "rtl"], ["ltr"]],
];
const DEFAULT_DEVICES = ["iphone-16", "iphone-duo"];
// The width each picture is asked for: the narrowest at which the server draws its text full size
// (docs/svg.md); cards of wider windows are shown larger than this, never smaller.
const PICTURE_WIDTH = 320;
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
  fill(panel, el("p", { class: "hint" },
    "Resolves the Scene view's scene in every combination chosen below. Every picture is drawn at one scale, so sizes compare."),
  form, status, grid);

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
    let result = await call("POST", `/v1/resolve/matrix?pictures=svg&width=${PICTURE_WIDTH}`, { json: request, record: false });
    // A server that does not draw pictures in a matrix answer refuses the parameter: ask without it.
    if (result.status === 400 && result.data?.parameter === "pictures") {
      result = await call("POST", "/v1/resolve/matrix", { json: request, record: false });
    }
    if (run !== generation) return;
    if (!result.ok) {
      fill(grid);
      fill(status, problemList(result.data));
      return;
    }
    const results = result.data.results ?? [];
    status.textContent = `${results.length} combinations.`;
    const cards = results.map((r) => card(r, scene));
    fill(grid, cards.map((c) => c.node));
    grid.dataset.combinations = String(results.length);
    // A server that does not draw the pictures in the matrix answer: one picture request per card.
    const missing = cards.filter((c) => c.needsPicture);
    const workers = Array.from({ length: PICTURES_AT_ONCE }, async () => {
      while (missing.length && run === generation) {
        const c = missing.shift();
        const pic = await pictureText("POST", `/v1/resolve?format=svg&width=${PICTURE_WIDTH}`,
          { body: JSON.stringify(c.scene), record: false });
        if (pic.svg) c.show(pic.svg);
        else c.fail(pic.problem);
      }
    });
    await Promise.all(workers);
    if (run !== generation) return;
    rescale(cards);
    status.textContent = `${results.length} combinations, pictures loaded.`;
  });

  /**
   * One scale for every picture: the largest pixels-per-point among them (so none is shown smaller than asked),
   * as far as the cards' room allows: a picture wider than its card at that scale is shown as wide as the card.
   */
  function rescale(cards) {
    const drawn = cards.filter((c) => c.box);
    const scale = Math.max(...drawn.map((c) => PICTURE_WIDTH / c.box.width));
    for (const c of drawn) {
      const width = Math.max(PICTURE_WIDTH, Math.min(Math.round(c.box.width * scale), roomIn(c)));
      c.img.style.width = `${width}px`;
    }
    grid.dataset.scale = drawn.length ? String(scale) : "";
  }

  /** The width a card's picture may take: the grid's, less the card's padding and border. */
  function roomIn(c) {
    const card = c.img.closest(".cell");
    const style = getComputedStyle(card);
    const chrome = ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"].reduce((sum, k) => sum + (parseFloat(style[k]) || 0), 0);
    return Math.floor(grid.clientWidth - chrome);
  }

  function card(result, scene) {
    const combined = { ...scene, device: result.device, posture: result.posture, orientation: result.orientation, layoutDirection: result.layoutDirection };
    const title = `${result.device} · ${result.posture} · ${result.orientation} · ${result.layoutDirection}`;
    const codes = result.resolution ? [...new Set((result.resolution.diagnostics ?? []).map((d) => d.code))] : [];
    const body = el("div", { class: "thumb" });
    const c = { scene: combined, img: null, box: null, needsPicture: false };
    c.show = (text) => {
      c.box = viewBox(text);
      showPicture(c.img, svgURL(text));
    };
    c.fail = (problem) => fill(body, problemList(problem));
    if (result.resolution) {
      c.img = el("img", { alt: `Wireframe: ${title}`, class: "wireframe", width: PICTURE_WIDTH });
      body.append(c.img);
      if (typeof result.svg === "string") c.show(result.svg);
      else c.needsPicture = true;
    } else {
      body.append(el("ul", { class: "issues" }, (result.errors ?? []).map((e) => el("li", {}, el("code", { class: "pointer" }, e.path), " ", e.message))));
    }
    c.node = el("li", { class: "cell" },
      el("button", { type: "button", class: "open", "aria-label": `Open ${title} in the Scene view`,
        onclick: () => studio.openScene(combined, `open ${title}`) },
      el("span", { class: "title" }, title)),
      body,
      el("p", { class: "codes" }, result.resolution ? (codes.length ? codes.map((code) => el("code", {}, code)) : "no diagnostics") : "not resolvable"));
    return c;
  }

  return {};
}
