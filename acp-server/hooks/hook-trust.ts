// Which projects' hooks the user trusted, by the exact content they saw: `$HERMES_HOME/hook-trust.json`
// maps a hooks file's path to the sha256 of the bytes that were approved. A changed file no longer
// matches and is asked about again. Locked and replaced atomically (several Hermes processes).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { writeFileAtomicSync } from "../util/atomic-write";
import { withFileLock } from "../util/file-lock";

function trustFileSchema() {
  return z.object({ version: z.literal(1), trusted: z.record(z.string(), z.string()) });
}
let schema: ReturnType<typeof trustFileSchema> | undefined;

function trustFile(home: string): string {
  return path.join(home, "hook-trust.json");
}

function read(home: string): Record<string, string> {
  const file = trustFile(home);
  if (!existsSync(file)) return {};
  try {
    const parsed = (schema ??= trustFileSchema()).safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data.trusted : {};
  } catch {
    // expected: a damaged trust file trusts nothing (every project asks again), which fails closed
    return {};
  }
}

export function isHooksFileTrusted(home: string, file: string, hash: string): boolean {
  return read(home)[file] === hash;
}

export function trustHooksFile(home: string, file: string, hash: string): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  withFileLock(`${trustFile(home)}.lock`, () => {
    const trusted = { ...read(home), [file]: hash };
    writeFileAtomicSync(trustFile(home), `${JSON.stringify({ version: 1, trusted }, null, 2)}\n`, 0o600);
  });
}
