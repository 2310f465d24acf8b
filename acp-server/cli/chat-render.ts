// How `hermes chat` shows a session's updates in a terminal: the reply on stdout; tool steps,
// their output when it matters (a failed tool, a command: last lines and the exit code), plans
// and thoughts on stderr. Replies of separate model turns are kept apart by a blank line, a
// refused tool reads as refused, and a model that has not answered for a while gets a waiting
// line with the setting that bounds the wait.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { diffHunks } from "../../common/line-diff";
import type { MarkdownStream } from "./markdown-stream";
import { colourWanted, palette, type Palette } from "./terminal-colour";
import { toolStepSummary } from "./tool-step-summary";
import { stripAnsi } from "../util/redact-views";
import { visibleControls } from "../../common/visible-controls";
import { terminalSafe } from "./terminal-safe";

const OUTPUT_LINES = 12;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface ChatRenderer {
  update(update: acp.SessionUpdate): void;
  /** A permission answer that refused this tool call (its failure is then shown as refused). */
  refused(toolCallId: string): void;
  /** Everything the agent said this turn (to avoid repeating an error it already showed). */
  replyText(): string;
  /**
   * Starts the waiting indicator for a turn; returns its stop function. While `paused` says so
   * (a question is open), no status line is drawn and the user's time does not count as the model's.
   */
  waiting(timeoutSeconds: number, paused?: () => boolean): () => void;
  /** Ends the reply line if it is open. */
  finishLine(): void;
  /** The session's cost so far in USD, when the agent knows the model's price (usage_update). */
  sessionCostUsd?(): number | undefined;
  /** Every tool step of the last turn with its whole output (/expand). */
  expanded?(options?: { lastStepOnly?: boolean }): string;
  /**
   * A permission question about tool call `id` is headed by `line`: on a terminal it takes the place
   * of the step's `▸` line when that is the last line written (the command is said once, not twice).
   * Returns false when it could not (then the caller writes `line` itself).
   */
  question?(id: string, line: string): boolean;
  /** A line of the client's own (a queued prompt) between what the agent says. */
  note?(text: string): void;
  /** A dim line after the turn (its usage); only a terminal reader gets it. */
  summary?(line: string): void;
}

export function chatRenderer(
  options: {
    stdout?: NodeJS.WritableStream;
    stderr?: NodeJS.WritableStream & { isTTY?: boolean };
    /** Render the reply as markdown (a terminal reading it); absent: plain text, as scripts want it. */
    markdown?: MarkdownStream;
  } = {},
): ChatRenderer {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const markdown = options.markdown;
  const tty = stderr.isTTY === true;
  const dim = (text: string) => (tty ? `\x1b[2m${text}\x1b[0m` : text);
  const titles = new Map<string, { title: string; kind?: string }>();
  const refusedIds = new Set<string>();
  let reply = "";
  let atLineStart = true;
  /** Text of this model turn was shown; a tool call since means the next text is a new turn. */
  let textSinceTool = false;
  let toolSinceText = false;
  let lastActivity = Date.now();
  let costUsd: number | undefined;
  /** A status line is drawn in place (a terminal) and must be wiped before anything else is written. */
  let statusDrawn = false;
  const clearStatus = () => {
    if (!statusDrawn) return;
    stderr.write("\r\x1b[2K");
    statusDrawn = false;
  };

  /** The last turn's steps, output whole, for /expand (the screen shows the last lines only). */
  let steps = new Map<string, { title: string; status: string; output: string }>();
  /** The tool whose `▸` line is the last line written: its end can mark that line in place. */
  let lastToolLine: string | undefined;
  const colours = palette(tty && colourWanted(stderr));
  /** ✓ or ✗ in place of the step's ▸ (a terminal, nothing written since); false: not possible. */
  const markStep = (id: string, title: string, ok: boolean): boolean => {
    if (!tty || lastToolLine !== id) return false;
    clearStatus();
    stderr.write(`\x1b[1A\r\x1b[2K${ok ? colours.green("✓") : colours.red("✗")} ${title}\n`);
    return true;
  };

  /**
   * On a terminal, each output line shown under a step fits one row (after its indent): a long
   * line (minified code, a log with a stack) would wrap over the screen, when the step shows a
   * few last lines on purpose. /expand (Ctrl-O) shows them whole. Off a terminal, lines stay whole.
   */
  const onScreen = (text: string): string => (tty ? clipLines(text, screenColumns(stderr) - 4) : text);

  const newline = () => {
    lastToolLine = undefined;
    clearStatus();
    // Markdown held for its block to complete goes out before anything else is shown.
    const held = markdown?.end();
    if (held) {
      stdout.write(atLineStart ? held : `\n${held}`);
      atLineStart = held.endsWith("\n");
    }
    if (!atLineStart) stdout.write("\n");
    atLineStart = true;
  };
  const err = (text: string) => {
    newline();
    stderr.write(text);
  };

  return {
    update(update) {
      lastActivity = Date.now();
      clearStatus();
      switch (update.sessionUpdate) {
        case "agent_message_chunk":
          if (update.content.type !== "text") return;
          // The agent also says a failed model request in the reply (for editors); the chat says it
          // once, on stderr, when the turn's error arrives.
          if (/^\s*\*\*The model request failed\.\*\*/.test(update.content.text)) return;
          if (toolSinceText && textSinceTool) stdout.write(atLineStart ? "\n" : "\n\n");
          else if (toolSinceText && !atLineStart) stdout.write("\n");
          toolSinceText = false;
          textSinceTool = true;
          lastToolLine = undefined;
          reply += update.content.text;
          if (markdown) {
            const rendered = markdown.push(update.content.text);
            if (rendered) {
              stdout.write(rendered);
              atLineStart = rendered.endsWith("\n");
            }
            return;
          }
          stdout.write(update.content.text);
          atLineStart = update.content.text.endsWith("\n");
          return;
        case "agent_thought_chunk":
          lastToolLine = undefined;
          if (update.content.type === "text") stderr.write(dim(terminalSafe(update.content.text)));
          return;
        case "tool_call":
          // A title quotes a command or a path: a control character in it shows, never drives the terminal.
          titles.set(update.toolCallId, { title: visibleControls(update.title), kind: update.kind ?? undefined });
          toolSinceText = true;
          err(`▸ ${visibleControls(update.title)}\n`);
          lastToolLine = update.toolCallId;
          return;
        case "tool_call_update": {
          const known = titles.get(update.toolCallId);
          const title = update.title ? visibleControls(update.title) : (known?.title ?? update.toolCallId);
          if (update.status === "completed" || update.status === "failed") {
            steps.set(update.toolCallId, { title, status: refusedIds.has(update.toolCallId) ? "refused" : update.status, output: contentText(update.content) });
          }
          if (update.status === "failed") {
            // The permission answer already said "refused" (and why): once is enough.
            if (refusedIds.has(update.toolCallId)) return;
            const shown = onScreen(lastLines(contentText(update.content), OUTPUT_LINES));
            const summary = terminalSafe(toolStepSummary(update.rawOutput));
            const marked = markStep(update.toolCallId, `${title} failed${summary}`, false);
            // An exit code said on the step's line is not said again under it.
            const note = marked && summary.includes("exit") ? "" : exitCodeNote(update.rawOutput, shown);
            err(`${marked ? "" : `  ✗ ${title} failed${summary}\n`}${indent(shown)}${note}`);
          } else if (update.status === "completed") {
            const summary = terminalSafe(toolStepSummary(update.rawOutput));
            const marked = markStep(update.toolCallId, `${title}${summary}`, true);
            // Its ▸ line is no longer the last (an approval was asked under it, or another step
            // started): on a terminal the step still ends on a ✓ line of its own. Off a terminal the
            // transcript stays as it was (scripts read it).
            if (!marked && tty) err(`${colours.green("✓")} ${title}${summary}\n`);
            if (known?.kind !== "execute") return;
            const shown = onScreen(lastLines(contentText(update.content), OUTPUT_LINES));
            const note = marked && summary.includes("exit") ? "" : exitCodeNote(update.rawOutput, shown);
            if (shown || note) err(`${dim(indent(shown))}${note}`);
          }
          return;
        }
        case "usage_update":
          if (update.cost?.currency === "USD") costUsd = update.cost.amount;
          return;
        case "plan":
          err(update.entries.map((e) => `  ${e.status === "completed" ? "☑" : "☐"} ${terminalSafe(e.content)}`).join("\n") + "\n");
          return;
        default:
          return;
      }
    },
    refused: (id) => refusedIds.add(id),
    replyText: () => reply,
    waiting(timeoutSeconds, paused) {
      reply = "";
      steps = new Map();
      lastActivity = Date.now();
      const turnStarted = Date.now();
      let shown = false;
      let frame = 0;
      // A terminal gets a spinner redrawn in place; off a terminal nothing animates, and only a
      // long silence is said, once.
      const timer = setInterval(
        () => {
          if (paused?.()) {
            lastActivity = Date.now();
            shown = false;
            return;
          }
          const quietMs = Date.now() - lastActivity;
          const quiet = Math.round(quietMs / 1000);
          const long = `… waiting for the model (${quiet} s without an answer; model.timeout = ${timeoutSeconds} s in config.yaml ends the wait). Ctrl-C cancels.`;
          if (tty) {
            // Drawn only on an empty line: the \r that redraws it would otherwise wipe reply text.
            if (quietMs < 400 || !atLineStart) return;
            const elapsed = Math.floor((Date.now() - turnStarted) / 1000);
            const line = quiet < 5 ? `${SPINNER[frame++ % SPINNER.length]} working · ${elapsed} s · Ctrl-C cancels` : long;
            // One row only: a status line that wraps could not be wiped by one line clear.
            const width = screenColumns(stderr);
            stderr.write(`\r\x1b[2K${dim(line.length >= width ? `${line.slice(0, width - 2)}…` : line)}`);
            statusDrawn = true;
          } else if (quiet >= 5 && !shown) {
            err(`${long}\n`);
            shown = true;
          }
        },
        tty ? 120 : 1000,
      );
      timer.unref();
      return () => {
        clearInterval(timer);
        clearStatus();
      };
    },
    finishLine: newline,
    sessionCostUsd: () => costUsd,
    expanded({ lastStepOnly = false } = {}) {
      if (steps.size === 0) return "No tool steps in the last turn.\n";
      return [...steps.values()]
        .slice(lastStepOnly ? -1 : 0)
        .map((step) => `${step.status === "completed" ? colours.green("✓") : colours.red("✗")} ${step.title}${step.status === "refused" ? " (refused)" : ""}\n${indent(step.output.replace(/\s+$/, "") ? `${step.output.replace(/\s+$/, "")}\n` : "")}`)
        .join("");
    },
    question(id, line) {
      if (!tty || lastToolLine !== id) return false;
      clearStatus();
      stderr.write(`\x1b[1A\r\x1b[2K${line}\n`);
      lastToolLine = undefined;
      return true;
    },
    note(text) {
      // Not err(): markdown still held for its block stays held (a fence cut in two would break it).
      clearStatus();
      lastToolLine = undefined;
      if (!atLineStart) stdout.write("\n");
      atLineStart = true;
      stderr.write(text);
    },
    summary(line) {
      if (!tty) return;
      newline();
      stderr.write(`${dim(line)}\n`);
    },
  };
}

/** A tool's text output as a terminal may show it: escape sequences and control characters out (terminal-safe.ts). */
function contentText(content: acp.ToolCallContent[] | null | undefined): string {
  return terminalSafe(
    (content ?? [])
      .map((item) => (item.type === "content" && item.content.type === "text" ? item.content.text : ""))
      .filter(Boolean)
      .join("\n")
      // An editor renders the fences as a code block; a terminal would show them literally.
      .replace(/^```[\w-]*[ \t]*\n?/gm, "")
  );
}

function lastLines(text: string, count: number): string {
  const lines = text.replace(/\s+$/, "").split("\n").filter((line, index, all) => line !== "" || index < all.length - 1);
  if (lines.length === 0 || (lines.length === 1 && lines[0] === "")) return "";
  const shown = lines.slice(-count);
  return `${lines.length > count ? `… (${lines.length - count} earlier lines)\n` : ""}${shown.join("\n")}\n`;
}

/**
 * The terminal's width. A pty that does not say (0, as `script` without a window size) falls back
 * to $COLUMNS, as shells and curses do, then to 80.
 */
function screenColumns(stream: NodeJS.WritableStream): number {
  const columns = (stream as { columns?: number }).columns;
  if (columns && columns > 0) return columns;
  const fromEnv = Number(process.env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

/** Each line of `text` cut to `width` visible characters (its colours dropped when it is cut), marked with …. */
function clipLines(text: string, width: number): string {
  const room = Math.max(width, 10);
  return text.replace(/[^\n]+/g, (line) => {
    const plain = stripAnsi(line);
    return [...plain].length > room ? `${[...plain].slice(0, room - 1).join("")}…` : line;
  });
}

function indent(text: string): string {
  // Not after the final newline: that would indent whatever is written next.
  return text ? text.replace(/^(?=.)/gm, "    ") : "";
}

/** The exit code, unless the output shown already ends saying it. */
function exitCodeNote(raw: unknown, shown = ""): string {
  const code = raw && typeof raw === "object" ? ((raw as Record<string, unknown>).exit_code ?? (raw as Record<string, unknown>).exitCode) : undefined;
  if (typeof code !== "number" || new RegExp(`exit code ${code}\\s*$`).test(shown)) return "";
  return `    (exit code ${code})\n`;
}

/**
 * A compact line diff for an approval: each changed region with up to 3 lines of context, headed
 * by the line (in the new text) where its change starts. The diff is the shared one
 * (common/line-diff.ts), so a few edits far apart in a large file stay a few short hunks.
 */
export function renderDiff(path: string, oldText: string | null | undefined, newText: string, colours: Palette = palette(false)): string {
  // An approval's diff: the file's lines as they are, a control character in them shown (terminal-safe.ts).
  const name = visibleControls(path);
  const lines = [colours.bold(`--- ${oldText == null ? "(new file)" : name}`), colours.bold(`+++ ${name}`)];
  for (const hunk of diffHunks(oldText ?? "", newText, { context: 3 })) {
    const firstChange = hunk.lines.findIndex((line) => line.op !== " ");
    const newBefore = hunk.lines.slice(0, firstChange).filter((line) => line.op !== "-").length;
    lines.push(colours.cyan(`@@ line ${hunk.newStart + newBefore + (hunk.newLines === 0 ? 1 : 0)} @@`));
    for (const line of hunk.lines) {
      const shown = `${line.op === " " ? " " : line.op} ${visibleControls(line.text)}`;
      lines.push(line.op === "+" ? colours.green(shown) : line.op === "-" ? colours.red(shown) : shown);
    }
  }
  const MAX = 80;
  return (lines.length > MAX ? [...lines.slice(0, MAX), `… (${lines.length - MAX} more lines)`] : lines).join("\n") + "\n";
}
