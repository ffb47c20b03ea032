// A stub of Penpot's plugin API (test-only), written from Penpot's public plugin reference: the members
// Hinge's plugin uses, with the rules that matter for it — x and y are absolute canvas coordinates and
// stay so when a shape changes parent; penpot.group groups shapes of one parent in that parent; a path's
// position is its path data's (`d`); fontSize and fontWeight are strings; the UI is the plugin host's page in an
// iframe (its own origin) and messages pass as they are; an undo block makes one step. Any other member
// throws (StubCore.strict).
const PenpotStub = (() => {
  const { fail, strict, wrap, record, copy } = StubCore;
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
      this._removed = false;
    }
    get id() { return this._id; }
    get type() { return this._type; }
    get name() { return this._name; }
    set name(v) { set(this, "_name", String(v)); }
    get parent() { return wrap(this._parent); }
    get x() { return this._x; }
    set x(v) { number(v, "x"); this.moveBy(v - this._x, 0); }
    get y() { return this._y; }
    set y(v) { number(v, "y"); this.moveBy(0, v - this._y); }
    moveBy(dx, dy) { set(this, "_x", this._x + dx); set(this, "_y", this._y + dy); }
    get width() { return this._w; }
    get height() { return this._h; }
    resize(w, h) {
      number(w, "width"); number(h, "height");
      if (w <= 0 || h <= 0) fail(`${this._type}.resize(${w}, ${h}): sizes must be positive`);
      set(this, "_w", w); set(this, "_h", h);
    }
    getPluginData(key) { return Object.prototype.hasOwnProperty.call(this._data, key) ? this._data[key] : ""; }
    setPluginData(key, value) { pluginData(this._data, key, value); }
    remove() {
      if (this._removed) fail(`remove() of a shape already removed (${this._id})`);
      detach(this);
      set(this, "_removed", true);
    }
  }
  function pluginData(data, key, value) {
    if (typeof key !== "string" || typeof value !== "string") fail("setPluginData(key, value) takes two strings");
    const old = data[key];
    record(() => { if (old === undefined) delete data[key]; else data[key] = old; });
    data[key] = value;
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
  function attach(parent, shape) {
    if (shape === parent) fail("a shape cannot be its own child");
    detach(shape);
    parent._children.push(shape);
    shape._parent = parent;
    record(() => { const k = parent._children.indexOf(shape); if (k >= 0) parent._children.splice(k, 1); shape._parent = null; });
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
      attach(this, child);
    }
  }
  class Board extends Container {
    constructor() { super("board"); this._fills = [{ fillColor: "#FFFFFF", fillOpacity: 1 }]; }
  }
  class Group extends Container {
    constructor() { super("group"); }
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
  const fileData = {};
  const fileRaw = {
    get id() { return "file-1"; },
    get name() { return "Hinge plugin test"; },
    getPluginData(key) { return Object.prototype.hasOwnProperty.call(fileData, key) ? fileData[key] : ""; },
    setPluginData(key, value) { pluginData(fileData, key, value); },
  };
  strict(fileRaw, "File");

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
    getFile() { return wrap(fileRaw); },
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
      const group = new Group();
      strict(group, "Group");
      attach(parent, group);
      for (const s of shapes) attach(group, s);
      return wrap(group);
    },
  };
  const uiProxy = strict(uiRaw, "penpot.ui");
  const historyProxy = strict(historyRaw, "penpot.history");
  const penpot = strict(penpotRaw, "penpot");

  function snapshot(shape) {
    const b = box(shape);
    const out = { id: shape._id, type: shape._type, name: shape._name, x: b.x, y: b.y, width: b.w, height: b.h, data: copy(shape._data) };
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
    createFrame(name, x, y, w, h) {
      const b = new Board();
      strict(b, "Board");
      b._name = name; b._x = x; b._y = y; b._w = w; b._h = h;
      attach(root, b);
      return b._id;
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
    seedSettings(text) { fileData["hinge.settings"] = text; },
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
