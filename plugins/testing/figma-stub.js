// A stub of Figma's plugin API (test-only), following @figma/plugin-typings (the members and where each is
// declared: figma-api.txt): the members Hinge's plugin uses, with the rules that matter for it — fonts must
// be loaded before a text's characters, font or size change; a frame's children are placed in the frame's
// coordinates, a frame's own x and y are its parent's (a section, another frame) and absoluteTransform is
// its place on the page; a group takes no coordinate space; an auto-layout frame places its children in its
// flow and ignores their x and y; figma.group needs at least one node; sizes below 0.01 are refused (a
// line's height is 0); plugin data is text of at most 100 kB, plain plugin data belongs to the plugin's id
// (one install here) and shared plugin data to a namespace of at least 3 letters or digits; nothing is
// undone until figma.commitUndo splits the steps. Any other member throws (StubCore.strict).
const FigmaStub = (() => {
  const { fail, strict, wrap, record, copy } = StubCore;
  let nextId = 1;
  const loadedFonts = new Set();
  const fontKey = (f) => `${f.family}/${f.style}`;

  class Node {
    constructor(type) {
      this._id = `${nextId++}:1`;
      this._type = type;
      this._name = type[0] + type.slice(1).toLowerCase();
      this._parent = null;
      this._x = 0;
      this._y = 0;
      this._w = 100;
      this._h = 100;
      this._data = {};
      this._shared = {};
      this._removed = false;
    }
    get id() { return this._id; }
    get type() { return this._type; }
    get name() { return this._name; }
    set name(v) { set(this, "_name", String(v)); }
    get parent() { return wrap(this._parent); }
    get removed() { return this._removed; }
    get x() { return this._x; }
    set x(v) { number(v, "x"); if (!inFlow(this)) set(this, "_x", v); }
    get y() { return this._y; }
    set y(v) { number(v, "y"); if (!inFlow(this)) set(this, "_y", v); }
    // The node's place on the page: [[1, 0, x], [0, 1, y]] (nothing here is rotated or scaled).
    get absoluteTransform() {
      const o = origin(this);
      const b = bounds(this);
      return [[1, 0, o.x + b.x], [0, 1, o.y + b.y]];
    }
    get width() { return this._w; }
    get height() { return this._h; }
    resize(w, h) {
      number(w, "width"); number(h, "height");
      if (w < 0.01 || h < (this._type === "LINE" ? 0 : 0.01)) fail(`${this._type}.resize(${w}, ${h}): sizes must be at least 0.01`);
      if (this._type === "LINE" && h !== 0) fail("LINE.resize: a line's height must be 0");
      set(this, "_w", w); set(this, "_h", h);
    }
    getPluginData(key) { return pluginData(this, null, key); }
    setPluginData(key, value) { pluginData(this, null, key, value); }
    getSharedPluginData(namespace, key) { return pluginData(this, namespace, key); }
    setSharedPluginData(namespace, key, value) { pluginData(this, namespace, key, value); }
    remove() {
      if (this._removed) fail(`remove() of a node already removed (${this._id})`);
      detach(this, true);
    }
  }

  // Plain plugin data (namespace null) is the running install's; shared plugin data is the namespace's.
  function pluginData(node, namespace, key, value) {
    if (namespace !== null && (typeof namespace !== "string" || !/^[A-Za-z0-9]{3,}$/.test(namespace))) {
      fail(`a shared plugin data namespace is at least 3 letters or digits, got ${JSON.stringify(namespace)}`);
    }
    if (typeof key !== "string") fail("plugin data keys are strings");
    const store = namespace === null ? StubCore.own(node) : StubCore.shared(node, namespace);
    if (value === undefined) return StubCore.entry(store, key);
    if (typeof value !== "string") fail("plugin data values are strings");
    if (key.length + value.length > 100000) fail(`plugin data: the entry "${key}" is over 100 kB`);
    StubCore.store(store, key, value);
  }
  /** A child an auto-layout frame places itself. */
  function inFlow(node) { return !!(node._parent && node._parent._type === "FRAME" && node._parent._layoutMode !== "NONE"); }
  /** An auto-layout frame's flow: its children one after the other from its top-left corner. */
  function flow(frame) {
    if (frame._type !== "FRAME" || frame._layoutMode === "NONE") return;
    let at = 0;
    for (const child of frame._children) {
      const b = bounds(child);
      const [x, y] = frame._layoutMode === "HORIZONTAL" ? [at, 0] : [0, at];
      shift(child, x - b.x, y - b.y);
      at += frame._layoutMode === "HORIZONTAL" ? b.w : b.h;
    }
  }
  function shift(node, dx, dy) {
    if (dx === 0 && dy === 0) return;
    if (node._type === "GROUP") { node._children.forEach((c) => shift(c, dx, dy)); return; }
    set(node, "_x", node._x + dx);
    set(node, "_y", node._y + dy);
  }

  function set(node, field, value) {
    const old = node[field];
    record(() => { node[field] = old; });
    node[field] = value;
  }
  function number(v, what) { if (typeof v !== "number" || !Number.isFinite(v)) fail(`${what} must be a finite number, got ${v}`); }
  function paints(v, what) {
    if (!Array.isArray(v)) fail(`${what} takes an array of paints`);
    for (const p of v) {
      if (!p || p.type !== "SOLID" || !p.color || ["r", "g", "b"].some((k) => typeof p.color[k] !== "number" || p.color[k] < 0 || p.color[k] > 1)) {
        fail(`${what}: a SOLID paint has color {r, g, b} in 0…1, got ${JSON.stringify(p)}`);
      }
    }
    return copy(v);
  }

  /** Detaches `node` from its parent (journaled); a group left empty deletes itself, as Figma's do. */
  function detach(node, removing) {
    const parent = node._parent;
    if (parent) {
      const i = parent._children.indexOf(node);
      parent._children.splice(i, 1);
      record(() => { parent._children.splice(i, 0, node); node._parent = parent; });
      node._parent = null;
      if (parent._type === "GROUP" && parent._children.length === 0) detach(parent, true);
    }
    if (removing) {
      node._removed = true;
      record(() => { node._removed = false; });
    }
  }
  function attach(parent, node, index) {
    if (node === parent) fail("a node cannot be its own child");
    detach(node, false);
    const i = index === undefined ? parent._children.length : index;
    parent._children.splice(i, 0, node);
    node._parent = parent;
    record(() => { const k = parent._children.indexOf(node); if (k >= 0) parent._children.splice(k, 1); node._parent = null; });
    flow(parent);
  }

  class Geometry extends Node {
    constructor(type) {
      super(type);
      this._fills = [];
      this._strokes = [];
      this._strokeWeight = 1;
      this._dash = [];
      this._strokeAlign = "CENTER";
    }
    get fills() { return copy(this._fills); }
    set fills(v) { set(this, "_fills", paints(v, "fills")); }
    get strokes() { return copy(this._strokes); }
    set strokes(v) { set(this, "_strokes", paints(v, "strokes")); }
    get strokeWeight() { return this._strokeWeight; }
    set strokeWeight(v) { number(v, "strokeWeight"); set(this, "_strokeWeight", v); }
    get dashPattern() { return this._dash.slice(); }
    set dashPattern(v) { if (!Array.isArray(v)) fail("dashPattern takes an array"); set(this, "_dash", v.slice()); }
    get strokeAlign() { return this._strokeAlign; }
    set strokeAlign(v) { if (!["INSIDE", "OUTSIDE", "CENTER"].includes(v)) fail(`strokeAlign ${v}`); set(this, "_strokeAlign", v); }
  }

  class Rectangle extends Geometry {
    constructor() {
      super("RECTANGLE");
      this._fills = [{ type: "SOLID", color: { r: 0.85, g: 0.85, b: 0.85 } }];
      this._radii = [0, 0, 0, 0];
    }
    get topLeftRadius() { return this._radii[0]; }
    set topLeftRadius(v) { radius(this, 0, v); }
    get topRightRadius() { return this._radii[1]; }
    set topRightRadius(v) { radius(this, 1, v); }
    get bottomRightRadius() { return this._radii[2]; }
    set bottomRightRadius(v) { radius(this, 2, v); }
    get bottomLeftRadius() { return this._radii[3]; }
    set bottomLeftRadius(v) { radius(this, 3, v); }
  }
  function radius(node, i, v) {
    number(v, "radius");
    if (v < 0) fail("a corner radius is at least 0");
    const r = node._radii.slice();
    r[i] = v;
    set(node, "_radii", r);
  }

  class Line extends Geometry {
    constructor() { super("LINE"); this._h = 0; this._rotation = 0; this._strokes = [{ type: "SOLID", color: { r: 0, g: 0, b: 0 } }]; }
    get rotation() { return this._rotation; }
    set rotation(v) { number(v, "rotation"); set(this, "_rotation", v); }
  }

  class Text extends Geometry {
    constructor() {
      super("TEXT");
      this._font = { family: "Inter", style: "Regular" };
      this._size = 12;
      this._characters = "";
      this._fills = [{ type: "SOLID", color: { r: 0, g: 0, b: 0 } }];
      this.layout();
    }
    layout() { const b = StubCore.textBox(this._characters, this._size); this._w = b.w; this._h = b.h; }
    requireFont(what, font) { if (!loadedFonts.has(fontKey(font))) fail(`${what} before figma.loadFontAsync(${JSON.stringify(font)})`); }
    get fontName() { return copy(this._font); }
    set fontName(v) { this.requireFont("setting fontName", v); set(this, "_font", copy(v)); }
    get fontSize() { return this._size; }
    set fontSize(v) { this.requireFont("setting fontSize", this._font); number(v, "fontSize"); if (v < 1) fail("fontSize is at least 1"); set(this, "_size", v); this.layout(); }
    get characters() { return this._characters; }
    set characters(v) { this.requireFont("setting characters", this._font); set(this, "_characters", String(v)); this.layout(); }
  }

  class Container extends Node {
    constructor(type) { super(type); this._children = []; }
    get children() { return this._children.map(wrap); }
    appendChild(child) {
      if (!(child instanceof Node)) fail("appendChild takes a node");
      attach(this, child);
    }
  }

  class Frame extends Container {
    constructor() { super("FRAME"); this._fills = [{ type: "SOLID", color: { r: 1, g: 1, b: 1 } }]; this._layoutMode = "NONE"; }
    get layoutMode() { return this._layoutMode; }
    get fills() { return copy(this._fills); }
    set fills(v) { set(this, "_fills", paints(v, "fills")); }
  }

  class Group extends Container {
    constructor() { super("GROUP"); }
    // A group is as large as its children; its x and y are in its parent's coordinates.
    get x() { return bounds(this).x; }
    set x(v) { fail("moving a group is not implemented"); }
    get y() { return bounds(this).y; }
    set y(v) { fail("moving a group is not implemented"); }
    get width() { return bounds(this).w; }
    get height() { return bounds(this).h; }
    resize() { fail("resizing a group is not implemented"); }
  }

  class Page extends Container {
    constructor() { super("PAGE"); this._name = "Page 1"; this._selection = []; }
    get selection() { return this._selection.filter((n) => !n._removed).map(wrap); }
    set selection(v) { this._selection = v.slice(); fire("selectionchange"); }
  }
  class Section extends Container { constructor() { super("SECTION"); } }
  class Document extends Container { constructor() { super("DOCUMENT"); this._name = "Hinge plugin test"; } }

  /** Box of a node in its coordinate space (a group's children share their group's). */
  function bounds(node) {
    if (node._type !== "GROUP") return { x: node._x, y: node._y, w: node._w, h: node._h };
    const boxes = node._children.map(bounds);
    const x = Math.min(...boxes.map((b) => b.x));
    const y = Math.min(...boxes.map((b) => b.y));
    return { x, y, w: Math.max(...boxes.map((b) => b.x + b.w)) - x, h: Math.max(...boxes.map((b) => b.y + b.h)) - y };
  }
  /** The node's origin on the page: the sum of the frames above it. */
  function origin(node) {
    let x = 0;
    let y = 0;
    for (let p = node._parent; p && p._type !== "PAGE"; p = p._parent) if (p._type === "FRAME" || p._type === "SECTION") { x += p._x; y += p._y; }
    return { x, y };
  }

  const document_ = new Document();
  const page = new Page();
  [document_, page].forEach((n) => strict(n, n._type === "PAGE" ? "PageNode" : "DocumentNode"));
  document_._children.push(page);
  page._parent = document_;
  const listeners = { selectionchange: [] };
  function fire(type) { for (const cb of listeners[type]) cb(); }
  const notifications = [];
  const LABELS = { RECTANGLE: "RectangleNode", LINE: "LineNode", TEXT: "TextNode", FRAME: "FrameNode", GROUP: "GroupNode" };
  function create(Kind) {
    const node = new Kind();
    strict(node, LABELS[node._type]);
    attach(page, node);
    return wrap(node);
  }

  let ui = null;
  function installUI(container, html, options) {
    const frame = document.createElement("iframe");
    frame.id = "plugin-ui";
    frame.title = (options && options.title) || "plugin";
    frame.setAttribute("sandbox", "allow-scripts allow-popups");  // an opaque origin: "null"
    frame.style.width = `${(options && options.width) || 300}px`;
    frame.style.height = `${(options && options.height) || 200}px`;
    const queue = [];
    let loaded = false;
    frame.addEventListener("load", () => { loaded = true; queue.splice(0).forEach((m) => frame.contentWindow.postMessage(m, "*")); });
    window.addEventListener("message", (event) => {
      if (event.source !== frame.contentWindow || !event.data || !("pluginMessage" in event.data)) return;
      if (typeof uiRaw._onmessage === "function") uiRaw._onmessage(event.data.pluginMessage, { origin: event.origin });
    });
    frame.srcdoc = html;
    container.append(frame);
    ui = { post(m) { const msg = { pluginMessage: m }; if (loaded) frame.contentWindow.postMessage(msg, "*"); else queue.push(msg); } };
  }

  const uiRaw = {
    _onmessage: undefined,
    postMessage(message) { if (!ui) fail("figma.ui.postMessage before figma.showUI"); ui.post(message); },
    get onmessage() { return this._onmessage; },
    set onmessage(fn) { this._onmessage = fn; },
  };
  let panelContainer = null;
  const figmaRaw = {
    get root() { return wrap(document_); },
    get currentPage() { return wrap(page); },
    get ui() { return uiProxy; },
    showUI(html, options) {
      if (typeof html !== "string") fail("figma.showUI(html): the html is the manifest's ui file (__html__)");
      if (ui) fail("figma.showUI called twice");
      installUI(panelContainer, html, options);
    },
    on(type, callback) {
      if (!listeners[type]) fail(`figma.on("${type}") is not implemented`);
      listeners[type].push(callback);
    },
    createRectangle() { return create(Rectangle); },
    createLine() { return create(Line); },
    createText() { return create(Text); },
    createFrame() { return create(Frame); },
    group(nodes, parent, index) {
      if (!Array.isArray(nodes) || nodes.length === 0) fail("figma.group needs at least one node (Figma has no empty groups)");
      if (!(parent instanceof Container)) fail("figma.group(nodes, parent): parent must be able to hold children");
      const group = new Group();
      strict(group, "GroupNode");
      attach(parent, group, index);
      for (const node of nodes) {
        // A node keeps its place on the page; in the same coordinate space its x and y do not change.
        const before = origin(node);
        attach(group, node);
        const after = origin(node);
        if (before.x !== after.x || before.y !== after.y) {
          set(node, "_x", node._x + before.x - after.x);
          set(node, "_y", node._y + before.y - after.y);
        }
      }
      return wrap(group);
    },
    loadFontAsync(font) {
      if (!font || typeof font.family !== "string" || typeof font.style !== "string") fail("loadFontAsync({family, style})");
      if (!["Inter"].includes(font.family)) return Promise.reject(new Error(`font ${font.family} is not available`));
      loadedFonts.add(fontKey(font));
      return Promise.resolve();
    },
    notify(message, options) {
      notifications.push({ message: String(message), error: !!(options && options.error) });
      return strict({ cancel() {} }, "NotificationHandler");
    },
    commitUndo() { StubCore.newStep(); },
  };
  const uiProxy = strict(uiRaw, "figma.ui");
  const figma = strict(figmaRaw, "figma");

  /** The page's nodes as plain data, absolute coordinates, for the harness and the picture. */
  function snapshot(node, depth) {
    const o = origin(node);
    const b = bounds(node);
    const out = { id: node._id, type: node._type, name: node._name, x: node._x, y: node._y, width: b.w, height: b.h,
      absX: b.x + o.x, absY: b.y + o.y, data: copy(node._shared.hinge || {}), pluginData: copy(node._data) };
    if (node._type === "GROUP") { out.x = b.x; out.y = b.y; }
    if (node._type === "LINE") out.rotation = node._rotation;
    if (node._type === "TEXT") { out.characters = node._characters; out.fontSize = node._size; out.fontName = copy(node._font); }
    if (node._children) out.children = node._children.map((c) => snapshot(c, depth + 1));
    return out;
  }

  function hex(paint) {
    const c = paint.color;
    return `#${[c.r, c.g, c.b].map((v) => Math.round(v * 255).toString(16).padStart(2, "0")).join("")}`;
  }
  function shapes(node, list, clip) {
    const o = origin(node);
    const ax = node._x + o.x;
    const ay = node._y + o.y;
    const fill = node._fills && node._fills[0];
    const stroke = node._strokes && node._strokes[0];
    const common = { clip, fill: fill ? hex(fill) : null, fillOpacity: fill ? (fill.opacity === undefined ? 1 : fill.opacity) : 1,
      stroke: stroke ? hex(stroke) : null, strokeWidth: node._strokeWeight, dash: node._dash };
    if (node._type === "SECTION") {
      list.push({ type: "frame", id: node._id, name: node._name, x: ax, y: ay, w: node._w, h: node._h, clip, fill: "#eef2ff" });
      node._children.forEach((c) => shapes(c, list, node._id));
    } else if (node._type === "FRAME") {
      list.push({ type: "frame", id: node._id, name: node._name, x: ax, y: ay, w: node._w, h: node._h, clip, fill: fill ? hex(fill) : "#ffffff" });
      node._children.forEach((c) => shapes(c, list, node._id));
    } else if (node._type === "GROUP") {
      node._children.forEach((c) => shapes(c, list, clip));
    } else if (node._type === "RECTANGLE") {
      list.push(Object.assign({ type: "rect", x: ax, y: ay, w: node._w, h: node._h, radii: node._radii }, common));
    } else if (node._type === "LINE") {
      const a = (-node._rotation * Math.PI) / 180;
      list.push(Object.assign({ type: "line", x1: ax, y1: ay, x2: ax + Math.cos(a) * node._w, y2: ay + Math.sin(a) * node._w }, common));
    } else if (node._type === "TEXT") {
      list.push({ type: "text", clip, x: ax, y: ay, text: node._characters, size: node._size, bold: node._font.style === "Bold", fill: fill ? hex(fill) : null });
    }
  }

  const host = {
    figma,
    mount(container) { panelContainer = container; },
    /** A frame on the page, or in `options.parent` (a section's or frame's id) at x, y of that parent;
     * `options.layoutMode` "HORIZONTAL" or "VERTICAL" makes it an auto-layout frame. */
    createFrame(name, x, y, w, h, options) {
      const f = new Frame();
      strict(f, "FrameNode");
      f._name = name; f._x = x; f._y = y; f._w = w; f._h = h;
      f._layoutMode = (options && options.layoutMode) || "NONE";
      attach(options && options.parent ? host.find(options.parent) : page, f);
      return f._id;
    },
    createSection(name, x, y, w, h) {
      const s = new Section();
      strict(s, "SectionNode");
      s._name = name; s._x = x; s._y = y; s._w = w; s._h = h;
      attach(page, s);
      return s._id;
    },
    /** Closes the plugin as Figma does (its panel and handlers go), another install with `reinstall`. */
    close(reinstall) {
      const frame = document.getElementById("plugin-ui");
      if (frame) frame.remove();
      ui = null;
      uiRaw._onmessage = undefined;
      listeners.selectionchange.length = 0;
      if (reinstall) StubCore.reinstall();
    },
    find(id) {
      const walk = (n) => (n._id === id ? n : (n._children || []).map(walk).find(Boolean));
      return walk(page) || null;
    },
    select(ids) { page.selection = ids.map((id) => host.find(id)).filter(Boolean); },
    snapshot() { return page._children.map((c) => snapshot(c, 0)); },
    notifications,
    undo: StubCore.undo,
    seedSettings(text) { StubCore.shared(document_, "hinge")["hinge.settings"] = text; },
    settings() { return StubCore.entry(StubCore.shared(document_, "hinge"), "hinge.settings"); },
    render(scale, only) {
      const list = [];
      const top = only ? new Set(only) : null;
      page._children.filter((c) => !top || top.has(c._id)).forEach((c) => shapes(c, list, null));
      const frames = list.filter((s) => s.type === "frame");
      const x = Math.min(...frames.map((f) => f.x)) - 24;
      const y = Math.min(...frames.map((f) => f.y)) - 32;
      const w = Math.max(...frames.map((f) => f.x + f.w)) + 24 - x;
      const h = Math.max(...frames.map((f) => f.y + f.h)) + 24 - y;
      return StubCore.svg(list, { x, y, w, h }, scale);
    },
  };
  return host;
})();
