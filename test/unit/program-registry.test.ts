// The program registry (acp-server/security/programs/) is the one place that says what a
// program does. These tests hold it to that: each derived table is exactly the registry's
// entries with its trait, a name has one entry, and no file of security/ outside the registry
// keeps a program table of its own (a list, a regex alternation, a switch or an object keyed
// by program names). A table that must name programs for another reason says why on the line
// above it, with `// registry-scan: <why>`.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { Trait } from "../../acp-server/security/programs/program-entry";
import { PROGRAM_ENTRIES, programEntry, type ProgramSet } from "../../acp-server/security/programs/registry";
import * as tables from "../../acp-server/security/programs/tables";

const SECURITY = path.resolve(import.meta.dirname, "../../acp-server/security");
const ALL_NAMES = PROGRAM_ENTRIES.flatMap((entry) => entry.names);
/** Shell builtins whose names are everyday words (`local` scope, `command` line): alone they do not make a table. */
const EVERYDAY_WORDS = new Set(["local", "command", "read", "set", "type", "test", "time", "wait", "exit", "return", "shift", "hash", "true", "false"]);
/** Names that read as programs in code (not `[`, `.`, `:`, which are punctuation). */
const PROGRAM_NAMES = new Set(ALL_NAMES.filter((name) => /^[a-z][a-z0-9._+-]+$/.test(name) && !EVERYDAY_WORDS.has(name)));

/** Each trait's derived table, by the export name tables.ts gives it. */
const TABLE_OF: Record<Trait, keyof typeof tables> = {
  shell: "SHELLS", interpreter: "INTERPRETERS", awk: "AWKS", downloader: "DOWNLOADERS", "sends-stdin": "SENDS_STDIN",
  "prints-environment": "PRINTS_ENVIRONMENT",
  "no-file-operands": "NO_FILE_OPERANDS", "deletes-operands": "DELETES_OPERANDS", declarer: "DECLARERS", assigns: "ASSIGNERS",
  "args-are-data": "ARGS_ARE_DATA", "no-content-read": "NO_CONTENT_READ", "o-is-not-output": "O_IS_NOT_OUTPUT", "version-only": "VERSION_ONLY",
  editor: "EDITORS", vim: "VIMS", "sql-client": "SQL_CLIENTS", "mongo-client": "MONGO_CLIENTS", "node-runner": "NODE_RUNNERS",
  "node-package-manager": "NODE_PACKAGE_MANAGERS", "well-known-bin": "WELL_KNOWN_BINS", pip: "PIPS", "xargs-reader": "XARGS_READERS",
  "code-from-descriptor": "CODE_FROM_DESCRIPTOR", "hides-effects": "HIDES_EFFECTS", "stdin-shell": "STDIN_SHELLS", "runs-templates": "RUNS_TEMPLATES", netcat: "NETCATS",
};

test("every program name has one entry", () => {
  const seen = new Set<string>();
  for (const name of ALL_NAMES) {
    assert.ok(!seen.has(name), `${name} has two entries`);
    seen.add(name);
  }
  assert.ok(ALL_NAMES.length > 500, "the registry holds the screen's programs");
});

test("every derived table is computed from the registry: exactly the entries with its trait", () => {
  const used = new Set(PROGRAM_ENTRIES.flatMap((entry) => entry.traits ?? []));
  for (const trait of used) assert.ok(trait in TABLE_OF, `the trait ${trait} has no derived table`);
  for (const [trait, exportName] of Object.entries(TABLE_OF)) {
    const table = tables[exportName] as ProgramSet;
    const expected = PROGRAM_ENTRIES.filter((entry) => entry.traits?.includes(trait as Trait)).flatMap((entry) => entry.names);
    assert.deepEqual([...table.names].sort(), expected.sort(), `${exportName} is the entries with ${trait}`);
    for (const name of ALL_NAMES) assert.equal(table.has(name), expected.includes(name), `${exportName}.has(${name})`);
  }
  // Versioned names resolve to their entry, in any letter case; others do not.
  assert.equal(programEntry("python3.12")?.names[0], "python");
  assert.ok(tables.INTERPRETERS.has("Python3") && tables.PIPS.has("pip3.11") && !tables.SHELLS.has("bash5"));
  // The shells' options with a value are the union of the shells' entries.
  for (const option of ["-o", "+o", "-O", "+O", "--rcfile", "--init-file", "--emulate"]) assert.ok(tables.SHELL_VALUE_OPTIONS.has(option), option);
  assert.match(tables.SHELL_VALUE_LETTERS, /^(?=.*o)(?=.*O)/);
});

/** Program tables kept outside the registry, as `file: what` (empty when the registry is the one place). */
export function programTablesOutsideRegistry(dir: string): string[] {
  const found: string[] = [];
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts") || file.startsWith(`programs${path.sep}`)) continue;
    const lines = readFileSync(path.join(dir, file), "utf8").split("\n");
    const exempt = (i: number) => /\/\/ registry-scan: \S/.test(lines[i - 1] ?? "");
    const names = (words: string[]) => words.filter((word) => PROGRAM_NAMES.has(word));
    let keys: string[] = [];
    lines.forEach((line, i) => {
      const code = line.replace(/^\s*\/\/.*$|\/\*.*?\*\//g, "");
      if (exempt(i)) return;
      // A literal list: ["rm", "shred"], new Set(["curl", "wget"]).
      for (const list of code.matchAll(/\[([^[\]]*)\]/g)) {
        const hits = names([...(list[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? ""));
        if (hits.length >= 2) found.push(`${file}:${i + 1} a list of programs (${hits.join(", ")})`);
      }
      // A regex that matches whole program names: /^(vim|nvim)$/.
      for (const group of code.matchAll(/\^\(\??:?([\w.+\\|-]+\|[\w.+\\|-]+)\)/g)) {
        const hits = names((group[1] ?? "").split("|").map((alt) => alt.replace(/\\/g, "")));
        if (hits.length >= 2) found.push(`${file}:${i + 1} a regex of programs (${hits.join(", ")})`);
      }
      // Object keys: { sudo: …, doas: … } over consecutive lines.
      const key = /^\s+"?([a-z][\w.+-]*)"?: /.exec(code)?.[1];
      if (key !== undefined && PROGRAM_NAMES.has(key)) keys.push(key);
      else {
        if (keys.length >= 2) found.push(`${file}:${i} an object keyed by programs (${keys.join(", ")})`);
        keys = [];
      }
    });
    // A switch with case labels naming programs.
    const text = lines.join("\n");
    for (const block of text.matchAll(/switch \(([^)]*)\) \{([\s\S]*?)\n\s*\}\n/g)) {
      const hits = names([...(block[2] ?? "").matchAll(/case "([^"]+)":/g)].map((m) => m[1] ?? ""));
      if (hits.length >= 2) found.push(`${file}: a switch (${block[1]}) over programs (${hits.join(", ")})`);
    }
  }
  return found;
}

test("no file of security/ outside the registry keeps a program table", () => {
  assert.deepEqual(programTablesOutsideRegistry(SECURITY), []);
});
