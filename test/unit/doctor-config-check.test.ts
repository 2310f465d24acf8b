// hermes doctor's config check: a section Hermes does not know is tolerated when read (a newer
// Hermes may add one) but named as a warning with the valid sections, not passed as "ok".
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { checkConfig } from "../../acp-server/cli/doctor-checks";
import { loadConfig } from "../../acp-server/config/load";
import { makeTempDirSync } from "../support/temp-dirs";

test("an unknown top-level section is a warning naming it; a known config is ok", () => {
  const home = makeTempDirSync("hermes-doctor-config-");
  writeFileSync(path.join(home, "config.yaml"), "agent:\n  max_turns: 30\nfoo:\n  bar: 1\n");
  const warned = checkConfig(loadConfig({ home, env: {} }));
  assert.equal(warned.status, "warn");
  assert.match(warned.detail, /foo is not a Hermes setting \(ignored\)/);
  assert.match(warned.fix ?? "", /the sections are: model, /);

  writeFileSync(path.join(home, "config.yaml"), "agent:\n  max_turns: 30\n");
  assert.equal(checkConfig(loadConfig({ home, env: {} })).status, "ok");
});

test("without a config.yaml the fix names a docs file that exists on this machine", () => {
  const home = makeTempDirSync("hermes-doctor-config-");
  const result = checkConfig(loadConfig({ home, env: {} }));
  assert.equal(result.status, "warn");
  const named = /see (\S+configuration\.md)/.exec(result.fix ?? "")?.[1];
  assert.ok(named && path.isAbsolute(named) && existsSync(named), result.fix);
});
