// Chat states for the panel bench and screenshot, built with the panel's real reducer from
// the same actions the host would send: a long replayed session, a showcase transcript with
// every kind of card, and the chunks of one streamed reply.
import type { ChatAction } from "../common/panel-state/actions";
import { initialState, reduce } from "../common/panel-state/reducer";
import type { ChatState } from "../common/panel-state/types";

const update = (u: Record<string, unknown>): ChatAction => ({ type: "update", update: u as never });

function apply(state: ChatState, actions: ChatAction[]): ChatState {
  return actions.reduce(reduce, state);
}

const MODES = {
  currentModeId: "default",
  availableModes: [
    { id: "default", name: "Default", description: "Ask before edits" },
    { id: "accept_edits", name: "Accept edits" },
    { id: "plan", name: "Plan" },
    { id: "dont_ask", name: "Don't ask" },
  ],
};
const CONFIG = [
  {
    id: "model",
    name: "Model",
    category: "model",
    type: "select",
    currentValue: "claude-sonnet-4-5",
    options: [
      { value: "claude-sonnet-4-5", name: "Claude Sonnet 4.5" },
      { value: "gpt-5", name: "GPT-5" },
      { value: "deepseek-chat", name: "DeepSeek V3" },
    ],
  },
];
const COMMANDS = [
  { name: "help", description: "List the commands" },
  { name: "context", description: "Show what fills the context window" },
  { name: "memory", description: "Show or edit memory" },
  { name: "reset", description: "Start over in this session" },
  { name: "model", description: "Switch the model", input: { hint: "model name" } },
  { name: "usage", description: "Token usage and cost" },
];

function opened(sessionId: string, title: string): ChatAction[] {
  return [
    { type: "connection", status: "ready", agent: { name: "hermes", version: "0.1.0" } },
    { type: "sessionOpened", sessionId, title, loading: false, modes: MODES, configOptions: CONFIG as never },
    update({ sessionUpdate: "available_commands_update", availableCommands: COMMANDS }),
  ];
}

/** A multi-paragraph markdown answer with a list and a code block, varied by `i`. */
export function markdownReply(i: number): string {
  return [
    `The \`Store${i}\` module keeps the **session index** in memory and writes it back atomically. Here is what matters for turn ${i}:`,
    "",
    `1. \`load()\` reads the journal and repairs a tool call that never finished.`,
    `2. \`append()\` writes one line per step, so a crash loses nothing that completed.`,
    `3. Searches go through the FTS index; see [the docs](https://example.com/docs/${i}).`,
    "",
    "```ts",
    `export function summarise${i}(entries: Entry[]): Summary {`,
    `  const total = entries.reduce((n, e) => n + e.tokens, 0);`,
    `  // Newest first, capped at ${i % 50} items`,
    `  return { total, recent: entries.slice(-${(i % 50) + 1}).reverse() };`,
    "}",
    "```",
    "",
    `That keeps \`summarise${i}\` pure, so it is easy to test. Want me to add a test for the empty case?`,
  ].join("\n");
}

/** One realistic turn: prompt, thought, tool calls with updates, an edit, and the answer. */
function turnActions(i: number): ChatAction[] {
  const file = `src/module${i % 40}.ts`;
  return [
    { type: "userPrompt", text: `Can you explain how module${i % 40} handles errors, and tidy the retry loop? (${i})`, attachments: i % 3 === 0 ? [{ kind: "file", name: `module${i % 40}.ts` }] : [], isCommand: false },
    { type: "turnStarted", at: 1_700_000_000_000 + i },
    update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `The user wants the error handling of module${i % 40}. I should read it first.` } }),
    update({ sessionUpdate: "tool_call", toolCallId: `read-${i}`, title: `Read ${file}`, kind: "read", status: "pending", locations: [{ path: `/work/project/${file}`, line: 1 }] }),
    update({ sessionUpdate: "tool_call_update", toolCallId: `read-${i}`, status: "in_progress" }),
    update({
      sessionUpdate: "tool_call_update",
      toolCallId: `read-${i}`,
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: Array.from({ length: 20 }, (_, l) => `${l + 1}| const line${l} = retry(${l});`).join("\n") } }],
    }),
    update({
      sessionUpdate: "tool_call",
      toolCallId: `edit-${i}`,
      title: `Edit ${file}`,
      kind: "edit",
      status: "completed",
      locations: [{ path: `/work/project/${file}`, line: 12 }],
      content: [{ type: "diff", path: `/work/project/${file}`, oldText: "const a = 1;\nfor (;;) {\n  retry();\n}\nexport {};\n", newText: "const a = 1;\nfor (let n = 0; n < 3; n++) {\n  await retry(n);\n}\nexport {};\n" }],
    }),
    update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: markdownReply(i) } }),
    { type: "turnEnded", stopReason: "end_turn" },
  ];
}

/** A replayed session of at least `items` transcript items (user, thought, tools, replies). */
export function longSession(items: number): ChatState {
  let state = apply(initialState(), opened("bench-long", "Refactor the session store"));
  for (let i = 0; state.items.length < items; i++) state = apply(state, turnActions(i));
  return apply(state, [update({ sessionUpdate: "usage_update", used: 123_456, size: 200_000, cost: { amount: 1.87, currency: "USD" } })]);
}

/** `count` chunks of one long markdown reply, as the agent streams them (a few words each). */
export function replyChunks(count: number): ChatAction[] {
  const words: string[] = [];
  for (let i = 0; words.length < count * 4; i++) words.push(...markdownReply(1000 + i).split(/(?<=\s)/), "\n\n");
  const chunks: ChatAction[] = [];
  for (let c = 0; c < count; c++) {
    const text = words.slice(c * 4, c * 4 + 4).join("");
    chunks.push(update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } }));
  }
  return chunks;
}

/** A state to stream into: a short session with a running turn. */
export function streamingStart(): ChatState {
  let state = apply(initialState(), opened("bench-stream", "Streaming"));
  for (let i = 0; i < 6; i++) state = apply(state, turnActions(i));
  return apply(state, [
    { type: "userPrompt", text: "Write the design notes for the new cache.", attachments: [], isCommand: false },
    { type: "turnStarted", at: Date.now() },
  ]);
}

/** Every kind of card, for the screenshot: tools, a permission, a review, plan, usage, a queue. */
export function showcase(): ChatState {
  const file = "/work/project/src/session-store.ts";
  const actions: ChatAction[] = [
    ...opened("showcase", "Make session loading resilient"),
    { type: "userPrompt", text: "Loading a session crashes when the journal ends in a half-written line. Can you fix it and add a test?", attachments: [{ kind: "file", name: "session-store.ts" }, { kind: "selection", name: "journal.ts" }], isCommand: false },
    { type: "turnStarted", at: Date.now() },
    update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "The journal reader splits on newlines and parses each line; a torn final line throws. I should look at the reader and its tests." } }),
    update({ sessionUpdate: "tool_call", toolCallId: "call-1", title: "Search “JSON.parse” in src/sessions", kind: "search", status: "completed", locations: [{ path: "/work/project/src/sessions/journal.ts", line: 88 }, { path: "/work/project/src/sessions/history.ts", line: 31 }], content: [{ type: "content", content: { type: "text", text: "src/sessions/journal.ts:88:    const record = JSON.parse(line);\nsrc/sessions/history.ts:31:  return JSON.parse(raw) as Record;" } }] }),
    update({ sessionUpdate: "tool_call", toolCallId: "call-2", title: "Read src/sessions/journal.ts", kind: "read", status: "completed", locations: [{ path: "/work/project/src/sessions/journal.ts", line: 80 }], content: [{ type: "content", content: { type: "text", text: "…" } }] }),
    update({
      sessionUpdate: "agent_message_chunk",
      content: {
        type: "text",
        text: "Found it: `readJournal` parses every line, so a **torn last line** (from a crash mid-write) throws and the whole load fails.\n\nThe fix is to tolerate exactly that case — a final line without its newline — and keep failing loudly on corruption anywhere else:\n\n```ts\nfor (const [i, line] of lines.entries()) {\n  try {\n    records.push(JSON.parse(line));\n  } catch (error) {\n    // Only the last line may be torn by a crash.\n    if (i === lines.length - 1 && !text.endsWith(\"\\n\")) break;\n    throw new JournalError(`line ${i + 1}: ${error}`);\n  }\n}\n```\n\nI'll apply it and run the tests.",
      },
    }),
    update({
      sessionUpdate: "tool_call",
      toolCallId: "call-3",
      title: "Run npm test -- journal",
      kind: "execute",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "> hermes@0.1.0 test\n> node --test test/unit/session-journal.test.ts\n\n✔ appends one line per step (3.1ms)\n✔ survives a torn last line (1.2ms)\n✔ rejects corruption in the middle (0.9ms)\nℹ tests 3\nℹ pass 3\nℹ fail 0" } }],
    }),
    { type: "reviewRequested", review: { id: "r1", path: file, displayPath: "src/sessions/journal.ts", isNewFile: false, hunks: [
      { oldStart: 86, oldLines: 4, newStart: 86, newLines: 9, decision: "accepted", lines: [
        { op: " ", text: "  const lines = text.split(\"\\n\").filter(Boolean);" },
        { op: "-", text: "  for (const line of lines) records.push(JSON.parse(line));" },
        { op: "+", text: "  for (const [i, line] of lines.entries()) {" },
        { op: "+", text: "    try {" },
        { op: "+", text: "      records.push(JSON.parse(line));" },
        { op: "+", text: "    } catch (error) {" },
        { op: "+", text: "      if (i === lines.length - 1 && !text.endsWith(\"\\n\")) break;" },
        { op: "+", text: "      throw new JournalError(`line ${i + 1}: ${error}`);" },
        { op: "+", text: "    }" },
        { op: "+", text: "  }" },
        { op: " ", text: "  return records;" },
      ] },
      { oldStart: 120, oldLines: 3, newStart: 125, newLines: 3, decision: "pending", lines: [
        { op: " ", text: "export class JournalError extends Error {" },
        { op: "-", text: "  name = \"Error\";" },
        { op: "+", text: "  override name = \"JournalError\";" },
        { op: " ", text: "}" },
      ] },
    ] } },
    update({ sessionUpdate: "tool_call", toolCallId: "call-4", title: "Run git commit -am \"journal: tolerate a torn last line\"", kind: "execute", status: "pending" }),
    { type: "permissionRequested", id: "p1", toolCall: { toolCallId: "call-4", title: "Run git commit -am \"journal: tolerate a torn last line\"" }, options: [
      { optionId: "once", name: "Allow once", kind: "allow_once" },
      { optionId: "always", name: "Always allow git commit", kind: "allow_always" },
      { optionId: "deny", name: "Deny", kind: "reject_once" },
    ] },
    update({ sessionUpdate: "plan", entries: [
      { content: "Find where the journal is parsed", priority: "high", status: "completed" },
      { content: "Tolerate a torn last line", priority: "high", status: "completed" },
      { content: "Add a regression test", priority: "medium", status: "in_progress" },
      { content: "Commit the fix", priority: "low", status: "pending" },
    ] }),
    update({ sessionUpdate: "usage_update", used: 48_300, size: 200_000, cost: { amount: 0.214, currency: "USD" } }),
    { type: "queueChanged", queue: [{ id: "q1", text: "Then update the changelog too", attachments: [] }] },
  ];
  return apply(initialState(), actions);
}

/** The history view open over a few past sessions. */
export function historyOpen(): ChatState {
  const day = 86_400_000;
  const at = (ago: number) => new Date(Date.now() - ago).toISOString();
  return apply(showcase(), [
    {
      type: "history",
      open: true,
      sessions: [
        { sessionId: "showcase", title: "Make session loading resilient", cwd: "/work/project", updatedAt: at(4 * 60_000) },
        { sessionId: "s2", title: "Explain the permission gate", cwd: "/work/project", updatedAt: at(3 * 3_600_000) },
        { sessionId: "s3", title: "Add an OpenRouter provider test", cwd: "/work/project", updatedAt: at(day + 3_600_000) },
        { sessionId: "s4", cwd: "/work/project", updatedAt: at(3 * day) },
        { sessionId: "s5", title: "Speed up cold start: lazy-load the SDK", cwd: "/work/project", updatedAt: at(12 * day) },
      ],
    },
  ]);
}
