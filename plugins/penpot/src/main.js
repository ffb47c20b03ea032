// The Penpot adapter: the host calls behind HingeController (plugins/shared/controller.js). The plugin code
// runs in Penpot's sandbox; the panel (ui.html) is served by the plugin's own host, so its origin is that
// host's and Hinge must allow it with --cors-origin. A shape's x and y are absolute canvas coordinates,
// so a window point (x, y) lands at (board.x + x, board.y + y).
const frames = new Map();  // id → board seen in a selection, for the panel's later messages

function fills(colour) {
  return colour ? [{ fillColor: colour.color, fillOpacity: colour.opacity }] : [];
}

function strokes(s) {
  if (!s) return [];
  return [{ strokeColor: s.color, strokeOpacity: 1, strokeWidth: s.width, strokeStyle: s.dash ? "dashed" : "solid",
    strokeAlignment: "inner" }];
}

function nearestBoard(shape) {
  for (let s = shape; s; s = s.parent) {
    if (s.type === "board") return s;
  }
  return null;
}

function createShape(item, box) {
  if (item.kind === "rect") {
    const r = penpot.createRectangle();
    r.resize(Math.max(item.width, 0.01), Math.max(item.height, 0.01));
    r.fills = fills(item.fill);
    r.strokes = strokes(item.stroke);
    if (item.radii) {
      r.borderRadiusTopLeft = item.radii.topLeft;
      r.borderRadiusTopRight = item.radii.topRight;
      r.borderRadiusBottomRight = item.radii.bottomRight;
      r.borderRadiusBottomLeft = item.radii.bottomLeft;
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
  children(b) { return b.children.slice(); },
  topLevel() { return penpot.root.children.slice(); },
  getData(shape, key) { return shape.getPluginData(key); },
  setData(shape, key, value) { shape.setPluginData(key, value); },
  remove(shape) { shape.remove(); },
  loadSettings() {
    const file = penpot.getFile();
    return file ? file.getPluginData("hinge.settings") : "";
  },
  saveSettings(text) {
    const file = penpot.getFile();
    if (file) file.setPluginData("hinge.settings", text);
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
    const shapes = [];
    for (const item of drawing.items) {
      const [shape, x, y] = createShape(item, board);
      shape.name = item.name;
      board.appendChild(shape);
      shape.x = board.x + x;
      shape.y = board.y + y;
      shape.setPluginData("hinge", JSON.stringify({ role: item.role, ref: item.ref }));
      shapes.push(shape);
    }
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
