// Boots one plugin against its host stub, as the host would: reads the manifest, loads the main code and
// the panel, and runs the main code with the host's global and no DOM (window, document, fetch and
// XMLHttpRequest are undefined for it, as in Figma's sandbox). ?host=figma or ?host=penpot&base=URL, where
// URL is the static host serving plugins/penpot/. window.__host is the harness's handle; __host.reopen()
// closes the plugin and runs it again on the same document, as another install with reopen(true).
(async () => {
  const params = new URLSearchParams(location.search);
  const kind = params.get("host");
  const stub = kind === "figma" ? FigmaStub : PenpotStub;
  const errors = [];
  window.addEventListener("error", (e) => errors.push(String(e.message)));
  window.addEventListener("unhandledrejection", (e) => errors.push(String(e.reason && e.reason.message || e.reason)));
  window.__host = { kind, stub, core: StubCore, errors, ready: false,
    // The stubbed canvas as SVG, scaled to fit the space left of the panel (or by `scale`).
    render(scale, only) {
      const canvas = document.getElementById("canvas");
      const room = { w: window.innerWidth - document.getElementById("panel").offsetWidth - 32, h: window.innerHeight - 32 };
      canvas.innerHTML = stub.render(1, only);
      const svg = canvas.querySelector("svg");
      const w = parseFloat(svg.getAttribute("width"));
      const h = parseFloat(svg.getAttribute("height"));
      const k = scale || Math.min(1, room.w / w, room.h / h);
      svg.setAttribute("width", String(w * k));
      svg.setAttribute("height", String(h * k));
    } };
  const panel = document.getElementById("panel");
  document.getElementById("panel-title").textContent = kind === "figma" ? "Figma · Plugins › Development › Hinge" : "Penpot · Plugins › Hinge";
  const run = (code, globals) => {
    const names = Object.keys(globals).concat(["window", "document", "fetch", "XMLHttpRequest", "self"]);
    const values = Object.values(globals);
    return new Function(...names, `"use strict";\n${code}`)(...values);
  };
  // The members the host's published definitions declare: the stub refuses any other.
  StubCore.publish(await (await fetch(`${kind}-api.txt`)).text());
  // Settings a designer saved earlier (the document's plugin data), so the panel's first call goes there.
  if (params.get("settings")) stub.seedSettings(params.get("settings"));
  async function boot() {
    if (kind === "figma") {
      const dir = "../figma/";
      const manifest = await (await fetch(`${dir}manifest.json`)).json();
      const code = await (await fetch(dir + manifest.main)).text();
      const html = await (await fetch(dir + manifest.ui)).text();
      stub.mount(panel);
      run(code, { figma: stub.figma, __html__: html });
    } else {
      const base = params.get("base");
      const manifest = await (await fetch(new URL("manifest.json", base))).json();
      const code = await (await fetch(new URL(manifest.code, base))).text();
      stub.mount(panel, base);
      run(code, { penpot: stub.penpot });
    }
  }
  await boot();
  window.__host.reopen = async (reinstall) => {
    window.__host.ready = false;
    stub.close(!!reinstall);
    await boot();
    window.__host.ready = true;
  };
  window.__host.ready = true;
})().catch((e) => { console.error(`host stub: boot failed: ${e && e.message}`); });
