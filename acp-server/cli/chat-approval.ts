// A permission request in the terminal: what the tool would do (the diff of an edit, the command
// and why it was flagged), then the question. "always" is the agent's own allow_always option, so
// it is saved exactly as an editor's "Always allow" is (approvals.rules in config.yaml).
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { renderDiff, type ChatRenderer } from "./chat-render";
import { paletteFor } from "./terminal-colour";
import type { Questions } from "./terminal-questions";
import { visibleControls } from "../../common/visible-controls";

/** The option ids of a tool call's permission request (acp/permission-request.ts). */
const TOOL_OPTION_IDS = new Set(["allow_once", "allow_session", "allow_always", "reject_once", "reject_always"]);

export async function askApproval(
  params: acp.RequestPermissionRequest,
  options: {
    yes: boolean;
    /** Hermes tool names answered "yes once" without asking (--allowed-tools). */
    allowedTools?: ReadonlySet<string>;
    questions?: Questions;
    renderer: ChatRenderer;
    stderr?: NodeJS.WritableStream;
    /** Told every decision (stream-json prints it). */
    decided?: (event: { tool_call_id: string; tool?: string; title: string; decision: "allowed" | "rejected"; by: "yes_flag" | "allowed_tools" | "terminal" | "no_terminal" }) => void;
  },
): Promise<acp.RequestPermissionResponse> {
  const stderr = options.stderr ?? process.stderr;
  const allowOnce = params.options.find((o) => o.kind === "allow_once");
  // Hermes offers two allow_always options: for this session, and saved to config.yaml (id "allow_always").
  const allowAlways = params.options.find((o) => o.optionId === "allow_always") ?? params.options.filter((o) => o.kind === "allow_always").at(-1);
  const allowSession = params.options.find((o) => o.kind === "allow_always" && o !== allowAlways);
  const reject = params.options.find((o) => o.kind === "reject_once") ?? params.options.find((o) => o.kind === "reject_always");
  const pick = (option?: acp.PermissionOption): acp.RequestPermissionResponse =>
    option ? { outcome: { outcome: "selected", optionId: option.optionId } } : { outcome: { outcome: "cancelled" } };
  const refuse = () => {
    options.renderer.refused(params.toolCall.toolCallId);
    return pick(reject);
  };

  const rawTitle = params.toolCall.title ?? params.toolCall.toolCallId;
  // What is approved is shown as it is: a control character in it shows instead of driving the terminal.
  const title = visibleControls(rawTitle);
  const tool = typeof params.toolCall._meta?.["hermes/tool"] === "string" ? params.toolCall._meta["hermes/tool"] : undefined;
  // Scripts (stream-json) get the title as the agent sent it: JSON carries it safely.
  const tell = (decision: "allowed" | "rejected", by: "yes_flag" | "allowed_tools" | "terminal" | "no_terminal") =>
    options.decided?.({ tool_call_id: params.toolCall.toolCallId, ...(tool ? { tool } : {}), title: rawTitle, decision, by });
  if (options.yes) {
    tell("allowed", "yes_flag");
    return pick(allowOnce ?? allowAlways);
  }
  if (tool && options.allowedTools?.has(tool)) {
    tell("allowed", "allowed_tools");
    return pick(allowOnce ?? allowAlways);
  }
  // The question heads the step's own line when it can (a terminal, nothing written since).
  const headed = options.questions ? (options.renderer.question?.(params.toolCall.toolCallId, `? ${title}`) ?? false) : false;
  options.renderer.finishLine();
  if (!options.questions) {
    stderr.write(`  ✗ refused: ${title} (no terminal to ask in; pass --yes or --allowed-tools to allow)\n`);
    tell("rejected", "no_terminal");
    return refuse();
  }
  if (!headed) stderr.write(`\n? ${title}\n`);
  for (const item of params.toolCall.content ?? []) {
    if (item.type === "diff") stderr.write(renderDiff(item.path, item.oldText, item.newText, paletteFor(stderr as { isTTY?: boolean })));
    else if (item.type === "content" && item.content.type === "text") stderr.write(`${withoutRepeatedCommand(visibleControls(item.content.text), title)}\n`);
  }
  // Choices of their own (a restore's "keep the files changed since / overwrite them / cancel"): a numbered menu.
  if (params.options.some((option) => !TOOL_OPTION_IDS.has(option.optionId))) return choose(params, options.questions, stderr);
  // Only the first letter is lowered: the name quotes the approved command or file as written.
  const session = allowSession ? `, s = ${sessionChoice(visibleControls(allowSession.name), title)}` : "";
  const always = allowAlways ? `, a = always (saved in config.yaml approvals.rules, like an editor's "Always allow")` : "";
  for (;;) {
    const answer = (await options.questions.ask(`Allow? y = yes once${session}, n = no${always}`, "n")).trim().toLowerCase();
    if (answer === "s" && allowSession) return (tell("allowed", "terminal"), pick(allowSession));
    if ((answer === "a" || answer === "always") && allowAlways) return (tell("allowed", "terminal"), pick(allowAlways));
    if (answer === "y" || answer === "yes") return (tell("allowed", "terminal"), pick(allowOnce ?? allowAlways));
    if (answer === "n" || answer === "no") {
      stderr.write(`  ✗ refused: ${title}\n`);
      tell("rejected", "terminal");
      return refuse();
    }
    stderr.write(`Answer y${allowSession ? ", s" : ""}, n${allowAlways ? " or a" : ""}.\n`);
  }
}

/** One numbered line per option; an empty answer is the last option (cancel, in Hermes's requests). */
async function choose(params: acp.RequestPermissionRequest, questions: Questions, stderr: NodeJS.WritableStream): Promise<acp.RequestPermissionResponse> {
  const choices = params.options;
  choices.forEach((option, index) => stderr.write(`  ${index + 1}) ${visibleControls(option.name)}
`));
  for (;;) {
    const answer = (await questions.ask(`Choose 1-${choices.length}`, String(choices.length))).trim();
    const picked = choices[Number(answer) - 1];
    if (/^\d+$/.test(answer) && picked) return { outcome: { outcome: "selected", optionId: picked.optionId } };
    stderr.write(`Answer a number from 1 to ${choices.length}.\n`);
  }
}

/**
 * The question's text without the fences an editor renders, and without the command block when
 * the title above already quotes that command ("$ rm -rf build"): said once, not twice.
 */
export function withoutRepeatedCommand(text: string, title: string): string {
  const unfenced = text.replace(/```[\w-]*\n([\s\S]*?)\n?```\n?/g, (_block, command: string) => (title.includes(command.trim()) ? "" : `${command}\n`));
  return unfenced.replace(/\n+$/, "");
}

/**
 * The "for this session" choice as the prompt says it: lowered first letter (the rest quotes the
 * approved file or command as written), and a command the title above already shows is not quoted
 * again ("allow this command for this session").
 */
export function sessionChoice(name: string, title: string): string {
  const quoted = [...name.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
  const repeated = title.startsWith("$ ") && quoted.length > 0 && quoted.every((piece) => title.includes(piece));
  const said = repeated ? name.replace(/`[^`]+`(?:(?:,| and) `[^`]+`)*/, quoted.length === 1 ? "this command" : "these commands") : name;
  return `${said.charAt(0).toLowerCase()}${said.slice(1)}`;
}
