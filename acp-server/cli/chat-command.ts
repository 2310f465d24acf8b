// `hermes chat "prompt"`: one turn in the terminal. It is an ACP client connected
// in-process to the very same agent app `hermes acp` serves, so there is one loop.
// The reply streams to stdout; tool steps, thoughts and prompts go to stderr.
// Exit codes: 0 the turn ended, 1 it failed, 2 a usage or configuration error, 130 interrupted.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { createAgentApp } from "../acp/agent-app";
import { requestErrorText } from "../acp/error-map";
import { terminalSafe } from "./terminal-safe";
import { loadAgentRuntime } from "../runtime/runtime";
import { hermesHome } from "../config/paths";
import { killAllProcessGroups } from "../util/process-group";
import { configureLogging, createLogger, routeConsoleToLog } from "../util/log";
import { VERSION } from "../version";
import { askApproval } from "./chat-approval";
import { answerElicitation } from "./chat-elicitation";
import { chatHistoryFile, HISTORY_LIMIT, readChatHistory } from "./chat-history";
import { chatPreflight } from "./chat-preflight";
import { chatRenderer, type ChatRenderer } from "./chat-render";
import { jsonOutput, type JsonOutput, type OutputFormat } from "./json-output";
import type { MarkdownStream } from "./markdown-stream";
import { hermesToolNames } from "../tools/tool-aliases";
import { recentSessions } from "./chat-sessions";
import { runRepl, turn } from "./chat-repl";
import { terminalQuestions } from "./terminal-questions";
import { colourWanted } from "./terminal-colour";

export const EXIT = { ok: 0, turnFailed: 1, usage: 2, interrupted: 130 } as const;

export interface ChatOptions {
  /** One-shot mode when set; the interactive REPL when empty. */
  prompt: string;
  cwd: string;
  /** Approve every permission request without asking. */
  yes: boolean;
  /** Resume the last session in this folder (the REPL; with a prompt, one turn in it). */
  continueLast?: boolean;
  /** Resume this session (the REPL; with a prompt, one turn in it). */
  resume?: string;
  /** REPL: resume as the owner even if another Hermes process has the session open. */
  takeOver?: boolean;
  /** One-shot: how the turn is printed (text: the reply as it streams). */
  outputFormat?: OutputFormat;
  /** Tools whose permission questions are answered "yes once" (Hermes or Claude Code names). */
  allowedTools?: string[];
  /** Tools switched off for the session (Hermes or Claude Code names, or toolsets). */
  disallowedTools?: string[];
  /** At most this many model calls with tools in a turn. */
  maxTurns?: number;
  /** A new session in its own git worktree (`-w`), on this branch when given (`--branch`). */
  worktree?: { branch?: string };
}

export async function runChat(options: ChatOptions): Promise<number> {
  // The terminal is for the conversation: a failure is said once, by the chat itself, so the
  // log's warnings about it stay in $HERMES_HOME/logs; only errors go to stderr.
  configureLogging({ home: hermesHome(), stderrLevel: "error" });
  routeConsoleToLog(); // libraries' console lines are redacted and kept off the reply on stdout
  const problem = await chatPreflight();
  if (problem) {
    process.stderr.write(problem);
    return EXIT.usage;
  }
  const log = createLogger("chat");
  const runtime = loadAgentRuntime(log, { stderrLevel: "error" });
  const agentApp = createAgentApp({ version: VERSION, log, source: "chat", loadRuntime: async () => runtime });
  const interactive = !options.prompt;
  const format = options.outputFormat ?? "text";
  const json = format === "text" ? undefined : jsonOutput(format);
  const renderer: ChatRenderer = json ?? chatRenderer({ markdown: await terminalMarkdown() });
  const allowedTools = new Set((options.allowedTools ?? []).flatMap(hermesToolNames));
  // The chat prompt offers what was typed in earlier chats (up/down, Ctrl-R).
  const history = { history: readChatHistory(chatHistoryFile(hermesHome())).slice(-HISTORY_LIMIT) };
  const questions = (process.stdin.isTTY && process.stderr.isTTY) || interactive ? terminalQuestions(process.stdin, process.stderr, history) : undefined;
  const timeoutSeconds = async () => {
    const current = await runtime;
    return current.model.ok ? Math.round(current.model.model.timeoutMs / 1000) : current.loaded.config.model.timeout;
  };

  const clientApp = acp
    .client({ name: "hermes-chat" })
    .onNotification(acp.methods.client.session.update, ({ params }) => renderer.update(params.update))
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) =>
      askApproval(params, {
        yes: options.yes,
        allowedTools,
        // A JSON run never stops to ask: what --yes or --allowed-tools does not allow is refused.
        questions: process.stdin.isTTY && !json ? questions : undefined,
        renderer,
        ...(json ? { decided: (event: Parameters<JsonOutput["permission"]>[0]) => json.permission(event) } : {}),
      }),
    )
    // The agent's questions (clarify) are asked at the prompt; without a terminal they go unanswered.
    .onRequest(acp.methods.client.elicitation.create, async ({ params }) => answerElicitation(params, { questions: process.stdin.isTTY ? questions : undefined, renderer }))
    // A link the user was sent to (an MCP server's sign-in, say) has done its job.
    .onNotification(acp.methods.client.elicitation.complete, () => void process.stderr.write("  (done in the browser)\n"));

  try {
    return await clientApp.connectWith(agentApp, async (agent) => {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { elicitation: { form: {}, url: {} } } });
      if (interactive) {
        return runRepl(agent, renderer, questions!, {
          cwd: options.cwd,
          continueLast: !!options.continueLast,
          resume: options.resume,
          takeOver: !!options.takeOver,
          home: hermesHome(),
          timeoutSeconds: await timeoutSeconds(),
          ...scriptMeta(options),
        });
      }
      let sessionId: string;
      try {
        sessionId = await oneShotSession(agent, options);
      } catch (error) {
        process.stderr.write(`hermes: cannot start a session: ${terminalSafe(requestErrorText(error))}\n`);
        json?.result({ error: `cannot start a session: ${requestErrorText(error)}`, durationMs: 0 });
        return EXIT.turnFailed;
      }
      // Off a terminal, Ctrl-C arrives as a signal: the first cancels the turn, a second quits.
      let interrupts = 0;
      const onInterrupt = () => {
        interrupts++;
        if (interrupts > 1) {
          killAllProcessGroups();
          process.exit(EXIT.interrupted);
        }
        process.stderr.write("\n(cancelling; press Ctrl-C again to quit)\n");
        void agent.notify(acp.methods.agent.session.cancel, { sessionId });
      };
      process.on("SIGINT", onInterrupt);
      questions?.setInterruptHandler(onInterrupt);
      try {
        if (json) return await jsonTurn(agent, json, sessionId, options);
        const outcome = await turn(agent, renderer, undefined, sessionId, options.prompt, await timeoutSeconds(), scriptMeta(options).promptMeta);
        if (outcome === "failed") return interrupts > 0 ? EXIT.interrupted : EXIT.turnFailed;
        return outcome === "cancelled" ? EXIT.interrupted : EXIT.ok;
      } finally {
        process.off("SIGINT", onInterrupt);
      }
    });
  } finally {
    questions?.close();
    killAllProcessGroups();
  }
}

/** The session a one-shot prompt runs in: a new one, the last one of this folder (--continue), or a given one (--resume). */
async function oneShotSession(agent: acp.ClientContext, options: ChatOptions): Promise<string> {
  const takeOver = options.takeOver ? { _meta: { "hermes/takeOver": true } } : {};
  if (options.resume) {
    await agent.request(acp.methods.agent.session.resume, { sessionId: options.resume, cwd: options.cwd, mcpServers: [], ...takeOver });
    return options.resume;
  }
  if (options.continueLast) {
    const last = (await recentSessions(agent, options.cwd))[0];
    if (last) {
      await agent.request(acp.methods.agent.session.resume, { sessionId: last.sessionId, cwd: options.cwd, mcpServers: [], ...takeOver });
      return last.sessionId;
    }
    process.stderr.write("No earlier session in this folder: starting a new one.\n");
  }
  return (await agent.request(acp.methods.agent.session.new, { cwd: options.cwd, mcpServers: [], ...scriptMeta(options).sessionMeta })).sessionId;
}

/** The `_meta` of a script's options (acp/script-meta.ts reads them): on a new session, and on each prompt. */
function scriptMeta(options: ChatOptions): { sessionMeta?: { _meta: Record<string, unknown> }; promptMeta?: Record<string, unknown> } {
  const disabled = (options.disallowedTools ?? []).flatMap(hermesToolNames);
  const sessionMeta: Record<string, unknown> = {
    ...(disabled.length > 0 ? { "hermes/disabledTools": disabled } : {}),
    ...(options.worktree ? { "hermes/worktree": options.worktree.branch ? { branch: options.worktree.branch } : true } : {}),
  };
  return {
    ...(Object.keys(sessionMeta).length > 0 ? { sessionMeta: { _meta: sessionMeta } } : {}),
    ...(options.maxTurns !== undefined ? { promptMeta: { "hermes/maxTurns": options.maxTurns } } : {}),
  };
}

/** One turn printed as JSON: the events as they come (stream-json) and the result at the end. */
async function jsonTurn(agent: acp.ClientContext, json: JsonOutput, sessionId: string, options: ChatOptions): Promise<number> {
  json.start(sessionId, options.cwd);
  const started = performance.now();
  const promptMeta = scriptMeta(options).promptMeta;
  try {
    const response = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: options.prompt }], ...(promptMeta ? { _meta: promptMeta } : {}) });
    json.result({ stopReason: response.stopReason, usage: response.usage, durationMs: performance.now() - started });
    return response.stopReason === "cancelled" ? EXIT.interrupted : EXIT.ok;
  } catch (error) {
    const message = requestErrorText(error);
    process.stderr.write(`hermes: ${terminalSafe(message)}\n`);
    json.result({ error: message, durationMs: performance.now() - started });
    return EXIT.turnFailed;
  }
}

/**
 * Markdown rendering for a reply read in a terminal (stdout a TTY, or FORCE_COLOR set); a pipe or
 * a file gets the model's text as it is, for scripts. Loaded only then: it is a large module.
 */
async function terminalMarkdown(): Promise<MarkdownStream | undefined> {
  const forced = process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0";
  if (!process.stdout.isTTY && !forced) return undefined;
  const { markdownStream } = await import("./markdown-stream");
  // A pty whose size was never set reports 0 columns: COLUMNS, then 80, stand in.
  const width = process.stdout.columns || Number(process.env.COLUMNS) || 80;
  return markdownStream({ width, color: colourWanted(process.stdout) });
}
