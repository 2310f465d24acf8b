// The attacker corpus and the benign corpus (test/fixtures/screen-corpus) through the real
// permission policy, in every mode: nothing destructive runs without asking in default mode,
// nothing changing runs in plan mode, nothing unresolvable runs unsandboxed in dont_ask, and
// everyday commands stay frictionless.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decidePermission, type PolicyContext } from "../../acp-server/security/permission-policy";
import type { SessionMode } from "../../acp-server/security/modes";
import type { PermissionAsk } from "../../acp-server/tools/context";
import { ATTACKS, type Expectation } from "../fixtures/screen-corpus/attacks";
import { BENIGN } from "../fixtures/screen-corpus/benign";
import { PLAN_WRITES } from "../fixtures/screen-corpus/plan-writes";

const HOME = "/home/dev";
const CWD = "/home/dev/project";
const BASE: PolicyContext = { hermesHome: "/home/dev/.hermes", user: "dev" };

const ask = (command: string): PermissionAsk => ({ action: "execute", title: `$ ${command}`, command, paths: [CWD] });
const decide = (mode: SessionMode, command: string, sandboxed = false) => decidePermission(mode, ask(command), CWD, HOME, { ...BASE, sandboxed });

type Row = { default: string; plan: string; dontAsk: string; dontAskSandboxed: string };
const EXPECTED: Record<Expectation, Row> = {
  deny: { default: "deny", plan: "deny", dontAsk: "deny", dontAskSandboxed: "deny" },
  sandbox: { default: "ask", plan: "deny", dontAsk: "deny", dontAskSandboxed: "allow" },
  // dontAsk is dont_ask with no sandbox under the command: only known read-only ones run unasked.
  ask: { default: "ask", plan: "deny", dontAsk: "ask", dontAskSandboxed: "allow" },
  read: { default: "ask", plan: "ask", dontAsk: "ask", dontAskSandboxed: "allow" },
  hermes: { default: "ask", plan: "deny", dontAsk: "deny", dontAskSandboxed: "deny" },
};

function observe(command: string): Row {
  return {
    default: decide("default", command).decision,
    plan: decide("plan", command).decision,
    dontAsk: decide("dont_ask", command).decision,
    dontAskSandboxed: decide("dont_ask", command, true).decision,
  };
}

test("attacker corpus: every command gets its expected verdict in every mode", (t) => {
  const cases = Object.entries(ATTACKS).flatMap(([family, list]) => list.map(([command, expect]) => ({ family, command, expect })));
  assert.ok(cases.length >= 400, `corpus size ${cases.length}`);
  const mismatches: string[] = [];
  const allowed: string[] = [];
  const tally = { default: new Map<string, number>(), plan: new Map<string, number>(), dontAsk: new Map<string, number>(), dontAskSandboxed: new Map<string, number>() };
  for (const { family, command, expect } of cases) {
    const got = observe(command);
    for (const mode of Object.keys(tally) as (keyof Row)[]) tally[mode].set(got[mode], (tally[mode].get(got[mode]) ?? 0) + 1);
    if (JSON.stringify(got) !== JSON.stringify(EXPECTED[expect])) mismatches.push(`[${family}] ${JSON.stringify(command)} expected ${expect}: got ${JSON.stringify(got)}`);
    // Whatever the class: never allowed silently in default or plan mode.
    if (got.default === "allow" || got.plan === "allow") allowed.push(command);
  }
  const show = (m: Map<string, number>) => [...m].map(([k, v]) => `${k} ${v}`).join(", ");
  t.diagnostic(`attacker corpus: ${cases.length} commands`);
  for (const mode of Object.keys(tally) as (keyof Row)[]) t.diagnostic(`  ${mode}: ${show(tally[mode])}`);
  assert.deepEqual(allowed, [], "destructive commands allowed without asking");
  assert.deepEqual(mismatches, []);
});

test("benign corpus: everyday commands run without asking; the read-only ones run in plan mode", (t) => {
  assert.ok(BENIGN.length >= 100, `benign corpus size ${BENIGN.length}`);
  const asked: string[] = [];
  const planWrong: string[] = [];
  for (const [command, readOnly] of BENIGN) {
    const verdict = decide("default", command, true);
    if (verdict.decision !== "allow") asked.push(`${JSON.stringify(command)} → ${verdict.decision}: ${verdict.reasons.join("; ")}`);
    const plan = decide("plan", command).decision;
    if ((plan === "allow") !== readOnly) planWrong.push(`${JSON.stringify(command)} → plan ${plan}, expected ${readOnly ? "allow" : "deny"}`);
    assert.equal(decide("dont_ask", command, true).decision, "allow", `dont_ask runs ${command}`);
    // With no sandbox under it: the read-only allowlist, in every mode (a read-only one that
    // names a path outside the workspace, `echo $HOME` included, is asked about too).
    for (const mode of ["default", "dont_ask"] as const) if (!readOnly) assert.equal(decide(mode, command).decision, "ask", `${mode}, no sandbox: ${command}`);
  }
  t.diagnostic(`benign corpus: ${BENIGN.length} commands, ${BENIGN.length - asked.length} allowed in default, ${BENIGN.filter(([, r]) => r).length} read-only allowed in plan`);
  assert.deepEqual(asked, []);
  assert.deepEqual(planWrong, []);
});

test("plan mode refuses every command that changes something (red-team round 4)", () => {
  assert.ok(PLAN_WRITES.length >= 150, `plan corpus size ${PLAN_WRITES.length}`);
  const allowed = PLAN_WRITES.filter((command) => decide("plan", command).decision !== "deny");
  assert.deepEqual(allowed, []);
});
