// A project's instructions for agents: AGENTS.md files from the repository root down to the
// cwd (the nearest last, so it has the last word), `.hermes.md`, and CLAUDE.md where a
// project has no AGENTS.md. Each is scanned for injected instructions before it reaches
// the prompt; a flagged file is shown as [BLOCKED: reason] instead of its text.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { scanForThreats } from "../security/threat-scan";
import { createLogger } from "../util/log";

const log = createLogger("context-files");

export interface ContextFile {
  path: string;
  text: string;
}

/** Longest context file kept in the prompt; the rest is cut with a note. */
const MAX_CHARS = 20_000;

export async function loadContextFiles(cwd: string): Promise<ContextFile[]> {
  const chain = await directoriesToRoot(cwd); // root first, cwd last
  const agents = await existing(chain.map((dir) => path.join(dir, "AGENTS.md")));
  const claude = agents.length === 0 ? await existing(chain.map((dir) => path.join(dir, "CLAUDE.md"))) : [];
  const hermes = (await existing(chain.map((dir) => path.join(dir, ".hermes.md")))).slice(-1);
  const files: ContextFile[] = [];
  for (const file of [...agents, ...claude, ...hermes]) {
    const raw = await readFile(file, "utf8").catch((error: unknown) => {
      // ENOENT: removed since it was found. Anything else leaves the project's instructions out: logged.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn("context file unreadable; left out of the prompt", { file, error });
      return undefined;
    });
    if (raw === undefined || raw.trim() === "") continue;
    const threat = scanForThreats(raw);
    const text = threat ? `[BLOCKED: ${threat}]` : raw.length > MAX_CHARS ? `${raw.slice(0, MAX_CHARS)}\n[… ${raw.length - MAX_CHARS} more characters not shown]` : raw;
    files.push({ path: file, text: text.trimEnd() });
  }
  return files;
}

/** cwd and its parents up to the repository root (the folder holding .git), root first. */
async function directoriesToRoot(cwd: string): Promise<string[]> {
  const chain: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (await exists(path.join(dir, ".git"))) return chain;
    if (path.dirname(dir) === dir) return [path.resolve(cwd)]; // not a repository: the cwd alone
  }
}

async function existing(files: string[]): Promise<string[]> {
  const found = await Promise.all(files.map(async (file) => ((await exists(file)) ? file : undefined)));
  return found.filter((file): file is string => file !== undefined);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
