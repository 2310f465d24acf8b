// The rule of every short answer box in a card (a question's answer, a rejection's reason, an
// edited message): Enter sends, Shift+Enter adds a line, and a key that ends an IME composition
// is left to the input method.

/** Handles Enter for a textarea; true when the key was taken (the caller then stops there). */
export function enterSends(e: KeyboardEvent, send: () => void): boolean {
  if (e.isComposing || e.key !== "Enter" || e.shiftKey) return false;
  e.preventDefault();
  send();
  return true;
}
