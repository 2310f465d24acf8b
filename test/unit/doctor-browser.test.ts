import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { checkBrowser } from "../../acp-server/cli/doctor-browser";
import type { LoadedConfig } from "../../acp-server/config/load";
import { BrowserConfigSchema } from "../../acp-server/config/browser-schema";

const loaded = (browser: Record<string, unknown> = {}) => ({ config: { browser: BrowserConfigSchema.parse(browser) } }) as unknown as LoadedConfig;

test("doctor names the Chromium the browser tools will use, or says how to get one", () => {
  const bin = mkdtempSync(path.join(os.tmpdir(), "hermes-bin-"));
  const chromium = path.join(bin, "chromium");
  writeFileSync(chromium, "#!/bin/sh\n");
  chmodSync(chromium, 0o755);
  const found = checkBrowser(loaded(), { PATH: bin });
  assert.equal(found.status, "ok");
  assert.match(found.detail, new RegExp(`${chromium.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(the system's\\)`));
  const none = checkBrowser(loaded(), { PATH: mkdtempSync(path.join(os.tmpdir(), "hermes-empty-")) });
  if (process.platform !== "darwin") assert.equal(none.status, "warn");
  const missing = checkBrowser(loaded({ executable: path.join(bin, "nope") }), { PATH: bin });
  assert.equal(missing.status, "warn");
  assert.match(missing.detail, /does not exist/);
  assert.equal(checkBrowser(loaded({ executable: chromium }), { PATH: "" }).detail, `${chromium} (browser.executable)`);
});
