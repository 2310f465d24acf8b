// An elicitation/create (the clarify tool's question) at the chat's terminal: the message, then
// each form field in turn: a numbered menu for a choice (titles and descriptions), a line for
// text, y/n for a yes-or-no, a number for a number. An empty answer declines; with no terminal to
// ask in (piped input, --yes) the question is dismissed and the agent decides without it.
// A URL-mode question (an MCP server's sign-in page, say) shows the link and asks whether to go.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { ChatRenderer } from "./chat-render";
import { openInBrowser } from "./open-browser";
import type { Questions } from "./terminal-questions";
import { visibleControls as shown } from "../../common/visible-controls";

type Value = string | number | boolean;
type Field = { type?: string; title?: string | null; description?: string | null; enum?: string[] | null; oneOf?: { const: string; title: string; description?: string | null }[] | null };

export async function answerElicitation(
  params: acp.CreateElicitationRequest,
  options: { questions?: Questions; renderer: ChatRenderer; stderr?: NodeJS.WritableStream },
): Promise<acp.CreateElicitationResponse> {
  const stderr = options.stderr ?? process.stderr;
  const form = params as { mode: string; message: string; requestedSchema?: { properties?: Record<string, Field> } };
  options.renderer.finishLine();
  if (form.mode === "url" && options.questions) return answerUrl(params as { message: string; url: string }, options.questions, stderr);
  if (form.mode !== "form" || !options.questions) {
    stderr.write(`\n? ${shown(form.message)}\n  (no terminal to answer in: left unanswered)\n`);
    return { action: "cancel" };
  }
  stderr.write(`\n? ${shown(form.message)}\n`);
  const content: Record<string, Value> = {};
  for (const [name, field] of Object.entries(form.requestedSchema?.properties ?? {})) {
    const value = await askField(name, field, options.questions, stderr);
    if (value === undefined) {
      stderr.write("  (declined)\n");
      return { action: "decline" };
    }
    content[name] = value;
  }
  return { action: "accept", content };
}

async function askField(name: string, field: Field, questions: Questions, stderr: NodeJS.WritableStream): Promise<Value | undefined> {
  // The server's words, with any control character shown: they must not drive the terminal.
  const label = shown(field.title ?? name);
  const choices = field.oneOf?.map((o) => ({ value: o.const, title: o.title, description: o.description })) ?? field.enum?.map((value) => ({ value, title: value, description: undefined }));
  if (choices?.length) {
    choices.forEach((choice, index) => stderr.write(`  ${index + 1}) ${shown(choice.title)}${choice.description ? ` — ${shown(choice.description)}` : ""}\n`));
    for (;;) {
      const answer = (await questions.ask(`${label}: choose 1-${choices.length} (empty: skip)`, "")).trim();
      if (!answer) return undefined;
      const picked = choices[Number(answer) - 1] ?? choices.find((choice) => choice.title.toLowerCase() === answer.toLowerCase());
      if (picked) return picked.value;
      stderr.write(`Answer a number from 1 to ${choices.length}, or nothing to skip.\n`);
    }
  }
  for (;;) {
    const answer = (await questions.ask(`${label}${field.type === "boolean" ? " (y/n)" : ""} (empty: skip)`, "")).trim();
    if (!answer) return undefined;
    if (field.type === "boolean") {
      if (/^(y|yes)$/i.test(answer)) return true;
      if (/^(n|no)$/i.test(answer)) return false;
      stderr.write("Answer y or n.\n");
    } else if (field.type === "number" || field.type === "integer") {
      const number = Number(answer);
      if (Number.isFinite(number) && (field.type === "number" || Number.isInteger(number))) return number;
      stderr.write(`Answer ${field.type === "integer" ? "a whole number" : "a number"}.\n`);
    } else {
      return answer;
    }
  }
}

/** The link is printed (never opened behind the user's back); "y" accepts, anything else declines. */
async function answerUrl(params: { message: string; url: string }, questions: Questions, stderr: NodeJS.WritableStream): Promise<acp.CreateElicitationResponse> {
  stderr.write(`\n? ${shown(params.message)}\n  Open: ${shown(params.url)}\n`);
  const answer = (await questions.ask("Open this link in your browser and continue there? (y/n)", "")).trim();
  if (/^(y|yes)$/i.test(answer)) {
    if (openInBrowser(params.url)) stderr.write("  (opened in your browser)\n");
    return { action: "accept" };
  }
  stderr.write("  (declined)\n");
  return { action: "decline" };
}
