// Runs only the hermes/no-silent-catch lint rule (scripts/eslint-rules/no-silent-catch.mjs) over
// the product code, without type information: a few seconds, for a quick look or a count.
// `npm run lint` runs the same rule with everything else; this script is not needed for that.
//
//   node scripts/check-catches.mjs          all product code (as in lint)
//
// Prints file:line:column and the message for each catch that drops its error, then a count;
// exits 1 when there is any.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { noSilentCatch } from "./eslint-rules/no-silent-catch.mjs";

const PRODUCT = ["acp-server", "extension", "webview-ui", "common"];

const files = execFileSync("git", ["ls-files", "--", ...PRODUCT], { encoding: "utf8" })
  .split("\n")
  .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"));

const linter = new Linter({ configType: "flat" });
const config = [
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: "off" },
    plugins: { hermes: { rules: { "no-silent-catch": noSilentCatch } } },
    rules: { "hermes/no-silent-catch": "error" },
  },
];

let count = 0;
for (const file of files) {
  for (const message of linter.verify(readFileSync(file, "utf8"), config, file)) {
    // Directives for rules this run does not load ("Definition for rule ... was not found") are not ours.
    if (message.ruleId !== "hermes/no-silent-catch") continue;
    count++;
    console.log(`${file}:${message.line}:${message.column} ${message.message}`);
  }
}
console.log(`${count} catch${count === 1 ? "" : "es"} drop their error (${files.length} files checked)`);
process.exitCode = count > 0 ? 1 : 0;
