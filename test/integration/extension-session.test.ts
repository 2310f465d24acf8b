// The extension's chat logic (everything but the vscode glue) against the real built
// dist/hermes.js and a scripted model: a streamed reply, a permission card, a per-hunk review
// that writes one hunk of two, queueing, history, and a crash that reloads the session.
import * as acp from "@agentclientprotocol/sdk/unstable";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { stringify as toYaml } from "yaml";
import { AgentHost } from "../../extension/agent-host";
import { AgentProcess, agentCommand } from "../../extension/agent-process";
import { ChatSession } from "../../extension/chat-session";
import { ChatStore } from "../../extension/chat-store";
import { EditReviews } from "../../extension/edit-review";
import { memoryLogger } from "../../extension/log";
import { PermissionBroker } from "../../extension/permissions";
import type { ChatState, PermissionItem, ReviewItem } from "../../webview-ui/state/types";
import { makeTempDir, ROOT, scriptedConfig } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

async function until<T>(what: string, check: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function chatWith(modelUrl: string, existingHome?: string, existingProject?: string) {
  const home = existingHome ?? (await makeTempDir("hermes-ext-home-"));
  writeFileSync(path.join(home, "config.yaml"), toYaml(scriptedConfig(modelUrl)));
  const project = existingProject ?? (await makeTempDir("hermes-ext-project-"));
  const log = memoryLogger();
  const store = new ChatStore();
  const dispatch = store.dispatch.bind(store);
  const permissions = new PermissionBroker(dispatch, async () => undefined, () => true);
  const reviews = new EditReviews(dispatch, async (file, text) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  });
  const agentProcess = new AgentProcess(() => agentCommand(ROOT, { env: { HERMES_HOME: home } }), log);
  let session!: ChatSession;
  const host = new AgentHost(
    agentProcess,
    {
      update: (n) => session.onUpdate(n),
      requestPermission: (params, signal) => permissions.request(params, signal),
      fs: {
        read: async (params) => ({ content: readFileSync(params.path, "utf8") }),
        write: async (params, signal) => {
          let oldText: string | undefined;
          try {
            oldText = readFileSync(params.path, "utf8");
          } catch {
            oldText = undefined;
          }
          return reviews.hold({ path: params.path, displayPath: path.relative(project, params.path), oldText, newText: params.content }, signal);
        },
      },
    },
    { log, trace: () => false },
  );
  host.on("status", (status, message, agent) => dispatch({ type: "connection", status, message, agent }));
  host.on("crashed", () => session.agentLost());
  host.on("reconnected", () => void session.reload());
  session = new ChatSession({
    store,
    connected: () => host.connected(),
    cwd: () => project,
    initialMode: () => undefined,
    readText: async (uri) => readFileSync(new URL(uri), "utf8"),
    cancelPending: () => {
      permissions.cancelAll();
      reviews.cancelAll();
    },
    log,
  });
  return { store, session, host, agentProcess, permissions, reviews, project, home, log, close: () => host.stop().finally(() => store.dispose()) };
}

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
    await until("slash commands", () => store.state.commands.length > 0);

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
    const card = await until("a permission card", () => store.state.items.find((i): i is PermissionItem => i.kind === "permission" && !i.outcome));
    // Typed while the turn runs: queued, sent after it.
    model.enqueue({ text: "Queued answer." });
    await session.prompt("and then this");
    assert.deepEqual(store.state.queue.map((q) => q.text), ["and then this"]);
    assert.ok(chat.permissions.answer(card.id, card.options.find((o) => o.kind === "allow_once")!.optionId));
    const review = await until("a review card", () => store.state.items.find((i): i is ReviewItem => i.kind === "review" && i.status === "pending"));
    assert.equal(review.hunks.length, 2);
    await chat.reviews.decide(review.id, 0, "accepted");
    await chat.reviews.decide(review.id, 1, "rejected");
    await turn;
    assert.equal(readFileSync(file, "utf8"), twelve.replace("line 1\n", "LINE ONE\n"), "only the accepted hunk is on disk");
    const toolResult = model.requests.at(-1)?.body.messages.find((m: any) => m.role === "tool")?.content ?? "";
    assert.match(String(toolResult), /accepted 1 of 2 hunks/);
    await until("the queued prompt's answer", () => agentText(store.state).includes("Queued answer.") && !store.state.turn.running);
    assert.equal(store.state.queue.length, 0);

    await session.showHistory(true);
    assert.ok(store.state.history.sessions.some((s) => s.sessionId === sessionId), "the session is in this workspace's history");

    // The agent dies: the session comes back with its history after the restart.
    const before = store.state.items.filter((i) => i.kind === "user").length;
    chat.agentProcess.child!.kill("SIGKILL");
    await until("the restarted agent", () => store.state.connection.status === "restarting");
    await until("the reloaded session", () => store.state.connection.status === "ready" && !store.state.loading && store.state.items.length > 0, 20_000);
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
