// The Scene view's compare mode: the scene in the editor resolved under two constant sets (the one the scene
// names, and a second one chosen here), drawn side by side. A placement whose frame, detent heights or
// visibility differ between the two is marked in both pictures and listed with its pointer and its value under
// each set (the columns are headed with the sets' names).
// The comparison's requests are not recorded (`Hinge-Record: off`); the latest scene wins.
import { call, pictureText, showPicture, svgURL, widthOf } from "./api.js";
import { el, fill, frameText, problemList, setOptions, table } from "./dom.js";
import { highlight } from "./picture.js";

const detentText = (detents) => (Array.isArray(detents) && detents.length
  ? detents.map((d) => `${typeof d.detent === "string" ? d.detent : JSON.stringify(d.detent)} ${d.height}`).join(", ")
  : "—");
const shownText = (p) => (p ? (p.status === "presented" && p.frame ? "shown" : p.status) : "absent");
const sameFrame = (a, b) => ["x", "y", "width", "height"].every((k) => (a?.[k] ?? null) === (b?.[k] ?? null));

/**
 * What differs between two resolutions of one scene, placement by placement (matched by id):
 * `[{id, pointer, before, after}]`, one entry per aspect that changed (visibility, frame, detents).
 */
export function moves(before, after) {
  const a = before?.placements ?? [];
  const b = after?.placements ?? [];
  const ids = [...new Set([...a, ...b].map((p) => p.id))];
  const out = [];
  for (const id of ids) {
    const i = a.findIndex((p) => p.id === id);
    const j = b.findIndex((p) => p.id === id);
    const p = a[i];
    const q = b[j];
    const at = `/placements/${i >= 0 ? i : j}`;
    if (shownText(p) !== shownText(q)) out.push({ id, pointer: `${at}/status`, before: shownText(p), after: shownText(q) });
    if (p && q && !sameFrame(p.frame, q.frame)) out.push({ id, pointer: `${at}/frame`, before: frameText(p.frame), after: frameText(q.frame) });
    if (p && q && detentText(p.detents) !== detentText(q.detents)) {
      out.push({ id, pointer: `${at}/detents`, before: detentText(p.detents), after: detentText(q.detents) });
    }
  }
  return out;
}

/**
 * The compare controls (a bar above the picture) and the comparison (which takes the picture's place).
 * `options()` answers the picker's `[value, label]` pairs and `current()` the scene's own set;
 * `update(text, resolution)` compares `text`, whose own resolution is `resolution`, when compare mode is on.
 */
export function mountCompare({ options, current, onToggle }) {
  const toggle = el("input", { type: "checkbox", id: "scene-compare", onchange: () => {
    if (toggle.checked) suggest();
    onToggle(toggle.checked);
    refresh();
  } });
  const other = el("select", { id: "compare-with", name: "compare-with", onchange: () => refresh() });
  const controls = el("div", { class: "compare-controls", id: "scene-compare-controls" },
    el("label", { class: "check" }, toggle, " Compare side by side"),
    el("label", { for: "compare-with" }, "with the constants of"), other);
  const status = el("p", { id: "compare-status", class: "status", role: "status", "aria-live": "polite" });
  const sides = [0, 1].map((k) => {
    const img = el("img", { id: `compare-picture-${k}`, class: "wireframe", alt: "" });
    const caption = el("figcaption", { id: `compare-caption-${k}` });
    const frame = el("div", { class: "picture-frame" }, img);
    return { img, caption, frame, figure: el("figure", { class: "picture", "aria-labelledby": `compare-caption-${k}` }, frame, caption) };
  });
  const list = el("div", { id: "compare-moves" });
  const view = el("section", { id: "scene-compare-output", class: "compare", hidden: true, "aria-labelledby": "compare-title" },
    el("h2", { id: "compare-title" }, "Compare"), status, list,
    el("div", { class: "compare-pictures" }, sides.map((s) => s.figure)));
  let last = { text: null, resolution: null };
  let generation = 0;

  function setChoices() {
    setOptions(other, options());
    if (!toggle.checked) suggest();
  }

  /** Chooses a second set other than the scene's own when the one chosen is the same (or none is). */
  function suggest() {
    const own = current();
    const values = options().map(([value]) => value);
    if (values.includes(other.value) && other.value !== own) return;
    other.value = values.find((v) => v !== own && v !== "") ?? "";
  }

  function refresh() {
    view.hidden = !toggle.checked;
    if (toggle.checked && last.text !== null) compare(last.text, last.resolution);
  }

  /** The scene with `constantSet` set to `reference` ("" removes it): the body of the second side. */
  function under(scene, reference) {
    const copy = { ...scene };
    if (reference) copy.constantSet = reference;
    else delete copy.constantSet;
    return JSON.stringify(copy);
  }

  async function compare(text, resolution) {
    const run = ++generation;
    let scene = null;
    try { scene = JSON.parse(text); } catch { scene = null; }
    if (!scene || typeof scene !== "object" || Array.isArray(scene)) return;
    view.dataset.state = "resolving";
    status.textContent = "Comparing…";
    const second = under(scene, other.value);
    const width = widthOf(sides[0].frame, 360);
    const [answer, picA, picB] = await Promise.all([
      call("POST", "/v1/resolve", { body: second, record: false }),
      pictureText("POST", `/v1/resolve?format=svg&width=${width}`, { body: text, record: false }),
      pictureText("POST", `/v1/resolve?format=svg&width=${width}`, { body: second, record: false }),
    ]);
    if (run !== generation) return;
    const problem = !answer.ok ? answer.data : picA.problem ?? picB.problem;
    if (problem) {
      view.dataset.state = "error";
      status.textContent = "";
      fill(list, problemList(problem));
      return;
    }
    show(resolution, answer.data, [picA.svg, picB.svg]);
  }

  function show(before, after, pictures) {
    const changed = moves(before, after);
    const ids = [...new Set(changed.map((m) => m.id))];
    const resolutions = [before, after];
    sides.forEach((s, k) => {
      const marked = (resolutions[k].placements ?? []).filter((p) => ids.includes(p.id) && p.status === "presented" && p.frame);
      const used = resolutions[k].constantSet ?? "built-in values";
      s.img.dataset.marked = marked.map((p) => p.id).join(" ");
      s.img.alt = `Wireframe under ${used}${ids.length ? `, moved placements marked: ${ids.join(", ")}` : ""}`;
      s.caption.textContent = `${k === 0 ? "This scene" : "Compared"}: ${used}`;
      showPicture(s.img, svgURL(highlight(pictures[k], marked.map((p) => p.frame))));
    });
    view.dataset.moved = ids.join(" ");
    view.dataset.state = "resolved";
    // The columns are headed with the sets, not "before"/"after": either side may be the newer one.
    const names = [before.constantSet ?? "built-in values", after.constantSet ?? "built-in values"];
    const heads = names[0] === names[1] ? [`${names[0]} (this scene)`, `${names[1]} (compared)`] : names;
    const between = `between ${names[0]} and ${names[1]}`;
    status.textContent = ids.length
      ? `${ids.length} placement${ids.length === 1 ? "" : "s"} moved ${between}: marked in both pictures.`
      : `Nothing moved ${between}.`;
    fill(list, changed.length
      ? table(null, ["id", "pointer", ...heads],
        changed.map((m) => [el("strong", {}, m.id), el("code", {}, m.pointer), m.before, m.after]), "moves")
      : null);
  }

  return {
    controls,
    view,
    enabled: () => toggle.checked,
    setChoices,
    update(text, resolution) {
      last = { text, resolution };
      if (toggle.checked) compare(text, resolution);
    },
  };
}
