// Provider SDK logs go through the redacting logger, never console: with OPENAI_LOG=debug the
// openai SDK logs every request's options, headers included.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ChatCompletionsProvider } from "../../acp-server/providers/chat-completions";
import { configureLogging, routeConsoleToLog, sdkLogger } from "../../acp-server/util/log";
import { collect } from "../support/provider-stream";
import { startScriptedModel } from "../support/scripted-model";
import { makeTempDirSync } from "../support/temp-dirs";

const apiKey = "sk-proj-" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0PpOoNnMm";

function logText(home: string): string {
  const dir = path.join(home, "logs");
  return readdirSync(dir)
    .map((file) => readFileSync(path.join(dir, file), "utf8"))
    .join("");
}

test("the openai SDK's debug log (request headers) reaches the log file redacted", async (t) => {
  const home = makeTempDirSync();
  configureLogging({ home, level: "debug", stderrLevel: "error" });
  t.after(() => configureLogging({ level: "info", stderrLevel: "info" }));
  const previous = process.env.OPENAI_LOG;
  process.env.OPENAI_LOG = "debug";
  t.after(() => (previous === undefined ? delete process.env.OPENAI_LOG : (process.env.OPENAI_LOG = previous)));
  const model = await startScriptedModel();
  t.after(() => model.close());
  model.enqueue({ text: "hello" });
  const provider = new ChatCompletionsProvider({ provider: "custom", model: "m", baseURL: model.url, apiKey, maxRetries: 0 });
  await collect(provider, { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [] });
  const text = logText(home);
  assert.match(text, /\[openai-sdk\]/, "the SDK's lines are in our log");
  assert.ok(!text.includes(apiKey.slice(8)), "the API key never reaches the log");
});

test("sdkLogger and console lines are redacted", (t) => {
  const home = makeTempDirSync();
  configureLogging({ home, level: "debug", stderrLevel: "error" });
  const saved = { ...console };
  t.after(() => {
    Object.assign(console, saved);
    configureLogging({ level: "info", stderrLevel: "info" });
  });
  sdkLogger("anthropic-sdk").debug("request", { headers: { "x-api-key": apiKey, authorization: `Bearer ${apiKey}` } });
  routeConsoleToLog();
  console.warn("token", { NPM_TOKEN: "npm_" + "aB3dEfGh1jKlMnOp2rStUvWx4z5678AbCdEf" });
  console.log("stdout stays the protocol's");
  const text = logText(home);
  assert.match(text, /\[anthropic-sdk\] request/);
  assert.match(text, /\[console\] stdout stays the protocol's/);
  assert.ok(!text.includes(apiKey.slice(8)), text);
  assert.ok(!text.includes("aB3dEfGh1jKlMnOp2rStUvWx4z5678AbCdEf"), text);
});
