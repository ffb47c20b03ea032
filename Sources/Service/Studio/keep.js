// The Scene view's text kept in this browser (localStorage), so that a reload or a closed tab does not throw an
// edited scene away, and the warning the browser shows before leaving a page whose text was edited since it
// opened. The example scene itself is not kept: with nothing kept, the page starts from it.

const KEY = "hinge.studio.sceneText";

/** The text kept by an earlier page, or null. */
export function keptText() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Keeps `text` (forgets it when it is the example's); false when the browser refused to keep it. */
export function keepText(text, isExample) {
  try {
    if (isExample) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, text);
    return true;
  } catch {
    return false;
  }
}

/** Asks the browser to confirm leaving while `edited()` says the text changed since the page opened. */
export function warnOnLeave(edited) {
  window.addEventListener("beforeunload", (event) => {
    if (!edited()) return;
    event.preventDefault();
    event.returnValue = "";
  });
}
