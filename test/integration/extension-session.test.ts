// The extension's chat logic (everything but the vscode glue) against the real built
// dist/hermes.js and a scripted model: a streamed reply, a permission card, a per-hunk review
// that writes one hunk of two, queueing, history, and a crash that reloads the session.
import * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import type { ChatState, PermissionItem, ReviewItem } from "../../common/panel-state/types";
import { chatWith, until } from "../support/extension-chat";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const agentText = (state: ChatState) => state.items.flatMap((i) => (i.kind === "agent" ? [i.text] : [])).join("|");
const twelve = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join("");

test("a chat: streamed reply, permission card, per-hunk review, queue, history, crash and reload", async () => {
  const model = scripted();
  const chat = await chatWith(model.url);
  const { store, session } = chat;
  try {
    const sessionId = await session.newChat();
    assert.equal(store.state.sessionId, sessionId);
    assert.equal(store.state.connection.status, "ready");
    assert.ok(store.state.modes?.availableModes.length, "the mode picker comes with the session");
    await until(store, "slash commands", () => store.state.commands.length > 0);

    model.enqueue({ text: "Hello from the scripted model." });
    await session.prompt("hi");
    assert.deepEqual(store.state.items.map((i) => i.kind), ["user", "agent"]);
    assert.equal(agentText(store.state), "Hello from the scripted model.");
    assert.equal(store.state.turn.lastStopReason, "end_turn");

    // An edit: the permission card, then the held write with two hunks; accept the first.
    const file = path.join(chat.project, "notes.txt");
    writeFileSync(file, twelve);
    const proposed = twelve.replace("line 1\n", "LINE ONE\n").replace("line 12\n", "LINE TWELVE\n");
    model.enqueue({ toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "notes.txt", content: proposed } }] }, { text: "Edited." });
    const turn = session.prompt("edit notes");
    const card = await until(store, "a permission card", () => store.state.items.find((i): i is PermissionItem => i.kind === "permission" && !i.outcome));
    // Typed while the turn runs: queued, sent after it.
    model.enqueue({ text: "Queued answer." });
    await session.prompt("and then this");
    assert.deepEqual(store.state.queue.map((q) => q.text), ["and then this"]);
    assert.ok(chat.permissions.answer(card.id, card.options.find((o) => o.kind === "allow_once")!.optionId));
    const review = await until(store, "a review card", () => store.state.items.find((i): i is ReviewItem => i.kind === "review" && i.status === "pending"));
    assert.equal(review.hunks.length, 2);
    await chat.reviews.decide(review.id, 0, "accepted");
    await chat.reviews.decide(review.id, 1, "rejected");
    await turn;
    assert.equal(readFileSync(file, "utf8"), twelve.replace("line 1\n", "LINE ONE\n"), "only the accepted hunk is on disk");
    const toolResult = model.requests.at(-1)?.body.messages.find((m: any) => m.role === "tool")?.content ?? "";
    assert.match(String(toolResult), /accepted 1 of 2 hunks/);
    await until(store, "the queued prompt's answer", () => agentText(store.state).includes("Queued answer.") && !store.state.turn.running);
    assert.equal(store.state.queue.length, 0);

    await session.showHistory(true);
    assert.ok(store.state.history.sessions.some((s) => s.sessionId === sessionId), "the session is in this workspace's history");

    // The agent dies: the session comes back with its history after the restart.
    const before = store.state.items.filter((i) => i.kind === "user").length;
    chat.agentProcess.child!.kill("SIGKILL");
    await until(store, "the restarted agent", () => store.state.connection.status === "restarting");
    await until(store, "the reloaded session", () => store.state.connection.status === "ready" && !store.state.loading && store.state.items.length > 0, 20_000);
    assert.equal(store.state.sessionId, sessionId);
    assert.equal(store.state.items.filter((i) => i.kind === "user").length, before, "every prompt was replayed");
    assert.match(agentText(store.state), /Hello from the scripted model\./);
  } finally {
    await chat.close();
  }
});

test("fork and delete from the chat", async () => {
  const model = scripted();
  const chat = await chatWith(model.url);
  const { store, session } = chat;
  try {
    const original = await session.newChat();
    model.enqueue({ text: "first answer" }, { text: "second answer" });
    await session.prompt("one");
    await session.prompt("two");
    await session.fork(1);
    assert.notEqual(store.state.sessionId, original);
    assert.equal(store.state.loading, false);
    assert.match(agentText(store.state), /first answer/);
    const forked = store.state.sessionId!;

    // A window reload: a fresh chat reopens the session that was open, with its transcript.
    const reopened = await chatWith(model.url, chat.home, chat.project);
    try {
      assert.equal(await reopened.session.restore(forked), forked);
      assert.match(agentText(reopened.store.state), /first answer/);
      assert.notEqual(await reopened.session.restore(forked), undefined);
      const fresh = await chatWith(model.url, chat.home, chat.project);
      try {
        const id = await fresh.session.restore("no-such-session");
        assert.notEqual(id, "no-such-session", "a session that cannot be loaded gives a new chat");
        assert.equal(fresh.store.state.sessionId, id);
      } finally {
        await fresh.close();
      }
    } finally {
      await reopened.close();
    }
    await session.delete(forked);
    assert.equal(store.state.sessionId, null);
    const { agent } = await chat.host.connected();
    const listed = await agent.request(acp.methods.agent.session.list, { cwd: chat.project });
    assert.ok(!listed.sessions.some((s) => s.sessionId === forked));
    assert.ok(listed.sessions.some((s) => s.sessionId === original));
  } finally {
    await chat.close();
  }
});

test("no model yet: the prompt stays, a notice says what is missing and offers Sign in; once signed in the next prompt runs", async (t) => {
  const model = scripted();
  const keyless = { model: { provider: "openai", name: "fake-model", base_url: model.url, api_mode: "chat_completions" }, sessions: { auto_title: false } };
  const chat = await chatWith(model.url, undefined, undefined, keyless);
  t.after(() => chat.close());

  await chat.session.prompt("hello before signing in");
  const notice = await until(chat.store, "the sign-in notice", () => chat.store.state.items.find((i) => i.kind === "notice"));
  assert.ok(notice.kind === "notice");
  assert.equal(notice.action, "signIn");
  assert.match(notice.text, /needs a model[\s\S]*No API key for provider "openai"/);
  assert.doesNotMatch(notice.text, /authenticate|ACP/, "no protocol words for the user");
  assert.ok(chat.store.state.items.some((i) => i.kind === "user" && i.text === "hello before signing in"), "the prompt stays in the transcript");

  // What the sign-in box sends (extension/sign-in.ts): the method the agent advertised and the key.
  const { agent, init } = await chat.host.connected();
  assert.ok(init.authMethods?.some((m) => m.id === "openai-api-key"));
  await agent.request(acp.methods.agent.authenticate, { methodId: "openai-api-key", _meta: { "hermes/apiKey": "sk-from-the-box-1" } });
  model.enqueue({ text: "SIGNED-IN-REPLY" });
  await chat.session.prompt("hello after");
  await until(chat.store, "the reply", () => agentText(chat.store.state).includes("SIGNED-IN-REPLY"));
  assert.equal(model.requests.at(-1)!.headers.authorization, "Bearer sk-from-the-box-1");
});
