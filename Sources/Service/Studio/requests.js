// The Request log view: GET /v1/requests newest first with the API's filters and cursor paging; each record
// is named by what a designer recognises (device · posture · time) and the client that sent it. A record
// shows its picture, its request and response, and a Replay button, which the keyboard reaches next.
import { call, pictureText, showPicture, svgURL, widthOf } from "./api.js";
import { el, fill, pretty, problemList, table } from "./dom.js";

const FILTERS = [
  ["device", "Device", "text", "iphone-duo"],
  ["client", "Client", "text", "studio"],
  ["status", "Status", "number", "422"],
  ["code", "Diagnostic code", "text", "chained-modal"],
  ["since", "Since (RFC 3339)", "text", "2026-01-31T00:00:00Z"],
  ["until", "Until (RFC 3339)", "text", ""],
];

const two = (n) => String(n).padStart(2, "0");

/** `14:03:12` today, `2026-01-31 14:03` another day (local time), the API's text when it does not parse. */
export function timeText(iso) {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return String(iso ?? "");
  const now = new Date();
  const today = t.getFullYear() === now.getFullYear() && t.getMonth() === now.getMonth() && t.getDate() === now.getDate();
  const clock = `${two(t.getHours())}:${two(t.getMinutes())}`;
  return today ? `${clock}:${two(t.getSeconds())}` : `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())} ${clock}`;
}

/** device · posture · time (a matrix: "matrix · time"; a scene without a device: "custom window · …"). */
export function recordTitle(r) {
  const request = r.request && typeof r.request === "object" ? r.request : null;
  const posture = r.posture ?? (typeof request?.posture === "string" ? request.posture : null);
  const what = r.path === "/v1/resolve/matrix" ? "matrix" : r.device ?? "custom window";
  return [what, r.path === "/v1/resolve/matrix" ? null : posture, timeText(r.receivedAt)].filter(Boolean).join(" · ");
}

export function mountRequests(panel) {
  const form = el("form", { id: "requests-form", class: "filters" },
    FILTERS.map(([name, label, type, placeholder]) => el("div", { class: "field" },
      el("label", { for: `requests-${name}` }, label),
      el("input", { id: `requests-${name}`, name, type, placeholder, autocomplete: "off" }))),
    el("div", { class: "actions" }, el("button", { type: "submit", id: "requests-apply" }, "Show"),
      el("button", { type: "reset", class: "secondary" }, "Clear filters")));
  const status = el("div", { id: "requests-status", class: "status", role: "status", "aria-live": "polite" });
  const list = el("div", { id: "requests-list" });
  const newer = el("button", { type: "button", class: "secondary", id: "requests-newer", disabled: true }, "← Newer");
  const older = el("button", { type: "button", class: "secondary", id: "requests-older", disabled: true }, "Older →");
  const detail = el("section", { id: "requests-detail", class: "record", "aria-live": "polite" });
  fill(panel, form, status, el("div", { class: "requests-layout" },
    el("div", {}, list, el("div", { class: "actions paging" }, newer, older)), detail));

  // Cursors of the pages before the one shown (the first page has none).
  let cursors = [];
  let cursor = null;
  let next = null;

  async function load() {
    const query = new URLSearchParams();
    for (const [name] of FILTERS) {
      const value = form.elements[name].value.trim();
      if (value) query.set(name, value);
    }
    query.set("limit", "20");
    if (cursor) query.set("cursor", cursor);
    const result = await call("GET", `/v1/requests?${query}`);
    if (!result.ok) {
      fill(status, problemList(result.data));
      return;
    }
    fill(status);
    next = result.data.next;
    newer.disabled = cursors.length === 0;
    older.disabled = !next;
    const items = result.data.items ?? [];
    fill(list, items.length
      ? table(null, ["record", "id", "client", "path", "status", "codes"], items.map((r) => {
        const title = recordTitle(r);
        return [
          el("button", { type: "button", class: "link", onclick: () => open(r.id), "aria-label": `Open record ${r.id}: ${title}` }, title),
          `#${r.id}`, r.client ?? "—", r.path, String(r.status), r.codes.length ? r.codes.join(", ") : "—",
        ];
      }), "records")
      : el("p", {}, "No records match."));
  }

  async function open(id) {
    const picture = el("img", { class: "wireframe", alt: `Wireframe of record ${id}` });
    const figure = el("figure", { class: "picture" }, picture);
    const replayOut = el("div", { id: "replay-result", role: "status", "aria-live": "polite" });
    const replay = el("button", { type: "button", id: "replay-button", onclick: () => runReplay(id, replayOut) }, "Replay");
    const heading = el("h2", { id: "record-title", tabindex: "-1" }, `Record #${id}`);
    fill(detail, heading, el("p", {}, "Loading…"));
    const record = await call("GET", `/v1/requests/${encodeURIComponent(id)}`);
    if (!record.ok) {
      fill(detail, heading, problemList(record.data));
      heading.focus();
      return;
    }
    const r = record.data;
    heading.textContent = recordTitle(r);
    fill(detail,
      heading,
      el("p", { class: "hint" }, `Record #${r.id}${r.client ? ` from ${r.client}` : ""}`),
      el("div", { class: "actions" }, replay), replayOut,
      figure,
      el("dl", { class: "meta" },
        el("dt", {}, "Received"), el("dd", {}, r.receivedAt),
        el("dt", {}, "Client"), el("dd", {}, r.client ?? "—"),
        el("dt", {}, "Path"), el("dd", {}, r.path),
        el("dt", {}, "Status"), el("dd", {}, String(r.status)),
        el("dt", {}, "Device"), el("dd", {}, r.device ?? "—"),
        el("dt", {}, "Duration"), el("dd", {}, `${r.durationMicros} µs`),
        el("dt", {}, "Engine"), el("dd", {}, r.engineVersion)),
      el("h3", {}, "Request"), el("pre", { class: "json", tabindex: "0" }, typeof r.request === "string" ? r.request : pretty(r.request)),
      el("h3", {}, "Response"), el("pre", { class: "json", tabindex: "0" }, typeof r.response === "string" ? r.response : pretty(r.response)));
    // The keyboard goes on from the record (Tab reaches Replay next), not from the row that opened it.
    heading.focus();
    // Only a stored single resolution has a picture (the API answers 409 for the others).
    if (r.path === "/v1/resolve" && r.status === 200 && !r.responseTruncated) {
      const pic = await pictureText("GET", `/v1/requests/${encodeURIComponent(id)}/svg?width=${widthOf(figure, 480)}`);
      if (pic.svg) showPicture(picture, svgURL(pic.svg));
      else fill(figure, el("figcaption", {}, `No picture: ${pic.problem?.detail ?? pic.status}`));
    } else {
      fill(figure, el("figcaption", {}, r.path === "/v1/resolve/matrix"
        ? "No picture for a matrix: open its combinations from the Matrix view."
        : `No picture: the answer was ${r.status}${r.responseTruncated ? " (stored truncated)" : ""}.`));
    }
  }

  async function runReplay(id, out) {
    fill(out, "Replaying…");
    const result = await call("POST", `/v1/requests/${encodeURIComponent(id)}/replay`);
    if (!result.ok) return fill(out, problemList(result.data));
    if (result.data.unchanged) return fill(out, el("p", { class: "unchanged" }, "unchanged: today's engine gives the same response."));
    fill(out, el("p", { class: "changed" }, `changed in ${result.data.differences.length} places:`),
      table(null, ["path", "before", "after"], result.data.differences.map((d) => [
        el("code", {}, d.path), el("code", {}, JSON.stringify(d.before)), el("code", {}, JSON.stringify(d.after))]), "differences"));
  }

  form.addEventListener("submit", (event) => { event.preventDefault(); cursors = []; cursor = null; load(); });
  form.addEventListener("reset", () => { setTimeout(() => { cursors = []; cursor = null; load(); }); });
  older.addEventListener("click", () => { cursors.push(cursor); cursor = next; load(); });
  newer.addEventListener("click", () => { cursor = cursors.pop() ?? null; load(); });
  load();
  return { shown: load, open };
}
