// `hermes chat "prompt"`: one turn in the terminal. It is an ACP client connected
// in-process to the very same agent app `hermes acp` serves, so there is one loop.
// The reply streams to stdout; tool steps, thoughts and prompts go to stderr.
// Exit codes: 0 the turn ended, 1 it failed, 2 a usage or configuration error, 130 interrupted.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { createAgentApp } from "../acp/agent-app";
import { requestErrorText } from "../acp/error-map";
import { loadAgentRuntime } from "../runtime/runtime";
import { hermesHome } from "../config/paths";
import { killAllProcessGroups } from "../util/process-group";
import { configureLogging, createLogger, routeConsoleToLog } from "../util/log";
import { VERSION } from "../version";
import { askApproval } from "./chat-approval";
import { answerElicitation } from "./chat-elicitation";
import { chatHistoryFile, HISTORY_LIMIT, readChatHistory } from "./chat-history";
import { chatPreflight } from "./chat-preflight";
import { chatRenderer } from "./chat-render";
import { runRepl, turn } from "./chat-repl";
import { terminalQuestions } from "./terminal-questions";

export const EXIT = { ok: 0, turnFailed: 1, usage: 2, interrupted: 130 } as const;

export interface ChatOptions {
  /** One-shot mode when set; the interactive REPL when empty. */
  prompt: string;
  cwd: string;
  /** Approve every permission request without asking. */
  yes: boolean;
  /** REPL: resume the last session in this folder. */
  continueLast?: boolean;
  /** REPL: resume this session. */
  resume?: string;
  /** REPL: resume as the owner even if another Hermes process has the session open. */
  takeOver?: boolean;
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
  const renderer = chatRenderer();
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
      askApproval(params, { yes: options.yes, questions: process.stdin.isTTY ? questions : undefined, renderer }),
    )
    // The agent's questions (clarify) are asked at the prompt; without a terminal they go unanswered.
    .onRequest(acp.methods.client.elicitation.create, async ({ params }) => answerElicitation(params, { questions: process.stdin.isTTY ? questions : undefined, renderer }))
    // A link the user was sent to (an MCP server's sign-in, say) has done its job.
    .onNotification(acp.methods.client.elicitation.complete, () => void process.stderr.write("  (done in the browser)\n"));

  try {
    return await clientApp.connectWith(agentApp, async (agent) => {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { elicitation: { form: {}, url: {} } } });
      if (interactive) {
        return runRepl(agent, renderer, questions!, { cwd: options.cwd, continueLast: !!options.continueLast, resume: options.resume, takeOver: !!options.takeOver, home: hermesHome(), timeoutSeconds: await timeoutSeconds() });
      }
      let sessionId: string;
      try {
        ({ sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: options.cwd, mcpServers: [] }));
      } catch (error) {
        process.stderr.write(`hermes: cannot start a session: ${requestErrorText(error)}\n`);
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
        const outcome = await turn(agent, renderer, undefined, sessionId, options.prompt, await timeoutSeconds());
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
