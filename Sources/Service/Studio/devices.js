// The Devices view: the catalog (built-in and custom), a profile's displays drawn to scale with their safe
// areas and fold, and a form that creates (PUT with If-None-Match: *), replaces (PUT with If-Match: the
// profile loaded, under the same id) and deletes custom profiles. Each kind starts from a template that fits
// it: a foldable's has a display with a fold. Its Constants tab (constants.js) shows the constant sets.
import { call, devices, writesNeedKey } from "./api.js";
import { el, fill, pretty, problemList, svg, table } from "./dom.js";
import { mountConstants } from "./constants.js";

const DRAWING_HEIGHT = 200;  // CSS pixels for the tallest display of a profile
const REGULAR = { horizontal: "regular", vertical: "regular" };
const TEMPLATES = {
  phone: [{
    id: "main", width: 390, height: 844, cornerRadius: 47, safeArea: { top: 47, bottom: 34 },
    landscapeSafeArea: { leading: 47, bottom: 21, trailing: 47 },
    sizeClasses: { portrait: { horizontal: "compact", vertical: "regular" }, landscape: { horizontal: "compact", vertical: "compact" } },
  }],
  tablet: [{
    id: "main", width: 800, height: 1280, cornerRadius: 24, safeArea: { top: 24, bottom: 20 },
    sizeClasses: { portrait: REGULAR, landscape: REGULAR },
  }],
  // A book-style foldable: a phone-sized outer screen, an inner one with a seamless fold at its middle.
  foldable: [
    {
      id: "outer", width: 376, height: 832, cornerRadius: 52, safeArea: { top: 59, bottom: 34 },
      landscapeSafeArea: { leading: 59, bottom: 21, trailing: 59 },
      sizeClasses: { portrait: { horizontal: "compact", vertical: "regular" }, landscape: { horizontal: "compact", vertical: "compact" } },
    },
    {
      id: "inner", width: 752, height: 832, cornerRadius: 24, safeArea: { top: 24, bottom: 20 },
      fold: { orientation: "vertical", position: 376, thickness: 0 },
      sizeClasses: { portrait: REGULAR, landscape: REGULAR },
    },
  ],
  desktop: [{ id: "main", width: 1440, height: 900, sizeClasses: { portrait: REGULAR, landscape: REGULAR } }],
};
const TEMPLATE_TEXTS = new Set(Object.values(TEMPLATES).map((t) => pretty(t)));

/** One display in portrait points: outline, safe-area bands, fold. Only the API's numbers, scaled by the viewBox. */
let drawings = 0;

function drawDisplay(display, scale) {
  const { width: w, height: h } = display;
  const inset = display.safeArea ?? {};
  const clip = `display-clip-${++drawings}`;  // a generated id: nothing from the API names an element
  const parts = [
    svg("clipPath", { id: clip }, svg("rect", { x: 0, y: 0, width: w, height: h, rx: display.cornerRadius ?? 0 })),
    svg("rect", { class: "display", x: 0, y: 0, width: w, height: h, rx: display.cornerRadius ?? 0 }),
    svg("rect", { class: "unsafe", x: 0, y: 0, width: w, height: inset.top ?? 0 }),
    svg("rect", { class: "unsafe", x: 0, y: h - (inset.bottom ?? 0), width: w, height: inset.bottom ?? 0 }),
    svg("rect", { class: "unsafe", x: 0, y: 0, width: inset.leading ?? 0, height: h }),
    svg("rect", { class: "unsafe", x: w - (inset.trailing ?? 0), y: 0, width: inset.trailing ?? 0, height: h }),
  ];
  const fold = display.fold;
  if (fold) {
    const t = fold.thickness ?? 0;
    parts.push(fold.orientation === "vertical"
      ? svg("line", { class: "fold", x1: fold.position, y1: 0, x2: fold.position, y2: h, "stroke-width": Math.max(t, 4) })
      : svg("line", { class: "fold", x1: 0, y1: fold.position, x2: w, y2: fold.position, "stroke-width": Math.max(t, 4) }));
  }
  const drawing = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w * scale, height: h * scale, role: "img",
    "aria-label": `Display ${display.id}: ${w} × ${h} points` }, svg("title", {}, `${display.id}: ${w} × ${h} pt`),
    parts[0], svg("g", { "clip-path": `url(#${clip})` }, parts.slice(1)));
  return el("figure", { class: "display-figure" }, drawing,
    el("figcaption", {}, `${display.id}: ${w} × ${h} pt, safe area top ${inset.top ?? 0}, bottom ${inset.bottom ?? 0}, leading ${inset.leading ?? 0}, trailing ${inset.trailing ?? 0}`,
      fold ? `; fold ${fold.orientation} at ${fold.position}` : "; no fold"));
}

/**
 * The view's two tabs, Profiles (`profiles`, the node given) and Constants (mounted when first shown); arrow
 * keys, Home and End move between them. Answers `{open(), constants}`.
 */
function subTabs(panel, studio, profiles) {
  const names = [["profiles", "Profiles"], ["constants", "Constants"]];
  const tabs = names.map(([name, label]) => el("button", { role: "tab", type: "button", id: `devices-tab-${name}`,
    "aria-controls": `devices-panel-${name}`, onclick: () => select(name) }, label));
  const panels = names.map(([name]) => el("div", { role: "tabpanel", id: `devices-panel-${name}`, "aria-labelledby": `devices-tab-${name}`, tabindex: "0" }));
  panels[0].append(profiles);
  const state = { current: "profiles", constants: null, open: () => state.current };
  function select(name, focus = false) {
    state.current = name;
    names.forEach(([n], i) => {
      const on = n === name;
      tabs[i].setAttribute("aria-selected", String(on));
      tabs[i].tabIndex = on ? 0 : -1;
      panels[i].hidden = !on;
      if (on && focus) tabs[i].focus();
    });
    if (name === "constants") {
      if (state.constants) state.constants.shown();
      else state.constants = mountConstants(panels[1], studio);
    }
  }
  tabs.forEach((tab, i) => tab.addEventListener("keydown", (event) => {
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(names[(next + names.length) % names.length][0], true);
  }));
  fill(panel, el("div", { role: "tablist", class: "subtabs", "aria-label": "Devices and constants" }, tabs), panels);
  select("profiles");
  return state;
}

export function mountDevices(panel, studio) {
  const list = el("div", { id: "devices-list" });
  const detail = el("section", { id: "device-detail", class: "device-detail" });
  const status = el("div", { id: "device-status", class: "status", role: "status", "aria-live": "polite" });
  const foldWarning = el("p", { id: "device-fold-warning", class: "problem", hidden: true },
    "A foldable needs a display with a \"fold\": without one it could not fold, and the server refuses it.");
  const form = el("form", { id: "device-form", class: "device-form", "aria-labelledby": "device-form-title" },
    el("h2", { id: "device-form-title" }, "Custom profile"),
    el("div", { class: "field" }, el("label", { for: "device-id" }, "Id"),
      el("input", { id: "device-id", name: "id", required: true, pattern: "[A-Za-z0-9._\\-]{1,128}", autocomplete: "off" })),
    el("div", { class: "field" }, el("label", { for: "device-name" }, "Name"), el("input", { id: "device-name", name: "name", required: true })),
    el("div", { class: "field" }, el("label", { for: "device-kind" }, "Kind"),
      el("select", { id: "device-kind", name: "kind" }, Object.keys(TEMPLATES).map((k) => el("option", { value: k }, k)))),
    el("div", { class: "field wide" }, el("label", { for: "device-displays" }, "Displays (JSON array, portrait points)"),
      el("textarea", { id: "device-displays", name: "displays", rows: 10, spellcheck: "false" })),
    foldWarning,
    el("p", { id: "device-etag", class: "hint" }),
    el("p", { id: "device-writes", class: "hint" }, writesNeedKey()
      ? "This server needs its API key for writes: it is asked for on the first save."
      : "This server takes writes without an API key."),
    el("div", { class: "actions" },
      el("button", { type: "submit", id: "device-save" }, "Save (PUT)"),
      el("button", { type: "button", id: "device-delete", class: "danger" }, "Delete"),
      el("button", { type: "button", id: "device-new", class: "secondary" }, "New")),
    status);
  const parts = subTabs(panel, studio, el("div", { class: "devices-layout" }, el("div", {}, list, detail), form));

  // The profile loaded into the form: its id and ETag (sent as If-Match only while the id is unchanged), or
  // nulls for a new profile.
  let loaded = { id: null, etag: null };

  function setForm(profile, tag) {
    form.elements.id.value = profile?.id ?? "";
    form.elements.name.value = profile?.name ?? "";
    form.elements.kind.value = profile?.kind ?? "tablet";
    form.elements.displays.value = pretty(profile?.displays ?? TEMPLATES[form.elements.kind.value]);
    loaded = { id: tag ? profile.id : null, etag: tag };
    showEtag();
    checkFold();
  }

  function showEtag() {
    const id = form.elements.id.value.trim();
    document.getElementById("device-etag").textContent = loaded.etag && id === loaded.id
      ? `Editing ${loaded.id} as of ETag ${loaded.etag}: saving replaces it only if nobody changed it since.`
      : loaded.etag
        ? `A new id: saving creates ${id || "it"}, and leaves ${loaded.id} as it is.`
        : "A new profile: saving creates it (an id that exists is refused).";
  }

  /** A foldable whose displays parse and have no fold is pointed out before it is sent. */
  function checkFold() {
    let displays = null;
    try { displays = JSON.parse(form.elements.displays.value); } catch { displays = null; }
    foldWarning.hidden = !(form.elements.kind.value === "foldable" && Array.isArray(displays)
      && !displays.some((d) => d && typeof d === "object" && d.fold));
  }

  // A kind starts from its template, unless the displays were edited.
  form.elements.kind.addEventListener("change", () => {
    if (TEMPLATE_TEXTS.has(form.elements.displays.value)) form.elements.displays.value = pretty(TEMPLATES[form.elements.kind.value]);
    checkFold();
  });
  form.elements.displays.addEventListener("input", checkFold);
  form.elements.id.addEventListener("input", showEtag);

  async function refresh() {
    const items = await devices(true);
    fill(list, table(null, ["id", "name", "kind", "displays", "source"], items.map((d) => [
      el("button", { type: "button", class: "link", onclick: () => show(d.id), "aria-label": `Show ${d.id}` }, d.id),
      d.name, d.kind, d.displays.map((x) => `${x.id} ${x.width}×${x.height}`).join(", "), d.builtIn ? "built-in" : "custom",
    ]), "devices"));
  }

  async function show(id) {
    const result = await call("GET", `/v1/devices/${encodeURIComponent(id)}`);
    if (!result.ok) return fill(detail, problemList(result.data));
    const profile = result.data;
    const tallest = Math.max(...profile.displays.map((d) => d.height));
    fill(detail,
      el("h2", {}, `${profile.name} — ${profile.id}`),
      el("p", {}, `${profile.kind}, ${profile.builtIn ? "built-in (read-only)" : "custom"}${profile.illustrative ? ", illustrative" : ""}`),
      el("div", { class: "displays" }, profile.displays.map((d) => drawDisplay(d, DRAWING_HEIGHT / tallest))),
      el("div", { class: "actions" },
        el("button", { type: "button", class: "secondary", id: "device-open-scene", onclick: () => studio.useDevice(profile.id) },
          "Use in the Scene view"),
        profile.builtIn
          ? el("button", { type: "button", class: "secondary", id: "device-copy", onclick: () => setForm({ ...profile, id: `${profile.id}-copy`, name: `${profile.name} (copy)` }, null) }, "Copy into the form")
          : el("button", { type: "button", class: "secondary", id: "device-edit", onclick: () => setForm(profile, result.headers.get("ETag")) }, "Edit in the form")));
  }

  async function write(method) {
    const id = form.elements.id.value.trim();
    if (!id) return fill(status, "Give the profile an id.");
    let body;
    if (method === "PUT") {
      let displays;
      try {
        displays = JSON.parse(form.elements.displays.value);
      } catch (error) {
        return fill(status, `The displays are not JSON: ${error.message}`);
      }
      body = { name: form.elements.name.value, kind: form.elements.kind.value, displays };
    }
    // The ETag belongs to the profile loaded: under another id the save is a create, never a replace.
    const replacing = Boolean(loaded.etag) && id === loaded.id;
    const headers = replacing ? { "If-Match": loaded.etag } : method === "PUT" ? { "If-None-Match": "*" } : {};
    const result = await call(method, `/v1/devices/${encodeURIComponent(id)}`, { json: body, headers });
    if (result.status === 401) {
      const reason = result.sentKey
        ? "401 — the server refused this key. Check it and enter it again; it is kept for this tab only."
        : "This server needs its API key to change profiles. It is kept for this tab only.";
      if (await studio.askForKey(reason, result.sentKey)) return write(method);
      return fill(status, el("p", { class: "problem", role: "alert" },
        `Not saved: the server needs its API key for writes (401${result.sentKey ? ", the key given was refused" : ""}).`));
    }
    if (result.status === 412) {
      return fill(status, el("p", { class: "problem", role: "alert" }, replacing
        ? "Not saved: someone changed or deleted this profile since you loaded it (412 Precondition Failed). Show it again and reapply your edit."
        : `Not saved: a profile "${id}" already exists (412 Precondition Failed). Show it and edit it, or choose another id.`));
    }
    if (result.status === 403) return fill(status, el("p", { class: "problem", role: "alert" }, "Built-in profiles are read-only (403): copy it under a new id."));
    if (!result.ok) return fill(status, problemList(result.data));
    if (method === "DELETE") {
      setForm(null, null);
      fill(detail);
      fill(status, el("p", { class: "ok" }, `Deleted ${id}.`));
    } else {
      setForm(result.data ?? { ...body, id }, result.headers.get("ETag"));
      fill(status, el("p", { class: "ok" }, `Saved ${id} (${result.status === 201 ? "created" : "replaced"}).`));
      show(id);
    }
    await refresh();
  }

  form.addEventListener("submit", (event) => { event.preventDefault(); write("PUT"); });
  document.getElementById("device-delete").addEventListener("click", () => write("DELETE"));
  document.getElementById("device-new").addEventListener("click", () => { setForm(null, null); fill(status); });
  setForm(null, null);
  refresh().then(() => show("iphone-duo"));
  return { shown: () => (parts.open() === "constants" ? parts.constants?.shown() : refresh()) };
}
