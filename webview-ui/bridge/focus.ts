// Keyboard focus for the whole panel:
// - when VS Code focuses the view (Ctrl+Alt+H, "Focus on Chat View", New Chat) the webview's
//   window gets focus but no element has it, so typed keys went nowhere: the caret goes to the
//   composer then, and a printable key pressed while nothing is focused is redirected there too;
// - a held Enter or Space auto-repeats, and a browser activates a focused button on every
//   repeated Enter keydown: one deliberate press must be one activation, so repeats are dropped
//   on buttons (this is what forked a chat four times).
import { emitHostEvent } from "./host-events";

export function installFocusHandling(): void {
  window.addEventListener("focus", () => {
    if (nothingFocused()) emitHostEvent({ type: "focusComposer" });
  });
  document.addEventListener(
    "keydown",
    (e) => {
      const target = e.target as HTMLElement | null;
      if (e.repeat && (e.key === "Enter" || e.key === " ") && target?.closest("button, [role=button]")) {
        e.preventDefault();
        e.stopPropagation();
        return;
      }
      // Moving focus during keydown sends the key's character to the newly focused box.
      if (nothingFocused() && isTyping(e)) emitHostEvent({ type: "focusComposer" });
    },
    true,
  );
}

function nothingFocused(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active === document.documentElement;
}

/** A key that types a character (not a shortcut, not navigation). */
function isTyping(e: KeyboardEvent): boolean {
  return e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
}
