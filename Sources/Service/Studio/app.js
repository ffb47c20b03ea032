// Hinge Studio: tabs (arrow keys move between them, the URL's #fragment names the open one), the API key
// dialog, and the four views, each mounted the first time it is shown.
import { setApiKey, apiKey } from "./api.js";
import { mountScene } from "./scene.js";
import { mountMatrix } from "./matrix.js";
import { mountRequests } from "./requests.js";
import { mountDevices } from "./devices.js";

const views = {
  scene: mountScene,
  matrix: mountMatrix,
  requests: mountRequests,
  devices: mountDevices,
};
const mounted = {};
const tabs = [...document.querySelectorAll('[role="tab"]')];

const studio = {
  /** Opens a scene (an object) in the Scene view and resolves it. */
  openScene(scene) {
    show("scene");
    mounted.scene.load(scene);
  },
  /** The Scene view's current JSON text. */
  sceneText() {
    return mounted.scene.text();
  },
  /** Asks for the API key (after a 401); resolves true when one was given. */
  askForKey(reason) {
    return askForKey(reason);
  },
};

function show(name, focus = false) {
  if (!views[name]) name = "scene";
  for (const tab of tabs) {
    const selected = tab.id === `tab-${name}`;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    document.getElementById(tab.getAttribute("aria-controls")).hidden = !selected;
    if (selected && focus) tab.focus();
  }
  const panel = document.getElementById(`panel-${name}`);
  if (!mounted[name]) mounted[name] = views[name](panel, studio);
  else mounted[name].shown?.();
  if (location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
}

for (const tab of tabs) {
  tab.addEventListener("click", () => show(tab.id.slice(4)));
  tab.addEventListener("keydown", (event) => {
    const i = tabs.indexOf(tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    show(tabs[(next + tabs.length) % tabs.length].id.slice(4), true);
  });
}
window.addEventListener("hashchange", () => show(location.hash.slice(1)));

const dialog = document.getElementById("api-key-dialog");
const keyInput = document.getElementById("api-key-input");
let keyWaiter = null;

function askForKey(reason) {
  document.getElementById("api-key-reason").textContent =
    reason ?? "Writes need the server's API key. It is kept for this tab only and sent as Authorization: Bearer.";
  keyInput.value = apiKey() ?? "";
  dialog.showModal();
  keyInput.focus();
  return new Promise((resolve) => { keyWaiter = resolve; });
}

dialog.addEventListener("close", () => {
  if (dialog.returnValue === "save") setApiKey(keyInput.value.trim());
  if (dialog.returnValue === "forget") setApiKey(null);
  keyInput.value = "";
  keyWaiter?.(dialog.returnValue === "save" && Boolean(apiKey()));
  keyWaiter = null;
});
document.getElementById("api-key-button").addEventListener("click", () => askForKey());

// The scene view resolves on start, whichever view is open, so its text is there for the matrix.
mounted.scene = mountScene(document.getElementById("panel-scene"), studio);
show(location.hash.slice(1) || "scene");
