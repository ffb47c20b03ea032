// The plugins' main-thread logic, the same in every host: follow the selected frame, keep its scene in the
// frame's plugin data, and draw what the panel resolved — one group per frame, replaced on every run, in a
// frame of its own beside the selected one when the window does not fit in it or the frame lays out its
// children itself (Figma's auto layout, Penpot's flex and grid boards); the matrix as a row of
// frames under it. The host adapter (plugins/figma/src/main.js, plugins/penpot/src/main.js) does the
// host's calls; this file makes none. It runs without a DOM.
const HingeController = (() => {
  const KEYS = { scene: "hinge.scene", role: "hinge", settings: "hinge.settings" };
  const DEFAULT_SETTINGS = { url: "http://localhost:8080", docsUrl: "", credential: "" };
  const GAP = 48;

  function marker(host, node) {
    try {
      return JSON.parse(host.getData(node, KEYS.role) || "null");
    } catch {
      return null;
    }
  }

  function settings(host) {
    let saved = {};
    try {
      saved = JSON.parse(host.loadSettings() || "{}") || {};
    } catch {
      saved = {};
    }
    return Object.assign({}, DEFAULT_SETTINGS, saved);
  }

  function selection(host) {
    const frame = host.selectedFrame();
    if (!frame) return { type: "selection", frame: null, scene: null, settings: settings(host) };
    const info = host.frameInfo(frame);
    return { type: "selection", frame: info, scene: host.getData(frame, KEYS.scene) || null, settings: settings(host) };
  }

  /** Removes what an earlier run drew for `frame`: its groups inside it and its frames beside or under it. */
  function clear(host, frame, kinds) {
    const id = host.frameInfo(frame).id;
    let removed = 0;
    for (const child of host.children(frame)) {
      const m = marker(host, child);
      if (m && m.group && kinds.includes("group")) { host.remove(child); removed++; }
    }
    for (const node of host.topLevel()) {
      const m = marker(host, node);
      if (m && m.of === id && kinds.includes(m.frame)) { host.remove(node); removed++; }
    }
    return removed;
  }

  /** Text broken at spaces into lines of at most `width` characters (a longer word keeps its line). */
  function wrap(text, width) {
    const lines = [];
    let current = "";
    for (const word of String(text).split(" ")) {
      if (current && current.length + 1 + word.length > width) { lines.push(current); current = word; }
      else current = current ? `${current} ${word}` : word;
    }
    if (current) lines.push(current);
    return lines.join("\n");
  }

  function fits(drawing, info) {
    return drawing.width <= info.width + 0.01 && drawing.height <= info.height + 0.01;
  }

  async function draw(host, msg) {
    const frame = host.findFrame(msg.frameId);
    if (!frame) throw new Error("the frame is no longer there: select a frame and run again");
    const scene = JSON.parse(msg.scene);
    const drawing = HingeDrawing.instructions(msg.resolution, scene);
    const info = host.frameInfo(frame);
    await host.loadFonts();
    const step = host.beginUndo();
    try {
      clear(host, frame, ["group", "companion"]);
      host.setData(frame, KEYS.scene, msg.scene);
      let target = frame;
      let where = "inside";
      if (!fits(drawing, info) || host.arranges(frame)) {
        const box = host.frameBox(frame);
        target = host.createFrame(`Hinge · ${info.name}`, box.x + box.width + GAP, box.y, drawing.width, drawing.height);
        host.setData(target, KEYS.role, JSON.stringify({ of: info.id, frame: "companion" }));
        where = "beside";
      }
      const group = host.draw(target, drawing);
      host.setData(group, KEYS.role, JSON.stringify({ group: true, of: info.id }));
      return { type: "drawn", frameId: info.id, name: drawing.name, shapes: drawing.items.length, where };
    } finally {
      host.endUndo(step);
    }
  }

  async function drawMatrix(host, msg) {
    const frame = host.findFrame(msg.frameId);
    if (!frame) throw new Error("the frame is no longer there: select a frame and run again");
    const scene = JSON.parse(msg.scene);
    const info = host.frameInfo(frame);
    const box = host.frameBox(frame);
    await host.loadFonts();
    const step = host.beginUndo();
    try {
      clear(host, frame, ["matrix"]);
      host.setData(frame, KEYS.scene, msg.scene);
      let x = box.x;
      const y = box.y + box.height + GAP * 2;
      let frames = 0;
      for (const result of msg.results) {
        const label = [result.device, result.posture, result.orientation, result.layoutDirection].join(" · ");
        let target;
        if (result.resolution) {
          const drawing = HingeDrawing.instructions(result.resolution, scene);
          target = host.createFrame(`Hinge matrix · ${label}`, x, y, drawing.width, drawing.height);
          const group = host.draw(target, drawing);
          host.setData(group, KEYS.role, JSON.stringify({ group: true, of: info.id }));
          x += drawing.width + GAP;
        } else {
          const lines = (result.errors || []).slice(0, 8).map((e) => wrap(`${e.path}: ${e.message}`, 44));
          target = host.createFrame(`Hinge matrix · ${label} · not resolved`, x, y, 300, 200);
          host.drawText(target, 12, 12, [label, "not resolved:"].concat(lines).join("\n"));
          x += 300 + GAP;
        }
        host.setData(target, KEYS.role, JSON.stringify({ of: info.id, frame: "matrix", combination: label }));
        frames++;
      }
      return { type: "matrix-drawn", frameId: info.id, frames };
    } finally {
      host.endUndo(step);
    }
  }

  /** Wires a host adapter: answers the panel's messages and follows the selection. */
  function start(host) {
    host.onSelection(() => host.post(selection(host)));
    host.onMessage(async (msg) => {
      if (!msg || typeof msg !== "object") return;
      try {
        switch (msg.type) {
          case "ready":
            host.post(selection(host));
            break;
          case "save-scene": {
            const frame = host.findFrame(msg.frameId);
            if (frame) host.setData(frame, KEYS.scene, String(msg.scene));
            break;
          }
          case "settings":
            host.saveSettings(JSON.stringify(Object.assign({}, DEFAULT_SETTINGS, msg.settings || {})));
            break;
          case "draw": {
            const done = await draw(host, msg);
            host.notify(`Hinge drew ${done.name} (${done.shapes} shapes, ${done.where} the frame)`, false);
            host.post(done);
            break;
          }
          case "draw-matrix": {
            const done = await drawMatrix(host, msg);
            host.notify(`Hinge drew the matrix: ${done.frames} frames`, false);
            host.post(done);
            break;
          }
          case "notify":
            host.notify(String(msg.message), !!msg.error);
            break;
          default:
            break;
        }
      } catch (error) {
        const message = error && error.message ? error.message : String(error);
        host.notify(`Hinge: ${message}`, true);
        host.post({ type: "error", message });
      }
    });
  }

  return { start, draw, drawMatrix, selection, KEYS, DEFAULT_SETTINGS };
})();
