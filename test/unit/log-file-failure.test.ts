// util/log.ts when the log file cannot be written: the failure is told on stderr once, file
// logging stays on, and the first append that works again resumes the file log.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { configureLogging, createLogger } from "../../acp-server/util/log";
import { captureStderr } from "../support/capture-stderr";


test("a failed log write is told once on stderr and later writes resume the file log", () => {
  const home = mkdtempSync(path.join(tmpdir(), "hermes-log-"));
  try {
    configureLogging({ home, level: "info", stderrLevel: "error" });
    const file = path.join(home, "logs", `hermes-${new Date().toISOString().slice(0, 10)}.log`);
    const log = createLogger("log-test");

    // A directory where the log file should be: every append fails (EISDIR).
    mkdirSync(file);
    const stderr = captureStderr(() => {
      log.info("lost line one");
      log.info("lost line two");
      log.info("lost line three");
    });
    const warnings = stderr.split("\n").filter((line) => line.includes("cannot write log file"));
    assert.equal(warnings.length, 1, stderr);
    assert.match(warnings[0], /EISDIR|illegal operation on a directory/);

    // The obstacle goes: the next line lands in the file again.
    rmSync(file, { recursive: true });
    captureStderr(() => log.info("back in the file"));
    const text = readFileSync(file, "utf8");
    assert.match(text, /back in the file/);
    assert.match(text, /log file writable again/);
    assert.doesNotMatch(text, /lost line/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
