// The Devices view: the catalog (built-in and custom), a profile's displays drawn to scale with their safe
// areas and fold, and a form that creates, replaces (PUT with If-Match) and deletes custom profiles.
import { call, devices } from "./api.js";
import { el, fill, pretty, problemList, svg, table } from "./dom.js";

const DRAWING_HEIGHT = 200;  // CSS pixels for the tallest display of a profile
const TEMPLATE_DISPLAYS = [{
  id: "main", width: 800, height: 1280, cornerRadius: 24, safeArea: { top: 24, bottom: 20 },
  sizeClasses: { portrait: { horizontal: "regular", vertical: "regular" }, landscape: { horizontal: "regular", vertical: "regular" } },
}];

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

export function mountDevices(panel, studio) {
  const list = el("div", { id: "devices-list" });
  const detail = el("section", { id: "device-detail", class: "device-detail" });
  const status = el("div", { id: "device-status", class: "status", role: "status", "aria-live": "polite" });
  const form = el("form", { id: "device-form", class: "device-form", "aria-labelledby": "device-form-title" },
    el("h2", { id: "device-form-title" }, "Custom profile"),
    el("div", { class: "field" }, el("label", { for: "device-id" }, "Id"),
      el("input", { id: "device-id", name: "id", required: true, pattern: "[A-Za-z0-9._\\-]{1,128}", autocomplete: "off" })),
    el("div", { class: "field" }, el("label", { for: "device-name" }, "Name"), el("input", { id: "device-name", name: "name", required: true })),
    el("div", { class: "field" }, el("label", { for: "device-kind" }, "Kind"),
      el("select", { id: "device-kind", name: "kind" }, ["phone", "tablet", "foldable", "desktop"].map((k) => el("option", { value: k }, k)))),
    el("div", { class: "field wide" }, el("label", { for: "device-displays" }, "Displays (JSON array, portrait points)"),
      el("textarea", { id: "device-displays", name: "displays", rows: 10, spellcheck: "false" })),
    el("p", { id: "device-etag", class: "hint" }),
    el("div", { class: "actions" },
      el("button", { type: "submit", id: "device-save" }, "Save (PUT)"),
      el("button", { type: "button", id: "device-delete", class: "danger" }, "Delete"),
      el("button", { type: "button", id: "device-new", class: "secondary" }, "New")),
    status);
  fill(panel, el("div", { class: "devices-layout" }, el("div", {}, list, detail), form));

  // The ETag of the profile loaded into the form (sent as If-Match), or null for a new profile.
  let etag = null;

  function setForm(profile, tag) {
    form.elements.id.value = profile?.id ?? "";
    form.elements.name.value = profile?.name ?? "";
    form.elements.kind.value = profile?.kind ?? "tablet";
    form.elements.displays.value = pretty(profile?.displays ?? TEMPLATE_DISPLAYS);
    etag = tag;
    document.getElementById("device-etag").textContent = tag
      ? `Editing ${profile.id} as of ETag ${tag}: saving replaces it only if nobody changed it since.`
      : "A new profile (saving creates it; an existing id is replaced).";
  }

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
        el("button", { type: "button", class: "secondary", onclick: () => studio.openScene({ device: profile.id, presentations: [] }) }, "Open in the Scene view"),
        profile.builtIn
          ? el("button", { type: "button", class: "secondary", onclick: () => setForm({ ...profile, id: `${profile.id}-copy`, name: `${profile.name} (copy)` }, null) }, "Copy into the form")
          : el("button", { type: "button", class: "secondary", onclick: () => setForm(profile, result.headers.get("ETag")) }, "Edit in the form")));
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
    const headers = etag ? { "If-Match": etag } : {};
    const result = await call(method, `/v1/devices/${encodeURIComponent(id)}`, { json: body, headers });
    if (result.status === 401) {
      if (await studio.askForKey("This server needs its API key to change profiles. It is kept for this tab only.")) return write(method);
      return fill(status, "Not saved: the server needs its API key for writes (401).");
    }
    if (result.status === 412) {
      return fill(status, el("p", { class: "problem", role: "alert" },
        "Not saved: someone changed or deleted this profile since you loaded it (412 Precondition Failed). Show it again and reapply your edit."));
    }
    if (result.status === 403) return fill(status, el("p", { class: "problem", role: "alert" }, "Built-in profiles are read-only (403): copy it under a new id."));
    if (!result.ok) return fill(status, problemList(result.data));
    if (method === "DELETE") {
      setForm(null, null);
      fill(detail);
      fill(status, el("p", { class: "ok" }, `Deleted ${id}.`));
    } else {
      setForm(result.data ?? body, result.headers.get("ETag"));
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
  return { shown: refresh };
}
