// Journal records at the file boundary: the zod schema decides what a reader accepts, and the
// hand-written fast guard in front of it may only accept what the schema accepts. Every field
// of every record kind is mutated (removed, or replaced by a value of each other JSON type) and
// the guard must never say yes where the schema says no. A malformed or unknown line is skipped
// with a warning naming it; the lines around it are kept.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { readJournal, readJournalAsync } from "../../acp-server/sessions/journal";
import { JournalParser, parseJournal } from "../../acp-server/sessions/journal-parse";
import { isPlainRecord, journalRecordSchema } from "../../acp-server/sessions/journal-schema";
import type { JournalRecord } from "../../acp-server/sessions/types";
import { tempDirs } from "../support/session-fixtures";

const dirs = tempDirs("hermes-journal-schema-");
after(() => dirs.cleanup());

/** One record of every kind and variant, as the recorder writes them. */
const VALID: JournalRecord[] = [
  { t: "meta", v: 1, at: 1, session: { id: "s1", cwd: "/p", createdAt: 1, source: "acp", mode: "default", modelId: "openai/m", provider: "openai", model: "m", parentId: "s0" } },
  { t: "message", seq: 0, at: 2, tokens: 3, redaction: 1, message: { role: "user", content: [{ type: "text", text: "hi" }, { type: "image", mimeType: "image/png", data: "AAAA" }] } },
  {
    t: "message",
    seq: 1,
    at: 3,
    tokens: 3,
    message: { role: "assistant", content: "ok", reasoning: "hm", toolCalls: [{ id: "c1", name: "read_file", arguments: "{}" }], replay: [{ format: "anthropic_messages", data: { sig: "x" } }] },
  },
  { t: "message", seq: 2, at: 4, tokens: 3, message: { role: "tool", toolCallId: "c1", name: "read_file", content: "text", images: [{ mimeType: "image/png", data: "AAAA" }] } },
  { t: "message", seq: 3, at: 5, tokens: 3, message: { role: "system", content: "be brief" } },
  {
    t: "tool_call",
    at: 6,
    call: {
      id: "c1",
      requestId: "r1",
      name: "edit",
      title: "Edit a.ts",
      kind: "edit",
      locations: [{ path: "/p/a.ts", line: 3 }, { path: "/p/b.ts" }],
      rawInput: { path: "a.ts" },
      status: "completed",
      content: [
        { type: "text", text: "done" },
        { type: "diff", path: "/p/a.ts", oldText: null, newText: "x" },
        { type: "terminal", terminalId: "t1" },
        { type: "image", mimeType: "image/png", data: "AAAA" },
        { type: "resource_link", uri: "file:///p/a.ts", name: "a.ts", mimeType: "text/plain", title: "A", description: "the file" },
        { type: "resource", uri: "file:///p/a.ts", mimeType: "text/plain", text: "x" },
      ],
      rawOutput: "done",
      fullOutput: { path: "/tmp/hermes-sandbox-1/s1/hermes-output/c1.log", bytes: 12 },
    },
  },
  { t: "plan", at: 7, todos: [{ id: "1", content: "Look", status: "in_progress" }] },
  { t: "update", at: 8, title: "T", titleSource: "auto", mode: "plan", modelId: "openai/m", tokens: 9, systemPrompt: "sys", reset: true, compaction: { head: 1, tail: 2, summary: "s" }, turn: "end", stopReason: "cancelled" },
  {
    t: "update",
    at: 9,
    permission: {
      call: { id: "c2", requestId: "r2", name: "terminal", title: "$ ls", kind: "execute", locations: [{ path: "/p", line: 1 }], rawInput: { command: "ls" } },
      title: "$ ls",
      action: "execute",
      content: [{ type: "text", text: "```sh\nls\n```" }, { type: "diff", path: "/p/a.ts", oldText: "a", newText: "b" }],
    },
    permissionAnswer: { toolCallId: "c2", outcome: "shutdown" },
  },
  { t: "update", at: 9, learned: { id: "l1", kind: "skill", what: "skill deploy-checklist (created)", where: "/h/skills/deploy-checklist/SKILL.md" } },
];

const REPLACEMENTS: unknown[] = [undefined, null, 0, -1.5, "", "x", true, [], [1], {}, { type: "text" }];

/** Every way of breaking one field (or one array item) of `value`, recursively. */
function* mutations(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      for (const mutated of mutations(value[i])) yield value.map((item, j) => (j === i ? mutated : item)).filter((item) => item !== undefined);
    }
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    const variants = [...REPLACEMENTS, ...mutations(field)];
    for (const replacement of variants) {
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      if (replacement === undefined) delete copy[key];
      else copy[key] = replacement;
      yield copy;
    }
  }
}

describe("journal records at the file boundary", () => {
  test("every valid record kind passes the guard and the schema", () => {
    for (const record of VALID) {
      assert.ok(journalRecordSchema().safeParse(record).success, `schema rejects ${record.t}`);
      assert.ok(isPlainRecord(record), `guard rejects ${record.t}`);
    }
  });

  test("the guard never accepts a record the schema rejects", () => {
    let rejected = 0;
    let checked = 0;
    for (const record of VALID) {
      for (const mutated of mutations(record)) {
        checked++;
        const accepted = journalRecordSchema().safeParse(mutated).success;
        if (!accepted) rejected++;
        if (isPlainRecord(mutated)) assert.ok(accepted, `guard accepts what the schema rejects: ${JSON.stringify(mutated)}`);
      }
    }
    assert.ok(checked > 1_000 && rejected > checked / 3, `mutations checked: ${checked}, rejected by the schema: ${rejected}`);
  });

  test("malformed and unknown lines are skipped with a warning; the others are kept", async () => {
    const file = path.join(dirs.make(), "s.jsonl");
    const lines = [
      JSON.stringify(VALID[0]),
      JSON.stringify(VALID[1]),
      JSON.stringify({ t: "message", seq: 5, at: 9, tokens: 1, message: { role: "user", content: "not an array" } }),
      JSON.stringify({ t: "tool_call", at: 9, call: { id: 7 } }),
      JSON.stringify({ t: "future_kind", at: 9 }),
      "[1, 2]",
      "{ not json",
      JSON.stringify(VALID[6]),
    ];
    writeFileSync(file, `${lines.join("\n")}\n`);
    for (const read of [readJournal(file), await readJournalAsync(file)]) {
      assert.deepEqual(
        read.records.map((r) => r.t),
        ["meta", "message", "plan"],
      );
      assert.equal(read.warnings.length, 5, read.warnings.join("\n"));
      assert.match(read.warnings[0], /s\.jsonl:3: record skipped \(message\.content: /);
      assert.match(read.warnings[1], /s\.jsonl:4: record skipped \(call\./);
      assert.match(read.warnings[2], /s\.jsonl:5: record skipped \(unknown record type "future_kind"\)/);
      assert.match(read.warnings[3], /s\.jsonl:6: record skipped \(not an object\)/);
      assert.match(read.warnings[4], /s\.jsonl:7: record skipped \(invalid JSON/);
    }
  });

  test("fields of a later version are kept whole", () => {
    const later = { ...VALID[2], message: { ...(VALID[2] as { message: object }).message, toolCalls: [{ id: "c1", name: "x", arguments: "{}", extra: 1 }] }, future: { a: 1 } };
    const read = parseJournal(Buffer.from(`${JSON.stringify(later)}\n`), { file: "f", offset: 0, firstLine: 1, takeUnterminated: true });
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(read.records, [later]);
  });

  test("lines split across read chunks and multi-byte characters are reassembled", () => {
    const text = `${VALID.map((record) => JSON.stringify({ ...record, note: "é😀" })).join("\n")}\n`;
    const data = Buffer.from(text);
    for (const size of [1, 7, 64]) {
      const read = parseJournal(data, { file: "f", offset: 0, firstLine: 1, takeUnterminated: true });
      const parser = new JournalParser({ file: "f", offset: 0, firstLine: 1, takeUnterminated: true });
      for (let at = 0; at < data.length; at += size) parser.push(data.subarray(at, at + size));
      const chunked = parser.end();
      assert.deepEqual(chunked, read, `chunks of ${size}`);
      assert.equal(chunked.records.length, VALID.length);
      assert.equal(chunked.bytes, data.length);
    }
  });
});
