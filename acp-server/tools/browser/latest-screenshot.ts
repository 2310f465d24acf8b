// The session's latest browser screenshot, for vision_analyze {screenshot: true}: kept from
// browser_screenshot until the session's browser closes. Imports nothing, so vision_analyze
// reads it without loading the browser tools or playwright-core.
const latest = new Map<string, { mimeType: string; data: string; at: number }>();

export function rememberScreenshot(sessionId: string, image: { mimeType: string; data: string }): void {
  latest.set(sessionId, { ...image, at: Date.now() });
}

export function latestScreenshot(sessionId: string): { mimeType: string; data: string; at: number } | undefined {
  return latest.get(sessionId);
}

export function forgetScreenshot(sessionId: string): void {
  latest.delete(sessionId);
}
