// The lint rule hermes/no-silent-catch (scripts/eslint-rules/no-silent-catch.mjs), run over a
// fixture whose reportable catches are marked `// BAD`: the rule must report exactly those lines.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { noSilentCatch } from "../../scripts/eslint-rules/no-silent-catch.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURE = "test/fixtures/catches/catch-cases.ts";

function reportedLines(source: string): number[] {
  const linter = new Linter({ configType: "flat" });
  const messages = linter.verify(
    source,
    [
      {
        files: ["**/*.ts"],
        languageOptions: { parser: tseslint.parser },
        plugins: { hermes: { rules: { "no-silent-catch": noSilentCatch } } },
        rules: { "hermes/no-silent-catch": "error" },
      },
    ],
    FIXTURE,
  );
  for (const message of messages) assert.equal(message.ruleId, "hermes/no-silent-catch", message.message);
  return messages.map((message) => message.line);
}

test("reports exactly the catches marked BAD in the fixture", () => {
  const source = readFileSync(path.join(root, FIXTURE), "utf8");
  const marked = source.split("\n").flatMap((line, index) => (/\/\/ BAD\s*$/.test(line) ? [index + 1] : []));
  assert.ok(marked.length >= 10, "the fixture has bad catches");
  assert.deepEqual(reportedLines(source), marked);
});

test("an explained catch passes, the same catch unexplained is reported", () => {
  const explained = "try { f(); } catch { // expected: f throws when idle\n}\n";
  const bare = "try { f(); } catch {\n}\n";
  assert.deepEqual(reportedLines(explained), []);
  assert.deepEqual(reportedLines(bare), [1]);
});
