// Helpers for session store tests and benchmarks: temp homes, a recording logger, and
// journal records that look like a real conversation.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { JournalRecord, SessionMeta } from "../../acp-server/sessions/types";
import type { Logger } from "../../acp-server/util/log";

export interface RecordingLogger extends Logger {
  warnings: string[];
}

/** A logger that keeps warnings and errors for assertions instead of printing them. */
export function recordingLogger(): RecordingLogger {
  const warnings: string[] = [];
  const keep = (message: string, fields?: Record<string, unknown>) => {
    warnings.push(fields ? `${message} ${JSON.stringify(fields)}` : message);
  };
  return { warnings, debug: () => undefined, info: () => undefined, warn: keep, error: keep };
}

/** Temp directories removed by `cleanup()`. */
export function tempDirs(prefix = "hermes-sessions-"): { make: () => string; cleanup: () => void } {
  const made: string[] = [];
  return {
    make: () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    cleanup: () => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function sessionMeta(id: string, cwd: string, createdAt: number, extra: Partial<SessionMeta> = {}): SessionMeta {
  return { id, cwd, createdAt, source: "acp", modelId: "openai/gpt-test", provider: "openai", model: "gpt-test", ...extra };
}

export function userMessage(seq: number, at: number, text: string): JournalRecord {
  return { t: "message", seq, at, tokens: Math.ceil(text.length / 4), message: { role: "user", content: [{ type: "text", text }] } };
}

export function assistantMessage(seq: number, at: number, text: string): JournalRecord {
  return { t: "message", seq, at, tokens: Math.ceil(text.length / 4), message: { role: "assistant", content: text } };
}

export function toolMessage(seq: number, at: number, text: string): JournalRecord {
  return { t: "message", seq, at, tokens: Math.ceil(text.length / 4), message: { role: "tool", toolCallId: `call-${seq}`, name: "read_file", content: text } };
}

const WORDS = (
  "agent buffer cache compile config debug deploy docker editor error fetch function git handler http index journal " +
  "kernel lambda lint merge module network object parser patch promise query react refactor regex render request " +
  "schema server session shell socket stream string test thread token typescript update vector webpack worker yaml " +
  "the a to of and in is it that for on with as this be are was by not or from at"
).split(" ");

/** Deterministic pseudo-random prose of `words` words (a small LCG, so runs are comparable). */
export function prose(seed: number, words: number): string {
  let state = (seed * 2_654_435_761) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    out.push(WORDS[state % WORDS.length]);
  }
  return out.join(" ");
}

export const VOCABULARY: readonly string[] = WORDS;

/** One turn as the journal holds it: a prompt, a reply with two tool calls (finished in reverse order), their results, a plan, an answer. */
export function conversationTurn(turn: number, seq: number, extra: { spill?: string; secret?: string } = {}): JournalRecord[] {
  const at = 1_000 + turn;
  const calls = [`t${turn}a`, `t${turn}b`];
  return [
    { t: "message", seq, at, tokens: 9, message: { role: "user", content: [{ type: "text", text: `Turn ${turn}: ${prose(turn, 40)}${extra.secret ? ` remember ${extra.secret}` : ""}` }] } },
    { t: "update", at, turn: "start" },
    {
      t: "message",
      seq: seq + 1,
      at,
      tokens: 9,
      message: { role: "assistant", content: `Reading ${turn}.`, reasoning: prose(turn + 7, 20), toolCalls: calls.map((id) => ({ id, name: "read_file", arguments: `{"path":"f${turn}.ts"}` })) },
    },
    ...[...calls].reverse().map(
      (id): JournalRecord => ({
        t: "tool_call",
        at,
        call: {
          id,
          requestId: id,
          name: "read_file",
          title: `read f${turn}.ts`,
          kind: "read",
          locations: [{ path: `/p/f${turn}.ts` }],
          rawInput: { path: `f${turn}.ts` },
          status: "completed",
          content: [{ type: "text", text: prose(turn * 3, 60) }],
          rawOutput: { content: prose(turn * 3, 60) },
          ...(extra.spill ? { fullOutput: { path: extra.spill, bytes: 10 } } : {}),
        },
      }),
    ),
    ...calls.map((id, i): JournalRecord => ({ t: "message", seq: seq + 2 + i, at, tokens: 9, message: { role: "tool", toolCallId: id, name: "read_file", content: prose(turn, 30) } })),
    { t: "plan", at, todos: [{ id: "1", content: `step ${turn}`, status: "completed" }] },
    { t: "message", seq: seq + 4, at, tokens: 9, message: { role: "assistant", content: `Done with ${turn}: ${prose(turn + 3, 30)}` } },
    { t: "update", at, turn: "end", stopReason: turn % 7 === 3 ? "cancelled" : "end_turn" },
  ];
}
