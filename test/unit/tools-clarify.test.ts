// The clarify tool on its own: what it accepts, what the model reads for each way the user
// answers (or does not), and that it refuses where nobody can be asked (a subagent).
import assert from "node:assert/strict";
import { test } from "node:test";
import { clarifyTool } from "../../acp-server/tools/clarify";
import type { ClarifyAnswer, ClarifyQuestion } from "../../acp-server/tools/context";
import { ToolError } from "../../acp-server/tools/registry";
import { recordingContext, tempDir } from "../support/tool-context";

const parse = (args: unknown) => clarifyTool.schema.safeParse(args);

test("the schema takes a question with 2 to 6 choices, or none (free text)", () => {
  assert.ok(parse({ question: "Which?" }).success);
  assert.ok(parse({ question: "Which?", choices: [{ label: "a" }, { label: "b", description: "the b one" }] }).success);
  assert.ok(!parse({ question: "Which?", choices: [{ label: "a" }] }).success, "one choice is not a choice");
  assert.ok(!parse({ question: "Which?", choices: Array.from({ length: 7 }, (_, i) => ({ label: `c${i}` })) }).success, "at most 6");
  assert.ok(!parse({ question: "   " }).success, "a blank question");
  assert.ok(!parse({ question: "Which?", choices: [{ label: "" }, { label: "b" }] }).success, "a blank label");
});

async function run(args: Record<string, unknown>, answer: ClarifyAnswer | undefined) {
  const context = recordingContext({ cwd: await tempDir() });
  const asked: ClarifyQuestion[] = [];
  if (answer) context.clarify = async (question) => (asked.push(question), answer);
  const result = await clarifyTool.handler(clarifyTool.schema.parse(args), context);
  return { result, asked };
}

test("an answer, no answer, and a question asked in the chat each become a result the model reads", async () => {
  const choices = [{ label: "Yes" }, { label: "No", description: "leave it" }];
  const answered = await run({ question: "Ship it?", choices }, { kind: "answered", answer: "Yes" });
  assert.deepEqual(answered.asked, [{ question: "Ship it?", choices }]);
  assert.deepEqual(answered.result.output, { answered: true, answer: "Yes" });
  assert.equal(answered.result.endTurnWith, undefined);

  const timedOut = await run({ question: "Ship it?" }, { kind: "no_answer", why: "timed_out" });
  assert.equal((timedOut.result.output as { answered: boolean }).answered, false);
  assert.match(JSON.stringify(timedOut.result.output), /did not answer in time/);

  const inChat = await run({ question: "Ship it?", choices }, { kind: "in_chat" });
  assert.equal(inChat.result.endTurnWith, "Ship it?\n\n1. **Yes**\n2. **No**: leave it");
});

test("it refuses duplicate labels, and where no one can be asked", async () => {
  await assert.rejects(run({ question: "Q?", choices: [{ label: "Same" }, { label: "same" }] }, { kind: "in_chat" }), ToolError);
  await assert.rejects(run({ question: "Q?" }, undefined), /not available here/);
});
