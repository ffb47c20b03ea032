// Calls to the Hinge API on this origin. Every call says it comes from the studio (`Hinge-Client: studio`,
// kept with each record of the request log); `record: false` asks the server not to record it
// (`Hinge-Record: off`). Writes (`PUT`, `DELETE`, and a `POST` called with `write: true`: a constant-set
// version, an impact report) carry the API key when one was given (kept in sessionStorage: this tab only,
// forgotten when it closes).

const KEY = "hinge.apiKey";
export const CLIENT = "studio";

export function apiKey() {
  return sessionStorage.getItem(KEY);
}

export function setApiKey(key) {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
}

/** True when the server asks for a key on writes (the page it served says so). */
export function writesNeedKey() {
  return document.querySelector('meta[name="hinge-writes"]')?.getAttribute("content") === "key";
}

/**
 * `call("POST", "/v1/resolve", {body: text})` → `{status, ok, headers, data, sentKey}`; `data` is the parsed
 * JSON body (a problem document on errors) or null, or the text with `text: true`. `sentKey` says whether
 * the API key went with the request. A network failure gives status 0 and a problem-shaped `data`.
 */
export async function call(method, path, options = {}) {
  const headers = new Headers(options.headers ?? {});
  headers.set("Hinge-Client", CLIENT);
  if (options.record === false) headers.set("Hinge-Record", "off");
  let body = options.body;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const sentKey = (method === "PUT" || method === "DELETE" || options.write === true) && Boolean(apiKey());
  if (sentKey) headers.set("Authorization", `Bearer ${apiKey()}`);
  let response;
  try {
    response = await fetch(path, { method, headers, body, signal: options.signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    return { status: 0, ok: false, headers: new Headers(), sentKey,
      data: { title: "No answer", detail: `The server did not answer (${error.message}).` } };
  }
  const type = response.headers.get("Content-Type") ?? "";
  let data = null;
  if (options.text && response.ok) data = await response.text();
  else if (type.includes("json")) data = await response.json().catch(() => null);
  else await response.arrayBuffer();
  return { status: response.status, ok: response.ok, headers: response.headers, data, sentKey };
}

/** An SVG answer as text: `{svg, status, problem}` (`svg` null and the problem document on an error). */
export async function pictureText(method, path, options = {}) {
  const result = await call(method, path, { ...options, text: true, headers: { Accept: "image/svg+xml" } });
  if (!result.ok || typeof result.data !== "string") {
    return { svg: null, status: result.status, problem: result.data ?? { detail: `HTTP ${result.status}` } };
  }
  return { svg: result.data, status: result.status, problem: null };
}

/**
 * The SwiftUI view `POST /v1/swiftui` writes for a scene's text: `{source, status, problem}` (`source` null and
 * the problem document on an error). Not recorded, like the editor's live resolutions.
 */
export async function swiftUISource(text) {
  const result = await call("POST", "/v1/swiftui", { body: text, text: true, record: false });
  if (!result.ok || typeof result.data !== "string") {
    return { source: null, status: result.status, problem: result.data ?? { detail: `HTTP ${result.status}` } };
  }
  return { source: result.data, status: result.status, problem: null };
}

/** An object URL for SVG text, to show through `<img>` (scripts in an image never run). */
export function svgURL(text) {
  return URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
}

/** Swaps an `<img>`'s object URL, releasing the previous one. */
export function showPicture(img, url) {
  const old = img.dataset.objectUrl;
  img.src = url;
  img.dataset.objectUrl = url;
  if (old) URL.revokeObjectURL(old);
}

/** A picture width for `?width=`: the pixels of `node`'s content box, within the API's 16…4096. */
export function widthOf(node, fallback = 800) {
  const style = getComputedStyle(node);
  const inner = node.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
  return Math.min(4096, Math.max(16, Math.floor(inner > 0 ? inner : fallback)));
}

let catalog = null;

/** `GET /v1/devices`, shared by the views; `refresh` after a profile changed. */
export function devices(refresh = false) {
  if (!catalog || refresh) {
    catalog = call("GET", "/v1/devices").then((r) => (r.ok && Array.isArray(r.data?.items) ? r.data.items : []));
  }
  return catalog;
}

let sets = null;

/**
 * The constant sets with their versions, shared by the views: `[{name, latestVersion, created, note,
 * versions: [{version, reference, basedOn, created, note}]}]` (`GET /v1/constant-sets`, then each set);
 * `refresh` after a version was added.
 */
export function constantSets(refresh = false) {
  if (!sets || refresh) {
    sets = call("GET", "/v1/constant-sets").then(async (r) => {
      const list = r.ok && Array.isArray(r.data?.constantSets) ? r.data.constantSets : [];
      return Promise.all(list.map(async (set) => {
        const detail = await call("GET", `/v1/constant-sets/${encodeURIComponent(set.name)}`);
        const versions = detail.ok && Array.isArray(detail.data?.versions) ? detail.data.versions : [];
        return { ...set, retired: detail.data?.retired ?? null, versions };
      }));
    });
  }
  return sets;
}
