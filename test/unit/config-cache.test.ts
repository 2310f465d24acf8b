// The config cache (config/config-cache.ts): a start with an unchanged config.yaml gets exactly
// what the full parse gives, without YAML or the schema; every change, another build, a damaged
// entry or a broken config goes through the full parse; the entry never shows the file's secrets.
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { loadConfigCached } from "../../acp-server/config/config-cache";
import { loadConfig } from "../../acp-server/config/load";
import { tempDir } from "../support/tool-context";

const CONFIG = "model:\n  provider: custom\n  name: fake-model\n  base_url: http://127.0.0.1:8080/v1\n  api_key: sk-config-cache-secret-123456\nagent:\n  max_turns: 12\n";

async function home(files: Record<string, string>): Promise<string> {
  const dir = await tempDir("hermes-config-cache-");
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

/** The cache entry is written after the caller got its config (setImmediate). */
const written = () => new Promise<void>((resolve) => setImmediate(resolve));

const entryFile = (dir: string) => path.join(dir, "cache", "config.json");

test("an unchanged config.yaml is read from the cache, equal to the full parse", async () => {
  const dir = await home({ "config.yaml": CONFIG });
  const first = await loadConfigCached({ home: dir, env: {}, buildId: "build-a" });
  await written();
  const entry = readFileSync(entryFile(dir), "utf8");
  assert.equal(statSync(entryFile(dir)).mode & 0o777, 0o600);

  const second = await loadConfigCached({ home: dir, env: {}, buildId: "build-a" });
  await written();
  // A full parse writes the entry again (with a new IV): an untouched file means the cache answered.
  assert.equal(readFileSync(entryFile(dir), "utf8"), entry, "served from the cache, not parsed again");
  const full = loadConfig({ home: dir, env: {} });
  for (const loaded of [first, second]) {
    assert.deepEqual(loaded.config, full.config);
    assert.equal(loaded.configFound, true);
    assert.equal(loaded.error, undefined);
    assert.equal(loaded.configPath, full.configPath);
  }
  assert.equal(second.config.agent.max_turns, 12);
});

test("the entry shows neither the config's secrets nor its settings in clear", async () => {
  const dir = await home({ "config.yaml": CONFIG });
  await loadConfigCached({ home: dir, env: {}, buildId: "build-a" });
  await written();
  const entry = readFileSync(entryFile(dir), "utf8");
  assert.doesNotMatch(entry, /sk-config-cache-secret/);
  assert.doesNotMatch(entry, /fake-model|max_turns/);
});

test("a changed config.yaml, another build or a damaged entry goes through the full parse", async () => {
  const dir = await home({ "config.yaml": CONFIG });
  await loadConfigCached({ home: dir, env: {}, buildId: "build-a" });
  await written();

  writeFileSync(path.join(dir, "config.yaml"), CONFIG.replace("max_turns: 12", "max_turns: 13"));
  assert.equal((await loadConfigCached({ home: dir, env: {}, buildId: "build-a" })).config.agent.max_turns, 13);
  await written();

  // Another build (other code, other dependencies) never takes this build's entry.
  const before = readFileSync(entryFile(dir), "utf8");
  assert.equal((await loadConfigCached({ home: dir, env: {}, buildId: "build-b" })).config.agent.max_turns, 13);
  await written();
  assert.notEqual(readFileSync(entryFile(dir), "utf8"), before, "parsed and stored again for the other build");

  // A flipped byte in the encrypted data fails its authentication tag.
  const entry = JSON.parse(readFileSync(entryFile(dir), "utf8")) as { data: string };
  const data = Buffer.from(entry.data, "base64");
  data[0] = (data[0] ?? 0) ^ 1;
  writeFileSync(entryFile(dir), JSON.stringify({ ...entry, data: data.toString("base64") }));
  assert.equal((await loadConfigCached({ home: dir, env: {}, buildId: "build-b" })).config.agent.max_turns, 13);

  // Not JSON at all.
  writeFileSync(entryFile(dir), "{ not json");
  const loaded = await loadConfigCached({ home: dir, env: {}, buildId: "build-b" });
  assert.deepEqual(loaded.config, loadConfig({ home: dir, env: {} }).config);
});

test("a broken config.yaml is never cached: its error comes back every time", async () => {
  const dir = await home({ "config.yaml": "agent:\n  max_turns: -1\n" });
  for (let i = 0; i < 2; i++) {
    const loaded = await loadConfigCached({ home: dir, env: {}, buildId: "build-a" });
    await written();
    assert.match(loaded.error ?? "", /agent\.max_turns/);
    assert.equal(loaded.config.agent.max_turns, 90, "the defaults meanwhile");
  }
  assert.equal(existsSync(entryFile(dir)), false);
});

test("no config.yaml is cached as such, and .env is read every time", async () => {
  const dir = await home({ ".env": "HERMES_CACHE_TEST=one\n" });
  const first = await loadConfigCached({ home: dir, env: {}, buildId: "build-a" });
  await written();
  assert.equal(first.configFound, false);
  assert.equal(first.env.HERMES_CACHE_TEST, "one");
  writeFileSync(path.join(dir, ".env"), "HERMES_CACHE_TEST=two\n");
  const second = await loadConfigCached({ home: dir, env: {}, buildId: "build-a" });
  assert.equal(second.configFound, false);
  assert.equal(second.env.HERMES_CACHE_TEST, "two");
  assert.deepEqual(second.config, loadConfig({ home: dir, env: {} }).config);

  // A config.yaml appearing is a change like any other.
  writeFileSync(path.join(dir, "config.yaml"), CONFIG);
  const third = await loadConfigCached({ home: dir, env: {}, buildId: "build-a" });
  assert.equal(third.configFound, true);
  assert.equal(third.config.agent.max_turns, 12);
});

test("without a build id (running from the sources) nothing is cached", async () => {
  const dir = await home({ "config.yaml": CONFIG });
  const loaded = await loadConfigCached({ home: dir, env: {} });
  await written();
  assert.equal(loaded.config.agent.max_turns, 12);
  assert.equal(existsSync(entryFile(dir)), false);
});
