// `hermes worktrees [list] | prune [--force]`: the sessions' git worktrees on this machine, each
// with its session (or "session deleted"), branch, repository and whether it holds work that was
// never applied; prune removes those whose session is gone, keeping any with unapplied work
// unless --force (their branch is named, so nothing is lost unseen).
import { describeConfigError } from "../config/config-error";
import { loadConfig } from "../config/load";
import { SessionStore } from "../sessions/session-store";
import { configureLogging, createLogger } from "../util/log";
import { worktreeInventory, pruneWorktrees, type WorktreeEntry } from "../worktrees/worktree-inventory";
import { worktreesRoot } from "../worktrees/worktree-location";
import { checkFlags, parseArgs, printJson, runCommand, UsageError } from "./cli-output";

export async function runWorktrees(args: string[]): Promise<number> {
  return runCommand("worktrees", async () => {
    const parsed = parseArgs(args);
    checkFlags(parsed, ["json", "force"]);
    const [verb = "list", ...rest] = parsed.words;
    if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(" ")}`);
    if (verb !== "list" && verb !== "prune") throw new UsageError(`unknown worktrees command "${verb}" (list, prune)`);
    const loaded = loadConfig();
    if (loaded.error) {
      process.stderr.write(describeConfigError(loaded));
      return 2;
    }
    configureLogging({ home: loaded.home, stderrLevel: "error" });
    const store = new SessionStore({ home: loaded.home, log: createLogger("worktrees") });
    try {
      const entries = await worktreeInventory(worktreesRoot(loaded.home, loaded.config.worktrees.root), async (id) => (await store.read(id))?.meta);
      const json = parsed.flags.has("json");
      if (verb === "list") {
        if (json) printJson(entries.map(row));
        else if (entries.length === 0) process.stderr.write("No session worktrees.\n");
        else for (const entry of entries) process.stdout.write(`${line(entry)}\n`);
        return 0;
      }
      const { removed, kept } = await pruneWorktrees(entries, parsed.flags.has("force"));
      if (json) printJson({ removed: removed.map(row), kept: kept.map(row) });
      else {
        for (const entry of removed) process.stdout.write(`removed ${entry.folder} (branch ${entry.worktree?.branch})\n`);
        for (const entry of kept) process.stdout.write(`kept    ${entry.folder}: ${entry.problem ?? `its branch ${entry.worktree?.branch} has work that was never applied (--force removes it)`}\n`);
        if (removed.length === 0 && kept.length === 0) process.stdout.write("Nothing to prune: every worktree belongs to a session.\n");
      }
      return 0;
    } finally {
      await store.close();
    }
  });
}

function row(entry: WorktreeEntry) {
  return { folder: entry.folder, sessionId: entry.sessionId, session: entry.sessionExists, branch: entry.worktree?.branch ?? null, repository: entry.worktree?.repo ?? null, unapplied: entry.unapplied, ...(entry.problem ? { problem: entry.problem } : {}) };
}

function line(entry: WorktreeEntry): string {
  const state = entry.problem ? `broken: ${entry.problem}` : `${entry.unapplied ? "unapplied changes" : "no unapplied changes"}${entry.sessionExists ? "" : ", session deleted"}`;
  return `${entry.sessionId.slice(0, 8)}  ${(entry.worktree?.branch ?? "?").padEnd(32)} ${entry.worktree?.repo ?? "?"}  (${state})`;
}
