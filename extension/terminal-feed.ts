// Editor terminal events → ChatState actions for the panel's tool cards. Output is coalesced:
// at most one `terminalOutput` per terminal per interval (a chatty command does not cost one
// action per chunk), and whatever is pending goes out before `terminalExited`. The whole output
// also goes to an OutputSpill file, for "Show all". No vscode import.
import type * as acp from "@agentclientprotocol/sdk";
import type { ChatAction } from "../common/panel-state/actions";
import { keepTail, TERMINAL_OUTPUT_LIMIT } from "../common/panel-state/terminals";
import type { OutputSpill } from "./output-spill";

/** What EditorTerminals reports about each command it runs. */
export interface TerminalEvents {
  started(terminalId: string): void;
  output(terminalId: string, text: string): void;
  exited(terminalId: string, status: acp.TerminalExitStatus): void;
}

const INTERVAL_MS = 50;

interface Pending {
  text: string;
  truncated: boolean;
  timer: NodeJS.Timeout | undefined;
}

export class TerminalFeed implements TerminalEvents {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly dispatch: (action: ChatAction) => void,
    private readonly intervalMs = INTERVAL_MS,
    /** Keeps the whole output (the state keeps only its tail) for "Show all". */
    private readonly spill?: OutputSpill,
  ) {}

  /** The card can show "running" before the first output arrives. */
  started(terminalId: string): void {
    this.spill?.open(terminalId);
    this.dispatch({ type: "terminalOutput", terminalId, text: "" });
  }

  output(terminalId: string, text: string): void {
    if (text === "") return;
    this.spill?.append(terminalId, text);
    let entry = this.pending.get(terminalId);
    if (!entry) {
      entry = { text: "", truncated: false, timer: undefined };
      this.pending.set(terminalId, entry);
    }
    // Only the newest output survives in state anyway; do not ship more than that.
    const kept = keepTail(entry.text + text, TERMINAL_OUTPUT_LIMIT);
    entry.text = kept.text;
    entry.truncated ||= kept.cut;
    entry.timer ??= setTimeout(() => this.flush(terminalId), this.intervalMs);
  }

  exited(terminalId: string, status: acp.TerminalExitStatus): void {
    this.flush(terminalId);
    this.spill?.close(terminalId);
    this.dispatch({ type: "terminalExited", terminalId, exitCode: status.exitCode ?? null, signal: status.signal ?? null });
  }

  dispose(): void {
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
    this.pending.clear();
  }

  private flush(terminalId: string): void {
    const entry = this.pending.get(terminalId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(terminalId);
    if (entry.text === "" && !entry.truncated) return;
    this.dispatch({ type: "terminalOutput", terminalId, text: entry.text, ...(entry.truncated ? { truncated: true } : {}) });
  }
}
