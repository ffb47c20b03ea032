// Hinge drawing instructions: a resolution of POST /v1/resolve (and the scene that asked for it) turned into
// host-neutral shapes — rectangles, lines and texts with names, colours and window coordinates — that a
// design tool's adapter creates one for one. Every rectangle of a frame from the API (window, regions, fold,
// safe area, arrangement views, placements, scrims) carries the API's numbers unchanged; the toolbar bar and
// its items are laid out inside their placement, and detent lines lie at each detent's height from the
// sheet's bottom, as docs/svg.md draws them. Plain JavaScript, no DOM: it runs in a plugin's main thread.
const HingeDrawing = (() => {
  // Each diagnostic code and the docs/rules.md anchor of the rule that produces it (the table of
  // docs/rules.md#diagnostics; scripts/plugin-tests.py checks that the two agree).
  const RULE_ANCHORS = {
    "posture-ignored": "posture",
    "chained-modal": "modal-stack",
    "concurrent-presentation": "modal-stack",
    "placement-moved-by-fold": "placement-moved-by-fold",
    "detents-ignored": "full-window-sheet",
    "placement-no-effect": "bottom-sheet",
    "detent-clamped": "detent-heights",
    "unsaved-changes-dismissible": "dismissal",
    "toolbar-item-missing-icon": "toolbar",
    "toolbar-missing-exit": "toolbar",
    "fitted-accessibility-risk": "dynamic-type-risk",
    "content-spans-fold": "full-screen-cover",
    "placement-ignored": "stray-placement",
    "popover-adapted": "popover-adaptation",
    "panel-clamped": "adaptive-panel",
    "panel-snapped-to-fold": "panel-snapping",
    "prefer-navigation": "present-or-navigate",
    "prefer-sheet": "present-or-navigate",
    "prefer-cover-or-guard": "present-or-navigate",
    "arrangement-in-scroll-container": "arrangement",
    "split-follows-fold": "split",
    "secondary-hidden": "split",
    "presentation-covered": "covered-presentation",
    "unknown-field": "unknown-fields",
  };

  // One colour pair (fill, stroke) per placement, in request order.
  const PALETTE = [
    ["#dbe8fb", "#2563eb"], ["#f6e0d5", "#b4532a"], ["#e9e1fb", "#7c3aed"],
    ["#d9f2e6", "#15803d"], ["#fbe3ec", "#be185d"], ["#fdf1cf", "#a16207"],
  ];
  const INK = "#111827";
  const MUTED = "#4b5563";
  const TEXT = 12;           // label size, in points of the canvas
  const SMALL = 10;
  const CHIP = 18;           // a toolbar item's thickness
  const GAP = 4;

  function num(v) { return typeof v === "number" && Number.isFinite(v) ? v : 0; }
  function fmt(v) { return String(Math.round(num(v) * 100) / 100); }
  function size(f) { return `${fmt(f.width)}×${fmt(f.height)}`; }
  function frameOf(f) {
    return f && typeof f === "object"
      ? { x: num(f.x), y: num(f.y), width: num(f.width), height: num(f.height) } : null;
  }

  /** The group's name: what, where, which device, posture and orientation. */
  function title(resolution) {
    const env = resolution.environment || {};
    const device = env.device ? `${env.device}${env.display ? ` (${env.display})` : ""}` : "custom window";
    return `Hinge · ${device} · ${env.orientation || "portrait"} · ${env.posture || "flat"}`
      + `${env.layoutDirection === "rtl" ? " · rtl" : ""}`;
  }

  function rect(role, name, f, style, ref) {
    return Object.assign({ kind: "rect", role, name, x: f.x, y: f.y, width: f.width, height: f.height,
      fill: null, stroke: null, radii: null, ref: ref || null }, style);
  }
  function line(role, name, x1, y1, x2, y2, stroke, ref) {
    return { kind: "line", role, name, x1, y1, x2, y2, stroke, ref: ref || null };
  }
  function text(role, name, x, y, characters, style, ref) {
    return Object.assign({ kind: "text", role, name, x, y, text: characters, size: TEXT, bold: false,
      color: INK, ref: ref || null }, style);
  }

  /** The toolbar items of presentation `id` in the scene, as the API's vocabulary spells them. */
  function toolbarItems(scene, id) {
    const list = scene && Array.isArray(scene.presentations) ? scene.presentations : [];
    const p = list.find((q) => q && q.id === id);
    return p && Array.isArray(p.toolbar) ? p.toolbar.filter((t) => t && typeof t === "object") : [];
  }

  // Estimated label widths: hosts size texts themselves; the estimate only lays out toolbar chips.
  // At least a chip's thickness and a little, so a chip without a label still runs along its bar.
  function chipLength(label) { return Math.max(CHIP + 2, Math.min(160, 6.2 * String(label).length + 14)); }

  /** The bar and its chips inside `f`, and the part of `f` left for the label. */
  function toolbar(out, p, f, items, rtl, colours, index) {
    const axis = p.toolbarOrientation;
    if (!axis || items.length === 0) return f;
    const ordered = items.filter((t) => t.placement === "cancellationAction")
      .concat(items.filter((t) => t.placement !== "cancellationAction"));
    const labels = ordered.map((t) => String(axis === "vertical" ? (t.systemImage || t.title || "") : (t.title || "")));
    const ref = { placement: p.id, index };
    if (axis === "horizontal") {
      const bar = { x: f.x + 6, y: f.y + 4, width: Math.max(0, f.width - 12), height: CHIP + 2 * GAP };
      if (bar.width < CHIP || bar.height > f.height) return f;
      out.push(rect("toolbar", `${p.id} · toolbar`, bar,
        { fill: { color: colours[1], opacity: 0.16 }, radii: uniform(4) }, Object.assign({ orientation: axis }, ref)));
      const lengths = fit(labels.map(chipLength), bar.width - 2 * GAP);
      const leading = ordered.map((t) => t.placement === "cancellationAction");
      let start = bar.x + GAP;
      let end = bar.x + bar.width - GAP;
      const chips = [];
      ordered.forEach((t, i) => { if (leading[i]) { chips[i] = start; start += lengths[i] + GAP; } });
      for (let i = ordered.length - 1; i >= 0; i--) if (!leading[i]) { end -= lengths[i]; chips[i] = end; end -= GAP; }
      ordered.forEach((t, i) => {
        const x = rtl ? bar.x + bar.x + bar.width - chips[i] - lengths[i] : chips[i];
        chip(out, p, { x, y: bar.y + GAP, width: lengths[i], height: CHIP }, labels[i], colours, i, axis);
      });
      return { x: f.x, y: bar.y + bar.height + 2, width: f.width, height: Math.max(0, f.y + f.height - bar.y - bar.height - 2) };
    }
    const column = { y: f.y + 6, height: Math.max(0, f.height - 12), width: CHIP + 2 * GAP };
    column.x = rtl ? f.x + 4 : f.x + f.width - 4 - column.width;
    if (column.height < CHIP || column.width + 8 > f.width) return f;
    out.push(rect("toolbar", `${p.id} · toolbar`, column,
      { fill: { color: colours[1], opacity: 0.16 }, radii: uniform(4) }, Object.assign({ orientation: axis }, ref)));
    const lengths = fit(labels.map(chipLength), column.height - 2 * GAP);
    let y = column.y + GAP;
    ordered.forEach((t, i) => {
      chip(out, p, { x: column.x + GAP, y, width: CHIP, height: lengths[i] }, labels[i], colours, i, axis);
      y += lengths[i] + GAP;
    });
    return rtl ? { x: f.x + column.width + 8, y: f.y, width: f.width - column.width - 8, height: f.height }
      : { x: f.x, y: f.y, width: f.width - column.width - 8, height: f.height };
  }

  /** Lengths shrunk in proportion when they do not fit `room` with their gaps. */
  function fit(lengths, room) {
    const total = lengths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, lengths.length - 1);
    if (total <= room || total === 0) return lengths;
    const k = Math.max(0, room - GAP * Math.max(0, lengths.length - 1)) / (total - GAP * Math.max(0, lengths.length - 1));
    return lengths.map((l) => l * k);
  }

  function chip(out, p, f, label, colours, i, axis) {
    const ref = { placement: p.id, item: i };
    out.push(rect("toolbar-item", `${p.id} · toolbar · ${label}`, f,
      { fill: { color: "#ffffff", opacity: 1 }, stroke: { color: colours[1], width: 0.75, dash: null },
        radii: uniform(Math.min(f.width, f.height) / 2) }, ref));
    if (axis === "horizontal") {
      out.push(text("toolbar-label", `${p.id} · toolbar · ${label} · text`, f.x + 6, f.y + 3, label,
        { size: SMALL, color: colours[1] }, ref));
    }
  }

  function uniform(r) { return { topLeft: r, topRight: r, bottomRight: r, bottomLeft: r }; }

  /** Corner radii in physical corners (leading/trailing mirrored under RTL), at most half a side. */
  function radii(p, f, rtl) {
    const c = p.cornerRadii || {};
    const half = Math.min(f.width, f.height) / 2;
    const clamp = (v) => Math.max(0, Math.min(num(v), half));
    return rtl
      ? { topLeft: clamp(c.topTrailing), topRight: clamp(c.topLeading), bottomRight: clamp(c.bottomLeading), bottomLeft: clamp(c.bottomTrailing) }
      : { topLeft: clamp(c.topLeading), topRight: clamp(c.topTrailing), bottomRight: clamp(c.bottomTrailing), bottomLeft: clamp(c.bottomLeading) };
  }

  /** Detent lines are drawn for a sheet whose selected detent sets its height, unless a later presented
   * sheet in the same column covers them (the rule of docs/svg.md). */
  function drawsDetentLines(p, later) {
    if (!p.selectedDetent || !Array.isArray(p.detents) || p.detents.length === 0) return false;
    const f = frameOf(p.frame);
    return !later.some((q) => {
      const g = frameOf(q.frame);
      return q.status === "presented" && g && Array.isArray(q.detents) && q.detents.length > 0
        && Math.abs(g.x - f.x) < 0.01 && Math.abs(g.width - f.width) < 0.01;
    });
  }

  function describe(p) {
    const from = p.adaptedFrom ? ` (from ${p.adaptedFrom})` : "";
    const where = p.placement && p.placement.resolved ? ` · ${p.placement.resolved}` : "";
    return `${p.style}${from} · ${size(p.frame)}${where}`;
  }

  function environment(out, r) {
    const env = r.environment || {};
    const w = frameOf(env.window) || { x: 0, y: 0, width: 0, height: 0 };
    const win = { x: 0, y: 0, width: w.width, height: w.height };
    const rtl = env.layoutDirection === "rtl";
    out.push(rect("window", `window ${size(win)}`, win,
      { fill: { color: "#f9fafb", opacity: 1 }, stroke: { color: INK, width: 2, dash: null } }));
    const fold = env.fold;
    const regions = Array.isArray(env.regions) ? env.regions : [];
    if (fold && fold.separating) {
      regions.forEach((g, i) => {
        const f = frameOf(g.frame);
        if (f) out.push(rect("region", `region · ${g.side || i}`, f,
          { fill: { color: i === 0 ? "#eaf2fd" : "#f1edfd", opacity: 1 } }, { index: i, side: g.side || null }));
      });
    }
    const s = env.safeArea || {};
    const left = num(rtl ? s.trailing : s.leading);
    const right = num(rtl ? s.leading : s.trailing);
    const safe = { x: left, y: num(s.top), width: win.width - left - right, height: win.height - num(s.top) - num(s.bottom) };
    if (safe.width > 0 && safe.height > 0 && left + right + num(s.top) + num(s.bottom) > 0) {
      out.push(rect("safe-area", "safe area", safe, { stroke: { color: "#9ca3af", width: 1, dash: [5, 4] } }));
    }
    arrangement(out, r.arrangement);
    if (fold && fold.bounds) {
      const b = frameOf(fold.bounds);
      const name = `fold · ${fold.state}${fold.separating ? "" : " · not separating"}`;
      const ref = { orientation: fold.orientation, separating: !!fold.separating };
      if (b.width > 0 && b.height > 0) {
        out.push(rect("fold", name, b, { fill: { color: "#6b7280", opacity: fold.separating ? 0.45 : 0.2 },
          stroke: { color: "#6b7280", width: 0.75, dash: null } }, ref));
      } else {
        out.push(line("fold", name, b.x, b.y, b.x + b.width, b.y + b.height,
          { color: "#6b7280", width: 3, dash: [6, 3] }, ref));
      }
    }
    return { win, rtl };
  }

  function arrangement(out, a) {
    if (!a) return;
    const views = [["primary", a.primary, "#e6f2e4", "#3f7a3a"], ["secondary", a.secondary, "#fbf1dc", "#8a6416"]];
    if (a.secondary && a.primary && num(a.secondary.zIndex) < num(a.primary.zIndex)) views.reverse();
    for (const [which, v, fill, stroke] of views) {
      const f = v && v.visible ? frameOf(v.frame) : null;
      if (!f) continue;
      const z = v.zIndex === null || v.zIndex === undefined ? "" : ` · z${fmt(v.zIndex)}`;
      out.push(rect("arrangement", `${which} view · ${size(f)}${z}`, f,
        { fill: { color: fill, opacity: a.style === "overlay" && !a.separated ? 0.6 : 1 },
          stroke: { color: stroke, width: 1.25, dash: [2, 2] } }, { view: which }));
      out.push(text("arrangement-label", `${which} view · label`, f.x + 8, f.y + f.height - 22,
        `${which} · ${size(f)}${z}`, { size: SMALL, color: stroke, bold: true }, { view: which }));
    }
  }

  function placements(out, r, scene, win, rtl) {
    const list = Array.isArray(r.placements) ? r.placements : [];
    list.forEach((p, index) => {
      const f = frameOf(p.frame);
      if (p.status !== "presented" || !f) return;
      const colours = PALETTE[index % PALETTE.length];
      const ref = { placement: p.id, index };
      if (p.dimsBackground || (p.kind === "adaptivePanel" && p.tapOutsideToDismiss)) {
        out.push(rect("scrim", `${p.id} · dimming`, win, { fill: { color: INK, opacity: 0.24 } }, ref));
      }
      out.push(rect("placement", `${p.id} · ${p.style} · ${size(f)}`, f,
        { fill: { color: colours[0], opacity: 1 }, stroke: { color: colours[1], width: 2, dash: null },
          radii: radii(p, f, rtl) }, Object.assign({ style: p.style, kind: p.kind }, ref)));
      let content = f;
      if (p.dragIndicatorVisible) {
        const w = Math.min(36, f.width / 3);
        out.push(rect("drag-indicator", `${p.id} · drag indicator`, { x: f.x + (f.width - w) / 2, y: f.y + 5, width: w, height: 5 },
          { fill: { color: "#9ca3af", opacity: 1 }, radii: uniform(2.5) }, ref));
        content = { x: f.x, y: f.y + 14, width: f.width, height: Math.max(0, f.height - 14) };
      }
      content = toolbar(out, p, content, toolbarItems(scene, p.id), rtl, colours, index);
      if (drawsDetentLines(p, list.slice(index + 1))) {
        for (const d of p.detents) {
          const y = f.y + f.height - num(d.height);
          const selected = d.detent === p.selectedDetent || JSON.stringify(d.detent) === JSON.stringify(p.selectedDetent);
          const label = `${typeof d.detent === "string" ? d.detent : JSON.stringify(d.detent)} · ${fmt(d.height)}${selected ? " · selected" : ""}`;
          const dref = { placement: p.id, index, detent: d.detent, height: num(d.height), selected };
          out.push(line("detent", `${p.id} · detent ${label}`, f.x, y, f.x + f.width, y,
            { color: colours[1], width: selected ? 1.75 : 1.25, dash: [7, 4] }, dref));
          // Above its line at the trailing end (below it when the line is at the window's top).
          const width = 6 * label.length;
          const x = rtl ? f.x + 8 : Math.max(f.x + 8, f.x + f.width - 8 - width);
          out.push(text("detent-label", `${p.id} · detent ${label} · text`, x, y - 14 >= 0 ? y - 14 : y + 3, label,
            { size: SMALL, color: colours[1], bold: selected }, dref));
        }
      }
      out.push(text("placement-label", `${p.id} · label`, content.x + 8, content.y + 6, p.id,
        { size: TEXT + 1, bold: true, color: colours[1] }, ref));
      out.push(text("placement-style", `${p.id} · style`, content.x + 8, content.y + 24, describe(p),
        { size: SMALL, color: MUTED }, ref));
    });
  }

  /**
   * The drawing of one resolution: `{name, width, height, items}`, items back to front, each a rect
   * (`x, y, width, height, fill, stroke, radii`), a line (`x1, y1, x2, y2, stroke`) or a text (`x, y, text,
   * size, bold, color`), with `role`, `name` and `ref` (what it stands for). Coordinates are the window's.
   */
  function instructions(resolution, scene) {
    if (!resolution || typeof resolution !== "object" || !resolution.environment) {
      throw new Error("not a resolution: expected the 200 answer of POST /v1/resolve");
    }
    const items = [];
    const { win, rtl } = environment(items, resolution);
    placements(items, resolution, scene, win, rtl);
    return { name: title(resolution), width: win.width, height: win.height, items };
  }

  /** The docs/rules.md anchor of a diagnostic code, or null for a code this module does not know. */
  function ruleAnchor(code) { return Object.prototype.hasOwnProperty.call(RULE_ANCHORS, code) ? RULE_ANCHORS[code] : null; }

  return { instructions, ruleAnchor, title, RULE_ANCHORS };
})();
