import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";

// The session index's SQLite (sql.js) under a hot workload, in a child process that prints each
// wasm function V8 compiles (--trace-wasm-compilation-times). V8's flags could be renamed in a
// later Node, and setFlagsFromString would then ignore them silently: this notices.
// The control loads sql.js itself, as Hermes did before: its workload must be hot enough for V8
// to recompile, or the real case would pass for nothing.
const WORKLOAD = `
  const { loadSqlJs, findWasm } = await import(process.env.SQLITE_MODULE);
  const { readFileSync } = await import("node:fs");
  const SQL = process.env.CONTROL === "1"
    ? await (await import("sql.js")).default({ wasmBinary: readFileSync(findWasm()) })
    : await loadSqlJs();
  const db = new SQL.Database();
  db.exec("CREATE TABLE m (id INTEGER PRIMARY KEY, text TEXT); CREATE VIRTUAL TABLE f USING fts4(content='m', text)");
  const insert = db.prepare("INSERT INTO m (id, text) VALUES (?, ?)");
  const index = db.prepare("INSERT INTO f (docid, text) VALUES (?, ?)");
  for (let i = 1; i <= 500; i++) {
    const text = "turn " + i + " what is in notes.txt alpha beta gamma delta";
    db.exec("BEGIN");
    insert.run([i, text]);
    index.run([i, text]);
    db.exec("COMMIT");
  }
  db.close();
`;

async function optimizedCompiles(control: boolean): Promise<number> {
  const child = spawn(process.execPath, ["--trace-wasm-compilation-times", "--import", "tsx", "--input-type=module", "-e", WORKLOAD], {
    env: {
      ...process.env,
      CONTROL: control ? "1" : "0",
      SQLITE_MODULE: new URL("../../acp-server/sessions/sqlite.ts", import.meta.url).href,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  assert.equal(code, 0, out.slice(-2_000));
  // "Compiled function 0x<module>#<index> using <compiler>, ...": other wasm modules run here too
  // (Node's own CJS lexer, when tsx imports sql.js); SQLite's is the one with the most functions.
  const byModule = new Map<string, { functions: number; optimized: number }>();
  for (const match of out.matchAll(/^Compiled function (0x[0-9a-f]+)#\d+ using (\w+)/gm)) {
    const entry = byModule.get(match[1]!) ?? { functions: 0, optimized: 0 };
    entry.functions++;
    if (match[2] === "TurboFan") entry.optimized++;
    byModule.set(match[1]!, entry);
  }
  const sqlite = [...byModule.values()].sort((a, b) => b.functions - a.functions)[0];
  assert.ok(sqlite && sqlite.functions > 100, `the trace names SQLite's functions as they compile:\n${out.slice(0, 2_000)}`);
  return sqlite.optimized;
}

test("sql.js's SQLite stays on baseline wasm code, where V8 would otherwise recompile its hot functions", async () => {
  assert.ok((await optimizedCompiles(true)) > 0, "control: without the flags the workload is hot enough to be recompiled");
  assert.equal(await optimizedCompiles(false), 0, "loaded by Hermes (loadSqlJs), no function is recompiled");
});
