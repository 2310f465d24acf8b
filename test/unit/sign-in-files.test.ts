// The files sign-in and setup write: .env keeps every other line and ends up mode 600; a value
// that would not read back as written is refused; a client's refusal keeps its own words.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { test } from "node:test";
import { clientErrorText } from "../../acp-server/acp/client-files";
import { setEnvVariable } from "../../acp-server/config/env-file";

test(".env: the variable is replaced where it is (a second assignment removed), other lines kept, mode 600", () => {
  const home = mkdtempSync(path.join(os.tmpdir(), "hermes-envfile-"));
  const file = path.join(home, ".env");
  writeFileSync(file, "# keys\nOTHER=1\nOPENAI_API_KEY=old\nexport OPENAI_API_KEY=older\nLAST=2\n");
  chmodSync(file, 0o644);
  setEnvVariable(home, "OPENAI_API_KEY", "sk-new-1");
  assert.equal(readFileSync(file, "utf8"), "# keys\nOTHER=1\nOPENAI_API_KEY=sk-new-1\nLAST=2\n");
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(parseEnv(readFileSync(file, "utf8")).OPENAI_API_KEY, "sk-new-1");
  setEnvVariable(home, "ANTHROPIC_API_KEY", "sk-ant-2");
  assert.match(readFileSync(file, "utf8"), /LAST=2\nANTHROPIC_API_KEY=sk-ant-2\n$/);
});

test(".env: values that would not read back as written are refused and nothing changes", () => {
  const home = mkdtempSync(path.join(os.tmpdir(), "hermes-envfile-"));
  for (const value of ["", "two words", "a\nB=c", "x#y", 'q"uote', "$HOME"]) {
    assert.throws(() => setEnvVariable(home, "OPENAI_API_KEY", value), /cannot be stored/, JSON.stringify(value));
  }
  assert.throws(() => setEnvVariable(home, "lower-case", "v"), /not a variable name/);
});

test("a client's error: the reason in data replaces a generic message, and joins a specific one", () => {
  assert.equal(clientErrorText({ message: "Internal error", data: { reason: "The user denied access" } }), "The user denied access");
  assert.equal(clientErrorText({ message: "Internal error", data: "denied by policy" }), "denied by policy");
  assert.equal(clientErrorText({ message: "Read refused", data: { details: "outside the project" } }), "Read refused: outside the project");
  assert.equal(clientErrorText({ message: "No such file" }), "No such file");
  assert.equal(clientErrorText(new Error("plain")), "plain");
});
