// The Penpot adapter: the host calls behind HingeController (plugins/shared/controller.js). The plugin code
// runs in Penpot's sandbox; the panel (ui.html) is served by the plugin's own host, so its origin is that
// host's and Hinge must allow it with --cors-origin. A shape's x and y are absolute canvas coordinates,
// so a window point (x, y) lands at (board.x + x, board.y + y). Everything saved is shared plugin data in
// the namespace "hinge": plain plugin data belongs to one install of the plugin (a colleague, or the same
// designer after a reinstall, would not see it).
const NAMESPACE = "hinge";
// Penpot's appendChild puts a child at the back unless the plugin turns on `flags.naturalChildOrdering`
// (then on top, in the order appended). Where the flags exist they are turned on, so the drawing lands on
// top of the board; without them the shapes are appended front first, which still stacks them right.
const ON_TOP = (() => {
  const flags = penpot.flags;
  if (!flags) return false;
  flags.naturalChildOrdering = true;
  return true;
})();
const frames = new Map();  // id → board seen in a selection, for the panel's later messages

function fills(colour) {
  return colour ? [{ fillColor: colour.color, fillOpacity: colour.opacity }] : [];
}

function strokes(s) {
  if (!s) return [];
  return [{ strokeColor: s.color, strokeOpacity: 1, strokeWidth: s.width, strokeStyle: s.dash ? "dashed" : "solid",
    strokeAlignment: "inner" }];
}

// The page's root is a board too, the only shape without a parent: a shape directly on the canvas has no board.
function nearestBoard(shape) {
  for (let s = shape; s; s = s.parent) {
    if (s.type === "board" && s.parent) return s;
  }
  return null;
}

// Penpot before 2.17 takes only whole corner radii (a fraction is refused, and the corner stays square).
function radius(v) { return Math.round(v); }

function createShape(item, box) {
  if (item.kind === "rect") {
    const r = penpot.createRectangle();
    r.resize(Math.max(item.width, 0.01), Math.max(item.height, 0.01));
    r.fills = fills(item.fill);
    r.strokes = strokes(item.stroke);
    if (item.radii) {
      r.borderRadiusTopLeft = radius(item.radii.topLeft);
      r.borderRadiusTopRight = radius(item.radii.topRight);
      r.borderRadiusBottomRight = radius(item.radii.bottomRight);
      r.borderRadiusBottomLeft = radius(item.radii.bottomLeft);
    }
    return [r, item.x, item.y];
  }
  if (item.kind === "line") {
    const p = penpot.createPath();
    // The path data as SVG's `d` (Penpot's reference: `content` is deprecated for `d` or `commands`).
    p.d = `M ${box.x + item.x1} ${box.y + item.y1} L ${box.x + item.x2} ${box.y + item.y2}`;
    p.fills = [];
    p.strokes = strokes(item.stroke);
    return [p, Math.min(item.x1, item.x2), Math.min(item.y1, item.y2)];
  }
  // Penpot creates no text for an empty string (createText answers null): an empty label is not drawn.
  if (item.text === "") return null;
  const t = penpot.createText(item.text);
  if (!t) throw new Error(`Penpot did not create the text "${item.text}"`);
  t.growType = "auto-width";
  t.fontSize = String(item.size);
  t.fontWeight = item.bold ? "700" : "400";
  t.fills = fills({ color: item.color, opacity: 1 });
  return [t, item.x, item.y];
}

const host = {
  selectedFrame() {
    const selection = penpot.selection;
    if (selection.length !== 1) return null;
    const board = nearestBoard(selection[0]);
    if (board) frames.set(board.id, board);
    return board;
  },
  findFrame(id) { return frames.get(id) || null; },
  frameInfo(b) { return { id: b.id, name: b.name, width: b.width, height: b.height }; },
  frameBox(b) { return { x: b.x, y: b.y, width: b.width, height: b.height }; },
  // A flex or grid board places its children itself.
  arranges(b) { return !!(b.flex || b.grid); },
  children(b) { return b.children.slice(); },
  topLevel() { return penpot.root.children.slice(); },
  getData(shape, key) { return shape.getSharedPluginData(NAMESPACE, key); },
  setData(shape, key, value) { shape.setSharedPluginData(NAMESPACE, key, value); },
  remove(shape) { shape.remove(); },
  loadSettings() {
    const file = penpot.currentFile;
    return file ? file.getSharedPluginData(NAMESPACE, "hinge.settings") : "";
  },
  saveSettings(text) {
    const file = penpot.currentFile;
    if (!file) throw new Error("Penpot has no open file to keep the settings in");
    file.setSharedPluginData(NAMESPACE, "hinge.settings", text);
  },
  loadFonts() { return Promise.resolve(); },  // texts keep Penpot's default font
  // Everything a run changes is one undo block.
  beginUndo() { return penpot.history.undoBlockBegin(); },
  endUndo(block) { penpot.history.undoBlockFinish(block); },
  createFrame(name, x, y, width, height) {
    const b = penpot.createBoard();
    b.name = name;
    b.x = x;
    b.y = y;
    b.resize(width, height);
    return b;
  },
  draw(board, drawing) {
    const shapes = [];  // back to front
    for (const item of drawing.items) {
      const made = createShape(item, board);
      if (!made) continue;
      const [shape, x, y] = made;
      shape.name = item.name;
      shape.x = board.x + x;
      shape.y = board.y + y;
      shape.setSharedPluginData(NAMESPACE, "hinge", JSON.stringify({ role: item.role, ref: item.ref }));
      shapes.push(shape);
    }
    for (const shape of ON_TOP ? shapes : shapes.slice().reverse()) board.appendChild(shape);
    // The group keeps the shapes' stacking order.
    const group = penpot.group(shapes);
    if (!group) throw new Error("Penpot did not group the drawing");
    group.name = drawing.name;
    return group;
  },
  drawText(board, x, y, characters) {
    const [t] = createShape({ kind: "text", text: characters, size: 11, bold: false, color: "#b91c1c" }, board);
    t.name = "not resolved";
    board.appendChild(t);
    t.x = board.x + x;
    t.y = board.y + y;
    return t;
  },
  // Penpot has no toast for plugins: the panel shows the notice.
  notify(message, error) { penpot.ui.sendMessage({ type: "notice", message, error }); },
  post(message) { penpot.ui.sendMessage(message); },
  onMessage(callback) { penpot.ui.onMessage(callback); },
  onSelection(callback) { penpot.on("selectionchange", callback); },
};

penpot.ui.open("Hinge", "/ui.html", { width: 400, height: 680 });
HingeController.start(host);
