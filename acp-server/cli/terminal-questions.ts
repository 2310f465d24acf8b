// Questions in a terminal for `hermes setup` (and the chat REPL's approvals): one readline over
// stdin, a hidden answer for keys, and a numbered choice. Ctrl-C or end of input rejects with
// Interrupted, so the caller can stop without writing anything.
import { createInterface, type Interface } from "node:readline";
import { addReverseSearch } from "./reverse-search";
import { Writable } from "node:stream";
import { AgentError } from "../util/agent-error";

export class Interrupted extends AgentError<"cancelled"> {
  constructor() {
    super("cancelled", "interrupted", {});
    this.name = "Interrupted";
  }
}

export interface Questions {
  /** One line after `prompt` as is (the chat prompt). */
  line(prompt: string): Promise<string>;
  /** While set, Ctrl-C calls this instead of ending the questions (a running chat turn). */
  setInterruptHandler(handler: (() => void) | undefined): void;
  ask(question: string, fallback?: string): Promise<string>;
  /** Nothing typed is echoed (API keys). */
  askHidden(question: string): Promise<string>;
  /** A numbered list; the answer is a number or one of the names. Returns the index. */
  choose(title: string, options: string[], defaultIndex: number): Promise<number>;
  close(): void;
  /**
   * The chat's turns (on a terminal): a line typed while neither the chat prompt nor a question
   * waits is a prompt for later. It is not echoed where the reply streams, `queued` is told of it
   * (the chat shows it under the reply), the next `line()` returns it (shown after the prompt),
   * and a question never takes it as its answer: it waits for what is typed after it is asked.
   */
  queueBetweenPrompts(queued: (line: string) => void): void;
}

export interface QuestionsOptions {
  /**
   * Earlier chat lines, oldest first: on a terminal, up/down and Ctrl-R (reverse search) walk them
   * at the chat prompt. Answers to questions (approvals, a hidden key) never join them.
   */
  history?: readonly string[];
  historySize?: number;
}

export function terminalQuestions(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stderr, options: QuestionsOptions = {}): Questions {
  let muted = false;
  // Readline echoes what is typed through its output: the hidden question mutes that echo.
  const echo = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted && !betweenPrompts()) output.write(chunk);
      done();
    },
  });
  const terminal = (input as { isTTY?: boolean }).isTTY === true;
  const historySize = options.historySize ?? 1000;
  const rl: Interface = createInterface({
    input,
    output: echo,
    terminal,
    history: [...(options.history ?? [])].reverse().slice(0, historySize),
    historySize,
    removeHistoryDuplicates: true,
  });
  let atChatPrompt = false;
  if (terminal) addReverseSearch(rl, output, () => atChatPrompt);
  /** Readline adds every line to its history: only the chat prompt's stay there. */
  const forget = (line: string) => {
    const history = (rl as unknown as { history?: string[] }).history;
    if (history?.[0] === line) history.shift();
  };
  const lines: string[] = [];
  /** Prompts typed during a turn (queueBetweenPrompts), for the next chat prompt. */
  const queuedPrompts: string[] = [];
  let onQueued: ((line: string) => void) | undefined;
  let asking = false;
  let waiting: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  let closed = false;
  /** Between prompts, with queueing on: what is typed is a later prompt, not echoed into the reply. */
  const betweenPrompts = () => onQueued !== undefined && !atChatPrompt && !asking;
  rl.on("line", (line) => {
    if (betweenPrompts() && !waiting) {
      queuedPrompts.push(line);
      onQueued?.(line);
      return;
    }
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w.resolve(line);
    } else lines.push(line);
  });
  const stop = () => {
    closed = true;
    waiting?.reject(new Interrupted());
    waiting = undefined;
  };
  rl.on("close", stop);
  let interruptHandler: (() => void) | undefined;
  rl.on("SIGINT", () => {
    if (interruptHandler) return interruptHandler();
    output.write("\n");
    rl.close();
  });
  const nextLine = (): Promise<string> => {
    if (lines.length > 0) return Promise.resolve(lines.shift()!);
    if (closed) return Promise.reject(new Interrupted());
    return new Promise((resolve, reject) => (waiting = { resolve, reject }));
  };

  const questions: Questions = {
    async line(prompt) {
      const queued = queuedPrompts.shift();
      if (queued !== undefined) {
        // Typed during the last turn: shown after the prompt as if typed now, then run.
        output.write(`${prompt}${queued}\n`);
        return queued;
      }
      // Readline draws the prompt itself, so that it can redraw it (Ctrl-R, history).
      atChatPrompt = true;
      rl.setPrompt(prompt);
      rl.prompt();
      try {
        return await nextLine();
      } finally {
        atChatPrompt = false;
        rl.setPrompt("");
      }
    },
    setInterruptHandler(handler) {
      interruptHandler = handler;
    },
    async ask(question, fallback) {
      output.write(`${question}${fallback ? ` [${fallback}]` : ""}: `);
      asking = true;
      try {
        const raw = await nextLine();
        forget(raw);
        const answer = raw.trim();
        return answer || fallback || "";
      } finally {
        asking = false;
      }
    },
    queueBetweenPrompts(queued) {
      if (terminal) onQueued = queued;
    },
    async askHidden(question) {
      output.write(`${question}: `);
      muted = true;
      asking = true;
      try {
        const raw = await nextLine();
        forget(raw);
        return raw.trim();
      } finally {
        muted = false;
        asking = false;
        output.write("\n");
      }
    },
    async choose(title, options, defaultIndex) {
      output.write(`${title}\n`);
      options.forEach((option, index) => output.write(`  ${index + 1}) ${option}\n`));
      for (;;) {
        const answer = await questions.ask("Choose a number", String(defaultIndex + 1));
        const number = Number(answer);
        if (Number.isInteger(number) && number >= 1 && number <= options.length) return number - 1;
        const byName = options.findIndex((option) => (option.split(" ")[0] ?? "").toLowerCase() === answer.toLowerCase());
        if (byName >= 0) return byName;
        output.write(`Type a number from 1 to ${options.length}.\n`);
      }
    },
    close: () => rl.close(),
  };
  return questions;
}
