// `hermes chat "prompt"`: one turn in the terminal. It is an ACP client connected
// in-process to the very same agent app `hermes acp` serves, so there is one loop.
// The reply streams to stdout; tool steps, thoughts and prompts go to stderr.
// Exit codes: 0 the turn ended, 1 it failed, 2 a usage or configuration error, 130 interrupted.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { createInterface } from "node:readline/promises";
import { createAgentApp } from "../acp/agent-app";
import { loadAgentRuntime } from "../acp/agent-runtime";
import { hermesHome } from "../config/paths";
import { killAllLocalProcesses } from "../tools/local-shell";
import { configureLogging, createLogger, routeConsoleToLog } from "../util/log";
import { VERSION } from "../version";
import { chatPreflight } from "./chat-preflight";

export const EXIT = { ok: 0, turnFailed: 1, usage: 2, interrupted: 130 } as const;

export interface ChatOptions {
  prompt: string;
  cwd: string;
  /** Approve every permission request without asking. */
  yes: boolean;
}

const dim = (text: string) => (process.stderr.isTTY ? `\x1b[2m${text}\x1b[0m` : text);

export async function runChat(options: ChatOptions): Promise<number> {
  // The terminal is for the conversation: only warnings and errors go to stderr.
  configureLogging({ home: hermesHome(), stderrLevel: "warn" });
  routeConsoleToLog(); // libraries' console lines are redacted and kept off the reply on stdout
  const problem = await chatPreflight();
  if (problem) {
    process.stderr.write(problem);
    return EXIT.usage;
  }
  const log = createLogger("chat");
  const runtime = loadAgentRuntime(log, { stderrLevel: "warn" });
  const agentApp = createAgentApp({ version: VERSION, log, source: "chat", loadRuntime: async () => runtime });

  let endedWithNewline = true;
  const titles = new Map<string, string>();
  const clientApp = acp
    .client({ name: "hermes-chat" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const update = params.update;
      switch (update.sessionUpdate) {
        case "agent_message_chunk":
          if (update.content.type === "text") {
            process.stdout.write(update.content.text);
            endedWithNewline = update.content.text.endsWith("\n");
          }
          break;
        case "agent_thought_chunk":
          if (update.content.type === "text") process.stderr.write(dim(update.content.text));
          break;
        case "tool_call":
          titles.set(update.toolCallId, update.title);
          process.stderr.write(`${endedWithNewline ? "" : "\n"}▸ ${update.title}\n`);
          endedWithNewline = true;
          break;
        case "tool_call_update":
          if (update.status === "failed") process.stderr.write(`  ✗ ${titles.get(update.toolCallId) ?? update.toolCallId} failed\n`);
          break;
        case "plan":
          process.stderr.write(update.entries.map((e) => `  ${e.status === "completed" ? "☑" : "☐"} ${e.content}`).join("\n") + "\n");
          break;
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => askPermission(params, options.yes));

  return clientApp.connectWith(agentApp, async (agent) => {
    await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    let sessionId: string;
    try {
      ({ sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: options.cwd, mcpServers: [] }));
    } catch (error) {
      process.stderr.write(`hermes: cannot start a session: ${(error as Error).message}\n`);
      return EXIT.turnFailed;
    }

    let interrupts = 0;
    const onInterrupt = () => {
      interrupts++;
      if (interrupts > 1) {
        killAllLocalProcesses();
        process.exit(EXIT.interrupted);
      }
      process.stderr.write("\n(cancelling; press Ctrl-C again to quit)\n");
      void agent.notify(acp.methods.agent.session.cancel, { sessionId });
    };
    process.on("SIGINT", onInterrupt);
    try {
      const response = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: options.prompt }] });
      if (!endedWithNewline) process.stdout.write("\n");
      if (response.stopReason !== "end_turn") process.stderr.write(dim(`(stopped: ${response.stopReason})\n`));
      return response.stopReason === "cancelled" ? EXIT.interrupted : EXIT.ok;
    } catch (error) {
      if (!endedWithNewline) process.stdout.write("\n");
      process.stderr.write(`hermes: ${(error as Error).message}\n`);
      if (interrupts > 0) return EXIT.interrupted;
      return EXIT.turnFailed;
    } finally {
      process.off("SIGINT", onInterrupt);
      killAllLocalProcesses();
    }
  });
}

async function askPermission(params: acp.RequestPermissionRequest, yes: boolean): Promise<acp.RequestPermissionResponse> {
  const allowOnce = params.options.find((o) => o.kind === "allow_once");
  const allowAlways = params.options.find((o) => o.kind === "allow_always");
  const reject = params.options.find((o) => o.kind === "reject_once" || o.kind === "reject_always");
  const pick = (option?: acp.PermissionOption): acp.RequestPermissionResponse =>
    option ? { outcome: { outcome: "selected", optionId: option.optionId } } : { outcome: { outcome: "cancelled" } };

  const title = params.toolCall.title ?? params.toolCall.toolCallId;
  if (yes) return pick(allowOnce ?? allowAlways);
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    process.stderr.write(`  ✗ not allowed: ${title} (no terminal to ask in; pass --yes to allow)\n`);
    return pick(reject);
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question(`Allow ${title}? [y/N/a=always] `)).trim().toLowerCase();
    if (answer === "a" || answer === "always") return pick(allowAlways ?? allowOnce);
    return answer === "y" || answer === "yes" ? pick(allowOnce) : pick(reject);
  } finally {
    rl.close();
  }
}
