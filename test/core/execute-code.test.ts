// execute_code over ACP: a program's tool calls go through the session's own tool path
// (permissions, modes, journal), show as nested steps, and only the program's output reaches
// the model. Real processes, real pipes, a scripted model server.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, sessionUpdates, startAgent, type PermissionPolicy } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();
const allowOnce: PermissionPolicy = () => "allow_once";
const program = (id: string, code: string, language?: "python" | "javascript") => ({ toolCalls: [{ id, name: "execute_code", arguments: { code, ...(language ? { language } : {}) } }] });

function toolResult(body: any, id: string): string {
  return body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id)?.content ?? "";
}
function resultOf(model: { requests: { body: any }[] }, id: string): any {
  const text = model.requests.map((r) => toolResult(r.body, id)).find(Boolean);
  assert.ok(text, `a result for ${id}`);
  return JSON.parse(text);
}

async function project(): Promise<string> {
  const dir = await makeTempDir();
  await writeFile(path.join(dir, "a.txt"), "alpha TODO one\n");
  await writeFile(path.join(dir, "b.txt"), "beta\n");
  await writeFile(path.join(dir, "c.txt"), "gamma TODO two\n");
  return dir;
}

const PYTHON = `
from hermes_tools import read_file, search_files, patch, ToolError
found = search_files("TODO", target="content")
files = sorted({m["path"] for m in found["matches"]})
print("files:", files)
print("a:", read_file("a.txt")["content"].strip())
patch(path="c.txt", old_string="gamma", new_string="GAMMA")
try:
    read_file("missing.txt")
except ToolError as error:
    print("error:", "not found" in str(error).lower())
`;

const JAVASCRIPT = `
const { read_file, search_files, patch } = require("hermes_tools");
const found = await search_files({ pattern: "TODO" });
console.log("count:", new Set(found.matches.map((m) => m.path)).size);
console.log("b:", (await read_file("b.txt")).content.trim());
await patch({ path: "b.txt", old_string: "beta", new_string: "BETA" });
await read_file("missing.txt").catch((error) => console.log("rejected:", error.name));
`;

test("a Python and a JavaScript program read, search and patch through hermes_tools; steps nest in the card", async () => {
  const model = scripted();
  const dir = await project();
  const hermes = await startAgent({ config: scriptedConfig(model.url), permission: allowOnce });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(dir);
    model.enqueue(program("py", PYTHON, "python"), program("js", JAVASCRIPT, "javascript"), { text: "done" });
    await hermes.prompt(sessionId, "survey");
    const py = resultOf(model, "py");
    assert.equal(py.exit_code, 0, py.output);
    assert.match(py.output, /files: \['a\.txt', 'c\.txt'\]/);
    assert.match(py.output, /a: 1\|alpha TODO one/);
    assert.match(py.output, /error: True/);
    assert.equal(py.tool_calls, 4);
    assert.equal(await readFile(path.join(dir, "c.txt"), "utf8"), "GAMMA TODO two\n");
    const js = resultOf(model, "js");
    assert.equal(js.exit_code, 0, js.output);
    assert.match(js.output, /count: 2/);
    assert.match(js.output, /b: 1\|beta/);
    assert.match(js.output, /rejected: ToolError/);
    assert.equal(await readFile(path.join(dir, "b.txt"), "utf8"), "BETA\n");
    // The nested steps are tool calls of their own, linked to their parent; their results never reach the model.
    const nested = sessionUpdates(hermes, sessionId).filter((u: any) => u.sessionUpdate === "tool_call" && u._meta?.hermes?.parentToolCallId);
    assert.equal(nested.filter((u: any) => u._meta.hermes.parentToolCallId === "py").length, 4);
    const last = model.requests.at(-1)!.body.messages;
    assert.ok(!last.some((m: any) => m.role === "tool" && String(m.tool_call_id).startsWith("py.")), "nested results stay out of the context");
  } finally {
    await hermes.close();
  }
});
