// Where a JSON pointer lies in the editor's text, so that an error can be shown in place: a small scanner
// over the text (no evaluation) that keeps the range of the deepest value the pointer reaches.

function tokens(pointer) {
  if (!pointer) return [];
  return pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * `{start, end, exact}`: the range of the member (key and value) or element at `pointer` in `text`, or of
 * its deepest ancestor present (`exact` false: a missing member is shown at the object that lacks it).
 * null when the text does not scan as JSON up to there.
 */
export function locate(text, pointer) {
  const want = tokens(pointer);
  let best = null;
  let i = 0;
  const skip = () => { while (i < text.length && " \t\r\n".includes(text[i])) i++; };
  const fail = () => { throw new SyntaxError("not JSON"); };
  function string() {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i));
  }
  // `path` is the value's pointer tokens while they are a prefix of the wanted ones, else null.
  function value(path, from) {
    skip();
    const start = from ?? i;
    const c = text[i];
    if (c === "{" || c === "[") {
      const object = c === "{";
      i++;
      skip();
      let index = 0;
      if (text[i] === (object ? "}" : "]")) i++;
      else for (;;) {
        skip();
        const at = i;
        let key = String(index++);
        if (object) {
          if (text[i] !== '"') fail();
          key = string();
          skip();
          if (text[i++] !== ":") fail();
        }
        const deeper = path && path.length < want.length && want[path.length] === key ? [...path, key] : null;
        value(deeper, at);
        skip();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === (object ? "}" : "]")) { i++; break; }
        fail();
      }
    } else if (c === '"') {
      string();
    } else {
      const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
      if (!literal) fail();
      i += literal[0].length;
    }
    if (path && (!best || path.length > best.depth)) best = { depth: path.length, start, end: i };
  }
  try {
    value([]);
  } catch {
    // Keep what was found before the text stopped being JSON.
  }
  return best ? { start: best.start, end: best.end, exact: best.depth === want.length } : null;
}

/** The index in `text` of a UTF-8 byte offset (the parser's `offset` in a 400). */
export function indexOfByte(text, offset) {
  let bytes = 0;
  let index = 0;
  for (const ch of text) {
    if (bytes >= offset) break;
    const c = ch.codePointAt(0);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    index += ch.length;
  }
  return index;
}
