// When the agent asks (an approval or a question), its card takes the
// keyboard — unless the person is in the middle of writing something, whose
// keystrokes must never turn into an answer (docs/ARCHITECTURE.md §Keyboard).

/** No element of the page has the keyboard. */
export function nothingFocused(doc: Document = document): boolean {
  const el = doc.activeElement;
  return !el || el === doc.body || el === doc.documentElement;
}

/** True when moving focus now would not take it from someone typing. */
export function mayTakeFocus(doc: Document = document): boolean {
  if (nothingFocused(doc)) return true;
  const el = doc.activeElement as HTMLElement;
  if (el.closest("[role=dialog]")) return false;
  if (el.tagName === "TEXTAREA" || el.tagName === "INPUT") {
    // The composer with nothing in it is where focus rests after sending.
    return el.getAttribute("aria-label") === "Message" && !(el as HTMLTextAreaElement).value.trim();
  }
  if (el.isContentEditable || el.tagName === "SELECT") return false;
  return true; // a button, a row, the transcript
}
