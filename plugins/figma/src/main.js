// The Figma adapter: the host calls behind HingeController (plugins/shared/controller.js). Figma's main
// thread has no DOM and no network grant of its own here: the panel (ui.html, an iframe whose origin is
// `null`) calls Hinge and posts the answers back. Coordinates of a frame's children are the frame's own,
// and a group takes no coordinate space, so a window point (x, y) is the node's (x, y) inside the frame. A
// frame's own x and y are its parent's (a section, another frame): frames created beside it use its page
// coordinates (absoluteTransform). Everything saved is shared plugin data in the namespace "hinge", so it
// does not depend on the plugin's id (a published plugin gets a new one) and travels with the file.
const NAMESPACE = "hinge";
const FONTS = [{ family: "Inter", style: "Regular" }, { family: "Inter", style: "Bold" }];
const frames = new Map();  // id → frame node seen in a selection, for the panel's later messages

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return { r: ((n >> 16) & 255) / 255, g: ((n >> 8) & 255) / 255, b: (n & 255) / 255 };
}

function paint(colour) {
  return colour ? [{ type: "SOLID", color: rgb(colour.color), opacity: colour.opacity }] : [];
}

function stroke(node, s) {
  if (!s) { node.strokes = []; return; }
  node.strokes = [{ type: "SOLID", color: rgb(s.color) }];
  node.strokeWeight = s.width;
  node.dashPattern = s.dash ? s.dash.slice() : [];
}

function nearestFrame(node) {
  for (let n = node; n; n = n.parent) {
    if (n.type === "FRAME") return n;
    if (n.type === "PAGE" || n.type === "DOCUMENT") return null;
  }
  return null;
}

function createNode(item) {
  if (item.kind === "rect") {
    const r = figma.createRectangle();
    r.resize(Math.max(item.width, 0.01), Math.max(item.height, 0.01));
    r.fills = paint(item.fill);
    stroke(r, item.stroke);
    if (item.stroke) r.strokeAlign = "INSIDE";
    if (item.radii) {
      r.topLeftRadius = item.radii.topLeft;
      r.topRightRadius = item.radii.topRight;
      r.bottomRightRadius = item.radii.bottomRight;
      r.bottomLeftRadius = item.radii.bottomLeft;
    }
    return [r, item.x, item.y];
  }
  if (item.kind === "line") {
    const l = figma.createLine();
    const length = Math.hypot(item.x2 - item.x1, item.y2 - item.y1);
    l.resize(Math.max(length, 0.01), 0);
    // A line runs along +x from its origin; turned by −90° it runs down (Figma turns counter-clockwise).
    if (item.x1 === item.x2) l.rotation = -90;
    stroke(l, item.stroke);
    return [l, item.x1, item.y1];
  }
  const t = figma.createText();
  t.fontName = FONTS[item.bold ? 1 : 0];
  t.fontSize = item.size;
  t.characters = item.text;
  t.fills = paint({ color: item.color, opacity: 1 });
  return [t, item.x, item.y];
}

const host = {
  selectedFrame() {
    const selection = figma.currentPage.selection;
    if (selection.length !== 1) return null;
    const frame = nearestFrame(selection[0]);
    if (frame) frames.set(frame.id, frame);
    return frame;
  },
  findFrame(id) {
    const f = frames.get(id);
    return f && !f.removed ? f : null;
  },
  frameInfo(f) { return { id: f.id, name: f.name, width: f.width, height: f.height }; },
  // Where the frame is on the page, whatever holds it (a section, another frame).
  frameBox(f) { const t = f.absoluteTransform; return { x: t[0][2], y: t[1][2], width: f.width, height: f.height }; },
  // An auto-layout frame places its children itself (x and y of a child in its flow are ignored).
  arranges(f) { return f.layoutMode !== "NONE"; },
  children(f) { return f.children.slice(); },
  topLevel() { return figma.currentPage.children.slice(); },
  getData(node, key) { return node.getSharedPluginData(NAMESPACE, key); },
  setData(node, key, value) { node.setSharedPluginData(NAMESPACE, key, value); },
  remove(node) { node.remove(); },
  loadSettings() { return figma.root.getSharedPluginData(NAMESPACE, "hinge.settings"); },
  saveSettings(text) { figma.root.setSharedPluginData(NAMESPACE, "hinge.settings", text); },
  loadFonts() { return Promise.all(FONTS.map((f) => figma.loadFontAsync(f))); },
  // Everything a run changes is one undo step: the step before it is committed first.
  beginUndo() { figma.commitUndo(); return null; },
  endUndo() {},
  createFrame(name, x, y, width, height) {
    const f = figma.createFrame();
    f.name = name;
    f.x = x;
    f.y = y;
    f.resize(width, height);
    return f;
  },
  draw(target, drawing) {
    const nodes = [];
    for (const item of drawing.items) {
      const [node, x, y] = createNode(item);
      node.name = item.name;
      target.appendChild(node);
      node.x = x;
      node.y = y;
      node.setSharedPluginData(NAMESPACE, "hinge", JSON.stringify({ role: item.role, ref: item.ref }));
      nodes.push(node);
    }
    const group = figma.group(nodes, target);
    group.name = drawing.name;
    return group;
  },
  drawText(target, x, y, characters) {
    const [t] = createNode({ kind: "text", text: characters, size: 11, bold: false, color: "#b91c1c" });
    t.name = "not resolved";
    target.appendChild(t);
    t.x = x;
    t.y = y;
    return t;
  },
  notify(message, error) { figma.notify(message, { error, timeout: error ? 8000 : 3000 }); },
  post(message) { figma.ui.postMessage(message); },
  onMessage(callback) { figma.ui.onmessage = callback; },
  onSelection(callback) { figma.on("selectionchange", callback); },
};

figma.showUI(__html__, { width: 400, height: 680, title: "Hinge", themeColors: true });
HingeController.start(host);
