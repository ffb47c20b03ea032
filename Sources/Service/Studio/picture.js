// The server's SVG wireframe, as text, made into what the Scene view shows: presentations the designer
// turned off are hidden, and those that later ones cover (and a covered fold) are outlined on top. The
// picture's structure is docs/svg.md's: one `<g class="P-presentation">` per drawn placement in the order of
// the resolution's placements, a scrim `<rect class="P-scrim">` just before the group it dims, and the window
// group translated to its place. Only fixed attributes, numbers and (escaped, as text) a covered layer's id
// are added — nothing from the scene or the API becomes markup — and the result is shown through `<img>`,
// where no script runs. A covered layer's outline is dotted over a white halo and carries a tag with its id,
// so that it does not read as one of the picture's dashed detent lines (the view's key says so).

import { el, svg } from "./dom.js";

const OUTLINE_FOLD = "#c03a2b";
const MOVED = "#d6336c";

/** `{width, height}` of the picture's viewBox (points), or null. */
export function viewBox(svg) {
  const m = /viewBox="0 0 ([0-9.]+) ([0-9.]+)"/.exec(svg);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
}

/** The placements the picture draws, in its order: presented, with a frame. */
export function drawnPlacements(resolution) {
  return (resolution?.placements ?? []).filter((p) => p.status === "presented" && p.frame);
}

function overlap(a, b) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0;
}

/** For each drawn placement, the ids of the later ones (not hidden) whose frames overlap it. */
export function coverage(drawn, hidden = new Set()) {
  return drawn.map((p, i) => drawn.slice(i + 1)
    .filter((q) => !hidden.has(q.id) && !hidden.has(p.id) && overlap(p.frame, q.frame))
    .map((q) => q.id));
}

/** Does a frame cover part of the fold: its band, or for a seamless fold the line, strictly inside the frame? */
function crossesFold(f, band) {
  const across = (start, size, at, extent) => (extent > 0
    ? Math.min(start + size, at + extent) - Math.max(start, at) > 0
    : start < at && at < start + size);
  return across(f.x, f.width, band.x, band.width) && across(f.y, f.height, band.y, band.height);
}

const n = (v) => String(Math.round(v * 100) / 100);

/** Text for SVG markup: `&`, `<`, `>`, `"` and `'` as entities. */
function escaped(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** The outline of a covered layer: a white halo, the dotted line in the layer's colour, and a tag with its id. */
function coveredOutline(p, stroke, u) {
  const f = p.frame;
  const box = `x="${n(f.x + u)}" y="${n(f.y + u)}" width="${n(Math.max(0, f.width - 2 * u))}" height="${n(Math.max(0, f.height - 2 * u))}"`;
  let out = `<g class="covered-layer" data-id="${escaped(p.id)}">`;
  out += `<rect ${box} stroke="#ffffff" stroke-width="${n(4 * u)}"/>`;
  out += `<rect ${box} stroke="${stroke}" stroke-width="${n(2 * u)}" stroke-linecap="round" stroke-dasharray="${n(0.5 * u)} ${n(4 * u)}"/>`;
  const label = `${p.id} (covered)`;
  const size = 11 * u;
  const width = Math.min(Math.max(0, f.width - 4 * u), label.length * size * 0.62 + 6 * u);
  if (width > 0) {
    out += `<rect x="${n(f.x + 2 * u)}" y="${n(f.y + 2 * u)}" width="${n(width)}" height="${n(size + 4 * u)}" fill="#ffffff" fill-opacity="0.9" stroke="${stroke}" stroke-width="${n(u)}"/>`;
    out += `<text x="${n(f.x + 5 * u)}" y="${n(f.y + 2 * u + size)}" font-family="system-ui, sans-serif" font-size="${n(size)}" fill="${stroke}" stroke="none">${escaped(label)}</text>`;
  }
  return `${out}</g>`;
}

/** The picture's class prefix, the window group's translation (a match: [, x, y]) and its pixels per point. */
function layout(svg) {
  const prefix = /class="(h[0-9a-f]{8})"/.exec(svg)?.[1];
  const origin = prefix
    ? new RegExp(`<g class="${prefix}-window" transform="translate\\(([-0-9.]+) ([-0-9.]+)\\)">`).exec(svg)
    : null;
  const scale = Number(/data-scale="([0-9.]+)"/.exec(svg)?.[1] ?? "1") || 1;
  return { prefix, origin, scale };
}

/**
 * `svg` with a solid frame (tinted inside) drawn on top over each of `frames` (window points): the compare
 * mode's mark for a placement that moved. Unchanged when the picture has no window group to place them in.
 */
export function highlight(svg, frames) {
  const { origin, scale } = layout(svg);
  if (!origin || !frames.length) return svg;
  const u = 1 / scale;
  let marks = `<g transform="translate(${origin[1]} ${origin[2]})" stroke-linejoin="round">`;
  for (const f of frames) {
    const box = `x="${n(f.x + 2 * u)}" y="${n(f.y + 2 * u)}" width="${n(Math.max(0, f.width - 4 * u))}" height="${n(Math.max(0, f.height - 4 * u))}"`;
    marks += `<rect ${box} fill="${MOVED}" fill-opacity="0.1" stroke="${MOVED}" stroke-width="${n(4 * u)}"/>`;
  }
  marks += "</g>";
  const end = svg.lastIndexOf("</svg>");
  return svg.slice(0, end) + marks + svg.slice(end);
}

function colour(text) {
  return /^#[0-9a-fA-F]{3,8}$/.test(text ?? "") ? text : "#111827";
}

/**
 * `{svg, covered, foldOutlined, matched}`: `svg` with the presentations of `hidden` (ids) not drawn and, when
 * `outline` is on, a dotted, tagged outline over every drawn placement that a later one overlaps and a dashed
 * line over a fold that a placement covers. `matched` is false when the picture's groups do not match the resolution (then nothing
 * is hidden; the outlines still are drawn from the resolution's numbers).
 */
export function compose(svg, resolution, { hidden = new Set(), outline = true } = {}) {
  const { prefix, origin, scale } = layout(svg);
  const drawn = drawnPlacements(resolution);
  const opener = `<g class="${prefix}-presentation" data-id="`;
  const parts = prefix ? svg.split(opener) : [svg];
  const matched = parts.length - 1 === drawn.length;
  const strokes = drawn.map(() => null);
  let out = svg;
  if (matched) {
    const off = drawn.map((p) => hidden.has(p.id));
    for (let k = 1; k < parts.length; k++) {
      strokes[k - 1] = /<path class="h[0-9a-f]{8}-shape" [^>]*stroke="([^"]*)"/.exec(parts[k])?.[1] ?? null;
      if (!off[k - 1]) continue;
      // Not drawn: the group, and the scrim just before it (a dimming presentation's own).
      const before = parts[k - 1];
      const scrim = before.lastIndexOf(`<rect class="${prefix}-scrim" `);
      if (scrim >= 0 && /^<rect [^>]*\/>\s*$/.test(before.slice(scrim))) {
        parts[k - 1] = before.slice(0, scrim) + '<rect display="none" ' + before.slice(scrim + "<rect ".length);
      }
    }
    out = parts[0] + parts.slice(1).map((part, i) => (off[i] ? opener.replace("<g ", '<g display="none" ') : opener) + part).join("");
  }
  const covers = coverage(drawn, hidden);
  const covered = drawn.filter((p, i) => covers[i].length > 0).map((p) => p.id);
  const band = resolution?.environment?.fold?.bounds;
  const foldCovered = Boolean(band) && drawn.some((p) => !hidden.has(p.id) && crossesFold(p.frame, band));
  if (!outline || !origin || (!covered.length && !foldCovered)) {
    return { svg: out, covered, foldOutlined: false, matched };
  }
  const u = 1 / scale;  // points per pixel of the layout box: strokes keep their pixel width
  let marks = `<g transform="translate(${origin[1]} ${origin[2]})" fill="none" stroke-linejoin="round">`;
  drawn.forEach((p, i) => {
    if (covers[i].length) marks += coveredOutline(p, colour(strokes[i]), u);
  });
  if (foldCovered) {
    const vertical = band.height >= band.width;
    const x1 = vertical ? band.x + band.width / 2 : band.x;
    const y1 = vertical ? band.y : band.y + band.height / 2;
    const x2 = vertical ? x1 : band.x + band.width;
    const y2 = vertical ? band.y + band.height : y1;
    const line = `x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}"`;
    marks += `<line ${line} stroke="#ffffff" stroke-width="${n(5 * u)}"/>`;
    marks += `<line ${line} stroke="${OUTLINE_FOLD}" stroke-width="${n(3 * u)}" stroke-dasharray="${n(10 * u)} ${n(5 * u)}"/>`;
  }
  marks += "</g>";
  const end = out.lastIndexOf("</svg>");
  return { svg: out.slice(0, end) + marks + out.slice(end), covered, foldOutlined: foldCovered, matched };
}

/** The view's key entry for the covered layers' outlines (shown while the picture has one). */
export function outlineKeyEntry() {
  return el("p", { id: "scene-outline-key", class: "outline-key", hidden: true },
    svg("svg", { width: 34, height: 16, viewBox: "0 0 34 16", "aria-hidden": "true" },
      svg("rect", { x: 2, y: 2, width: 30, height: 12, fill: "none", stroke: "#ffffff", "stroke-width": 4 }),
      svg("rect", { x: 2, y: 2, width: 30, height: 12, fill: "none", stroke: "currentColor", "stroke-width": 2,
        "stroke-linecap": "round", "stroke-dasharray": "0.5 4" })),
    "Key: a dotted outline tagged “(covered)” is a layer under a later one — not a detent line (those are dashed).");
}
