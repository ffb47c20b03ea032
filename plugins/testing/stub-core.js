// What both host stubs share (test-only; not shipped in a plugin): strict objects that fail loudly on any
// member the stub does not implement or that the host's published definitions do not declare (the member
// lists figma-api.txt and penpot-api.txt beside this file), a record of every member the plugin used, plugin
// data per install and shared plugin data per namespace, an undo journal, and the SVG picture of the
// stubbed canvas.
const StubCore = (() => {
  const failures = [];        // misuse and unimplemented calls, in order
  const used = new Set();     // "Interface.member" the plugin touched
  const raws = new WeakMap(); // proxy → raw object
  let published = null;       // "Interface.member" the host's definitions declare (and do not deprecate)
  let install = 1;            // the plugin's install: plain plugin data belongs to one

  /** The member list of plugins/testing/HOST-api.txt: its lines whose state is "published". */
  function publish(text) {
    published = new Set();
    for (const line of text.split("\n")) {
      if (!line.trim() || line.startsWith("#")) continue;
      const [member, , , state] = line.split("\t");
      if (state === "published") published.add(member);
    }
  }

  function fail(message) {
    failures.push(message);
    console.error(`host stub: ${message}`);
    throw new Error(`host stub: ${message}`);
  }

  /** A proxy of `raw` for the plugin: members the stub does not define throw; used ones are recorded. */
  function strict(raw, label) {
    const proxy = new Proxy(raw, {
      get(t, prop) {
        if (typeof prop === "symbol") return Reflect.get(t, prop, t);
        if (prop === "then" || prop === "toJSON") return undefined;  // promise and JSON probes
        if (prop.startsWith("_") || !(prop in t)) fail(`${label}.${prop} is not implemented`);
        if (!published || !published.has(`${label}.${prop}`)) fail(`${label}.${prop} is not a published member of the host's API`);
        used.add(`${label}.${prop}`);
        const v = Reflect.get(t, prop, t);
        return typeof v === "function" ? (...args) => v.apply(t, args.map(unwrap)) : v;
      },
      set(t, prop, value) {
        if (typeof prop === "symbol" || prop.startsWith("_") || !(prop in t)) fail(`setting ${label}.${String(prop)} is not implemented`);
        if (!published || !published.has(`${label}.${prop}`)) fail(`${label}.${prop} is not a published member of the host's API`);
        const desc = findDescriptor(t, prop);
        if (desc && desc.get && !desc.set) fail(`${label}.${prop} is read-only`);
        used.add(`${label}.${prop}=`);
        return Reflect.set(t, prop, unwrap(value), t);
      },
      has(t, prop) { return prop in t; },
    });
    raws.set(proxy, raw);
    raw._proxy = proxy;
    return proxy;
  }

  function findDescriptor(obj, prop) {
    for (let o = obj; o; o = Object.getPrototypeOf(o)) {
      const d = Object.getOwnPropertyDescriptor(o, prop);
      if (d) return d;
    }
    return null;
  }

  function unwrap(v) {
    if (v && typeof v === "object" && raws.has(v)) return raws.get(v);
    if (Array.isArray(v)) return v.map(unwrap);
    return v;
  }
  function wrap(raw) { return raw ? raw._proxy : raw; }

  // The undo journal: steps of inverse operations.
  const steps = [[]];
  let stepOpen = true;
  function record(inverse) { steps[steps.length - 1].push(inverse); }
  function newStep() { if (steps[steps.length - 1].length) steps.push([]); }
  function undo() {
    while (steps.length > 1 && steps[steps.length - 1].length === 0) steps.pop();
    const step = steps.pop() || [];
    for (let i = step.length - 1; i >= 0; i--) step[i]();
    steps.push([]);
    return step.length;
  }

  function copy(v) { return v === undefined ? v : JSON.parse(JSON.stringify(v)); }

  // Plugin data: `owner._data` holds one store per install (getPluginData and setPluginData see only the
  // running install's), `owner._shared` one per namespace (getSharedPluginData, setSharedPluginData).
  function own(owner) { const k = `install ${install}`; owner._data[k] = owner._data[k] || {}; return owner._data[k]; }
  function shared(owner, namespace) { owner._shared[namespace] = owner._shared[namespace] || {}; return owner._shared[namespace]; }
  function entry(store, key) { return Object.prototype.hasOwnProperty.call(store, key) ? store[key] : ""; }
  function store(store_, key, value) {
    const old = store_[key];
    record(() => { if (old === undefined) delete store_[key]; else store_[key] = old; });
    if (value === "") delete store_[key]; else store_[key] = value;
  }
  /** Another install of the plugin (a colleague's, or the same designer's after a reinstall). */
  function reinstall() { install++; }

  // --- the canvas as SVG ---------------------------------------------------------------------------
  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" })[c]);
  }
  function n(v) { return Math.round(v * 100) / 100; }
  /** shapes: [{type: rect|line|text|frame, x, y, w, h, ...}] in absolute coordinates, back to front. */
  function svg(shapes, bounds, scale) {
    const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${n(bounds.w * scale)}" height="${n(bounds.h * scale)}" viewBox="${n(bounds.x)} ${n(bounds.y)} ${n(bounds.w)} ${n(bounds.h)}" font-family="DejaVu Sans, sans-serif">`];
    let clip = 0;
    const open = [];
    for (const s of shapes) {
      while (open.length && open[open.length - 1] !== s.clip) { out.push("</g>"); open.pop(); }
      if (s.type === "frame") {
        out.push(`<text x="${n(s.x)}" y="${n(s.y - 6)}" font-size="11" fill="#6b7280">${esc(s.name)}</text>`);
        out.push(`<rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.w)}" height="${n(s.h)}" fill="${s.fill || "#ffffff"}" stroke="#d1d5db"/>`);
        clip++;
        out.push(`<clipPath id="c${clip}"><rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.w)}" height="${n(s.h)}"/></clipPath><g clip-path="url(#c${clip})">`);
        open.push(s.id);
        continue;
      }
      const stroke = s.stroke ? ` stroke="${s.stroke}" stroke-width="${s.strokeWidth || 1}"${s.dash && s.dash.length ? ` stroke-dasharray="${s.dash.join(" ")}"` : ""}` : "";
      if (s.type === "rect") {
        const r = s.radii || [0, 0, 0, 0];
        const [tl, tr, br, bl] = r.map((v) => Math.max(0, Math.min(v, s.w / 2, s.h / 2)));
        const d = `M${n(s.x + tl)} ${n(s.y)}H${n(s.x + s.w - tr)}A${n(tr)} ${n(tr)} 0 0 1 ${n(s.x + s.w)} ${n(s.y + tr)}`
          + `V${n(s.y + s.h - br)}A${n(br)} ${n(br)} 0 0 1 ${n(s.x + s.w - br)} ${n(s.y + s.h)}`
          + `H${n(s.x + bl)}A${n(bl)} ${n(bl)} 0 0 1 ${n(s.x)} ${n(s.y + s.h - bl)}V${n(s.y + tl)}A${n(tl)} ${n(tl)} 0 0 1 ${n(s.x + tl)} ${n(s.y)}Z`;
        out.push(`<path d="${d}" fill="${s.fill || "none"}" fill-opacity="${s.fillOpacity === undefined ? 1 : s.fillOpacity}"${stroke}/>`);
      } else if (s.type === "line") {
        out.push(`<line x1="${n(s.x1)}" y1="${n(s.y1)}" x2="${n(s.x2)}" y2="${n(s.y2)}"${stroke}/>`);
      } else if (s.type === "text") {
        const lines = String(s.text).split("\n");
        lines.forEach((line, i) => out.push(`<text x="${n(s.x)}" y="${n(s.y + s.size * (i + 1))}" font-size="${s.size}" font-weight="${s.bold ? 700 : 400}" fill="${s.fill || "#111827"}">${esc(line)}</text>`));
      }
    }
    while (open.length) { out.push("</g>"); open.pop(); }
    out.push("</svg>");
    return out.join("\n");
  }

  /** A text's box as a host lays it out: about 0.56 em a character, 1.2 em a line. */
  function textBox(text, size) {
    const lines = String(text).split("\n");
    return { w: Math.max(1, ...lines.map((l) => l.length)) * size * 0.56, h: lines.length * size * 1.2 };
  }

  return { fail, strict, unwrap, wrap, record, newStep, undo, copy, svg, textBox, failures, used, publish,
    own, shared, entry, store, reinstall, get install() { return install; },
    get openStep() { return stepOpen; }, set openStep(v) { stepOpen = v; } };
})();
