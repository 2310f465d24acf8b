// Writes one variable into $HERMES_HOME/.env: the line is replaced where it is (or added at the
// end), every other line is kept as it was, and the file ends up mode 600 because it holds keys.
// Written atomically under a lock, so two sign-ins at once cannot lose each other's line.
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../util/atomic-write";
import { withFileLock } from "../util/file-lock";
import { AgentError } from "../util/agent-error";

/** Why `value` cannot go in a .env line as is, or undefined when it can. */
export function envValueProblem(value: string): string | undefined {
  if (value.length === 0) return "it is empty";
  if (/[\r\n\0]/.test(value)) return "it spans several lines";
  if (/\s/.test(value)) return "it contains spaces";
  if (/["'`#\\$]/.test(value)) return "it contains quotes, #, $ or backslashes";
  return undefined;
}

export function setEnvVariable(home: string, name: string, value: string): string {
  if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) throw new AgentError("config", `${name} is not a variable name`, { name });
  const problem = envValueProblem(value);
  if (problem) throw new AgentError("config", `the value for ${name} cannot be stored: ${problem}`, { name });
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = path.join(home, ".env");
  withFileLock(`${file}.lock`, () => {
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const lines = text.length ? text.replace(/\n$/, "").split("\n") : [];
    const assignment = new RegExp(`^\\s*(export\\s+)?${name}\\s*=`);
    let replaced = false;
    const kept = lines.flatMap((line) => {
      if (!assignment.test(line)) return [line];
      if (replaced) return []; // a second assignment would win over ours when read back
      replaced = true;
      return [`${name}=${value}`];
    });
    if (!replaced) kept.push(`${name}=${value}`);
    writeFileAtomicSync(file, `${kept.join("\n")}\n`, 0o600);
  });
  fs.chmodSync(file, 0o600);
  return file;
}

/**
 * Removes every assignment of `names` from $HERMES_HOME/.env (other lines kept as they were);
 * returns the names that were there. No file, nothing to remove: nothing is created.
 */
export function removeEnvVariables(home: string, names: readonly string[]): string[] {
  const file = path.join(home, ".env");
  if (!fs.existsSync(file)) return [];
  const removed = new Set<string>();
  withFileLock(`${file}.lock`, () => {
    const text = fs.readFileSync(file, "utf8");
    const lines = text.length ? text.replace(/\n$/, "").split("\n") : [];
    const kept = lines.filter((line) => {
      const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
      if (name === undefined || !names.includes(name)) return true;
      removed.add(name);
      return false;
    });
    if (removed.size > 0) writeFileAtomicSync(file, kept.length ? `${kept.join("\n")}\n` : "", 0o600);
  });
  return [...removed];
}
