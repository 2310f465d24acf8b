// The layering at run time: a prompt goes down from the ACP edge through the app layer and the
// loop to the provider, passing each folder once, in order. Checked where it matters most, at
// the model call itself: the stack (with V8's async frames) where the provider starts the call
// (its `hermes:model-call` diagnostics channel), reduced to the server folders it passes through.
// V8's async frames stop where a promise chain is not awaited, as the session's turn queue is:
// the path is checked from the app layer down. The static rules (dependency-cruiser in
// `npm run lint`) say what may import what; this says what calls what, for the main path.
import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

/** The acp-server folders of a stack's frames, outermost caller first, each run of one folder once. */
function folderPath(stack: string): string[] {
  const folders: string[] = [];
  for (const line of stack.split("\n").slice(1).reverse()) {
    const match = /acp-server\/([a-z-]+)\/[^:]+\.ts:/.exec(line);
    const folder = match?.[1];
    if (folder && folders[folders.length - 1] !== folder) folders.push(folder);
  }
  return folders;
}

test("a prompt reaches the model call through acp → app → agent → providers, each folder once", async () => {
  const model = scripted();
  const stacks: string[] = [];
  const onCall = () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 200;
    stacks.push(new Error("model call").stack ?? "");
    Error.stackTraceLimit = limit;
  };
  diagnostics.subscribe("hermes:model-call", onCall);
  const hermes = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir());
    model.enqueue({ text: "hello" });
    await hermes.prompt(sessionId, "say hello");
  } finally {
    diagnostics.unsubscribe("hermes:model-call", onCall);
    await hermes.close();
  }
  const paths = stacks.map(folderPath);
  assert.equal(paths.length, 1, "the prompt made one model call");
  for (const folders of paths) {
    // Below the provider, shared helpers (util/) may follow; above it, nothing comes back up.
    const main = folders.filter((folder) => folder !== "util");
    assert.deepEqual(main.slice(main.indexOf("app")), ["app", "agent", "providers"], `call path: ${folders.join(" → ")}`);
    assert.equal(new Set(main).size, main.length, `each folder once: ${folders.join(" → ")}`);
  }
});
