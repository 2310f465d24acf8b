import assert from "node:assert/strict";
import { test } from "node:test";
import { filterSessions } from "../../webview-ui/lib/history-filter";
import { formatCost, formatTokens, usageRatio } from "../../webview-ui/lib/format";
import { relativeTime } from "../../webview-ui/lib/relative-time";

test("token counts read like 12.3k / 200k", () => {
  const table: [number, string][] = [
    [0, "0"],
    [950, "950"],
    [12_345, "12.3k"],
    [48_000, "48k"],
    [200_000, "200k"],
    [1_500_000, "1.5M"],
  ];
  for (const [n, text] of table) assert.equal(formatTokens(n), text, String(n));
});

test("costs keep enough digits", () => {
  assert.equal(formatCost({ amount: 1.5, currency: "USD" }), "$1.50");
  assert.equal(formatCost({ amount: 0.0421, currency: "usd" }), "$0.042");
  assert.equal(formatCost({ amount: 2, currency: "EUR" }), "2.00 EUR");
});

test("usage ratio is clamped", () => {
  assert.equal(usageRatio(50, 200), 0.25);
  assert.equal(usageRatio(500, 200), 1);
  assert.equal(usageRatio(5, 0), 0);
});

test("relative times", () => {
  const now = Date.parse("2026-03-10T12:00:00Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();
  assert.equal(relativeTime(ago(5_000), now), "just now");
  assert.equal(relativeTime(ago(5 * 60_000), now), "5 min ago");
  assert.equal(relativeTime(ago(3 * 3_600_000), now), "3 h ago");
  assert.equal(relativeTime(ago(30 * 3_600_000), now), "yesterday");
  assert.equal(relativeTime(ago(4 * 86_400_000), now), "4 days ago");
  assert.equal(relativeTime(ago(40 * 86_400_000), now), "Jan 29");
  assert.equal(relativeTime("2024-06-01T00:00:00Z", now), "Jun 1, 2024");
  assert.equal(relativeTime(undefined, now), "");
  assert.equal(relativeTime("not a date", now), "");
});

test("history search matches every word of the title, newest first", () => {
  const sessions = [
    { sessionId: "a", title: "Fix the journal loader", updatedAt: "2026-03-01T00:00:00Z" },
    { sessionId: "b", title: "Journal: torn lines", updatedAt: "2026-03-05T00:00:00Z" },
    { sessionId: "c", updatedAt: "2026-03-07T00:00:00Z" },
  ];
  assert.deepEqual(filterSessions(sessions, "journal").map((s) => s.sessionId), ["b", "a"]);
  assert.deepEqual(filterSessions(sessions, "JOURNAL fix").map((s) => s.sessionId), ["a"]);
  assert.deepEqual(filterSessions(sessions, "untitled").map((s) => s.sessionId), ["c"]);
  assert.deepEqual(filterSessions(sessions, "").map((s) => s.sessionId), ["c", "b", "a"]);
});
