// `hermes sessions list|show|export|delete|search`: the same journals and index the editors use.
import { existsSync } from "node:fs";
import { loadConfig } from "../config/load";
import { SessionStore } from "../sessions/session-store";
import { configureLogging, createLogger } from "../util/log";
import { checkFlags, parseArgs, printJson, runCommand, UsageError, when, withProgress } from "./cli-output";
import { printText } from "./terminal-safe";

export async function runSessions(args: string[]): Promise<number> {
  return runCommand("sessions", async () => {
    const parsed = parseArgs(args, ["cwd", "limit", "format"]);
    checkFlags(parsed, ["json", "cwd", "limit", "all", "format"]);
    const [verb = "list", ...rest] = parsed.words;
    const json = parsed.flags.has("json");
    const loaded = loadConfig();
    configureLogging({ home: loaded.home, stderrLevel: "error" });
    const store = new SessionStore({ home: loaded.home, log: createLogger("sessions") });
    const firstBuild = !existsSync(store.stateFile);
    const indexed = <T>(work: () => Promise<T>) => (firstBuild ? withProgress("Building the session index (first run)", work) : work());
    const limit = Number(parsed.flags.get("limit") ?? 50);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit needs a positive whole number");
    const cwd = parsed.flags.get("all") ? undefined : typeof parsed.flags.get("cwd") === "string" ? (parsed.flags.get("cwd") as string) : verb === "list" ? process.cwd() : undefined;
    try {
      switch (verb) {
        case "list": {
          const page = await indexed(() => store.list({ cwd, limit }));
          if (json) printJson(page.sessions);
          else if (page.sessions.length === 0) process.stderr.write(`No sessions${cwd ? ` in ${cwd} (--all lists every folder's)` : ""}.\n`);
          else for (const s of page.sessions) printText(`${s.id}  ${when(s.updatedAt)}  ${String(s.messageCount).padStart(4)} msgs  ${s.title ?? "(untitled)"}${cwd ? "" : `  ${s.cwd}`}\n`);
          return 0;
        }
        case "search": {
          const query = rest.join(" ").trim();
          if (!query) throw new UsageError('search needs words, e.g. hermes sessions search "rate limit"');
          const hits = await indexed(() => store.search(query, { cwd, limit }));
          if (json) printJson(hits);
          else if (hits.length === 0) process.stderr.write("Nothing matches.\n");
          else for (const h of hits) printText(`${h.sessionId}  ${when(h.updatedAt)}  ${h.title ?? "(untitled)"}\n    ${h.snippet.replace(/\s+/g, " ")}\n`);
          return 0;
        }
        case "show":
        case "export": {
          const id = rest[0] && (await resolveId(store, rest[0]));
          if (!id) throw new UsageError(`${verb} needs a session id (hermes sessions list)`);
          const summary = await indexed(() => store.summary(id));
          if (!summary) return notFound(id);
          const messages = await store.messages(id, { limit: 100_000 });
          const format = verb === "export" ? String(parsed.flags.get("format") ?? (json ? "json" : "markdown")) : json ? "json" : "text";
          if (format === "json") printJson({ ...summary, messages });
          else if (format === "markdown" || format === "md") {
            printText(`# ${summary.title ?? "Session"} (${summary.id})\n\nFolder: ${summary.cwd}, updated ${when(summary.updatedAt)}\n\n`);
            for (const m of messages) printText(`## ${m.role}\n\n${m.text}\n\n`);
          } else if (format === "text") {
            printText(`${summary.title ?? "(untitled)"}  ${summary.cwd}  ${when(summary.updatedAt)}\n\n`);
            for (const m of messages) printText(`[${m.role}] ${m.text}\n\n`);
          } else throw new UsageError(`--format is markdown or json, not ${format}`);
          return 0;
        }
        case "delete": {
          const id = rest[0] && (await resolveId(store, rest[0]));
          if (!id) throw new UsageError("delete needs a session id (hermes sessions list)");
          const deleted = await store.delete(id);
          if (!deleted) return notFound(id);
          if (json) printJson({ deleted: id });
          else process.stderr.write(`Deleted session ${id}.\n`);
          return 0;
        }
        default:
          throw new UsageError(`unknown sessions command "${verb}" (list, show, export, delete, search)`);
      }
    } finally {
      await store.close();
    }
  });
}

/**
 * A session id as typed: the whole id, or its first characters (at least 4) when exactly one
 * session starts with them, as git takes a short commit hash. Ambiguous prefixes are refused.
 */
async function resolveId(store: SessionStore, typed: string): Promise<string> {
  if ((await store.summary(typed)) || typed.length < 4) return typed;
  const { sessions } = await store.list({ limit: 100_000 });
  const matches = sessions.filter((session) => session.id.startsWith(typed));
  if (matches.length > 1) throw new UsageError(`${typed} could be ${matches.slice(0, 5).map((session) => session.id).join(", ")}${matches.length > 5 ? ", …" : ""}: type more of the id`);
  return matches[0]?.id ?? typed;
}

function notFound(id: string): number {
  process.stderr.write(`hermes sessions: no session ${id} (hermes sessions list --all)\n`);
  return 1;
}
