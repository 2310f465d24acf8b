// Answering a permission card from the keyboard: digits 1–9 pick the card's options in order.
// A digit is an answer only when it cannot be text: never while the user types in a text field
// (the composer, the rejection reason), and outside the card only when exactly one card is
// waiting (with two, a stray digit could answer the wrong one). Pure, tested in test/unit.

export interface ShortcutContext {
  /** The key's target is inside this card (the card or one of its buttons has focus). */
  inCard: boolean;
  /** The key's target is a text field: the digit is text. */
  typing: boolean;
  /** Permission cards waiting for an answer in the panel. */
  pending: number;
}

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  repeat?: boolean;
}

/** The index of the option the key picks, or undefined when the key is not an answer. */
export function permissionShortcut(e: KeyLike, ctx: ShortcutContext, optionCount: number): number | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return undefined;
  if (!/^[1-9]$/.test(e.key)) return undefined;
  const index = Number(e.key) - 1;
  if (index >= optionCount || ctx.typing) return undefined;
  if (ctx.inCard || ctx.pending === 1) return index;
  return undefined;
}

/** True for elements that take text (a digit typed there is text, not a shortcut). */
export function isTextField(target: { tagName?: string; isContentEditable?: boolean; type?: string } | null | undefined): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  return !["button", "checkbox", "radio", "submit", "reset"].includes((target.type ?? "text").toLowerCase());
}
