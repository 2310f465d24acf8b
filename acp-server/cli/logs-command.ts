// `hermes logs [--lines N] [--path]`: the end of today's (or the newest) log in $HERMES_HOME/logs.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { hermesHome } from "../config/paths";
import { checkFlags, parseArgs, printJson, runCommand, UsageError } from "./cli-output";
import { printText } from "./terminal-safe";

export async function runLogs(args: string[]): Promise<number> {
  return runCommand("logs", async () => {
    const parsed = parseArgs(args, ["lines"]);
    checkFlags(parsed, ["json", "lines", "path"]);
    if (parsed.words.length) throw new UsageError(`unexpected ${parsed.words[0]}`);
    const count = Number(parsed.flags.get("lines") ?? 50);
    if (!Number.isInteger(count) || count < 1) throw new UsageError("--lines needs a positive whole number");
    const dir = path.join(hermesHome(), "logs");
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((name) => /^hermes-\d{4}-\d{2}-\d{2}\.log$/.test(name)).sort();
    } catch {
      // expected: ENOENT, no logs folder yet: said just below
    }
    const newest = files.at(-1);
    if (!newest) {
      process.stderr.write(`No logs yet in ${dir}.\n`);
      return parsed.flags.has("json") ? (printJson({ file: null, lines: [] }), 0) : 0;
    }
    const file = path.join(dir, newest);
    if (parsed.flags.has("path")) {
      process.stdout.write(`${file}\n`);
      return 0;
    }
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).slice(-count);
    if (parsed.flags.has("json")) printJson({ file, lines });
    // Log lines quote commands' and servers' words: no control codes on a terminal.
    else printText(`${lines.join("\n")}\n`);
    return 0;
  });
}
