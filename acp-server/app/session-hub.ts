// The sessions of this process and their journals (the app layer's session lifecycle): new, load, resume, fork, list, close and
// delete. A session made by another process (another editor) loads from its journal.
import { randomUUID } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { AgentSession } from "../agent/session";
import { isUserPrompt } from "../providers/types";
import { InvalidCursorError } from "../sessions/errors";
import type { RestoredConversation } from "../agent/session";
import { restoreSession, type RestoredSession } from "../sessions/history";
import { SessionRecorder } from "../sessions/recorder";
import type { JournalRecord, SessionMeta, SessionWorktree } from "../sessions/types";
import type { WorktreeRequest } from "../worktrees/session-worktree";
import { isSessionMode, type SessionMode } from "../security/modes";
import { SessionTools } from "../tools/tool-set";
import type { ElicitationModes } from "../tools/elicitation";
import type { Logger } from "../util/log";
import { LiveSession } from "../runtime/live-session";
import type { AgentRuntime } from "../runtime/runtime";
import { firstPromptOf } from "../sessions/first-prompt";
import type { OpenedJournal } from "./load-journal";
import { openMcpBridge, sessionMcpSpecs } from "../runtime/session-mcp";
import { sameServers, type McpServerSpec } from "../mcp/server-spec";
import { invalidParams, unknownSession } from "../util/agent-error";

const PAGE_SIZE = 50;

/** A page of session/list, in the app's terms (the edge adds the protocol's envelope). */
/** Where a listed worktree session works: its branch, the worktree's top folder, its folder in it, the main checkout. */
export type ListedWorktree = Pick<SessionWorktree, "branch" | "path" | "cwd" | "repo">;

export interface SessionListPage {
  sessions: { sessionId: string; cwd: string; additionalDirectories?: string[]; title?: string; updatedAt: string; firstPrompt?: string; worktree?: ListedWorktree }[];
  nextCursor?: string;
}

/** A session as its journal restores it, the conversation possibly deferred (load-journal.ts). */
type Restored = RestoredSession & { deferred?: () => RestoredConversation };

export class SessionHub {
  private readonly live = new Map<string, LiveSession>();

  constructor(
    private readonly options: {
      runtime: () => Promise<AgentRuntime>;
      source: string;
      log: Logger;
      /** The elicitations the front end answers (its MCP servers are told so); absent: none. */
      elicitation?: () => ElicitationModes;
    },
  ) {}

  /** A session of this process, or a JSON-RPC "not found". */
  get(sessionId: string): LiveSession {
    const session = this.live.get(sessionId);
    if (!session) throw unknownSession(sessionId);
    return session;
  }

  find(sessionId: string): LiveSession | undefined {
    return this.live.get(sessionId);
  }

  /**
   * `additionalDirectories`: the workspace's other roots (ACP), checked and kept with the session.
   * `worktree`: the session works in its own git worktree (worktrees/); outside a repository it
   * works in `cwd` and `notice` says why.
   */
  async create(cwd: string, mcpServers: McpServerSpec[], additionalDirectories?: readonly string[], options: { worktree?: WorktreeRequest } = {}): Promise<LiveSession> {
    const runtime = await this.options.runtime();
    const mode = runtime.loaded.config.agent.default_mode;
    const root = checkedCwd(cwd);
    const extra = checkedRoots(root, additionalDirectories);
    const id = randomUUID();
    let worktree: SessionWorktree | undefined;
    let notice: string | undefined;
    if (options.worktree !== undefined) {
      const [{ createSessionWorktree }, { worktreesRoot }] = await Promise.all([import("../worktrees/session-worktree"), import("../worktrees/worktree-location")]);
      const made = await createSessionWorktree({ cwd: root, sessionId: id, root: worktreesRoot(runtime.loaded.home, runtime.loaded.config.worktrees.root), request: options.worktree });
      if ("worktree" in made) worktree = made.worktree;
      else notice = `No worktree for this session: ${made.unavailable}.`;
    }
    const meta: SessionMeta = {
      id,
      cwd: root,
      ...(extra.length > 0 ? { additionalDirectories: extra } : {}),
      createdAt: Date.now(),
      source: this.options.source,
      mode,
      ...modelFields(runtime),
      ...(worktree ? { worktree } : {}),
    };
    const specs = sessionMcpSpecs(runtime, mcpServers, this.options.log);
    const session = await this.open(runtime, meta, [], specs, mcpServers);
    if (notice) session.openingNotice = notice;
    session.isolationSwitchable = true;
    return session;
  }

  /**
   * Moves a session not prompted yet into a worktree of its own (`request`), or back into its
   * folder (`false`, removing the worktree and branch it was given): the session is rebuilt under
   * the same id from its journal's records (a mode or model picked already stays), its MCP servers
   * restarted where it now works. Refused, changing nothing, once a turn ran, outside a repository,
   * or when the worktree holds changes (they are never removed silently).
   */
  async reisolate(sessionId: string, request: WorktreeRequest | false): Promise<LiveSession> {
    const live = this.get(sessionId);
    if (!live.isolationSwitchable) throw invalidParams("this session can no longer change its isolation: it has been prompted", { sessionId });
    if ((request !== false) === (live.worktree !== undefined)) return live;
    const runtime = await this.options.runtime();
    const stored = await runtime.sessions.read(sessionId);
    if (!stored) throw unknownSession(sessionId);
    const { worktree: left, ...meta } = stored.meta;
    let worktree: SessionWorktree | undefined;
    if (request !== false) {
      const [{ createSessionWorktree }, { worktreesRoot }] = await Promise.all([import("../worktrees/session-worktree"), import("../worktrees/worktree-location")]);
      const made = await createSessionWorktree({ cwd: meta.cwd, sessionId, root: worktreesRoot(runtime.loaded.home, runtime.loaded.config.worktrees.root), request });
      if ("unavailable" in made) throw invalidParams(`no worktree for this session: ${made.unavailable}`, { sessionId });
      worktree = made.worktree;
    } else if (left) {
      const { worktreeState } = await import("../worktrees/worktree-manage");
      const state = await worktreeState(left);
      if (state.files.length > 0) throw invalidParams(`the session's worktree holds changes (${state.files.join(", ")}); apply or discard them first`, { sessionId });
    }
    // Nothing ran yet, so the journal is the meta record and settings: rewritten whole, same id.
    const records = stored.records.filter((record) => record.t !== "meta");
    this.live.delete(sessionId);
    await live.close();
    await runtime.sessions.delete(sessionId);
    const session = await this.open(runtime, { ...meta, ...(worktree ? { worktree } : {}) }, records, sessionMcpSpecs(runtime, live.mcpServers, this.options.log), live.mcpServers, records);
    session.isolationSwitchable = true;
    if (request === false && left) await this.cleanUpWorktree(sessionId, left);
    return session;
  }

  /**
   * A stored session, made live (from memory when this process already has it and owns it).
   * Without `mcpServers` a live session keeps the servers it has. This process becomes the
   * session's one writer unless another live Hermes process owns it; then it follows it
   * read-only (prompts are refused), unless `takeOver` (`_meta["hermes/takeOver"]`) says to
   * take it from that process. A copy this process only followed (or lost to a takeover) is
   * rebuilt from the journal, which the owner may have added to since.
   *
   * The extra roots are the request's, never the stored ones (ACP: omitted means none, so a
   * root is never reactivated without the client saying so); a list that differs from the
   * journal's last is journaled, and the session is rebuilt with it.
   */
  async restore(
    sessionId: string,
    cwd: string,
    given?: McpServerSpec[],
    options: { takeOver?: boolean; additionalDirectories?: readonly string[] } = {},
  ): Promise<{ session: LiveSession; journal: OpenedJournal }> {
    const root = checkedCwd(cwd);
    const extra = checkedRoots(root, options.additionalDirectories);
    // Reading a journal back (load-journal.ts and the replay code it brings) loads with the first
    // restore: a process that only opens new sessions never needs it.
    const [runtime, { openJournal, restoredFrom }] = await Promise.all([this.options.runtime(), import("./load-journal")]);
    const existing = this.live.get(sessionId);
    const mcpServers = given ?? existing?.mcpServers ?? [];
    const specs = sessionMcpSpecs(runtime, mcpServers, this.options.log);
    const current = existing !== undefined && runtime.sessions.owns(sessionId);
    if (!current) runtime.sessions.claim(sessionId, options);
    const journal = await openJournal(runtime.sessions, sessionId);
    if (!journal) {
      if (!existing) runtime.sessions.closeSession(sessionId); // no such session: no lease either
      throw unknownSession(sessionId);
    }
    for (const warning of journal.warnings) this.options.log.warn(warning, { sessionId });
    if (existing && current && sameList(existing.agent.extraRoots, extra)) {
      existing.mcpServers = mcpServers;
      // Other servers than the session has now: the new set replaces the old one.
      if (!sameServers(existing.mcp?.specs ?? [], specs)) await existing.setMcp(await openMcpBridge(runtime, specs, existing.agent.cwd, this.options.log, this.options.elicitation?.()));
      return { session: existing, journal };
    }
    if (existing) await this.drop(existing);
    const meta = { ...journal.meta, cwd: root };
    const restored = restoredFrom(journal, meta, runtime.sessions, this.options.log);
    return { session: await this.open(runtime, meta, restored, specs, mcpServers, undefined, extra), journal };
  }

  /**
   * The session a prompt runs in: one this process owns. A session it follows becomes its own
   * when the owner has let go (closed it, exited), rebuilt from the journal as it is now;
   * while another process owns it the prompt is refused with SessionNotOwnedError.
   */
  async forPrompt(sessionId: string): Promise<LiveSession> {
    const session = this.get(sessionId);
    const runtime = await this.options.runtime();
    if (runtime.sessions.owns(sessionId)) return session;
    if (!runtime.sessions.claim(sessionId).owner) runtime.sessions.assertWriter(sessionId);
    const stored = await runtime.sessions.read(sessionId);
    if (!stored) throw unknownSession(sessionId);
    await this.drop(session);
    const specs = sessionMcpSpecs(runtime, session.mcpServers, this.options.log);
    return this.open(runtime, { ...stored.meta, cwd: session.agent.cwd }, stored.records, specs, session.mcpServers, undefined, session.agent.extraRoots);
  }

  /**
   * A new session with a copy of another's history (up to `messageCount` messages when given).
   * Its extra roots are the request's (ACP: a fork does not inherit them implicitly).
   */
  async fork(
    parentId: string,
    cwd: string,
    mcpServers: McpServerSpec[],
    point?: ForkPoint,
    additionalDirectories?: readonly string[],
  ): Promise<{ session: LiveSession; records: JournalRecord[] }> {
    const root = checkedCwd(cwd);
    const extra = checkedRoots(root, additionalDirectories);
    const runtime = await this.options.runtime();
    const specs = sessionMcpSpecs(runtime, mcpServers, this.options.log);
    const parent = await runtime.sessions.read(parentId);
    if (!parent) throw unknownSession(parentId);
    const records = copiedRecords(parent.records, point);
    const title = restoreSession(parent.meta, parent.records).title;
    const { additionalDirectories: _parentRoots, ...inherited } = parent.meta;
    const meta: SessionMeta = { ...inherited, id: randomUUID(), cwd: root, ...(extra.length > 0 ? { additionalDirectories: extra } : {}), createdAt: Date.now(), parentId, source: "fork" };
    const session = await this.open(runtime, meta, records, specs, mcpServers, records);
    if (title) session.agent.setTitle(`Fork of ${title}`, "auto");
    return { session, records };
  }

  /** One page of the stored sessions (newest first, `cwd`'s only when given), each with its first prompt. */
  async list(params: { cwd?: string | null; cursor?: string | null }): Promise<SessionListPage> {
    const runtime = await this.options.runtime();
    let page: Awaited<ReturnType<AgentRuntime["sessions"]["list"]>>;
    try {
      page = await runtime.sessions.list({ cwd: params.cwd ?? undefined, cursor: params.cursor ?? undefined, limit: PAGE_SIZE });
    } catch (error) {
      if (error instanceof InvalidCursorError) throw invalidParams(error.message, { cursor: params.cursor });
      throw error;
    }
    // Each row with its first prompt, for a history that shows what each chat began with.
    const firstPrompts = await Promise.all(
      page.sessions.map((summary) =>
        firstPromptOf(runtime.sessions, summary.id).catch((error: unknown) => {
          this.options.log.warn("reading a session's first prompt for the list failed; its row goes without it", { sessionId: summary.id, error });
          return undefined;
        }),
      ),
    );
    // And where each works: a worktree session's branch and folder (issue 32), from its meta record.
    const worktrees = await worktreesOf(runtime.sessions.dir, page.sessions.map((summary) => summary.id), this.options.log);
    return {
      sessions: page.sessions.map((summary, i) => {
        const firstPrompt = firstPrompts[i];
        const worktree = worktrees[i];
        return {
          sessionId: summary.id,
          cwd: summary.cwd,
          ...(summary.additionalDirectories?.length ? { additionalDirectories: summary.additionalDirectories } : {}),
          ...(summary.title ? { title: summary.title } : {}),
          updatedAt: new Date(summary.updatedAt).toISOString(),
          ...(firstPrompt ? { firstPrompt } : {}),
          ...(worktree ? { worktree: { branch: worktree.branch, path: worktree.path, cwd: worktree.cwd, repo: worktree.repo } } : {}),
        };
      }),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  }

  /** Cancels the session's turns and frees it; the journal stays. */
  async close(sessionId: string): Promise<void> {
    const session = this.live.get(sessionId);
    if (!session) throw unknownSession(sessionId);
    this.live.delete(sessionId);
    await session.close();
    (await this.options.runtime()).sessions.closeSession(sessionId);
  }

  async delete(sessionId: string): Promise<void> {
    const session = this.live.get(sessionId);
    this.live.delete(sessionId);
    await session?.close();
    const runtime = await this.options.runtime();
    const worktree = session?.worktree ?? (await runtime.sessions.read(sessionId).catch(() => undefined))?.meta.worktree; // expected: an unreadable journal has no worktree to clean up
    const deleted = await runtime.sessions.delete(sessionId);
    if (!deleted) throw unknownSession(sessionId);
    if (worktree) await this.cleanUpWorktree(sessionId, worktree);
  }

  /** A deleted session's worktree goes with it, unless it holds work that was never applied: that is kept (hermes worktrees list names it). */
  private async cleanUpWorktree(sessionId: string, worktree: SessionWorktree): Promise<void> {
    try {
      const { worktreeState, removeWorktree } = await import("../worktrees/worktree-manage");
      const state = await worktreeState(worktree);
      if (!state.exists) return;
      if (state.files.length > 0) {
        this.options.log.warn("kept a deleted session's worktree: it has changes that were never applied", { sessionId, worktree: worktree.path, branch: worktree.branch, files: state.files.length });
        return;
      }
      await removeWorktree(worktree);
    } catch (error) {
      this.options.log.warn("cleaning up a deleted session's worktree failed", { sessionId, worktree: worktree.path, error });
    }
  }

  /** Takes a stale copy of a session out of this process (its turns cancelled, its MCP servers stopped). */
  private async drop(session: LiveSession): Promise<void> {
    if (this.live.get(session.id) === session) this.live.delete(session.id);
    await session.close();
  }

  /**
   * Builds the live session from its records (or the session they restore: load and resume);
   * `copy` are records to write to a new journal first (forks).
   * `extraRoots`: a restored session's roots from now on (a new one's are in its meta).
   */
  private async open(
    runtime: AgentRuntime,
    meta: SessionMeta,
    source: JournalRecord[] | Restored,
    specs: McpServerSpec[],
    mcpServers: McpServerSpec[] = [],
    copy?: JournalRecord[],
    extraRoots: readonly string[] = meta.additionalDirectories ?? [],
  ): Promise<LiveSession> {
    const restored: Restored = Array.isArray(source) ? restoreSession(meta, source) : source;
    const isNew = copy !== undefined || (Array.isArray(source) && source.length === 0);
    // Other roots than the journal's last: the frozen prompt names the old ones, so it is built
    // again (one cache miss), and the new list is journaled.
    const rootsChanged = !isNew && !sameList(restored.additionalDirectories, extraRoots);
    if (rootsChanged) restored.systemPrompt = undefined;
    if (isNew) runtime.sessions.create(meta, copy);
    const mode: SessionMode = restored.mode && isSessionMode(restored.mode) ? restored.mode : runtime.loaded.config.agent.default_mode;
    // The agent's session owns the journal from here on: the edge never writes to it.
    const recorder = new SessionRecorder(runtime.sessions, meta.id, restored.nextSeq, this.options.log);
    const modelId = restored.modelId && runtime.findModel(restored.modelId) ? restored.modelId : undefined;
    const tools = new SessionTools(runtime.tools);
    // config.yaml's tools.enabled / disabled, then the session's own /tools toggles.
    tools.configure(runtime.loaded.config.tools, new Map(Object.entries(restored.toolToggles ?? {})), restored.loadedTools ?? []);
    const agent = new AgentSession(meta.id, workingFolder(meta, this.options.log), mode, { recorder, tools, restored: { ...restored, modelId }, extraRoots });
    if (rootsChanged && runtime.sessions.owns(meta.id)) agent.recordExtraRoots();
    const session = new LiveSession(agent, mcpServers);
    if (meta.worktree && agent.cwd === meta.worktree.cwd) session.worktree = meta.worktree;
    this.live.set(meta.id, session);
    await session.setMcp(await openMcpBridge(runtime, specs, agent.cwd, this.options.log, this.options.elicitation?.()));
    // (A deferred history is not counted: that would restore it now.)
    this.options.log.info(isNew ? "session created" : "session restored", { sessionId: meta.id, cwd: meta.cwd, ...(restored.deferred ? {} : { messages: agent.history.length }) });
    return session;
  }
}

/** Each session's worktree (undefined: none, or its journal cannot be read: the row goes without). */
async function worktreesOf(sessionsDir: string, ids: string[], log: Logger): Promise<(SessionWorktree | undefined)[]> {
  const { readJournalMeta } = await import("../sessions/journal-meta");
  return Promise.all(
    ids.map((sessionId) =>
      readJournalMeta(sessionsDir, sessionId).then(
        (meta) => meta?.worktree,
        (error: unknown) => {
          log.warn("reading a session's meta record for the list failed; its row goes without its worktree", { sessionId, error });
          return undefined;
        },
      ),
    ),
  );
}

/** Where the session's tools run: its worktree when it has one that still exists, else the client's folder. */
function workingFolder(meta: SessionMeta, log: Logger): string {
  const worktree = meta.worktree;
  if (!worktree) return meta.cwd;
  if (existsSync(worktree.cwd)) return worktree.cwd;
  log.warn("a session's worktree is gone; it works in its folder instead", { sessionId: meta.id, worktree: worktree.path });
  return meta.cwd;
}

/** The model fields of a new session's meta record. */
function modelFields(runtime: AgentRuntime): Pick<SessionMeta, "modelId" | "provider" | "model"> {
  if (!runtime.model.ok) return {};
  const { id, provider, name } = runtime.model.model;
  return { modelId: id, provider, model: name };
}

/** A fork's copy of its parent's records: all of them, or those before message `count`. */
/** Where a fork cuts the parent's history: after so many messages, or after so many user prompts. */
export type ForkPoint = { messages: number } | { turns: number };

function copiedRecords(records: JournalRecord[], point: ForkPoint | undefined): JournalRecord[] {
  const kept = records.filter((record) => record.t !== "meta");
  if (point === undefined) return kept;
  let cut: number;
  if ("messages" in point) {
    cut = kept.findIndex((record) => record.t === "message" && record.seq >= point.messages);
  } else {
    let prompts = 0;
    // The cut lands on the first user prompt past the kept ones, so their answers stay.
    cut = kept.findIndex((record) => record.t === "message" && isUserPrompt(record.message) && ++prompts > point.turns);
  }
  return cut === -1 ? kept : kept.slice(0, cut);
}

/**
 * ACP's additionalDirectories, checked: absolute paths of existing folders (anything else is
 * refused, never dropped: ACP forbids silently reducing the roots), exact duplicates and the
 * cwd itself removed, order kept.
 */
export function checkedRoots(cwd: string, roots: readonly string[] | undefined | null): string[] {
  const kept: string[] = [];
  for (const root of roots ?? []) {
    if (typeof root !== "string" || root === "") throw invalidParams("additionalDirectories entries must be non-empty strings", { additionalDirectories: roots });
    if (!path.isAbsolute(root)) throw invalidParams(`additionalDirectories entries must be absolute paths, got "${root}"`, { additionalDirectories: roots });
    try {
      if (!statSync(root).isDirectory()) throw new Error("not a directory");
    } catch {
      // expected: missing, not a folder or unreadable all mean the same to the client: it named a root Hermes cannot use.
      throw invalidParams(`additionalDirectories entry "${root}" is not an existing directory`, { additionalDirectories: roots });
    }
    const resolved = path.resolve(root);
    if (resolved !== cwd && !kept.includes(resolved)) kept.push(resolved);
  }
  return kept;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((entry, index) => entry === b[index]);

/** ACP requires an absolute cwd; it must also exist, or every tool would fail later. */
export function checkedCwd(cwd: string): string {
  if (!path.isAbsolute(cwd)) throw invalidParams(`cwd must be an absolute path, got "${cwd}"`, { cwd });
  try {
    if (!statSync(cwd).isDirectory()) throw new Error("not a directory");
  } catch {
    // expected: missing, not a folder or unreadable all mean the same to the client: a cwd Hermes cannot use.
    throw invalidParams(`cwd "${cwd}" is not an existing directory`, { cwd });
  }
  return path.resolve(cwd);
}
