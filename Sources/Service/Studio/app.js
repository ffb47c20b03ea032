// Hinge Studio: tabs (arrow keys move between them, the URL's #fragment names the open one), the API key
// dialog, and the four views, each mounted the first time it is shown.
import { setApiKey, apiKey, writesNeedKey } from "./api.js";
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
  /** Opens a scene (an object) in the Scene view, resolves it, and moves the focus to its picture. */
  openScene(scene, what) {
    show("scene");
    mounted.scene.load(scene, what);
    mounted.scene.focusPicture();
  },
  /** Puts a device in the Scene view's scene, keeping its presentations (Undo goes back). */
  useDevice(id) {
    show("scene");
    if (mounted.scene.useDevice(id)) mounted.scene.focusPicture();
  },
  /** Shows record `id` in the Request log view. */
  showRecord(id) {
    show("requests");
    mounted.requests.open(id);
  },
  /** The Scene view's current JSON text. */
  sceneText() {
    return mounted.scene.text();
  },
  /** Asks for the API key (after a 401; `refused` when the key sent was refused); true when one was given. */
  askForKey(reason, refused = false) {
    return askForKey(reason, refused);
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

function askForKey(reason, refused = false) {
  const text = document.getElementById("api-key-reason");
  text.textContent = reason ?? "Writes need the server's API key. It is kept for this tab only and sent as Authorization: Bearer.";
  text.className = refused ? "problem" : "";
  keyInput.value = refused ? "" : apiKey() ?? "";
  if (!dialog.open) dialog.showModal();
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
// The key button only on a server that asks for one (the page says so).
const keyButton = document.getElementById("api-key-button");
keyButton.hidden = !writesNeedKey();
keyButton.addEventListener("click", () => askForKey());

// The scene view resolves on start, whichever view is open, so its text is there for the matrix.
mounted.scene = mountScene(document.getElementById("panel-scene"), studio);
show(location.hash.slice(1) || "scene");
