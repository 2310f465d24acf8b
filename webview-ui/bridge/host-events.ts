// One-off host messages that are not state: mention search results and "focus the composer".
// The composer subscribes; nothing is stored.

export type HostEvent =
  | { type: "mentionResults"; query: string; files: { uri: string; path: string }[] }
  | { type: "focusComposer"; text?: string };

const listeners = new Set<(event: HostEvent) => void>();

export function onHostEvent(listener: (event: HostEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitHostEvent(event: HostEvent): void {
  for (const listener of [...listeners]) listener(event);
}
