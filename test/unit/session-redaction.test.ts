// Redaction of journals on load. Records are redacted and stamped with REDACTION_VERSION as
// they are written; on load only records without the current stamp go through the rules again,
// the agent's own secret values are looked for in every record, and the history restore and
// the replay share one redacted copy.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { after, afterEach, describe, test } from "node:test";
import { replayUpdates } from "../../acp-server/acp/replay";
import { restoreSession } from "../../acp-server/sessions/history";
import { readJournal } from "../../acp-server/sessions/journal";
import { redactLoadedRecords, redactRecord } from "../../acp-server/sessions/redact-record";
import type { JournalRecord, SessionMeta } from "../../acp-server/sessions/types";
import { REDACTION_VERSION } from "../../acp-server/util/redact";
import { clearSecretValues, registerSecretValue } from "../../acp-server/util/secret-values";
import { tempDirs } from "../support/session-fixtures";

const dirs = tempDirs("hermes-session-redaction-");
after(() => dirs.cleanup());
afterEach(() => clearSecretValues());

// Assembled from parts so no file in the repository holds a scanner-shaped token.
const npmToken = "npm_" + "aB3dEfGh1jKlMnOp2rStUvWx4z5678AbCdEf";
const githubToken = "ghp_" + "aBcD1234eFgH5678iJkL9012mNoP3456qRsT";
const body = (token: string) => token.slice(4, 30);

const meta: SessionMeta = { id: "s1", cwd: "/p", createdAt: 1, source: "acp" };

/** A secret in every kind of record, as a journal written before stamps (or by old rules) holds it. */
function oldRecords(secret: string): JournalRecord[] {
  return [
    { t: "meta", v: 1, at: 1, session: meta },
    { t: "update", at: 2, systemPrompt: `CI token ${secret}`, title: `deploy with ${secret}` },
    { t: "message", seq: 0, at: 3, tokens: 1, message: { role: "user", content: [{ type: "text", text: `my token is ${secret}` }] } },
    {
      t: "message",
      seq: 1,
      at: 4,
      tokens: 1,
      message: { role: "assistant", content: `Saved ${secret}.`, reasoning: `the user pasted ${secret}`, toolCalls: [{ id: "c1", name: "terminal", arguments: JSON.stringify({ command: `echo ${secret}` }) }] },
    },
    {
      t: "tool_call",
      at: 5,
      call: { id: "c1", requestId: "c1", name: "terminal", title: `$ echo ${secret}`, kind: "execute", locations: [], rawInput: { command: `echo ${secret}` }, status: "completed", content: [{ type: "text", text: secret }], rawOutput: { output: secret } },
    },
    { t: "message", seq: 2, at: 6, tokens: 1, message: { role: "tool", toolCallId: "c1", name: "terminal", content: `{"output":"${secret}"}` } },
    { t: "plan", at: 7, todos: [{ id: "1", content: `rotate ${secret}`, status: "pending" }] },
    { t: "update", at: 8, compaction: { head: 1, tail: 1, summary: `the token ${secret} was rotated` } },
  ];
}

/** What a load gives back: the restored session (model side) and the replay (client side), as text. */
function loaded(records: JournalRecord[]): { model: string; client: string } {
  const restored = restoreSession(meta, records);
  return { model: JSON.stringify(restored), client: JSON.stringify([...replayUpdates(records)]) };
}

function writeJournal(records: JournalRecord[]): string {
  const file = path.join(dirs.make(), "s1.jsonl");
  writeFileSync(file, records.map((record) => `${JSON.stringify(record)}\n`).join(""));
  return file;
}

describe("journals on load", () => {
  test("a journal written before stamps (old rules) is redacted on load, for the model and in the replay", () => {
    const { records, warnings } = readJournal(writeJournal(oldRecords(npmToken)));
    assert.deepEqual(warnings, []);
    assert.ok(JSON.stringify(records).includes(body(npmToken)), "the file holds the secret");
    const { model, client } = loaded(records);
    assert.ok(!model.includes(body(npmToken)), model);
    assert.ok(!client.includes(body(npmToken)), client);
    assert.match(client, /my token is npm_…\[REDACTED\]/, "the replay still shows the text around it");
    assert.match(model, /the token npm_…\[REDACTED\] was rotated/, "compaction summaries too");
  });

  test("a record stamped by other rules (older or unknown) is redacted again", () => {
    for (const stamp of [REDACTION_VERSION - 1, REDACTION_VERSION + 1, 0]) {
      const records = oldRecords(npmToken).map((record) => (record.t === "meta" ? record : { ...record, redaction: stamp }));
      const { model, client } = loaded(records);
      assert.ok(!model.includes(body(npmToken)) && !client.includes(body(npmToken)), `stamp ${stamp}`);
    }
  });

  test("a record the current rules wrote is not run through the rules again", () => {
    // Written as the recorder writes: redacted, then stamped.
    const written = oldRecords(npmToken).map(redactRecord);
    assert.ok(written.every((record) => record.t === "meta" || record.redaction === REDACTION_VERSION));
    assert.ok(!JSON.stringify(written).includes(body(npmToken)));
    // A stamped record is trusted as redacted: even text the rules would mask is left alone,
    // which is what makes loading a long session cheap.
    const stamped: JournalRecord = { t: "message", seq: 9, at: 9, tokens: 1, redaction: REDACTION_VERSION, message: { role: "system", content: `sentinel ${githubToken}` } };
    assert.equal(redactLoadedRecords([stamped])[0], stamped);
  });

  test("the agent's own secrets are looked for in current records too (a value registered after the record was written)", () => {
    const password = "Zq8-Hermes-Pw-4417"; // matches no format
    const written = oldRecords(`pw=${password}`).map(redactRecord);
    const leaked = written.map((record) => (record.t === "message" && record.message.role === "user" ? { ...record, message: { role: "user" as const, content: [{ type: "text" as const, text: `it is ${password}` }] } } : record));
    assert.ok(JSON.stringify(leaked).includes(password));
    registerSecretValue(password);
    const { model, client } = loaded(leaked);
    assert.ok(!model.includes(password), model);
    assert.ok(!client.includes(password), client);
  });

  test("the history restore and the replay share one redacted copy", () => {
    const records = oldRecords(npmToken);
    const first = redactLoadedRecords(records);
    assert.equal(redactLoadedRecords(records), first, "computed once per load");
    assert.equal(redactLoadedRecords(first), first, "a redacted copy is not redacted again");
    assert.notEqual(first[2], records[2], "the records read are left as they were");
  });
});
