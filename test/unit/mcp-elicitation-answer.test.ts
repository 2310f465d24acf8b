// The MCP side of a forwarded elicitation, without a server: who may answer, the form's
// defaults, and the check of an accepted answer against the server's form.
import assert from "node:assert/strict";
import { test } from "node:test";
import { answerServerElicitation, DECLINE_REASON_META, formProblem, withDefaults } from "../../acp-server/mcp/elicitation";
import type { ElicitationAsk, UserElicitation } from "../../acp-server/tools/elicitation";
import { createLogger } from "../../acp-server/util/log";

const log = createLogger("test");
const FORM = {
  type: "object" as const,
  properties: { colour: { type: "string", oneOf: [{ const: "red", title: "Red" }, { const: "blue", title: "Blue" }] }, count: { type: "integer", minimum: 1, default: 3 }, ok: { type: "boolean" } },
  required: ["colour"],
};

test("nobody to ask (a subagent's or headless tool call): a decline that says why, and nobody is asked", async () => {
  const result = await answerServerElicitation("srv", { message: "Which colour?", requestedSchema: FORM }, undefined, new AbortController().signal, log);
  assert.equal(result.action, "decline");
  assert.match(String(result._meta?.[DECLINE_REASON_META]), /subagent|headless/);
});

test("the user is asked with the server's name in front; URL ids are scoped by server", async () => {
  const asked: ElicitationAsk[] = [];
  const user: UserElicitation = { ask: async (ask) => (asked.push(ask), { action: "accept" }), complete: async () => {} };
  await answerServerElicitation("srv", { mode: "url", message: "Sign in", url: "https://x.test/a", elicitationId: "e1" }, user, new AbortController().signal, log);
  assert.deepEqual(asked[0], { mode: "url", message: "srv: Sign in", url: "https://x.test/a", elicitationId: "mcp:srv:e1" });
});

test("defaults fill what the user left out; a value outside the form is named", () => {
  assert.deepEqual(withDefaults(FORM, { colour: "red" }), { colour: "red", count: 3 });
  assert.equal(formProblem(FORM, { colour: "red", count: 3 }), undefined);
  assert.match(formProblem(FORM, {}) ?? "", /"colour" is required/);
  assert.match(formProblem(FORM, { colour: "green" }) ?? "", /one of red, blue/);
  assert.match(formProblem(FORM, { colour: "red", count: 0 }) ?? "", /at least 1/);
  assert.match(formProblem(FORM, { colour: "red", count: 1.5 }) ?? "", /whole number/);
  assert.match(formProblem(FORM, { colour: "red", ok: "yes" }) ?? "", /true or false/);
  assert.match(formProblem(FORM, { colour: "red", extra: "x" }) ?? "", /not a field/);
});
