// One-off host messages that are not state: mention search results and "focus the composer".
// The composer subscribes; nothing is stored.
import type { SessionSummary } from "../../common/panel-state/types";

export type HostEvent =
  | { type: "mentionResults"; query: string; files: { uri: string; path: string }[] }
  | { type: "focusComposer"; text?: string }
  | { type: "historyResults"; query: string; ok: boolean; sessions: SessionSummary[] };

const listeners = new Set<(event: HostEvent) => void>();

export function onHostEvent(listener: (event: HostEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitHostEvent(event: HostEvent): void {
  for (const listener of [...listeners]) listener(event);
}
