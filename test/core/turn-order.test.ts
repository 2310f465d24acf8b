// The turn observer, in process: what the loop reports reaches the client as session/update
// in the order it happened (thought → text → tool calls announced → each run → results →
// next reply), and every update of the turn is written before the prompt's answer. A model
// call that fails once is retried within the same turn, the retry shown as a thought.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { makeTempDir, scriptedConfig, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

interface Seen {
  kind: string;
  toolCallId?: string;
  status?: string;
  text?: string;
  at: number;
}

/** The session's updates with their frame positions, and the position of the prompt's answer. */
function framesOfTurn(agent: InProcessAgent, sessionId: string, from: number) {
  const seen: Seen[] = [];
  let answer = -1;
  agent.frames.forEach((frame, at) => {
    if (at < from) return;
    if (frame.method === "session/update" && frame.params.sessionId === sessionId) {
      const u = frame.params.update;
      seen.push({ kind: u.sessionUpdate, toolCallId: u.toolCallId, status: u.status, text: u.content?.text, at });
    } else if (frame.result?.stopReason && answer < 0) answer = at;
  });
  return { seen, answer };
}

const first = (seen: Seen[], match: (s: Seen) => boolean) => seen.find(match)?.at ?? Number.POSITIVE_INFINITY;
const last = (seen: Seen[], match: (s: Seen) => boolean) => seen.findLast(match)?.at ?? Number.NEGATIVE_INFINITY;

test("updates follow the loop's order and all come before the prompt's answer", async () => {
  const model = scripted();
  const project = await makeTempDir();
  await writeFile(path.join(project, "a.txt"), "alpha\n");
  await writeFile(path.join(project, "b.txt"), "beta\n");
  model.enqueue(
    {
      reasoning: "I should read both files.",
      text: "Reading them now.",
      toolCalls: [
        { id: "ra", name: "read_file", arguments: { path: "a.txt" } },
        { id: "rb", name: "read_file", arguments: { path: "b.txt" } },
      ],
    },
    { text: "Both files are read." },
  );
  const agent = await startAgent({ config: scriptedConfig(model.url) });
  try {
    await agent.initialize();
    const { sessionId } = await agent.newSession(project);
    const from = agent.frames.length;
    assert.equal((await agent.prompt(sessionId, "read a and b")).stopReason, "end_turn");
    // A request answered after the prompt: an update the turn sent late would be written by now.
    await agent.agent.request(acp.methods.agent.session.list, {});
    const { seen, answer } = framesOfTurn(agent, sessionId, from);

    assert.ok(answer > 0, "the prompt was answered");
    const turnKinds = new Set(["agent_thought_chunk", "agent_message_chunk", "tool_call", "tool_call_update", "usage_update", "plan"]);
    assert.ok(last(seen, (s) => turnKinds.has(s.kind)) < answer, "nothing of the turn follows the answer");

    const thought = (s: Seen) => s.kind === "agent_thought_chunk";
    const message = (s: Seen) => s.kind === "agent_message_chunk";
    assert.equal(seen.filter(thought).map((s) => s.text).join(""), "I should read both files.", "the whole thought, before the text");
    assert.ok(last(seen, thought) < first(seen, message), "thought, then text");

    const announced = (id: string) => first(seen, (s) => s.kind === "tool_call" && s.toolCallId === id);
    const status = (id: string, wanted: string) => first(seen, (s) => s.kind === "tool_call_update" && s.toolCallId === id && s.status === wanted);
    const firstAnswerText = first(seen, (s) => message(s) && s.at > announced("ra"));
    assert.ok(last(seen, (s) => message(s) && s.at < announced("ra")) < announced("ra"), "the first reply's text before its tool calls");
    for (const id of ["ra", "rb"]) {
      assert.ok(announced(id) < status(id, "in_progress"), `${id}: announced, then running`);
      assert.ok(status(id, "in_progress") < status(id, "completed"), `${id}: running, then done`);
      assert.ok(status(id, "completed") < firstAnswerText, `${id} finished before the next reply`);
    }
    assert.ok(Math.max(announced("ra"), announced("rb")) < Math.min(status("ra", "in_progress"), status("rb", "in_progress")), "every call announced before any runs");
    const usages = seen.filter((s) => s.kind === "usage_update").map((s) => s.at);
    assert.equal(usages.length, 2, "one usage_update per model call");
    assert.ok(usages[0] < announced("ra") || usages[0] < firstAnswerText, "the first call's usage before the second reply");
    assert.equal(
      seen.filter((s) => message(s) && s.at >= firstAnswerText).map((s) => s.text).join(""),
      "Both files are read.",
      "the final reply, whole and last",
    );
    assert.deepEqual(agent.invalidUpdates, []);
  } finally {
    await agent.close();
  }
});

test("a model call that fails once is retried in the same turn, and the user sees the retry", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const agent = await startAgent({ config: scriptedConfig(model.url, { agent: { retry_base_delay: 0.01 } }) });
  try {
    await agent.initialize();
    const { sessionId } = await agent.newSession(project);
    const before = model.requests.length;
    model.enqueue({ status: 503 }, { text: "second time lucky" });
    const from = agent.frames.length;
    assert.equal((await agent.prompt(sessionId, "hello")).stopReason, "end_turn");
    assert.equal(model.requests.length - before, 2, "one retry");
    assert.deepEqual(model.requests[before + 1].body.messages, model.requests[before].body.messages, "the retry sends the same request");
    const { seen } = framesOfTurn(agent, sessionId, from);
    const thoughts = seen.filter((s) => s.kind === "agent_thought_chunk").map((s) => s.text).join("");
    assert.match(thoughts, /Retrying in/);
    assert.equal(seen.filter((s) => s.kind === "agent_message_chunk").map((s) => s.text).join(""), "second time lucky");
  } finally {
    await agent.close();
  }
});
