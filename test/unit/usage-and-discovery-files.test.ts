// Files Hermes keeps for itself, read through zod: skill-usage.json and the model list cache.
// A damaged file (or entry) is warned about and read as the default; nothing crashes, and a
// damaged entry costs only itself.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, describe, test } from "node:test";
import { discoverModels } from "../../acp-server/config/model-discovery";
import { readSkillUsage, recordSkillUse, usageFile } from "../../acp-server/skills/usage-store";
import { startScriptedModel } from "../support/scripted-model";
import { recordingLogger, tempDirs } from "../support/session-fixtures";

const dirs = tempDirs("hermes-own-files-");
after(() => dirs.cleanup());

describe("skill-usage.json", () => {
  test("a missing file counts nothing, without a warning", () => {
    const log = recordingLogger();
    assert.deepEqual(readSkillUsage(dirs.make(), log), {});
    assert.deepEqual(log.warnings, []);
  });

  test("invalid JSON or an unknown shape: a warning and no counts; the next use starts a valid file", () => {
    for (const content of ["{ not json", JSON.stringify({ version: 2, skills: {} }), JSON.stringify([1, 2]), JSON.stringify({ version: 1, skills: "many" })]) {
      const home = dirs.make();
      writeFileSync(usageFile(home), content);
      const log = recordingLogger();
      assert.deepEqual(readSkillUsage(home, log), {}, content);
      assert.equal(log.warnings.length, 1, content);
      assert.match(log.warnings[0], /skill usage counts/);
      assert.equal(recordSkillUse(home, "deploy", "view"), true);
      assert.equal(readSkillUsage(home).deploy.views, 1);
    }
  });

  test("a damaged entry costs only that skill's counts", () => {
    const home = dirs.make();
    const good = { views: 3, invocations: 1, lastUsed: "2026-01-01T00:00:00.000Z", lastSession: "s1" };
    writeFileSync(usageFile(home), JSON.stringify({ version: 1, skills: { good, bad: { views: "three" }, negative: { ...good, views: -1 } } }));
    const log = recordingLogger();
    assert.deepEqual(readSkillUsage(home, log), { good });
    assert.equal(log.warnings.length, 2);
    assert.ok(log.warnings.every((line) => /skill usage entry damaged/.test(line)));
  });
});

describe("model list cache", () => {
  test("a damaged cache is warned about and the endpoint asked again; a good answer is cached", async () => {
    const model = await startScriptedModel({ model: "listed-model" });
    try {
      const cacheDir = dirs.make();
      const log = recordingLogger();
      // Ask once to learn the cache file's name, then damage it in each way.
      assert.deepEqual(await discoverModels({ baseUrl: `${model.url}` }, cacheDir, { log }), ["listed-model"]);
      const [name] = readdirSync(cacheDir);
      const file = path.join(cacheDir, name);
      assert.deepEqual(JSON.parse(readFileSync(file, "utf8")).models, ["listed-model"]);
      for (const content of ["{ not json", JSON.stringify({ fetchedAt: "yesterday", models: ["x"] }), JSON.stringify({ fetchedAt: Date.now(), models: [1] })]) {
        writeFileSync(file, content);
        const before = log.warnings.length;
        assert.deepEqual(await discoverModels({ baseUrl: model.url }, cacheDir, { log }), ["listed-model"], content);
        assert.equal(log.warnings.length, before + 1, content);
        assert.match(log.warnings.at(-1)!, /model list cache/);
      }
      assert.deepEqual(log.warnings.filter((line) => !/model list cache/.test(line)), []);
    } finally {
      await model.close();
    }
  });

  test("a failed ask is not repeated for five minutes with the same key; a new key or a later start asks again", async () => {
    const cacheDir = dirs.make();
    const endpoint = await modelListEndpoint("listed", 500);
    try {
      const { baseUrl } = endpoint;
      const now = Date.now();
      assert.deepEqual(await discoverModels({ baseUrl, apiKey: "k1" }, cacheDir, { now }), []);
      assert.equal(endpoint.asked, 1);
      endpoint.status = 200;
      assert.deepEqual(await discoverModels({ baseUrl, apiKey: "k1" }, cacheDir, { now: now + 4 * 60_000 }), [], "within five minutes: not asked");
      assert.equal(endpoint.asked, 1);
      assert.deepEqual(await discoverModels({ baseUrl, apiKey: "k2" }, cacheDir, { now: now + 60_000 }), ["listed"], "another key asks at once");
      assert.equal(endpoint.asked, 2);
      // A refused connection counts as a failure too, and the list fetched before is still offered.
      await endpoint.close();
      const later = now + 2 * 60 * 60_000;
      assert.deepEqual(await discoverModels({ baseUrl, apiKey: "k2" }, cacheDir, { now: later }), ["listed"]);
      const [name] = readdirSync(cacheDir);
      const record = JSON.parse(readFileSync(path.join(cacheDir, name), "utf8"));
      assert.equal(record.failedAt, later);
      assert.deepEqual(record.models, ["listed"]);
      assert.ok(!JSON.stringify(record).includes("k2"), "the key itself is not written");
    } finally {
      await endpoint.close();
    }
  });

  test("after five minutes a failed endpoint is asked again", async () => {
    const cacheDir = dirs.make();
    const endpoint = await modelListEndpoint("back", 503);
    try {
      const { baseUrl } = endpoint;
      const now = Date.now();
      assert.deepEqual(await discoverModels({ baseUrl }, cacheDir, { now }), []);
      endpoint.status = 200;
      assert.deepEqual(await discoverModels({ baseUrl }, cacheDir, { now: now + 5 * 60_000 + 1 }), ["back"]);
      assert.equal(endpoint.asked, 2);
    } finally {
      await endpoint.close();
    }
  });

  test("an answer of an unknown shape keeps the cached list; entries without an id are skipped", async () => {
    const cacheDir = dirs.make();
    const log = recordingLogger();
    let body: unknown = { data: [{ id: "first" }] };
    const server = http.createServer((_req, res) => res.end(JSON.stringify(body)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      assert.deepEqual(await discoverModels({ baseUrl }, cacheDir, { log }), ["first"]);
      const [name] = readdirSync(cacheDir);
      const staleCache = () => writeFileSync(path.join(cacheDir, name), JSON.stringify({ fetchedAt: Date.now() - 2 * 60 * 60 * 1000, models: ["cached-model"] }));
      staleCache();
      body = { data: "not a list" };
      assert.deepEqual(await discoverModels({ baseUrl }, cacheDir, { log }), ["cached-model"]);
      assert.match(log.warnings.at(-1)!, /unknown shape; offering the cached one/);
      staleCache();
      body = { data: [{ id: "a" }, { id: 7 }, {}, null, { id: "" }, { id: "b" }] };
      assert.deepEqual(await discoverModels({ baseUrl }, cacheDir, { log }), ["a", "b"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** A GET /models endpoint on 127.0.0.1 listing one model, answering with `status` (settable); counts the asks. */
async function modelListEndpoint(listed: string, status: number) {
  const server = http.createServer((_req, res) => {
    endpoint.asked++;
    res.statusCode = endpoint.status;
    res.end(JSON.stringify({ data: [{ id: listed }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
    asked: 0,
    status,
    close: async () => {
      server.closeAllConnections();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
  };
  return endpoint;
}
