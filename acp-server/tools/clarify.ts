// clarify: the model asks the user one question mid-task, with 2–6 choices or for free text,
// and waits for the answer. How it is asked is the host's business (an ACP elicitation, a
// permission-style prompt whose options are the choices, or the turn's reply); the tool only
// states the question and turns the outcome into something the model can act on. A user who
// does not answer (dismissed, declined, timed out) is a result too: the model decides alone.
import * as z from "zod";
import type { ClarifyAnswer } from "./context";
import { defineTool, ToolError, type ToolResult } from "./registry";

const schema = z.object({
  question: z.string().trim().min(1).max(2000).describe("One question, self-contained: the user may read it without the conversation around it."),
  choices: z
    .array(
      z.object({
        label: z.string().trim().min(1).max(100).describe("The answer as the user would pick it, short (a few words)."),
        description: z.string().trim().max(300).optional().describe("What picking it means, in one sentence."),
      }),
    )
    .min(2)
    .max(6)
    .optional()
    .describe("2 to 6 distinct answers to pick from. Leave out to ask for a free-text answer."),
});

type Args = z.infer<typeof schema>;

const NO_ANSWER_WHY: Record<Extract<ClarifyAnswer, { kind: "no_answer" }>["why"], string> = {
  declined: "declined to answer",
  dismissed: "dismissed the question without answering",
  timed_out: "did not answer in time",
  failed: "could not be asked (the editor failed to show the question)",
};

export const clarifyTool = defineTool({
  name: "clarify",
  toolset: "clarify",
  kind: "other",
  readOnly: false,
  maxResultChars: 8_000,
  description:
    "Ask the user one question and wait for the answer. Use it when a decision is theirs to make and guessing would waste work " +
    "(which of several approaches, an ambiguous requirement, a destructive step). Offer 2-6 short choices when the answers are " +
    "known, each with a one-line description; leave choices out for a free-text answer. Do not use it for things you can find out " +
    "yourself (read the code, run a command), and never to ask for passwords, keys or other secrets.",
  schema,
  title: (args) => `Ask: ${oneLine(args.question, 80)}`,
  handler: async (args, ctx): Promise<ToolResult> => {
    const labels = args.choices?.map((choice) => choice.label.toLowerCase()) ?? [];
    if (new Set(labels).size !== labels.length) throw new ToolError("Each choice needs a different label.");
    if (!ctx.clarify) throw new ToolError("clarify is not available here: decide yourself, or say in your reply what you need from the user.");
    const answer = await ctx.clarify({ question: args.question, ...(args.choices ? { choices: args.choices } : {}) });
    return resultFor(args, answer);
  },
});

function resultFor(args: Args, answer: ClarifyAnswer): ToolResult {
  switch (answer.kind) {
    case "answered":
      return {
        output: { answered: true, answer: answer.answer },
        content: [{ type: "text", text: `${args.question}\nAnswer: ${answer.answer}` }],
      };
    case "no_answer": {
      const why = NO_ANSWER_WHY[answer.why];
      return {
        output: { answered: false, note: `The user ${why}. Go on with your best judgement and say what you assumed, or stop and ask in your reply.` },
        content: [{ type: "text", text: `${args.question}\nNo answer: the user ${why}.` }],
      };
    }
    case "in_chat":
      return {
        output: { asked_in_chat: true, note: "The question was sent to the user as your reply and the turn ends here; their answer comes as the next message." },
        content: [{ type: "text", text: args.question }],
        endTurnWith: chatQuestion(args),
      };
  }
}

/** The question as the turn's reply: the choices (if any) as a list the user can answer from. */
function chatQuestion(args: Args): string {
  if (!args.choices) return args.question;
  const list = args.choices.map((choice, index) => `${index + 1}. **${choice.label}**${choice.description ? `: ${choice.description}` : ""}`);
  return `${args.question}\n\n${list.join("\n")}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
