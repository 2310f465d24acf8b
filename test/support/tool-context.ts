// A real ToolContext for unit-testing tools on the local disk: records what the tool
// reported (progress, plans, permission asks) so tests can assert on it.
import {
  createSessionToolState,
  type DisplayContent,
  type Location,
  type PermissionAsk,
  type ShellRunner,
  type TodoItem,
  type ToolContext,
} from "../../acp-server/tools/context";
import { LocalFileAccess } from "../../acp-server/tools/local-files";
import { makeTempDirSync } from "./temp-dirs";

export interface RecordingContext extends ToolContext {
  progressUpdates: { content?: DisplayContent[]; title?: string; locations?: Location[] }[];
  plans: TodoItem[][];
  asks: PermissionAsk[];
}

export async function tempDir(prefix = "hermes-test-"): Promise<string> {
  return makeTempDirSync(prefix);
}

export function recordingContext(options: {
  cwd: string;
  shell?: ShellRunner;
  allow?: boolean;
  signal?: AbortSignal;
}): RecordingContext {
  const context: RecordingContext = {
    sessionId: "test-session",
    toolCallId: "call-1",
    cwd: options.cwd,
    signal: options.signal ?? new AbortController().signal,
    files: new LocalFileAccess(),
    shell:
      options.shell ??
      ({
        start: () => Promise.reject(new Error("no shell in this test")),
      } satisfies ShellRunner),
    state: createSessionToolState(),
    progressUpdates: [],
    plans: [],
    asks: [],
    progress: (update) => context.progressUpdates.push(update),
    requestPermission: async (ask) => {
      context.asks.push(ask);
      return options.allow ?? true;
    },
    publishPlan: (todos) => context.plans.push(todos),
  };
  return context;
}
