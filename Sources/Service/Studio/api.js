// Calls to the Hinge API on this origin. Writes carry the API key when one was given (kept in
// sessionStorage: this tab only, forgotten when it closes).

const KEY = "hinge.apiKey";

export function apiKey() {
  return sessionStorage.getItem(KEY);
}

export function setApiKey(key) {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
}

/**
 * `call("POST", "/v1/resolve", {body: text})` → `{status, ok, headers, data}`; `data` is the parsed JSON body
 * (a problem document on errors) or null. A network failure gives status 0 and a problem-shaped `data`.
 */
export async function call(method, path, options = {}) {
  const headers = new Headers(options.headers ?? {});
  let body = options.body;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  if ((method === "PUT" || method === "DELETE") && apiKey()) headers.set("Authorization", `Bearer ${apiKey()}`);
  let response;
  try {
    response = await fetch(path, { method, headers, body, signal: options.signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    return { status: 0, ok: false, headers: new Headers(), data: { title: "No answer", detail: `The server did not answer (${error.message}).` } };
  }
  const type = response.headers.get("Content-Type") ?? "";
  let data = null;
  if (options.blob) data = await response.blob();
  else if (type.includes("json")) data = await response.json().catch(() => null);
  else await response.arrayBuffer();
  return { status: response.status, ok: response.ok, headers: response.headers, data };
}

/** An object URL for an SVG answer, to show through `<img>` (scripts in an image never run). */
export async function pictureURL(method, path, body) {
  const result = await call(method, path, { body, blob: true, headers: { Accept: "image/svg+xml" } });
  if (!result.ok) {
    const text = result.data instanceof Blob ? await result.data.text() : "";
    let problem = null;
    try { problem = JSON.parse(text); } catch { problem = { detail: `HTTP ${result.status}` }; }
    return { url: null, status: result.status, problem };
  }
  return { url: URL.createObjectURL(result.data), status: result.status, problem: null };
}

/** Swaps an `<img>`'s object URL, releasing the previous one. */
export function showPicture(img, url) {
  const old = img.dataset.objectUrl;
  img.src = url;
  img.dataset.objectUrl = url;
  if (old) URL.revokeObjectURL(old);
}

let catalog = null;

/** `GET /v1/devices`, shared by the views; `refresh` after a profile changed. */
export function devices(refresh = false) {
  if (!catalog || refresh) {
    catalog = call("GET", "/v1/devices").then((r) => (r.ok && Array.isArray(r.data?.items) ? r.data.items : []));
  }
  return catalog;
}
