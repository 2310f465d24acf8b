// Digits answer a waiting card (a permission or a question): lib/permission-keys.ts decides when
// a digit is an answer. Every waiting card of either kind counts, so two cards never take the
// same key.
import { useLayoutEffect, useRef } from "preact/hooks";
import { chatStore } from "../../bridge/chat-store";
import { isTextField, permissionShortcut } from "../../lib/permission-keys";

export function useCardDigits(card: { current: HTMLDivElement | null }, active: boolean, count: number, pick: (index: number) => void): void {
  // The latest `pick` (it closes over the card's options), without re-listening on every render.
  const latest = useRef(pick);
  latest.current = pick;
  // A layout effect: the listener is in place when the card is drawn. A plain effect runs a frame
  // later, and a digit pressed as the card appears (the e2e presses one at once) went nowhere.
  useLayoutEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      const pending = chatStore.get().items.filter((i) => (i.kind === "permission" || i.kind === "question") && i.outcome === undefined).length;
      const index = permissionShortcut(e, { inCard: !!target && !!card.current?.contains(target), typing: isTextField(target), pending }, count);
      if (index === undefined) return;
      e.preventDefault();
      latest.current(index);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [active, count]);
}
