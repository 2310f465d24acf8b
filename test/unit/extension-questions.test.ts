// The panel's side of the agent's questions: QuestionBroker turns elicitation/create into a
// card (questionAsked) and the card's answer into the response; the reducer shows the card,
// closes it, cancels it with the turn, and shows /steer notes where the turn applied them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { QuestionBroker } from "../../extension/questions";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { chatActionSchema } from "../../common/panel-state/schemas";

const choiceForm = {
  sessionId: "s1",
  mode: "form" as const,
  message: "Which way?",
  requestedSchema: { type: "object" as const, properties: { answer: { type: "string" as const, title: "Answer", oneOf: [{ const: "Left", title: "Left", description: "the short way" }, { const: "Right", title: "Right" }] } }, required: ["answer"] },
};

test("a choice question becomes a card; the card's pick answers the request and closes the card", async () => {
  const actions: ChatAction[] = [];
  const broker = new QuestionBroker((action) => actions.push(action));
  const response = broker.request(choiceForm);
  assert.equal(actions[0]?.type, "questionAsked");
  for (const action of actions) assert.ok(chatActionSchema.safeParse(action).success, "the action passes the panel's schema");
  const id = actions[0]?.type === "questionAsked" ? actions[0].question.id : "";
  assert.equal(broker.answer(id, "Up"), false, "not one of the choices");
  assert.equal(broker.answer(id, "Right"), true);
  assert.deepEqual(await response, { action: "accept", content: { answer: "Right" } });
  assert.equal(broker.answer(id, "Left"), false, "answered once");

  let state = initialState();
  for (const action of actions) state = reduce(state, action);
  const card = state.items.find((item) => item.kind === "question");
  assert.deepEqual(card && card.kind === "question" ? card.outcome : undefined, { answered: true, text: "Right" });
});

test("free text, skip, cancel with the turn, and forms the card cannot show", async () => {
  const actions: ChatAction[] = [];
  const broker = new QuestionBroker((action) => actions.push(action));
  const text = broker.request({ ...choiceForm, requestedSchema: { type: "object", properties: { answer: { type: "string", title: "Answer" } }, required: ["answer"] } });
  const textId = actions.at(-1)?.type === "questionAsked" ? (actions.at(-1) as Extract<ChatAction, { type: "questionAsked" }>).question.id : "";
  broker.answer(textId, "  src/lexer.ts ");
  assert.deepEqual(await text, { action: "accept", content: { answer: "src/lexer.ts" } });

  const skipped = broker.request(choiceForm);
  const skipId = (actions.at(-1) as Extract<ChatAction, { type: "questionAsked" }>).question.id;
  broker.answer(skipId, undefined);
  assert.deepEqual(await skipped, { action: "decline" });

  const open = broker.request(choiceForm);
  let state = initialState();
  for (const action of actions) state = reduce(state, action);
  state = reduce(state, { type: "turnStarted", at: 1 });
  state = reduce(state, { type: "turnEnded", stopReason: "cancelled" });
  const last = state.items.filter((item) => item.kind === "question").at(-1);
  assert.deepEqual(last?.kind === "question" ? last.outcome : undefined, { answered: false, text: "cancelled" }, "the turn's end closes a waiting card");
  broker.cancelAll();
  assert.deepEqual(await open, { action: "cancel" });

  const two = await broker.request({ ...choiceForm, requestedSchema: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } } });
  assert.deepEqual(two, { action: "decline" }, "two fields: declined at once, the agent goes on");
});

test("a steer note shows as its own item where it arrives, not as a new prompt", () => {
  let state = initialState();
  state = reduce(state, { type: "userPrompt", text: "go", attachments: [], isCommand: false });
  state = reduce(state, { type: "update", update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: "use the helper" }, _meta: { "hermes/steer": true } } });
  assert.deepEqual(
    state.items.map((item) => [item.kind, "text" in item ? item.text : ""]),
    [
      ["user", "go"],
      ["steer", "use the helper"],
    ],
  );
});

test("a URL question (an MCP server's sign-in page) is a card whose Open button opens the page and answers accept; other schemes are declined unseen", async () => {
  const actions: ChatAction[] = [];
  const opened: string[] = [];
  const broker = new QuestionBroker((action) => actions.push(action), (url) => opened.push(url));
  assert.deepEqual(broker.modes, { form: {}, url: {} });
  const url = "https://auth.example.com/authorize?client_id=x&state=y";
  const response = broker.request({ sessionId: "s1", mode: "url", message: 'Sign in to the MCP server "linear"', url, elicitationId: "e1" } as never);
  assert.equal(actions[0]?.type, "questionAsked");
  for (const action of actions) assert.ok(chatActionSchema.safeParse(action).success, "the action passes the panel's schema");
  const question = actions[0]?.type === "questionAsked" ? actions[0].question : undefined;
  assert.deepEqual(question?.choices, [{ value: "open", title: "Open in browser", description: "auth.example.com" }]);
  assert.equal(broker.answer(question!.id, "something else"), false);
  assert.equal(broker.answer(question!.id, "open"), true);
  assert.deepEqual(opened, [url]);
  assert.deepEqual(await response, { action: "accept" });

  const hostile = await broker.request({ sessionId: "s1", mode: "url", message: "run this", url: "command:workbench.action.terminal.new", elicitationId: "e2" } as never);
  assert.deepEqual(hostile, { action: "decline" });
  assert.equal(actions.filter((action) => action.type === "questionAsked").length, 1, "no card for it");
  assert.deepEqual(new QuestionBroker(() => {}).modes, { form: {} }, "without a way to open pages, only forms are advertised");
});
