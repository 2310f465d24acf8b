// The sessions that have a browser open, and how to close each: imports nothing, so a session's
// close can ask it without loading the browser tools (or playwright-core) for the many sessions
// that never browsed.
const closers = new Map<string, () => Promise<void>>();

export function registerBrowser(sessionId: string, close: () => Promise<void>): void {
  closers.set(sessionId, close);
}

export function forgetBrowser(sessionId: string): void {
  closers.delete(sessionId);
}

/** Closes the session's browser, if it opened one. */
export async function closeBrowserOf(sessionId: string): Promise<void> {
  const close = closers.get(sessionId);
  closers.delete(sessionId);
  await close?.();
}
