// The interactive `hermes chat`: one session, many turns. `--continue` resumes the last
// session in this folder, `--resume ID` a given one. Lines starting with / are commands: the
// REPL's own (/exit, /new, /sessions, /resume, /takeover, /history) or the agent's (/help, /context,
// /compress, /model, ...). Ctrl-C cancels a running turn; at the prompt it quits, as Ctrl-D does.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { requestErrorText } from "../acp/error-map";
import { terminalSafe } from "./terminal-safe";
import { chatHistoryFile, readChatHistory, rememberChatLine } from "./chat-history";
import type { ChatRenderer } from "./chat-render";
import { sessionRecap } from "./chat-recap";
import { recentSessions } from "./chat-sessions";
import { when } from "./cli-output";
import { paletteFor, type Palette } from "./terminal-colour";
import { turnSummary } from "./turn-summary";
import { Interrupted, type Questions } from "./terminal-questions";

export interface ReplOptions {
  cwd: string;
  continueLast: boolean;
  resume?: string;
  /** Resume as the session's owner even when another Hermes process (an editor) has it open. */
  takeOver?: boolean;
  home: string;
  timeoutSeconds: number;
  /** `_meta` for new sessions (tools switched off by --disallowed-tools). */
  sessionMeta?: { _meta: Record<string, unknown> };
  /** `_meta` for every prompt (--max-turns). */
  promptMeta?: Record<string, unknown>;
}

/** Exchanges shown on a resume, and by /history. */
const RECAP_EXCHANGES = 3;
const HISTORY_EXCHANGES = 15;

const REPL_HELP = `Commands here: /exit (or Ctrl-D), /new (a fresh session), /sessions (this folder's), /resume ID,
/takeover (own a session another Hermes process has open), /history (more of this conversation), /history text
(search what you typed; Ctrl-R searches as you type, up/down walk it), /expand (the last turn's tool steps
with their whole output). Anything else starting with / goes to the agent (/help lists its commands).
Ctrl-C cancels a running turn. A line typed while a turn runs is queued and sent when the turn ends;
Ctrl-S sends what is queued (and what is typed) to the running turn now, as /steer. Ctrl-O shows the
last tool step in full.
`;

/** The REPL's help with its commands and keys highlighted (when the palette has colour). */
export function replHelp(colours: Palette): string {
  return REPL_HELP.replace(/(^|[\s(])(\/[a-z]+|Ctrl-[A-Z])/g, (_match, before: string, name: string) => `${before}${colours.cyan(name)}`);
}

export async function runRepl(agent: acp.ClientContext, renderer: ChatRenderer, questions: Questions, options: ReplOptions): Promise<number> {
  const err = (text: string) => process.stderr.write(text);
  const historyFile = chatHistoryFile(options.home);
  const mcpServers: acp.McpServer[] = [];

  const recent = () => recentSessions(agent, options.cwd);
  // Taking a session over is explicit (the editor that had it open stops writing to it), so it
  // happens only with --take-over or /takeover, never on a plain resume.
  const resume = async (sessionId: string, takeOver = false) => {
    await agent.request(acp.methods.agent.session.resume, { sessionId, cwd: options.cwd, mcpServers, ...(takeOver ? { _meta: { "hermes/takeOver": true } } : {}) });
    err(`${takeOver ? "Took over" : "Resumed"} session ${sessionId}.\n`);
    await showRecap(sessionId, RECAP_EXCHANGES);
    return sessionId;
  };
  // Where the chat was; a recap that cannot be read is said, and the chat goes on without it.
  const showRecap = async (id: string, exchanges: number) => {
    try {
      err(await sessionRecap(options.home, id, exchanges, process.stderr.columns || 80));
    } catch (error) {
      err(`(the earlier conversation could not be shown: ${terminalSafe((error as Error).message)})\n`);
    }
  };
  const fresh = async () => (await agent.request(acp.methods.agent.session.new, { cwd: options.cwd, mcpServers, ...options.sessionMeta })).sessionId;

  let sessionId: string;
  try {
    if (options.resume) sessionId = await resume(options.resume, options.takeOver);
    else if (options.continueLast) {
      const last = (await recent())[0];
      if (!last) err("No earlier session in this folder: starting a new one.\n");
      sessionId = last ? await resume(last.sessionId, options.takeOver) : await fresh();
    } else sessionId = await fresh();
  } catch (error) {
    err(`hermes: cannot start a session: ${terminalSafe(requestErrorText(error))}\n`);
    return 1;
  }
  err(`Hermes chat in ${options.cwd} (session ${sessionId}). /exit quits, /help lists commands.\n`);
  // Ctrl-O: the last tool step in full, at the prompt or during the turn that ran it.
  questions.setKeyHandler("expand", ({ busy }) => {
    const text = renderer.expanded?.({ lastStepOnly: true }) ?? "Nothing to expand.\n";
    if (busy && renderer.note) renderer.note(text);
    else questions.showAbovePrompt(text);
  });

  for (;;) {
    let line: string;
    try {
      line = (await questions.line("\n› ")).trim();
    } catch (error) {
      if (error instanceof Interrupted) return 0;
      throw error;
    }
    if (!line) continue;
    rememberChatLine(historyFile, line);
    const [command, ...args] = line.split(/\s+/);
    if (command === "/exit" || command === "/quit") return 0;
    if (command === "/new") {
      sessionId = await fresh();
      err(`New session ${sessionId}.\n`);
      continue;
    }
    if (command === "/sessions") {
      const sessions = await recent();
      if (sessions.length === 0) err("No sessions in this folder yet.\n");
      // The same time format as `hermes sessions list`.
      for (const s of sessions.slice(0, 20)) err(`  ${s.sessionId}  ${s.updatedAt ? when(Date.parse(s.updatedAt)) : ""}  ${s.title ?? ""}\n`);
      continue;
    }
    if (command === "/resume") {
      if (!args[0]) err("Usage: /resume ID (see /sessions)\n");
      else sessionId = await resume(args[0]).catch((error: unknown) => (err(`hermes: ${terminalSafe(requestErrorText(error))}\n`), sessionId));
      continue;
    }
    if (command === "/takeover") {
      sessionId = await resume(sessionId, true).catch((error: unknown) => (err(`hermes: ${terminalSafe(requestErrorText(error))}\n`), sessionId));
      continue;
    }
    if (command === "/expand") {
      err(renderer.expanded?.() ?? "Nothing to expand.\n");
      continue;
    }
    if (command === "/history" && args.length === 0) {
      await showRecap(sessionId, HISTORY_EXCHANGES);
      continue;
    }
    if (command === "/history") {
      const needle = args.join(" ").toLowerCase();
      const found = readChatHistory(historyFile).filter((entry) => entry.toLowerCase().includes(needle) && !entry.startsWith("/history"));
      for (const entry of found.slice(-20)) err(`  ${entry}\n`);
      if (found.length === 0) err("Nothing matches.\n");
      continue;
    }
    if (command === "/help") err(replHelp(paletteFor(process.stderr)));
    await turn(agent, renderer, questions, sessionId, line, options.timeoutSeconds, options.promptMeta);
  }
}

/** One prompt: streamed, cancellable with Ctrl-C, its failure said once. */
export async function turn(
  agent: acp.ClientContext,
  renderer: ChatRenderer,
  questions: Questions | undefined,
  sessionId: string,
  text: string,
  timeoutSeconds: number,
  promptMeta?: Record<string, unknown>,
): Promise<acp.StopReason | "failed"> {
  // No status line while a question (an approval) waits for the user's key.
  const stopWaiting = renderer.waiting(timeoutSeconds, () => questions?.isAsking() ?? false);
  questions?.setBusy(true, (line) => renderer.note?.(`  ⧗ queued: ${line}\n`));
  const started = performance.now();
  const costBefore = renderer.sessionCostUsd?.() ?? 0;
  let cancelled = false;
  questions?.setInterruptHandler(() => {
    if (cancelled) return;
    cancelled = true;
    if (renderer.note) renderer.note("(cancelling)\n");
    else process.stderr.write("\n(cancelling)\n");
    void agent.notify(acp.methods.agent.session.cancel, { sessionId });
  });
  if (questions) questions.setKeyHandler("steer", () => steerNow(agent, renderer, questions, sessionId));
  try {
    const response = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }], ...(promptMeta ? { _meta: promptMeta } : {}) });
    renderer.finishLine();
    if (response.stopReason !== "end_turn") process.stderr.write(`(stopped: ${response.stopReason})\n`);
    const costAfter = renderer.sessionCostUsd?.();
    renderer.summary?.(turnSummary({ usage: response.usage, seconds: (performance.now() - started) / 1000, ...(costAfter !== undefined ? { costUsd: costAfter - costBefore } : {}) }));
    return response.stopReason;
  } catch (error) {
    renderer.finishLine();
    const owner = ownerPid(error);
    // The edge's hint names the ACP _meta flag; at a terminal the way is /takeover.
    if (owner !== undefined) process.stderr.write(`hermes: another Hermes process (pid ${owner}) has this session open, so this chat only follows it. Close it there, or type /takeover to make this chat its owner.\n`);
    else process.stderr.write(`hermes: ${terminalSafe(requestErrorText(error))}\n`);
    return "failed";
  } finally {
    stopWaiting();
    questions?.setBusy(false);
    questions?.setInterruptHandler(undefined);
    questions?.setKeyHandler("steer", undefined);
  }
}

/** Ctrl-S during a turn: what is queued goes to the running turn as /steer (answered at once, mid-turn). */
function steerNow(agent: acp.ClientContext, renderer: ChatRenderer, questions: Questions, sessionId: string): void {
  const say = (text: string) => (renderer.note ? renderer.note(text) : process.stderr.write(text));
  const guidance = questions.takeQueued().join("\n");
  if (!guidance) {
    say("  (nothing to steer with: type the guidance, then Ctrl-S)\n");
    return;
  }
  say(`  ↪ steer: ${guidance.replace(/\n/g, " · ")}\n`);
  agent
    .request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: `/steer ${guidance}` }] })
    .catch((error: unknown) => say(`hermes: the guidance was not sent: ${terminalSafe(requestErrorText(error))}\n`));
}

/** The pid of the process that owns the session, when the error is "owned elsewhere". */
function ownerPid(error: unknown): number | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  if (typeof data !== "object" || data === null) return undefined;
  const pid = (data as { ownerPid?: unknown }).ownerPid;
  return typeof pid === "number" ? pid : undefined;
}
