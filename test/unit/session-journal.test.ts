import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { InvalidSessionIdError, SessionExistsError, SessionNotFoundError } from "../../acp-server/sessions/errors";
import { readJournal, readJournalFrom, SessionJournal } from "../../acp-server/sessions/journal";
import type { JournalRecord, SessionMeta } from "../../acp-server/sessions/types";

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hermes-journal-"));
  dirs.push(dir);
  return dir;
}

const meta = (id: string): SessionMeta => ({ id, cwd: "/work/project", createdAt: 1_000, source: "acp", modelId: "openai/gpt-test" });

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString("base64");

const records: JournalRecord[] = [
  {
    t: "message",
    seq: 0,
    at: 1_001,
    tokens: 12,
    message: { role: "user", content: [{ type: "text", text: "what is in this\nscreenshot?" }, { type: "image", mimeType: "image/png", data: PNG }] },
  },
  {
    t: "message",
    seq: 1,
    at: 1_002,
    tokens: 30,
    message: { role: "assistant", content: "Let me look.", reasoning: "think \u2028 hard", toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.ts"}' }] },
  },
  { t: "message", seq: 2, at: 1_003, tokens: 5, message: { role: "tool", toolCallId: "c1", name: "read_file", content: "line \"1\"\nline 2" } },
  { t: "update", at: 1_004, title: "Screenshot question", titleSource: "auto", tokens: 120 },
  { t: "plan", at: 1_005, todos: [{ id: "1", content: "Look", status: "completed" }] },
];

describe("SessionJournal", () => {
  test("create + append round-trip through readJournal, images included", () => {
    const dir = tempDir();
    const journal = SessionJournal.create(dir, meta("s1"));
    const ranges = records.map((record) => journal.append(record));
    journal.close();
    const file = path.join(dir, "s1.jsonl");
    const read = readJournal(file);
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(read.records, [{ t: "meta", v: 1, at: 1_000, session: meta("s1") }, ...records]);
    assert.equal(read.bytes, statSync(file).size);
    // Ranges are contiguous and end at the file's size: what the index uses to spot gaps.
    assert.equal(ranges[0].start, Buffer.byteLength(readFileSync(file, "utf8").split("\n")[0]) + 1, "the first append starts after the meta line");
    for (let i = 1; i < ranges.length; i++) assert.equal(ranges[i].start, ranges[i - 1].end);
    assert.equal(ranges.at(-1)!.end, statSync(file).size);
    assert.equal(readFileSync(file, "utf8").split("\n").length, records.length + 2); // one line each + final newline
  });

  test("create refuses an existing id and invalid ids; openForAppend needs the file", () => {
    const dir = tempDir();
    SessionJournal.create(dir, meta("dup")).close();
    assert.throws(() => SessionJournal.create(dir, meta("dup")), SessionExistsError);
    assert.throws(() => SessionJournal.create(dir, meta("../escape")), InvalidSessionIdError);
    assert.throws(() => SessionJournal.openForAppend(dir, "a/b"), InvalidSessionIdError);
    assert.throws(() => SessionJournal.openForAppend(dir, "missing"), SessionNotFoundError);
  });

  test("openForAppend continues the file; appending after close throws", () => {
    const dir = tempDir();
    const first = SessionJournal.create(dir, meta("s2"));
    first.append(records[0]);
    first.close();
    assert.throws(() => first.append(records[1]));
    const again = SessionJournal.openForAppend(dir, "s2");
    again.append(records[1]);
    again.close();
    assert.deepEqual(readJournal(path.join(dir, "s2.jsonl")).records.map((r) => r.t), ["meta", "message", "message"]);
  });

  test("a truncated last line is skipped with a warning naming file and line", () => {
    const dir = tempDir();
    const journal = SessionJournal.create(dir, meta("s3"));
    journal.append(records[0]);
    journal.close();
    const file = path.join(dir, "s3.jsonl");
    appendFileSync(file, JSON.stringify(records[1]).slice(0, 25)); // a write cut short by a crash
    const read = readJournal(file);
    assert.equal(read.records.length, 2);
    assert.equal(read.warnings.length, 1);
    assert.match(read.warnings[0], new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3: truncated last line`));
  });

  test("a corrupt line in the middle is skipped; the rest is kept", () => {
    const dir = tempDir();
    const file = path.join(dir, "s4.jsonl");
    const lines = [{ t: "meta", v: 1, at: 1, session: meta("s4") }, records[0], records[2]].map((r) => JSON.stringify(r));
    writeFileSync(file, `${lines[0]}\n${lines[1]}\n{"t":"message","seq":\u0000garbage\n{"t":"nonsense","at":1}\n${lines[2]}\n`);
    const read = readJournal(file);
    assert.deepEqual(read.records.map((r) => (r.t === "message" ? r.seq : r.t)), ["meta", 0, 2]);
    assert.equal(read.warnings.length, 2);
    assert.match(read.warnings[0], /s4\.jsonl:3: record skipped \(invalid JSON/);
    assert.match(read.warnings[1], /s4\.jsonl:4: record skipped \(unknown record type "nonsense"\)/);
  });

  test("readJournalFrom resumes at an offset and leaves an unterminated last line for later", () => {
    const dir = tempDir();
    const journal = SessionJournal.create(dir, meta("s5"));
    const file = path.join(dir, "s5.jsonl");
    const first = readJournalFrom(file, 0);
    assert.equal(first.records.length, 1);
    const half = JSON.stringify(records[0]);
    appendFileSync(file, half.slice(0, 40)); // another process mid-write
    const partial = readJournalFrom(file, first.bytes);
    assert.deepEqual(partial.records, []);
    assert.deepEqual(partial.warnings, []);
    assert.equal(partial.bytes, first.bytes, "the unterminated line is not consumed");
    appendFileSync(file, `${half.slice(40)}\n`);
    const rest = readJournalFrom(file, partial.bytes);
    assert.deepEqual(rest.records, [records[0]]);
    assert.equal(rest.bytes, statSync(file).size);
    journal.close();
  });

  test("openForAppend ends a crash's fragment so the next record is not glued onto it", () => {
    const dir = tempDir();
    SessionJournal.create(dir, meta("s6")).close();
    const file = path.join(dir, "s6.jsonl");
    appendFileSync(file, '{"t":"message","seq":0,"at":');
    const journal = SessionJournal.openForAppend(dir, "s6");
    journal.append(records[2]);
    journal.close();
    const read = readJournal(file);
    assert.deepEqual(read.records.map((r) => r.t), ["meta", "message"]);
    assert.equal((read.records[1] as { seq: number }).seq, 2);
    assert.equal(read.warnings.length, 1);
    assert.match(read.warnings[0], /s6\.jsonl:2: record skipped/);
  });
});
