// A prompt typed right after New Chat (before the agent has answered session/new) belongs to the
// new chat: it must not run in the chat being left, where the panel no longer shows it.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatState } from "../../common/panel-state/types";
import { chatWith } from "../support/extension-chat";
import { useScriptedModel } from "../support/scripted-model";

const scripted = useScriptedModel();

const userTexts = (state: ChatState) => state.items.flatMap((i) => (i.kind === "user" ? [i.text] : []));
const agentText = (state: ChatState) => state.items.flatMap((i) => (i.kind === "agent" ? [i.text] : [])).join("|");

test("a prompt sent while New Chat is opening runs in the new chat and stays shown", async () => {
  const model = scripted();
  const chat = await chatWith(model.url);
  const { store, session } = chat;
  try {
    const first = await session.newChat();
    model.enqueue({ text: "First chat's answer." });
    await session.prompt("in the first chat");

    // New Chat, and at once a prompt, as a user does who types while the view switches.
    const opening = session.newChat();
    model.enqueue({ text: "Second chat's answer." });
    const sent = session.prompt("typed right after New Chat");
    const second = await opening;
    await sent;

    assert.notEqual(second, first);
    assert.equal(store.state.sessionId, second, "the new chat is the one shown");
    assert.deepEqual(userTexts(store.state), ["typed right after New Chat"], "the prompt is in the new chat's transcript");
    assert.equal(agentText(store.state), "Second chat's answer.");
    const lastRequest = model.requests.at(-1)?.body.messages ?? [];
    assert.ok(!JSON.stringify(lastRequest).includes("in the first chat"), "the model saw the new chat, not the old one");

    // Two New Chat clicks in a row open one chat, not two racing ones.
    const [a, b] = await Promise.all([session.newChat(), session.newChat()]);
    assert.equal(a, b);
    assert.equal(store.state.sessionId, a);
  } finally {
    await chat.close();
  }
});
