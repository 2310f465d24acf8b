// What the learning review changed, with what it takes to undo it: one JSON file per change in
// $HERMES_HOME/learning/changes/<id>.json (written atomically, so processes sharing a home never
// see half a change). The session's journal holds only the note shown to the user; this holds
// the entries and file texts an undo puts back.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import type { LearnedNote } from "../sessions/types";
import { AgentError } from "../util/agent-error";
import { writeFileAtomicSync } from "../util/atomic-write";
import { createLogger } from "../util/log";

const log = createLogger("learning");

const ChangeSchema = z.looseObject({
  id: z.string().regex(/^l[0-9a-f]{6,16}$/),
  kind: z.enum(["memory", "skill"]),
  what: z.string(),
  where: z.string(),
  at: z.string(),
  sessionId: z.string(),
  action: z.string(),
  memory: z.looseObject({ target: z.enum(["memory", "user"]), added: z.array(z.string()), removed: z.array(z.string()) }).optional(),
  skill: z
    .looseObject({
      name: z.string(),
      dir: z.string(),
      created: z.boolean(),
      files: z.array(z.looseObject({ path: z.string(), oldText: z.string().nullable(), newText: z.string().nullable() })),
      /** The curator archived the skill: its folder went here (undo moves it back to `dir`). */
      archivedTo: z.string().optional(),
    })
    .optional(),
  undone: z.string().optional(),
});

export type LearnedChange = z.infer<typeof ChangeSchema>;

/** A change's id: short enough to type after `/learned undo`. */
export function newChangeId(): string {
  return `l${randomBytes(4).toString("hex")}`;
}

export function noteOf(change: LearnedChange): LearnedNote {
  return { id: change.id, kind: change.kind, what: change.what, where: change.where };
}

export class LearningLedger {
  readonly dir: string;

  constructor(readonly home: string) {
    this.dir = path.join(home, "learning", "changes");
  }

  save(change: LearnedChange): void {
    fs.mkdirSync(this.dir, { recursive: true });
    writeFileAtomicSync(this.file(change.id), `${JSON.stringify(change, null, 1)}\n`);
  }

  /** One change; undefined when there is none with that id (or its file is damaged, which is logged). */
  get(id: string): LearnedChange | undefined {
    if (!/^l[0-9a-f]{6,16}$/.test(id)) return undefined;
    return this.read(this.file(id));
  }

  /** The changes, newest first. Throws an AgentError naming the reason when the ledger's folder exists but cannot be read. */
  list(limit = 50): LearnedChange[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((name) => name.endsWith(".json"));
    } catch (error) {
      // No folder yet means nothing was learned; any other failure must not pass for "nothing".
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      log.warn("learning ledger unreadable", { dir: this.dir, error });
      throw new AgentError("internal", `Cannot read the learning ledger ${this.dir}: ${(error as Error).message}`, { dir: this.dir }, { cause: error });
    }
    const changes = names.map((name) => this.read(path.join(this.dir, name))).filter((change): change is LearnedChange => !!change);
    return changes.sort((a, b) => b.at.localeCompare(a.at)).slice(0, limit);
  }

  markUndone(change: LearnedChange): LearnedChange {
    const undone = { ...change, undone: new Date().toISOString() };
    this.save(undone);
    return undone;
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  private read(file: string): LearnedChange | undefined {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn("learned change unreadable", { file, error });
      return undefined;
    }
    try {
      const parsed = ChangeSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      log.warn("learned change has an unknown shape; skipped", { file, problem: parsed.error.issues[0]?.message });
    } catch (error) {
      log.warn("learned change is not valid JSON; skipped", { file, error });
    }
    return undefined;
  }
}
