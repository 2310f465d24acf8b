// What the user's editor (or terminal) offers one session, as the app layer sees it: a way to
// speak (SessionOutput), files, terminals, and questions. The front end implements it (the ACP
// edge over fs/*, terminal/*, session/request_permission and elicitation); the app, its steps
// and its commands use only this, so none of them knows the protocol.
import type { PermissionAnswer, ToolCallView } from "../agent/turn-io";
import type { CommandSandbox } from "../security/sandbox/command-sandbox";
import type { ElicitationAnswer, ElicitationAsk, ElicitationModes } from "../tools/elicitation";
import type { ClarifyAnswer, ClarifyQuestion, DisplayContent, FileAccess, Location, PermissionAsk, ShellRunner } from "../tools/context";
import type { SessionOutput } from "./session-output";

/** A question with choices of its own (a checkpoint restore's), shown as a card with its content. */
export interface ChoiceQuestion {
  /** What is asked, a word: the card's id starts with it (`restore-…`), so a client can recognise it. */
  purpose: string;
  title: string;
  content: DisplayContent[];
  locations: Location[];
  options: { id: string; name: string; kind: "allow_once" | "reject_once" }[];
  /** The answer when the user cannot be asked or does not answer in time. */
  fallback: string;
  timeoutMs: number;
}

export interface ClientChannel {
  readonly sessionId: string;
  /** A fresh output (one per turn or background pass): updates keep their order, flush() waits for them. */
  output(): SessionOutput;
  /** The session's files: the editor's (unsaved buffers count) when it serves them, else the disk. */
  files(): FileAccess;
  /** The editor's terminals, when it offers them; `sandboxes`: it applies Hermes's sandbox policy itself. */
  readonly terminals?: { sandboxes: boolean; runner(sandbox: CommandSandbox | undefined, envPassthrough: string[]): ShellRunner };
  /** A tool call's permission question; throws UserRejection with the user's words. */
  askUser(call: ToolCallView, ask: PermissionAsk, signal: AbortSignal, options: { timeoutMs: number; editorWrites?: boolean }): Promise<PermissionAnswer>;
  /** The clarify tool's question. */
  clarify(call: ToolCallView, question: ClarifyQuestion, signal: AbortSignal, options: { timeoutMs: number }): Promise<ClarifyAnswer>;
  /** Which elicitations the user's front end answers (none: `elicit` declines without asking). */
  readonly elicitation: ElicitationModes;
  /**
   * Asks the user an elicitation (ACP `elicitation/create`): a form, or a URL to open (a sign-in
   * link, say). Tied to `call` when a tool asks. Never throws for the user's answer or a client
   * that cannot ask (a decline with a reason); throws only when `signal` aborts, which also
   * withdraws the question. A URL-mode ask resolves once the user accepted to open the link;
   * call `completeElicitation` with its id when the flow behind the URL has ended.
   */
  elicit(call: ToolCallView | undefined, ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitationAnswer>;
  /** Tells the client a URL-mode elicitation's flow is done (ACP `elicitation/complete`). */
  completeElicitation(elicitationId: string): Promise<void>;
  /** Asks `question`; the chosen option's id (the fallback when it could not be asked). */
  choose(question: ChoiceQuestion, signal: AbortSignal): Promise<string>;
  /** The editor writes files itself (fs/write_text_file): an edit's diff is the very write that follows. */
  readonly editorWrites: boolean;
}
