// Element builders for the studio. Everything given to them becomes a text node or an attribute value:
// nothing from the API or the scene is ever parsed as markup.

const SVG_NS = "http://www.w3.org/2000/svg";
const PROPERTIES = new Set(["value", "checked", "selected", "disabled", "hidden"]);

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (PROPERTIES.has(key)) node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}

function appendChildren(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** `el("td", {class: "num"}, "12")`: an HTML element with attributes and text or element children. */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  apply(node, attrs);
  appendChildren(node, children);
  return node;
}

/** An SVG element (for drawings made of API numbers). */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  apply(node, attrs);
  appendChildren(node, children);
  return node;
}

/** Replaces every child of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  appendChildren(node, children);
  return node;
}

/** JSON shown as text, indented. */
export function pretty(value) {
  return JSON.stringify(value, null, 2);
}

/** A frame `{x, y, width, height}` as the API gave it. */
export function frameText(frame) {
  if (!frame) return "—";
  return `x ${frame.x}, y ${frame.y}, ${frame.width} × ${frame.height}`;
}

/** A labelled `<select>`: `options` are `[value, label]` pairs. */
export function select(id, label, options, onchange) {
  const control = el("select", { id, name: id, onchange });
  setOptions(control, options);
  return [el("label", { for: id }, label), control];
}

export function setOptions(control, options) {
  const current = control.value;
  fill(control, options.map(([value, text]) => el("option", { value }, text)));
  if (options.some(([value]) => value === current)) control.value = current;
}

/** A table whose rows are arrays of cells (text or nodes). */
export function table(caption, headings, rows, className = "") {
  return el(
    "table",
    { class: className },
    caption ? el("caption", {}, caption) : null,
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c, i) => el("td", { "data-label": headings[i] }, c))))),
  );
}

/**
 * The violations of a problem document, each beside its JSON pointer. With `show`, each gets a button that
 * calls `show({pointer})` (or `show({offset})` for where a body stopped being JSON).
 */
export function problemList(problem, show = null) {
  const items = [];
  const button = (target, label) => show
    ? el("button", { type: "button", class: "link show-in-editor", onclick: () => show(target), "aria-label": label }, "show")
    : null;
  for (const key of ["errors", "unknownFields"]) {
    for (const issue of Array.isArray(problem?.[key]) ? problem[key] : []) {
      const pointer = String(issue.path ?? "");
      items.push(
        el("li", { class: key === "errors" ? "issue" : "issue unknown" },
          el("code", { class: "pointer" }, pointer === "" ? "/ (the whole body)" : pointer),
          " ", el("span", {}, String(issue.message ?? "")), " ",
          button({ pointer }, `Show ${pointer || "the body"} in the editor`)),
      );
    }
  }
  if (problem && problem.line !== undefined) {
    items.push(el("li", { class: "issue" },
      el("code", { class: "pointer" }, `line ${problem.line}, column ${problem.column}`), " ",
      button({ offset: problem.offset, line: problem.line, column: problem.column }, `Show line ${problem.line}, column ${problem.column} in the editor`)));
  }
  return el("div", { class: "problem", role: "alert" },
    el("p", {}, el("strong", {}, problem?.title ? `${problem.status} ${problem.title}` : "Error"), ": ", String(problem?.detail ?? "")),
    items.length ? el("ul", { class: "issues" }, items) : null);
}
