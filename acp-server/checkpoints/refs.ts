// Ref names and the metadata stored in each checkpoint commit. A checkpoint is a commit whose
// message body is one line of JSON (CheckpointMeta), under refs/hermes/<session>/<phase>/<turn>;
// a restore's backup goes under refs/hermes/<session>/backup/<time>. Listing is one
// `for-each-ref` call.
import { createHash } from "node:crypto";
import { redactSecrets } from "../util/redact";
import type { Git } from "./git";
import type { Checkpoint, CheckpointMeta, CheckpointPhase } from "./types";

const REF_ROOT = "refs/hermes";
const PROMPT_EXCERPT_CHARS = 200;
/** Paths named in a post checkpoint's metadata; the count covers the rest. */
export const CHANGED_PATHS_KEPT = 200;

/** A session id as one safe ref component (ids outside [A-Za-z0-9_-] are hashed). */
export function sessionKey(sessionId: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(sessionId)) return sessionId;
  return `h${createHash("sha256").update(sessionId).digest("hex").slice(0, 32)}`;
}

export function checkpointRef(sessionId: string, phase: CheckpointPhase, turn: number): string {
  return `${REF_ROOT}/${sessionKey(sessionId)}/${phase}/${turn}`;
}

export function backupRef(sessionId: string, time: number, unique: string): string {
  return `${REF_ROOT}/${sessionKey(sessionId)}/backup/${time}-${unique}`;
}

/** The prompt's start for listings, secrets redacted (like the session journals). */
export function excerpt(prompt: string): string {
  const flat = redactSecrets(prompt).replace(/\s+/g, " ").trim();
  return flat.length > PROMPT_EXCERPT_CHARS ? `${flat.slice(0, PROMPT_EXCERPT_CHARS - 1)}…` : flat;
}

export function commitMessage(meta: CheckpointMeta | BackupMeta): string {
  const title = "kind" in meta ? `Hermes restore backup: ${meta.sessionId}` : `Hermes checkpoint: ${meta.sessionId} turn ${meta.turn} (${meta.phase})`;
  return `${title}\n\n${JSON.stringify(meta)}\n`;
}

export interface BackupMeta {
  kind: "backup";
  sessionId: string;
  time: number;
}

export interface RefEntry {
  ref: string;
  commit: string;
  meta: CheckpointMeta | BackupMeta | undefined;
}

/** Every ref under refs/hermes/ (or one session's), with its parsed metadata. */
export async function readRefs(git: Git, sessionId?: string): Promise<RefEntry[]> {
  const prefix = sessionId === undefined ? `${REF_ROOT}/` : `${REF_ROOT}/${sessionKey(sessionId)}/`;
  const output = await git.text(["for-each-ref", "--format=%(objectname) %(refname) %(contents:body)", prefix]);
  const entries: RefEntry[] = [];
  for (const line of output.split("\n")) {
    if (!line.trim()) continue;
    const first = line.indexOf(" ");
    const second = line.indexOf(" ", first + 1);
    const commit = line.slice(0, first);
    const ref = second < 0 ? line.slice(first + 1) : line.slice(first + 1, second);
    entries.push({ ref, commit, meta: second < 0 ? undefined : parseMeta(line.slice(second + 1)) });
  }
  return entries;
}

function parseMeta(text: string): CheckpointMeta | BackupMeta | undefined {
  try {
    const parsed = JSON.parse(text.trim()) as Record<string, unknown>;
    if (typeof parsed.sessionId !== "string" || typeof parsed.time !== "number") return undefined;
    return parsed as unknown as CheckpointMeta | BackupMeta;
  } catch {
    // expected: a ref note that is not our JSON is not a checkpoint of ours and is skipped
    return undefined;
  }
}

/** A session's checkpoints (pre and post), oldest turn first, pre before post. */
export async function listCheckpoints(git: Git, sessionId: string): Promise<Checkpoint[]> {
  const checkpoints: Checkpoint[] = [];
  for (const entry of await readRefs(git, sessionId)) {
    const meta = entry.meta;
    if (!meta || "kind" in meta || meta.sessionId !== sessionId) continue;
    checkpoints.push({ ...meta, commit: entry.commit, ref: entry.ref });
  }
  return checkpoints.sort((a, b) => a.turn - b.turn || (a.phase === b.phase ? 0 : a.phase === "pre" ? -1 : 1));
}
