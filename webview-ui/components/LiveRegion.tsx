// Screen readers hear each completed reply once (a polite live region), not every chunk.
import { useEffect, useRef, useState } from "preact/hooks";
import type { TranscriptItem } from "../../common/panel-state/types";

const MAX_SPOKEN = 600;

export function LiveRegion({ items, running }: { items: TranscriptItem[]; running: boolean }) {
  const [message, setMessage] = useState("");
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) {
      const reply = [...items].reverse().find((i) => i.kind === "agent");
      const text = reply?.kind === "agent" ? toPlainText(reply.text) : "";
      setMessage(text ? `Hermes replied: ${text}` : "Hermes finished.");
    }
    wasRunning.current = running;
  }, [running]);
  return (
    <div class="sr-only" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}

/** Markdown reduced to speakable text: code fences summarised, markup dropped. */
function toPlainText(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?(```|$)/g, " (code block) ")
    .replace(/[#*_>`~]|\[([^\]]*)\]\([^)]*\)/g, (_m, label: string | undefined) => label ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > MAX_SPOKEN ? `${text.slice(0, MAX_SPOKEN)}…` : text;
}
