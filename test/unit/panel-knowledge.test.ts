// "What Hermes knows" in the panel's state: the knowledge action opens the view (closing the
// history, and the history closes it), keeps the data across a loading refresh, clears the
// outcome on the next action, and the state and actions pass the snapshot and action schemas;
// the panel's messages for it are checked strictly; the stats line reads like /skills.
import assert from "node:assert/strict";
import { test } from "node:test";
import { panelToHost, parseMessage } from "../../common/panel-protocol";
import { skillStats, type Knowledge } from "../../common/panel-state/knowledge";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { chatActionSchema, chatStateSchema } from "../../common/panel-state/schemas";

const file = (target: "memory" | "user") => ({ target, file: target === "memory" ? "MEMORY.md" : "USER.md", path: `/h/memories/${target}.md`, entries: [{ text: "uses pnpm" }], chars: 9, limit: 2200, versions: 1 });
const skill = { name: "deploy", description: "Deploy.", source: "user" as const, file: "/h/skills/deploy/SKILL.md", editable: true, views: 2, invocations: 1, lastUsed: "2026-11-24T05:00:00.000Z", successes: 2, failures: 1, versions: 0 };
const data: Knowledge = { memory: file("memory"), user: file("user"), skills: [skill] };

test("the knowledge action opens the view, keeps its data while refreshing, and shares the screen with the history", () => {
  const actions: ChatAction[] = [
    { type: "history", open: true },
    { type: "knowledge", open: true, loading: true },
    { type: "knowledge", data },
    { type: "knowledge", loading: true },
  ];
  for (const action of actions) assert.ok(chatActionSchema.safeParse(action).success, action.type);
  let state = actions.reduce(reduce, initialState());
  assert.equal(state.history.open, false);
  assert.deepEqual(state.knowledge, { open: true, loading: true, data, error: undefined, outcome: undefined });
  state = reduce(state, { type: "knowledge", data, outcome: { ok: false, message: "Refused" } });
  assert.deepEqual(state.knowledge?.outcome, { ok: false, message: "Refused" });
  assert.ok(chatStateSchema.safeParse(state).success, "the snapshot schema accepts it");
  state = reduce(state, { type: "knowledge", loading: true });
  assert.equal(state.knowledge?.outcome, undefined, "the next action clears the outcome");
  state = reduce(state, { type: "history", open: true });
  assert.equal(state.knowledge?.open, false);
  assert.equal(reduce({ ...state, knowledge: { open: true, loading: false } }, { type: "sessionOpened", sessionId: "s2", loading: false }).knowledge?.open, false, "opening a chat shows it");
  assert.ok(!chatActionSchema.safeParse({ type: "knowledge", data: { memory: {} } }).success, "a malformed view is refused");
});

test("the panel's knowledge messages are checked strictly", () => {
  assert.ok(parseMessage(panelToHost, { type: "knowledgeMemory", action: "edit", target: "user", index: 0, text: "likes tea", expected: "likes coffee" }).ok);
  assert.ok(parseMessage(panelToHost, { type: "knowledgeSkill", action: "delete", name: "deploy" }).ok);
  for (const bad of [
    { type: "knowledgeMemory", action: "nuke", target: "user" },
    { type: "knowledgeMemory", action: "edit", target: "other", index: 0, text: "x" },
    { type: "knowledgeMemory", action: "delete", target: "user", index: -1 },
    { type: "knowledgeSkill", action: "edit", name: "deploy" },
    { type: "knowledge" },
  ]) {
    assert.equal(parseMessage(panelToHost, bad).ok, false, JSON.stringify(bad));
  }
});

test("a skill's stats in one line", () => {
  assert.equal(skillStats(skill), "used 3× · last 2026-11-24 · 2/3 went well");
  assert.equal(skillStats({ ...skill, views: 0, invocations: 0 }), "not used yet");
});
