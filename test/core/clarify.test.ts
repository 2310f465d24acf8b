// The clarify tool over a real ACP connection: a client that advertises form elicitation gets
// `elicitation/create` (a titled enum for choices, a string for free text); one without gets
// the choices as a permission request, or, for free text, the question as the turn's reply.
// Declining, dismissing, a timeout and a cancelled turn all end the tool with a result.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { agentText, makeTempDir, scriptedConfig, sessionUpdates, startAgent, type InProcessOptions } from "../support/in-process-agent";
import { useScriptedModel, type RecordedRequest } from "../support/scripted-model";

const scripted = useScriptedModel();

const CHOICES = [
  { label: "Conservative", description: "Touch only what the bug needs" },
  { label: "Balanced", description: "Fix it and tidy the module" },
  { label: "Aggressive" },
];
const ask = (id: string, args: Record<string, unknown>) => ({ toolCalls: [{ id, name: "clarify", arguments: args }] });

function toolResult(request: RecordedRequest | undefined, id: string): any {
  const content = request?.body.messages.find((m: any) => m.role === "tool" && m.tool_call_id === id)?.content;
  return content === undefined ? undefined : JSON.parse(content);
}

async function session(options: InProcessOptions, extraConfig: Record<string, unknown> = {}) {
  const model = scripted();
  const hermes = await startAgent({ config: scriptedConfig(model.url, extraConfig), ...options });
  await hermes.initialize();
  const { sessionId } = await hermes.newSession(await makeTempDir());
  return { model, hermes, sessionId };
}

test("an elicitation-capable client is asked with a form: choices as a titled enum, the pick goes to the model", async () => {
  const { model, hermes, sessionId } = await session({ elicitation: () => ({ action: "accept", content: { answer: "Balanced" } }) });
  try {
    const before = model.requests.length;
    model.enqueue(ask("c1", { question: "How far should the refactor go?", choices: CHOICES }), { text: "Going balanced." });
    assert.equal((await hermes.prompt(sessionId, "refactor the parser")).stopReason, "end_turn");

    assert.equal(hermes.elicitationRequests.length, 1);
    assert.equal(hermes.permissionRequests.length, 0, "no permission-style fallback");
    const request = hermes.elicitationRequests[0] as any;
    assert.equal(request.mode, "form");
    assert.equal(request.sessionId, sessionId);
    assert.equal(request.message, "How far should the refactor go?");
    const card = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call" && u.title?.startsWith("Ask:"));
    assert.ok(card && card.sessionUpdate === "tool_call");
    assert.equal(request.toolCallId, card.toolCallId, "tied to the tool call");
    assert.deepEqual(request.requestedSchema, {
      type: "object",
      properties: {
        answer: {
          type: "string",
          title: "Answer",
          oneOf: [
            { const: "Conservative", title: "Conservative", description: "Touch only what the bug needs" },
            { const: "Balanced", title: "Balanced", description: "Fix it and tidy the module" },
            { const: "Aggressive", title: "Aggressive" },
          ],
        },
      },
      required: ["answer"],
    });

    assert.equal(model.requests.length - before, 2);
    assert.deepEqual(toolResult(model.requests.at(-1), "c1"), { answered: true, answer: "Balanced" });
    const done = sessionUpdates(hermes, sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === card.toolCallId && u.status === "completed");
    assert.ok(done, "the card completes");
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});

test("free text over elicitation is a string field; decline and dismiss are results saying the user did not answer", async () => {
  const answers: acp.CreateElicitationResponse[] = [{ action: "accept", content: { answer: "  use tabs  " } }, { action: "decline" }, { action: "cancel" }];
  const { model, hermes, sessionId } = await session({ elicitation: () => answers.shift() ?? { action: "cancel" } });
  try {
    model.enqueue(ask("t1", { question: "Tabs or spaces?" }), { text: "ok" });
    await hermes.prompt(sessionId, "format it");
    const field = (hermes.elicitationRequests[0] as any).requestedSchema.properties.answer;
    assert.equal(field.type, "string");
    assert.equal(field.oneOf, undefined);
    assert.deepEqual(toolResult(model.requests.at(-1), "t1"), { answered: true, answer: "use tabs" });

    model.enqueue(ask("t2", { question: "Delete the old tests?", choices: CHOICES.slice(0, 2) }), { text: "ok" });
    await hermes.prompt(sessionId, "go on");
    const declined = toolResult(model.requests.at(-1), "t2");
    assert.equal(declined.answered, false);
    assert.match(declined.note, /declined to answer/);

    model.enqueue(ask("t3", { question: "Which branch?" }), { text: "ok" });
    await hermes.prompt(sessionId, "go on");
    const dismissed = toolResult(model.requests.at(-1), "t3");
    assert.equal(dismissed.answered, false);
    assert.match(dismissed.note, /dismissed the question/);
  } finally {
    await hermes.close();
  }
});

test("a client without elicitation gets the choices as a permission request; Skip and a dismissal are no answer", async () => {
  const picks = ["choice_2", "skip", "cancelled"];
  const { model, hermes, sessionId } = await session({ permission: () => picks.shift() ?? "cancelled" });
  try {
    model.enqueue(ask("p1", { question: "How far should the refactor go?", choices: CHOICES }), { text: "ok" });
    await hermes.prompt(sessionId, "refactor");
    assert.equal(hermes.elicitationRequests.length, 0);
    const request = hermes.permissionRequests[0];
    assert.deepEqual(
      request.options.map((o) => [o.optionId, o.name, o.kind]),
      [
        ["choice_0", "Conservative", "allow_once"],
        ["choice_1", "Balanced", "allow_once"],
        ["choice_2", "Aggressive", "allow_once"],
        ["skip", "Skip (let the agent decide)", "reject_once"],
      ],
    );
    const shown = JSON.stringify(request.toolCall.content);
    assert.match(shown, /Fix it and tidy the module/, "the descriptions are in the card");
    assert.deepEqual(toolResult(model.requests.at(-1), "p1"), { answered: true, answer: "Aggressive" });

    model.enqueue(ask("p2", { question: "Again?", choices: CHOICES }), { text: "ok" }, ask("p3", { question: "And?", choices: CHOICES }), { text: "ok" });
    await hermes.prompt(sessionId, "next");
    assert.match(toolResult(model.requests.at(-1), "p2").note, /declined/);
    await hermes.prompt(sessionId, "next");
    assert.match(toolResult(model.requests.at(-1), "p3").note, /dismissed/);
    assert.deepEqual(hermes.invalidUpdates, []);
  } finally {
    await hermes.close();
  }
});

test("free text without elicitation ends the turn with the question as the reply; the next prompt answers it", async () => {
  const { model, hermes, sessionId } = await session({});
  try {
    const before = model.requests.length;
    model.enqueue(ask("f1", { question: "What should the new module be called?" }));
    assert.equal((await hermes.prompt(sessionId, "split the module")).stopReason, "end_turn");
    assert.equal(model.requests.length - before, 1, "no second model call: the turn ended at the question");
    assert.match(agentText(hermes, sessionId), /What should the new module be called\?/);
    assert.equal(hermes.permissionRequests.length, 0);

    model.enqueue({ text: "Calling it lexer." });
    await hermes.prompt(sessionId, "lexer");
    const messages = model.requests.at(-1)?.body.messages as any[];
    const tail = messages.slice(-3).map((m) => [m.role, typeof m.content === "string" ? m.content : m.content?.[0]?.text ?? m.content]);
    assert.equal(tail[0][0], "tool");
    assert.match(tail[0][1], /asked_in_chat/);
    assert.deepEqual(tail[1], ["assistant", "What should the new module be called?"]);
    assert.equal(tail[2][0], "user");
    assert.match(JSON.stringify(messages.at(-1)), /lexer/);
  } finally {
    await hermes.close();
  }
});

test("an elicitation nobody answers times out into a result; cancelling the turn while it waits stops the turn", async () => {
  let waiting: (() => void) | undefined;
  const never = () =>
    new Promise<acp.CreateElicitationResponse>((resolve) => {
      waiting = () => resolve({ action: "cancel" });
    });
  const { model, hermes, sessionId } = await session({ elicitation: never }, { clarify: { timeout: 0.2 } });
  try {
    model.enqueue(ask("w1", { question: "Anyone there?" }), { text: "Deciding alone." });
    assert.equal((await hermes.prompt(sessionId, "go")).stopReason, "end_turn");
    assert.match(toolResult(model.requests.at(-1), "w1").note, /did not answer in time/);
    waiting?.();

    model.enqueue(ask("w2", { question: "Still there?" }), { text: "unused" });
    const turn = hermes.prompt(sessionId, "go again");
    await hermes.waitForFrame((f) => f.method === "elicitation/create" && f.params.message === "Still there?");
    await hermes.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await turn).stopReason, "cancelled");
    waiting?.();
  } finally {
    await hermes.close();
  }
});
