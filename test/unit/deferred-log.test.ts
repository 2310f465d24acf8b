import assert from "node:assert/strict";
import { test } from "node:test";
import { deferredLogger } from "../../acp-server/util/deferred-log";
import type { Logger } from "../../acp-server/util/log";

function recorder(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message}${fields ? ` ${JSON.stringify(fields)}` : ""}`);
  return { log: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, lines };
}

test("lines logged before the real log exists reach it in order, later lines go straight to it", () => {
  const early = deferredLogger();
  early.warn("bad frame", { id: 1 });
  early.debug("another");
  const { log, lines } = recorder();
  assert.deepEqual(lines, []);
  early.attach(log);
  assert.deepEqual(lines, ['warn bad frame {"id":1}', "debug another"]);
  early.error("later");
  assert.deepEqual(lines.at(-1), "error later");
});

test("a flood before the log exists is bounded, and the drop is reported", () => {
  const early = deferredLogger();
  for (let i = 0; i < 250; i++) early.debug(`line ${i}`);
  const { log, lines } = recorder();
  early.attach(log);
  assert.equal(lines.length, 101);
  assert.equal(lines[99], "debug line 99");
  assert.match(lines[100]!, /^warn 150 log lines .* dropped$/);
});
