// A stub of Penpot's plugin API (test-only), following @penpot/plugin-types and its runtime (the members and
// where each is declared: penpot-api.txt): the members Hinge's plugin uses, with the rules that matter for
// it — x and y are absolute canvas coordinates and stay so when a shape changes parent; appendChild puts a
// child at the back unless `flags.naturalChildOrdering` is on (then on top), and always at the back of a
// flex board; penpot.group groups shapes of one parent in that parent, in their stacking order, where the
// top-most of them was; a flex or grid board places its children itself; createText("") answers null;
// corner radii are whole numbers (as before Penpot 2.17); plain plugin data belongs to one install, shared
// plugin data to the file; the page's root is a board without a parent; a path's position is its path data's
// (`d`); fontSize and fontWeight are strings; the UI is the plugin host's page in an iframe (its own origin)
// and messages pass as they are; an undo block makes one step. Any other member throws (StubCore.strict).
const PenpotStub = (() => {
  const { fail, strict, wrap, record, copy } = StubCore;
  const flagsRaw = { naturalChildOrdering: false };
  let nextId = 1;

  function set(shape, field, value) {
    const old = shape[field];
    record(() => { shape[field] = old; });
    shape[field] = value;
  }
  function number(v, what) { if (typeof v !== "number" || !Number.isFinite(v)) fail(`${what} must be a finite number, got ${v}`); }
  function colour(v, what) { if (typeof v !== "string" || !/^#[0-9a-fA-F]{6}$/.test(v)) fail(`${what} must be a colour "#rrggbb", got ${v}`); }
  function checkFills(v) {
    if (!Array.isArray(v)) fail("fills takes an array");
    for (const f of v) { colour(f.fillColor, "fillColor"); if (f.fillOpacity !== undefined) number(f.fillOpacity, "fillOpacity"); }
    return copy(v);
  }
  function checkStrokes(v) {
    if (!Array.isArray(v)) fail("strokes takes an array");
    for (const s of v) {
      colour(s.strokeColor, "strokeColor");
      number(s.strokeWidth, "strokeWidth");
      if (!["solid", "dotted", "dashed", "mixed", "none", "svg"].includes(s.strokeStyle)) fail(`strokeStyle ${s.strokeStyle}`);
      if (s.strokeAlignment && !["center", "inner", "outer"].includes(s.strokeAlignment)) fail(`strokeAlignment ${s.strokeAlignment}`);
    }
    return copy(v);
  }

  class Shape {
    constructor(type) {
      this._id = `shape-${nextId++}`;
      this._type = type;
      this._name = type[0].toUpperCase() + type.slice(1);
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
    get x() { return this._x; }
    set x(v) { number(v, "x"); this.moveBy(v - this._x, 0); arrange(this._parent); }
    get y() { return this._y; }
    set y(v) { number(v, "y"); this.moveBy(0, v - this._y); arrange(this._parent); }
    moveBy(dx, dy) { set(this, "_x", this._x + dx); set(this, "_y", this._y + dy); }
    get width() { return this._w; }
    get height() { return this._h; }
    resize(w, h) {
      number(w, "width"); number(h, "height");
      if (w <= 0 || h <= 0) fail(`${this._type}.resize(${w}, ${h}): sizes must be positive`);
      set(this, "_w", w); set(this, "_h", h);
    }
    getPluginData(key) { return pluginData(this, key); }
    setPluginData(key, value) { pluginData(this, key, value); }
    getSharedPluginData(namespace, key) { return sharedData(this, namespace, key); }
    setSharedPluginData(namespace, key, value) { sharedData(this, namespace, key, value); }
    remove() {
      if (this._removed) fail(`remove() of a shape already removed (${this._id})`);
      detach(this);
      set(this, "_removed", true);
    }
  }
  // getPluginData(key) and setPluginData(key, value): this install's; the shared ones: the file's, per namespace.
  function pluginData(owner, key, value) {
    if (typeof key !== "string") fail("plugin data keys are strings");
    if (value === undefined) return StubCore.entry(StubCore.own(owner), key);
    if (typeof value !== "string") fail("setPluginData(key, value) takes two strings");
    StubCore.store(StubCore.own(owner), key, value);
  }
  function sharedData(owner, namespace, key, value) {
    if (typeof namespace !== "string" || !namespace || typeof key !== "string") fail("shared plugin data takes a namespace and a key, strings");
    if (value === undefined) return StubCore.entry(StubCore.shared(owner, namespace), key);
    if (typeof value !== "string") fail("setSharedPluginData(namespace, key, value) takes three strings");
    StubCore.store(StubCore.shared(owner, namespace), key, value);
  }

  function detach(shape) {
    const parent = shape._parent;
    if (!parent) return;
    const i = parent._children.indexOf(shape);
    parent._children.splice(i, 1);
    shape._parent = null;
    record(() => { parent._children.splice(i, 0, shape); shape._parent = parent; });
    if (parent._type === "group" && parent._children.length === 0) parent.remove();
  }
  /** Puts `shape` in `parent` at `index` of its children, back (0) to front (the default). */
  function attach(parent, shape, index) {
    if (shape === parent) fail("a shape cannot be its own child");
    detach(shape);
    const i = index === undefined ? parent._children.length : Math.min(index, parent._children.length);
    parent._children.splice(i, 0, shape);
    shape._parent = parent;
    record(() => { const k = parent._children.indexOf(shape); if (k >= 0) parent._children.splice(k, 1); shape._parent = null; });
    arrange(parent);
  }
  /** A flex or grid board lays its children out itself: here in a row from its top-left corner, back to front. */
  function arrange(parent) {
    if (!parent || !parent._layout) return;
    let x = parent._x;
    for (const child of parent._children) {
      const b = box(child);
      if (b.x !== x || b.y !== parent._y) child.moveBy(x - b.x, parent._y - b.y);
      x += b.w;
    }
  }

  class Styled extends Shape {
    constructor(type) { super(type); this._fills = []; this._strokes = []; }
    get fills() { return copy(this._fills); }
    set fills(v) { set(this, "_fills", checkFills(v)); }
    get strokes() { return copy(this._strokes); }
    set strokes(v) { set(this, "_strokes", checkStrokes(v)); }
  }

  class Rectangle extends Styled {
    constructor() { super("rectangle"); this._fills = [{ fillColor: "#B1B2B5", fillOpacity: 1 }]; this._radii = [0, 0, 0, 0]; }
    get borderRadiusTopLeft() { return this._radii[0]; }
    set borderRadiusTopLeft(v) { radius(this, 0, v); }
    get borderRadiusTopRight() { return this._radii[1]; }
    set borderRadiusTopRight(v) { radius(this, 1, v); }
    get borderRadiusBottomRight() { return this._radii[2]; }
    set borderRadiusBottomRight(v) { radius(this, 2, v); }
    get borderRadiusBottomLeft() { return this._radii[3]; }
    set borderRadiusBottomLeft(v) { radius(this, 3, v); }
  }
  function radius(shape, i, v) {
    number(v, "border radius");
    if (v < 0) fail("a border radius is at least 0");
    if (!Number.isInteger(v)) fail(`a border radius is a whole number before Penpot 2.17, got ${v}`);
    const r = shape._radii.slice();
    r[i] = v;
    set(shape, "_radii", r);
  }

  class Path extends Styled {
    constructor() { super("path"); this._content = []; this._w = 0; this._h = 0; }
    // `d`, the path data as SVG writes it; here only absolute move-to and line-to ("M x y L x y"). The
    // deprecated `content` is not implemented: reading or writing it throws, as any other member does.
    get d() { return this._content.map((c) => `${c.command} ${c.params.x} ${c.params.y}`).join(" "); }
    set d(v) {
      if (typeof v !== "string") fail("d takes the path data as a string");
      const tokens = v.trim().split(/[\s,]+/);
      const commands = [];
      for (let i = 0; i < tokens.length; i += 3) {
        const [command, x, y] = tokens.slice(i, i + 3);
        if (!["M", "L"].includes(command)) fail(`path command ${command} is not implemented`);
        const params = { x: Number(x), y: Number(y) };
        number(params.x, `x of "${v}"`); number(params.y, `y of "${v}"`);
        commands.push({ command, params });
      }
      if (commands.length === 0 || commands[0].command !== "M") fail("path data starts with M");
      set(this, "_content", commands);
      const xs = commands.map((c) => c.params.x);
      const ys = commands.map((c) => c.params.y);
      set(this, "_x", Math.min(...xs)); set(this, "_y", Math.min(...ys));
      set(this, "_w", Math.max(...xs) - this._x); set(this, "_h", Math.max(...ys) - this._y);
    }
    moveBy(dx, dy) {
      super.moveBy(dx, dy);
      set(this, "_content", this._content.map((c) => ({ command: c.command, params: { x: c.params.x + dx, y: c.params.y + dy } })));
    }
    resize() { fail("resizing a path is not implemented"); }
  }

  class Text extends Styled {
    constructor(characters) {
      super("text");
      this._characters = characters;
      this._growType = "fixed";
      this._fontSize = "14";
      this._fontWeight = "400";
      this._fontFamily = "sourcesanspro";
      this._fills = [{ fillColor: "#000000", fillOpacity: 1 }];
      this.layout();
    }
    layout() { const b = StubCore.textBox(this._characters, parseFloat(this._fontSize)); this._w = b.w; this._h = b.h; }
    get characters() { return this._characters; }
    set characters(v) { set(this, "_characters", String(v)); this.layout(); }
    get growType() { return this._growType; }
    set growType(v) { if (!["fixed", "auto-width", "auto-height"].includes(v)) fail(`growType ${v}`); set(this, "_growType", v); }
    get fontSize() { return this._fontSize; }
    set fontSize(v) { if (typeof v !== "string" || !(parseFloat(v) > 0)) fail(`fontSize is a string of a positive number, got ${JSON.stringify(v)}`); set(this, "_fontSize", v); this.layout(); }
    get fontWeight() { return this._fontWeight; }
    set fontWeight(v) { if (typeof v !== "string" || !/^[1-9]00$/.test(v)) fail(`fontWeight is a string such as "400", got ${JSON.stringify(v)}`); set(this, "_fontWeight", v); }
  }

  class Container extends Styled {
    constructor(type) { super(type); this._children = []; }
    get children() { return this._children.filter((c) => !c._removed).map(wrap); }
    appendChild(child) {
      if (!(child instanceof Shape)) fail("appendChild takes a shape");
      // On top with natural ordering; at the back without it, and always at the back of a flex board.
      attach(this, child, flagsRaw.naturalChildOrdering && this._layout !== "flex" ? undefined : 0);
    }
  }
  class Board extends Container {
    constructor() { super("board"); this._fills = [{ fillColor: "#FFFFFF", fillOpacity: 1 }]; this._layout = null; }
    get flex() { return this._layout === "flex" ? strict({ dir: "row" }, "FlexLayout") : undefined; }
    get grid() { return this._layout === "grid" ? strict({ dir: "row" }, "GridLayout") : undefined; }
  }
  class Group extends Container {
    constructor() { super("group"); }
    moveBy(dx, dy) { for (const c of this._children) c.moveBy(dx, dy); }
    get x() { return box(this).x; }
    set x(v) { fail("moving a group is not implemented"); }
    get y() { return box(this).y; }
    set y(v) { fail("moving a group is not implemented"); }
    get width() { return box(this).w; }
    get height() { return box(this).h; }
    resize() { fail("resizing a group is not implemented"); }
  }
  class Root extends Container {
    constructor() { super("board"); this._id = "00000000-0000-0000-0000-000000000000"; this._name = "Root Frame"; }
  }
  function box(shape) {
    if (shape._type !== "group") return { x: shape._x, y: shape._y, w: shape._w, h: shape._h };
    const boxes = shape._children.map(box);
    const x = Math.min(...boxes.map((b) => b.x));
    const y = Math.min(...boxes.map((b) => b.y));
    return { x, y, w: Math.max(...boxes.map((b) => b.x + b.w)) - x, h: Math.max(...boxes.map((b) => b.y + b.h)) - y };
  }

  const root = new Root();
  strict(root, "Root");
  const LABELS = { rectangle: "Rectangle", path: "Path", text: "Text", board: "Board", group: "Group" };
  function create(shape) {
    strict(shape, LABELS[shape._type]);
    attach(root, shape);
    return wrap(shape);
  }
  const fileRaw = {
    _data: {},
    _shared: {},
    get id() { return "file-1"; },
    get name() { return "Hinge plugin test"; },
    getPluginData(key) { return pluginData(fileRaw, key); },
    setPluginData(key, value) { pluginData(fileRaw, key, value); },
    getSharedPluginData(namespace, key) { return sharedData(fileRaw, namespace, key); },
    setSharedPluginData(namespace, key, value) { sharedData(fileRaw, namespace, key, value); },
  };
  strict(fileRaw, "File");
  const flagsProxy = strict(flagsRaw, "Flags");

  let selection = [];
  const listeners = { selectionchange: [] };
  const uiCallbacks = [];
  let ui = null;
  let pluginBase = null;
  let panelContainer = null;
  const blocks = new Set();

  const uiRaw = {
    open(name, url, options) {
      if (typeof name !== "string" || typeof url !== "string") fail("penpot.ui.open(name, url, options)");
      if (ui) fail("penpot.ui.open called twice");
      const frame = document.createElement("iframe");
      frame.id = "plugin-ui";
      frame.title = name;
      // The plugin's page keeps its own origin (the host it is served from).
      frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms allow-popups");
      frame.style.width = `${(options && options.width) || 285}px`;
      frame.style.height = `${(options && options.height) || 540}px`;
      const queue = [];
      let loaded = false;
      frame.addEventListener("load", () => { loaded = true; queue.splice(0).forEach((m) => frame.contentWindow.postMessage(m, "*")); });
      window.addEventListener("message", (event) => {
        if (event.source !== frame.contentWindow) return;
        for (const cb of uiCallbacks) cb(event.data);
      });
      frame.src = new URL(url, pluginBase).href;
      panelContainer.append(frame);
      ui = { post(m) { if (loaded) frame.contentWindow.postMessage(m, "*"); else queue.push(m); } };
    },
    sendMessage(message) { if (!ui) fail("penpot.ui.sendMessage before penpot.ui.open"); ui.post(message); },
    onMessage(callback) { if (typeof callback !== "function") fail("penpot.ui.onMessage(callback)"); uiCallbacks.push(callback); },
  };
  const historyRaw = {
    undoBlockBegin() { const id = Symbol("undo block"); blocks.add(id); StubCore.newStep(); return id; },
    undoBlockFinish(id) { if (!blocks.delete(id)) fail("undoBlockFinish of a block that is not open"); StubCore.newStep(); },
  };
  const penpotRaw = {
    get ui() { return uiProxy; },
    get history() { return historyProxy; },
    get root() { return wrap(root); },
    get selection() { return selection.filter((s) => !s._removed).map(wrap); },
    get currentFile() { return wrap(fileRaw); },
    get flags() { return flagsProxy; },
    on(type, callback) {
      if (!listeners[type]) fail(`penpot.on("${type}") is not implemented`);
      listeners[type].push(callback);
      return Symbol(type);
    },
    createRectangle() { return create(new Rectangle()); },
    createPath() { return create(new Path()); },
    createBoard() { return create(new Board()); },
    createText(characters) {
      if (typeof characters !== "string" || characters === "") return null;  // Penpot creates no empty text
      return create(new Text(characters));
    },
    group(shapes) {
      if (!Array.isArray(shapes) || shapes.length === 0) return null;
      const parent = shapes[0]._parent;
      if (shapes.some((s) => s._parent !== parent)) fail("penpot.group: the shapes have different parents");
      // Where the top-most of the shapes was, with the shapes in their stacking order.
      const stacked = shapes.slice().sort((a, b) => parent._children.indexOf(a) - parent._children.indexOf(b));
      const top = parent._children.indexOf(stacked[stacked.length - 1]);
      const group = new Group();
      strict(group, "Group");
      attach(parent, group, top + 1);
      for (const s of stacked) attach(group, s);
      return wrap(group);
    },
  };
  const uiProxy = strict(uiRaw, "penpot.ui");
  const historyProxy = strict(historyRaw, "penpot.history");
  const penpot = strict(penpotRaw, "penpot");

  function snapshot(shape) {
    const b = box(shape);
    const out = { id: shape._id, type: shape._type, name: shape._name, x: b.x, y: b.y, width: b.w, height: b.h,
      data: copy(shape._shared.hinge || {}), pluginData: copy(shape._data) };
    if (shape._type === "path") out.content = copy(shape._content);
    if (shape._type === "text") { out.characters = shape._characters; out.fontSize = shape._fontSize; }
    if (shape._children) out.children = shape._children.map(snapshot);
    return out;
  }
  function shapes(shape, list, clip) {
    const fill = shape._fills && shape._fills[0];
    const stroke = shape._strokes && shape._strokes[0];
    const common = { clip, fill: fill ? fill.fillColor : null, fillOpacity: fill && fill.fillOpacity !== undefined ? fill.fillOpacity : 1,
      stroke: stroke ? stroke.strokeColor : null, strokeWidth: stroke ? stroke.strokeWidth : 1, dash: stroke && stroke.strokeStyle === "dashed" ? [6, 4] : null };
    if (shape._type === "board") {
      list.push({ type: "frame", id: shape._id, name: shape._name, x: shape._x, y: shape._y, w: shape._w, h: shape._h, clip, fill: fill ? fill.fillColor : "#ffffff" });
      shape._children.forEach((c) => shapes(c, list, shape._id));
    } else if (shape._type === "group") {
      shape._children.forEach((c) => shapes(c, list, clip));
    } else if (shape._type === "rectangle") {
      list.push(Object.assign({ type: "rect", x: shape._x, y: shape._y, w: shape._w, h: shape._h, radii: shape._radii }, common));
    } else if (shape._type === "path") {
      const [a, b] = shape._content;
      list.push(Object.assign({ type: "line", x1: a.params.x, y1: a.params.y, x2: b.params.x, y2: b.params.y }, common));
    } else if (shape._type === "text") {
      list.push({ type: "text", clip, x: shape._x, y: shape._y, text: shape._characters, size: parseFloat(shape._fontSize), bold: shape._fontWeight === "700", fill: fill ? fill.fillColor : null });
    }
  }

  const host = {
    penpot,
    mount(container, base) { panelContainer = container; pluginBase = base; },
    /** A board on the canvas; `layout` "flex" or "grid" makes it lay out its children. */
    createFrame(name, x, y, w, h, options) {
      const b = new Board();
      strict(b, "Board");
      b._name = name; b._x = x; b._y = y; b._w = w; b._h = h;
      b._layout = (options && options.layout) || null;
      attach(root, b);
      return b._id;
    },
    /** A rectangle directly on the canvas (its parent is the page's root), or in the board `parent`. */
    createShape(name, x, y, w, h, parent) {
      const r = new Rectangle();
      strict(r, "Rectangle");
      r._name = name; r._x = x; r._y = y; r._w = w; r._h = h;
      attach(parent ? host.find(parent) : root, r);
      return r._id;
    },
    /** Closes the plugin as Penpot does (its panel, listeners and flags go), another install with `reinstall`. */
    close(reinstall) {
      const frame = document.getElementById("plugin-ui");
      if (frame) frame.remove();
      ui = null;
      listeners.selectionchange.length = 0;
      uiCallbacks.length = 0;
      flagsRaw.naturalChildOrdering = false;
      if (reinstall) StubCore.reinstall();
    },
    find(id) {
      const walk = (s) => (s._id === id ? s : (s._children || []).map(walk).find(Boolean));
      return walk(root) || null;
    },
    select(ids) {
      selection = ids.map((id) => host.find(id)).filter(Boolean);
      for (const cb of listeners.selectionchange) cb(ids.slice());
    },
    snapshot() { return root._children.filter((s) => !s._removed).map(snapshot); },
    notifications: [],
    undo: StubCore.undo,
    seedSettings(text) { StubCore.shared(fileRaw, "hinge")["hinge.settings"] = text; },
    settings() { return StubCore.entry(StubCore.shared(fileRaw, "hinge"), "hinge.settings"); },
    openBlocks() { return blocks.size; },
    render(scale, only) {
      const list = [];
      const top = only ? new Set(only) : null;
      root._children.filter((c) => !top || top.has(c._id)).forEach((c) => shapes(c, list, null));
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
