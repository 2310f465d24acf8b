// A seeded fuzz over real stdio: over a thousand malformed frames of every kind. Each frame
// that carries a usable id gets exactly one answer with that id, the rest get `id: null`
// errors, the server never exits, and a normal prompt works afterwards.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useScriptedModel } from "../support/scripted-model";
import { agentText, makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";

const scripted = useScriptedModel();

/** mulberry32: a small seeded PRNG, so a failure can be replayed exactly. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Fuzzed {
  line: string;
  /** The id the answer must carry; undefined when the frame has no usable id. */
  id?: string;
  /** Expected error code, when it is certain. */
  code?: number;
}

function generate(random: () => number, count: number): Fuzzed[] {
  const pick = <T,>(items: T[]): T => items[Math.floor(random() * items.length)];
  const methods = ["session/new", "session/prompt", "session/load", "session/set_mode", "initialize", "session/teleport", "fs/read_text_file", ""];
  const scalars: unknown[] = [5, -1.5, "text", true, false, null];
  const junk = () => Array.from({ length: 1 + Math.floor(random() * 40) }, () => String.fromCharCode(32 + Math.floor(random() * 95))).join("");
  const frames: Fuzzed[] = [];
  for (let i = 0; i < count; i++) {
    const id = `fz-${i}`;
    const method = pick(methods);
    const params = { sessionId: `nope-${i}`, cwd: pick([42, "relative", null]), prompt: pick([[], "x", [{ type: "bogus" }]]) };
    const end = pick(["\n", "\r\n"]);
    switch (Math.floor(random() * 12)) {
      case 0: // wrong or missing jsonrpc
        frames.push({ line: JSON.stringify({ jsonrpc: pick([undefined, "1.0", 2, null, "2.0 ", "2"]), id, method, params }), id, code: -32600 });
        break;
      case 1: // method that is not a string
        frames.push({ line: JSON.stringify({ jsonrpc: "2.0", id, method: pick([5, null, [], {}, true]), params }), id, code: -32600 });
        break;
      case 2: // params that are not structured
        frames.push({ line: JSON.stringify({ jsonrpc: "2.0", id, method, params: pick(scalars) }), id, code: -32600 });
        break;
      case 3: // no method at all
        frames.push({ line: JSON.stringify({ jsonrpc: "2.0", id, params }), id, code: -32600 });
        break;
      case 4: // well-formed envelope, unknown method or bad params: the SDK's answer
        frames.push({ line: JSON.stringify({ jsonrpc: "2.0", id, method: pick(["session/teleport", "x/y", "session/new", "session/prompt", "session/set_mode"]), params }), id });
        break;
      case 5: // truncated JSON
        frames.push({ line: JSON.stringify({ jsonrpc: "2.0", id, method, params }).slice(0, 5 + Math.floor(random() * 30)) });
        break;
      case 6: // printable junk
        frames.push({ line: `${pick(["", "{", "[", '"'])}${junk()}` });
        break;
      case 7: // batches
        frames.push({ line: JSON.stringify(pick([[], [{ jsonrpc: "2.0", id, method: "session/new", params }], [1, 2]])) });
        break;
      case 8: // ids that cannot be echoed
        frames.push({ line: JSON.stringify({ jsonrpc: "2.0", id: pick([{}, [], true, { n: i }]), method, params }) });
        break;
      case 9: // JSON that is not an object
        frames.push({ line: JSON.stringify(pick(scalars)) });
        break;
      case 10: // numeric ids, duplicate keys, padding
        frames.push({ line: `  {"jsonrpc":"2.0","jsonrpc":"1.0","id":"${id}","method":"session/new","params":{}}  `, id, code: -32600 });
        break;
      default: // control and non-characters in the method name
        frames.push({ line: `{"jsonrpc":"2.0","id":"${id}","method":${JSON.stringify(`\u0000\uFFFF${junk()}`)},"params":${pick(["{}", "[]", "7"])}}`, id });
    }
    frames[frames.length - 1].line += end;
  }
  return frames;
}

test("1,200 malformed frames: every id answered exactly once, the server keeps serving", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url) });
  // The test's own ACP client reports answers to ids it never sent; that is the point here.
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    if (!/unknown request/.test(String(args[0]))) consoleError(...args);
  };
  try {
    await hermes.initialize();
    const frames = generate(prng(0x5eed), 1200);
    // In batches of varying size, so frames also arrive split across and packed into writes.
    const random = prng(42);
    let text = frames.map((f) => f.line).join("");
    while (text.length > 0) {
      const size = 1 + Math.floor(random() * 4000);
      hermes.writeRaw(text.slice(0, size));
      text = text.slice(size);
    }
    const tracked = frames.filter((f) => f.id !== undefined);
    assert.ok(tracked.length >= 500, `only ${tracked.length} frames carry an id`);
    for (const frame of tracked) {
      await hermes.waitForFrame((f) => f.id === frame.id && f.method === undefined, 30_000).catch((error) => {
        throw new Error(`no answer to ${frame.line.trim()}: ${error.message}\n${hermes.stderr().slice(-2000)}`);
      });
    }

    // Afterwards: a real turn works.
    model.enqueue({ text: "survived the fuzz" });
    const { sessionId } = await hermes.newSession(project);
    assert.equal((await hermes.prompt(sessionId, "still fine?")).stopReason, "end_turn");
    assert.match(agentText(hermes, sessionId), /survived the fuzz/);

    for (const frame of tracked) {
      const answers = hermes.frames.filter((f) => f.id === frame.id);
      assert.equal(answers.length, 1, `${frame.line.trim()} got ${answers.length} answers`);
      assert.ok(answers[0].error, `${frame.line.trim()} succeeded`);
      if (frame.code !== undefined) assert.equal(answers[0].error.code, frame.code, frame.line.trim());
    }
    const anonymous = frames.length - tracked.length;
    const nullAnswers = hermes.frames.filter((f) => f.id === null && f.error).length;
    assert.ok(nullAnswers >= anonymous * 0.9, `${nullAnswers} id-less errors for ${anonymous} frames without a usable id`);
    assert.equal(hermes.child.exitCode, null);
    assert.deepEqual(hermes.strayStdout, []);
    console.log(`# ${frames.length} frames: ${tracked.length} with an id (each answered once), ${nullAnswers} id-less errors`);
  } finally {
    console.error = consoleError;
    await hermes.close();
  }
});
