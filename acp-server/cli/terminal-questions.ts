// Questions in a terminal for `hermes setup` (and the chat REPL's approvals): one readline over
// stdin, a hidden answer for keys, and a numbered choice. Ctrl-C or end of input rejects with
// Interrupted, so the caller can stop without writing anything.
import { createInterface, type Interface } from "node:readline";
import { addChatKeys, type ChatKey } from "./chat-keys";
import { addReverseSearch } from "./reverse-search";
import { Writable } from "node:stream";
import { AgentError } from "../util/agent-error";
import { visibleControls } from "../../common/visible-controls";

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
  /**
   * A chat turn is running (on a terminal): what is typed is not echoed into the streaming reply;
   * a finished line is shown as queued and waits for the next chat prompt, never answering a
   * question (an approval) that opens later.
   */
  setBusy(busy: boolean, showQueued?: (line: string) => void): void;
  /**
   * What a chat key (chat-keys.ts) does; unset keys do nothing. Never called while a question waits
   * for its answer (the key would be about the chat, not the question).
   */
  setKeyHandler(key: ChatKey, handler: ((state: { busy: boolean }) => void) | undefined): void;
  /** During a turn: what was typed and queued, and what is typed but not yet entered, taken away. */
  takeQueued(): string[];
  /** At the chat prompt: `text` is printed above it and the prompt with what was typed is redrawn. */
  showAbovePrompt(text: string): void;
  /** A question (ask, askHidden, choose) is waiting for its answer: no status line may be drawn. */
  isAsking(): boolean;
  ask(question: string, fallback?: string): Promise<string>;
  /** Nothing typed is echoed (API keys). */
  askHidden(question: string): Promise<string>;
  /** A numbered list; the answer is a number or one of the names. Returns the index. */
  choose(title: string, options: string[], defaultIndex: number): Promise<number>;
  close(): void;
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
      if (!muted) output.write(chunk);
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
  const keyHandlers = new Map<ChatKey, (state: { busy: boolean }) => void>();
  // Before the reverse search, so that an open search sees every key first.
  if (terminal)
    addChatKeys(rl, (key) => {
      const handler = keyHandlers.get(key);
      if (!handler || asking > 0 || !(busy || atChatPrompt)) return false;
      handler({ busy });
      return true;
    });
  if (terminal) addReverseSearch(rl, output, () => atChatPrompt);
  /** Readline adds every line to its history: only the chat prompt's stay there. */
  const forget = (line: string) => {
    const history = (rl as unknown as { history?: string[] }).history;
    if (history?.[0] === line) history.shift();
  };
  const lines: string[] = [];
  /** Lines typed during a turn, for the chat prompt only (see setBusy). */
  const queued: string[] = [];
  let busy = false;
  let showQueued: ((line: string) => void) | undefined;
  let asking = 0;
  let waiting: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  let closed = false;
  rl.on("line", (line) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w.resolve(line);
    } else if (busy && terminal) {
      queued.push(line);
      // Under the reply, on a line of its own (the renderer knows where its reply and status are).
      if (showQueued) showQueued(line);
      else output.write(`\n  ⧗ queued: ${line}\n`);
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

  /** A question's answer is typed in view, also in the middle of a turn (where echo is off). */
  const answering = async <T>(ask: () => Promise<T>): Promise<T> => {
    asking++;
    const wasMuted = muted;
    muted = false;
    try {
      return await ask();
    } finally {
      asking--;
      muted = wasMuted && busy && terminal;
    }
  };

  const questions: Questions = {
    async line(prompt) {
      // Readline draws the prompt itself, so that it can redraw it (Ctrl-R, history).
      const next = queued.shift();
      if (next !== undefined) {
        // Shown at the prompt as if typed there, so the answer below reads as its answer.
        output.write(`${prompt}${next}\n`);
        return next;
      }
      rl.setPrompt(prompt);
      rl.prompt();
      atChatPrompt = true;
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
    setBusy(value, show) {
      busy = value;
      showQueued = value ? show : undefined;
      if (terminal) muted = value;
    },
    isAsking: () => asking > 0,
    setKeyHandler(key, handler) {
      if (handler) keyHandlers.set(key, handler);
      else keyHandlers.delete(key);
    },
    takeQueued() {
      const taken = queued.splice(0);
      // The line being typed (not echoed during a turn) goes with them, and is cleared.
      if (rl.line.trim()) taken.push(rl.line.trim());
      (rl as unknown as { line: string; cursor: number }).line = "";
      (rl as unknown as { line: string; cursor: number }).cursor = 0;
      return taken;
    },
    showAbovePrompt(text) {
      // Readline's redraw first moves up to where the prompt's row was and clears down: the
      // extra newline is what it clears, so none of `text` is lost.
      output.write(`\r\x1b[2K${text}\n`);
      rl.prompt(true);
    },
    async ask(question, fallback) {
      return answering(async () => {
        output.write(`${question}${fallback ? ` [${fallback}]` : ""}: `);
        const raw = await nextLine();
        forget(raw);
        const answer = raw.trim();
        return answer || fallback || "";
      });
    },
    async askHidden(question) {
      return answering(async () => {
        output.write(`${question}: `);
        muted = true;
        try {
          const raw = await nextLine();
          forget(raw);
          return raw.trim();
        } finally {
          muted = false;
          output.write("\n");
        }
      });
    },
    async choose(title, options, defaultIndex) {
      // A choice can name what a server listed (an endpoint's models): shown with any control character visible.
      output.write(`${visibleControls(title)}\n`);
      options.forEach((option, index) => output.write(`  ${index + 1}) ${visibleControls(option)}\n`));
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
