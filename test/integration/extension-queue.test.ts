// The panel's queue is the agent's (issue 19): a prompt typed while a turn runs goes to Hermes at
// once and waits in its session queue; the panel shows that queue (`_hermes/queue/changed`),
// `/queue` typed in the panel lists the same prompts, removing one or `/queue clear` drops them
// there, and a queued prompt shows in the transcript when its turn starts. The extension's chat
// logic against the real built dist/hermes.js and a scripted model whose replies the test holds.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatState } from "../../common/panel-state/types";
import { chatWith, until } from "../support/extension-chat";
import { useScriptedModel, type ScriptedReply } from "../support/scripted-model";

const scripted = useScriptedModel();

function held(reply: ScriptedReply): { reply: ScriptedReply; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { reply: { handler: async () => (await gate, reply) }, release };
}

const userTexts = (state: ChatState) => state.items.flatMap((i) => (i.kind === "user" ? [i.text] : []));
const agentTexts = (state: ChatState) => state.items.flatMap((i) => (i.kind === "agent" ? [i.text] : []));
const notices = (state: ChatState) => state.items.flatMap((i) => (i.kind === "notice" ? [i.text] : []));
const lastUserPrompt = (body: any) => body.messages.filter((m: any) => m.role === "user").at(-1)?.content;

test("queued in the agent: listed from its queue, /queue shows the same, remove one, the rest runs after the turn and shows when it starts", async () => {
  const model = scripted();
  const chat = await chatWith(model.url);
  const { store, session } = chat;
  try {
    await session.newChat();
    const before = model.requests.length;
    const first = held({ text: "first answer" });
    model.enqueue(first.reply, { text: "second answer" });
    const turn = session.prompt("first");
    await model.waitForRequests(before + 1);

    await session.prompt("second prompt");
    await session.prompt("third prompt");
    assert.deepEqual(store.state.queue.map((q) => q.text), ["second prompt", "third prompt"], "shown at once");
    // The agent has them: its list replaces the panel's guess, under the panel's ids.
    const ids = store.state.queue.map((q) => q.id);
    assert.ok(ids.every((id) => id.startsWith("panel-")));

    await session.prompt("/queue");
    const listing = await until(store, "the listing", () => notices(store.state).find((text) => text.includes("behind the running turn")));
    assert.match(listing, /2 prompts wait behind the running turn:\n1\. second prompt\n2\. third prompt/);
    assert.ok(!userTexts(store.state).includes("/queue"), "answered by the agent's list, not sent as a prompt");

    session.cancelQueued(ids[1]!);
    await until(store, "the removed prompt gone", () => store.state.queue.length === 1 && store.state.queue[0]!.text === "second prompt");
    assert.equal(store.state.turn.running, true, "the running turn goes on");
    assert.deepEqual(userTexts(store.state), ["first"], "a queued prompt is not in the transcript before it starts");

    first.release();
    await turn;
    await until(store, "the queued prompt's answer", () => agentTexts(store.state).includes("second answer") && !store.state.turn.running);
    assert.deepEqual(userTexts(store.state), ["first", "second prompt"], "shown when its turn started, after the first answer");
    assert.deepEqual(agentTexts(store.state), ["first answer", "second answer"]);
    assert.equal(store.state.queue.length, 0);
    assert.equal(store.state.turn.lastStopReason, "end_turn");
    assert.equal(model.requests.length - before, 2, "the removed prompt never reached the model");
    const second = store.state.items.find((i) => i.kind === "user" && i.text === "second prompt");
    assert.equal(second?.kind === "user" ? second.turn : undefined, 2, "numbered as the agent's second turn");
  } finally {
    await chat.close();
  }
});

test("/queue clear in the panel drops the agent's queue; Stop keeps it: the queued prompt runs after the stopped turn", async () => {
  const model = scripted();
  const chat = await chatWith(model.url);
  const { store, session } = chat;
  try {
    await session.newChat();
    let before = model.requests.length;
    const first = held({ text: "never seen" });
    model.enqueue(first.reply);
    const turn = session.prompt("first");
    await model.waitForRequests(before + 1);
    await session.prompt("a");
    await session.prompt("b");
    await until(store, "both listed", () => store.state.queue.length === 2);
    await session.prompt("/queue clear");
    await until(store, "cleared", () => notices(store.state).some((text) => /Cleared the queue: 2 waiting prompts dropped/.test(text)));
    await until(store, "the queue empty", () => store.state.queue.length === 0);
    first.release();
    await turn;
    assert.equal(model.requests.length - before, 1, "neither dropped prompt ran");

    // Stop while one waits: the turn stops, the waiting prompt is not lost: it runs next.
    before = model.requests.length;
    model.enqueue({ text: "stopped", hang: true }, { text: "after the stop" });
    const stopped = session.prompt("long task");
    await model.waitForRequests(before + 1);
    await session.prompt("then this");
    await until(store, "listed", () => store.state.queue.length === 1);
    await session.cancel();
    await stopped;
    await until(store, "the kept prompt's answer", () => agentTexts(store.state).includes("after the stop") && !store.state.turn.running);
    assert.equal(lastUserPrompt(model.requests.at(-1)!.body), "then this");
    const kinds = store.state.items.map((i) => (i.kind === "notice" && i.marker ? i.marker : i.kind === "user" ? `user:${i.text}` : i.kind));
    const start = kinds.lastIndexOf("user:long task");
    const stop = kinds.indexOf("stopped", start);
    assert.ok(start >= 0 && stop > start, `the stopped turn is marked: ${kinds.join(", ")}`);
    // Before the marker, only what the model streamed before the stop (if it got that far).
    assert.deepEqual(kinds.slice(start + 1, stop).filter((kind) => kind !== "agent"), [], "nothing but the partial reply before the marker");
    assert.deepEqual(kinds.slice(stop), ["stopped", "user:then this", "agent"], "the stop is marked, then the kept prompt runs");
    assert.equal(store.state.queue.length, 0);
  } finally {
    await chat.close();
  }
});
