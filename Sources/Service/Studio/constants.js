// The Devices view's Constants tab: the constant sets (GET /v1/constant-sets), a set's versions, a version's
// constants with where each value comes from, a form that makes the next version (POST …/versions), and the
// impact report of a version (POST …/versions/{n}/impact: the records that would use it re-resolved with it),
// with its counts, the records counted apart, its changes grouped by member and direction and the changed
// records, each a link to the record in the Request log view.
import { call, constantSets } from "./api.js";
import { el, fill, problemList, table } from "./dom.js";
import { timeText } from "./requests.js";

const FILTERS = [
  ["since", "Since (RFC 3339)", "text", "2026-01-31T00:00:00Z"],
  ["until", "Until (RFC 3339)", "text", ""],
  ["device", "Device", "text", "iphone-16"],
  ["constantSet", "Resolved with", "text", "acme@1 or default"],
  ["limit", "Records at most", "number", "10000"],
];
const PAGE = 20;
const APART = {
  noSet: "the scene names no set: built-in values",
  otherSet: "the scene names another set",
  otherVersion: "the scene pins another version of this set",
};
const CHANGE_HEADINGS = ["record", "device", "resolved with", "differences"];

export function mountConstants(panel, studio) {
  const status = el("div", { id: "constants-status", class: "status", role: "status", "aria-live": "polite" });
  const list = el("div", { id: "constants-sets" });
  const detail = el("section", { id: "constants-detail", class: "constants-detail", "aria-live": "polite" });
  fill(panel, el("p", { class: "hint" },
    "A constant set is a team's measured constants, named and versioned; a scene pins one with \"constantSet\". ",
    "Pick one in the Scene view to resolve with it, or compare two there side by side."),
  status, list, el("details", { class: "new-set", id: "new-set" }, el("summary", {}, "New constant set…"), versionForm(null, [])), detail);
  const defaults = call("GET", "/v1/constants").then((r) => (r.ok ? r.data?.constants ?? {} : {}));

  async function refresh() {
    const sets = await constantSets(true);
    if (!sets.length) {
      fill(list, el("p", {}, "No constant sets yet: make the first version of one under “New constant set…” below."));
      return;
    }
    fill(list, table(null, ["set", "latest version", "created", "note"], sets.map((s) => [
      el("button", { type: "button", class: "link", onclick: () => showSet(s.name), "aria-label": `Show set ${s.name}` }, s.name),
      `@${s.latestVersion}${s.retired ? " (retired)" : ""}`, timeText(s.created), s.note ?? "—",
    ]), "constant-sets"));
  }

  async function showSet(name, version = null) {
    const result = await call("GET", `/v1/constant-sets/${encodeURIComponent(name)}`);
    if (!result.ok) return fill(detail, problemList(result.data));
    const set = result.data;
    const versions = set.versions ?? [];
    const constants = el("div", { id: "constants-version" });
    const heading = el("h2", { id: "constants-set-title", tabindex: "-1" }, `${set.name}${set.retired ? " (retired)" : ""}`);
    fill(detail, el("div", { class: "constants-layout" },
      el("div", {}, heading,
        table(null, ["version", "based on", "created", "note", "constants"], versions.map((v) => [
          v.reference, v.basedOn, timeText(v.created), v.note ?? "—",
          el("button", { type: "button", class: "secondary", onclick: () => showVersion(set.name, v.version, constants),
            "aria-label": `Show the constants of ${v.reference}` }, "Show"),
        ]), "constant-versions"),
        constants),
      el("div", {}, versionForm(set.name, versions), impactForm(set.name, versions))));
    heading.focus();
    const latest = versions[versions.length - 1];
    if (latest) showVersion(set.name, version ?? latest.version, constants);
  }

  async function showVersion(name, n, out) {
    fill(out, el("p", {}, "Loading…"));
    const [result, base] = await Promise.all([
      call("GET", `/v1/constant-sets/${encodeURIComponent(name)}/versions/${n}`), defaults]);
    if (!result.ok) return fill(out, problemList(result.data));
    const v = result.data;
    const rows = Object.entries(v.constants ?? {}).map(([key, c]) => {
      const differs = base[key] && base[key].default !== c.value;
      return [el("code", {}, key), el("span", { class: differs ? "differs" : "" }, String(c.value)),
        base[key] ? String(base[key].default) : "—", c.source];
    });
    out.dataset.version = v.reference;
    fill(out, el("h3", { id: "constants-version-title" }, `Constants of ${v.reference}`),
      el("p", { class: "hint" }, `Based on ${v.basedOn}; digest ${v.digest}. Values that differ from the built-in default are in bold.`),
      table(null, ["constant", "value", "built-in default", "source"], rows, "constant-values"));
  }

  function impactForm(name, versions) {
    const versionPicker = el("select", { id: "impact-version", name: "version" },
      versions.map((v) => el("option", { value: String(v.version) }, v.reference)).reverse());
    const run = el("button", { type: "submit", id: "impact-run" }, "Run the impact report");
    const out = el("div", { id: "impact-result", "aria-live": "polite" });
    const form = el("form", { id: "impact-form", class: "impact-form", "aria-labelledby": "impact-title" },
      el("h3", { id: "impact-title" }, "What a version moves"),
      el("p", { class: "hint" }, "Re-resolves the recorded requests with the version and compares with what each answered."),
      el("div", { class: "impact-fields" },
        el("div", { class: "field" }, el("label", { for: "impact-version" }, "Version"), versionPicker),
        FILTERS.map(([key, label, type, placeholder]) => el("div", { class: "field" },
          el("label", { for: `impact-${key}` }, label),
          el("input", { id: `impact-${key}`, name: key, type, placeholder, autocomplete: "off", min: type === "number" ? 1 : null })))),
      el("div", { class: "actions" }, run), out);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      impact(name, form, out, null);
    });
    return form;
  }

  async function impact(name, form, out, after) {
    const body = { pageLimit: PAGE };
    for (const [key, , type] of FILTERS) {
      const value = form.elements[key].value.trim();
      if (value) body[key] = type === "number" ? Number(value) : value;
    }
    if (after) body.after = after;
    const n = form.elements.version.value;
    const button = form.querySelector("#impact-run");
    button.disabled = true;
    out.setAttribute("aria-busy", "true");
    out.dataset.state = "running";
    fill(status, `Running the impact report of ${name}@${n}…`);
    if (!after) fill(out, el("p", { class: "progress" }, el("progress", { "aria-label": "Impact report running" }), " Re-resolving the request log…"));
    const result = await keyed(`/v1/constant-sets/${encodeURIComponent(name)}/versions/${n}/impact`, body,
      "This server needs its API key for an impact report: it reads the whole request log.");
    button.disabled = false;
    out.removeAttribute("aria-busy");
    fill(status);
    if (!result.ok) {
      out.dataset.state = "error";
      return fill(out, problemList(result.data));
    }
    out.dataset.state = "done";
    showImpact(name, form, out, result.data, Boolean(after));
  }

  function showImpact(name, form, out, report, more) {
    const changes = report.changes ?? [];
    const rows = changes.map((c) => [
      el("button", { type: "button", class: "link", onclick: () => studio.showRecord(c.id), "aria-label": `Show record ${c.id} in the request log` }, `#${c.id}`),
      c.device ?? "custom window", c.constantSet ?? "—",
      el("ul", { class: "differences" }, (c.differences ?? []).map((d) => el("li", {},
        el("code", {}, d.path), ` ${JSON.stringify(d.before)} → ${JSON.stringify(d.after)}`))),
    ]);
    const next = report.next
      ? el("button", { type: "button", class: "secondary", id: "impact-more", onclick: () => impact(name, form, out, report.next) }, "More changed records")
      : null;
    if (more) {
      out.querySelector("#impact-more")?.remove();
      out.querySelector("table.impact-changes tbody")?.append(...rows.map((cells) => el("tr", {},
        cells.map((c, i) => el("td", { "data-label": CHANGE_HEADINGS[i] }, c)))));
      if (next) out.append(next);
      return;
    }
    const counts = report.counts ?? {};
    const elsewhere = report.elsewhere ?? [];
    fill(out,
      el("p", { id: "impact-summary" }, `${report.constantSet}, among the records that would use it: `,
        ["replayed", "unchanged", "changed", "skipped"].map((k, i) => [
          i ? ", " : "", el("strong", { id: `impact-${k}`, "data-count": String(counts[k] ?? 0) }, String(counts[k] ?? 0)), ` ${k}`])),
      elsewhere.length
        ? table(`Not moved: ${counts.elsewhere ?? 0} records that use other constants`, ["resolved with", "why", "records"],
          elsewhere.map((e) => [e.constantSet, APART[e.reason] ?? e.reason, String(e.records)]), "impact-elsewhere")
        : null,
      (report.groups ?? []).length
        ? table("Changes by member and direction", ["member", "detent", "direction", "records", "typical move"],
          report.groups.map((g) => [el("code", {}, g.pattern), g.detent ?? "—", g.direction, String(g.records),
            g.typical === null || g.typical === undefined ? "—" : `${g.typical > 0 ? "+" : ""}${g.typical}`]), "impact-groups")
        : el("p", {}, "Nothing moves."),
      changes.length ? table("Changed records", CHANGE_HEADINGS, rows, "impact-changes") : null,
      next);
  }

  /** The form that makes the next version of `name` (a new set's name is typed when `name` is null). */
  function versionForm(name, versions) {
    const id = name ? "version" : "new-set";
    const latest = versions[versions.length - 1];
    const base = el("select", { id: `${id}-based-on`, name: "basedOn" },
      el("option", { value: "default" }, "default (built-in values)"),
      [...versions].reverse().map((v) => el("option", { value: v.reference, selected: v === latest }, v.reference)));
    const setName = name ? null : el("input", { id: `${id}-name`, name: "name", autocomplete: "off", required: true, placeholder: "acme" });
    const constants = el("textarea", { id: `${id}-constants`, name: "constants", rows: 4, spellcheck: "false",
      placeholder: "sheet.topGap = 12\npopover.margin = 14" });
    const note = el("input", { id: `${id}-note`, name: "note", autocomplete: "off", placeholder: "measured on iPhone Duo, iOS 27.1" });
    const out = el("div", { id: `${id}-result`, "aria-live": "polite" });
    const form = el("form", { id: `${id}-form`, class: "impact-form version-form", "aria-labelledby": `${id}-title` },
      el("h3", { id: `${id}-title` }, name ? `New version of ${name}` : "New constant set"),
      el("p", { class: "hint" }, "One constant per line as key = value (GET /v1/constants lists the keys); the note is the source of each value set."),
      el("div", { class: "impact-fields" },
        setName ? el("div", { class: "field" }, el("label", { for: `${id}-name` }, "Name"), setName) : null,
        el("div", { class: "field" }, el("label", { for: `${id}-based-on` }, "Based on"), base),
        el("div", { class: "field" }, el("label", { for: `${id}-note` }, "Note"), note)),
      el("div", { class: "field" }, el("label", { for: `${id}-constants` }, "Constants"), constants),
      el("div", { class: "actions" }, el("button", { type: "submit", id: `${id}-create` }, "Create the version")), out);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const target = name ?? setName.value.trim();
      const body = { basedOn: base.value, constants: {} };
      const bad = [];
      for (const line of constants.value.split("\n").map((l) => l.trim()).filter(Boolean)) {
        const m = /^([^=:\s]+)\s*[=:]\s*(-?[0-9.]+(?:e-?[0-9]+)?)$/i.exec(line);
        if (m) body.constants[m[1]] = Number(m[2]);
        else bad.push(line);
      }
      if (note.value.trim()) body.note = note.value.trim();
      if (bad.length) return fill(out, el("p", { class: "problem" }, `Not key = number: ${bad.join("; ")}`));
      const created = await createVersion(target, body);
      if (!created.ok) return fill(out, problemList(created.data));
      fill(status, el("span", { class: "ok", id: "version-created" }, `Created ${created.data.reference}.`));
      await refresh();
      await showSet(created.data.name, created.data.version);
    });
    return form;
  }

  async function createVersion(name, body) {
    const path = `/v1/constant-sets/${encodeURIComponent(name)}/versions`;
    return keyed(path, body, "This server needs its API key to create a constant set version.");
  }

  /** A POST that carries the API key when the server has one (a write, or an impact report, which reads the
   * whole request log): after a 401 it asks for the key and tries once more. */
  async function keyed(path, body, need) {
    const result = await call("POST", path, { json: body, write: true });
    if (result.status !== 401) return result;
    const reason = result.sentKey
      ? "401 — the server refused this key. Check it and enter it again; it is kept for this tab only."
      : need;
    return (await studio.askForKey(reason, result.sentKey)) ? call("POST", path, { json: body, write: true }) : result;
  }

  refresh();
  return { shown: refresh };
}
