// Journal records are stamped with REDACTION_VERSION, and a load trusts a record stamped with
// the current version to be redacted already (sessions/redact-record.ts). So a change to what
// the redactor masks must come with a new version, or journals written under the old rules
// would skip the new ones on load. This test holds a fingerprint of the redaction code (its
// lines, without comment lines and indentation) and fails whenever that code changes.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { REDACTION_VERSION } from "../../acp-server/util/redact";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "acp-server");
const REDACTION_CODE = ["util/redact.ts", "util/redact-rules.ts", "util/redact-views.ts", "util/secret-names.ts", "sessions/redact-record.ts", "sessions/redact-replay.ts"];

/** Update both together (see the message below). */
const RECORDED = { version: 3, fingerprint: "171529eda83b4cb3" };

function fingerprint(): string {
  const hash = createHash("sha256");
  for (const file of REDACTION_CODE) {
    const code = readFileSync(path.join(ROOT, file), "utf8")
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("//") && !line.startsWith("*") && !line.startsWith("/*"));
    hash.update(`${file}\n${code.join("\n")}\n`);
  }
  return hash.digest("hex").slice(0, 16);
}

test("the redaction version changes with the redaction code", () => {
  const current = fingerprint();
  assert.ok(
    current === RECORDED.fingerprint && REDACTION_VERSION === RECORDED.version,
    `The redaction code changed (fingerprint ${current}, recorded ${RECORDED.fingerprint} for version ${RECORDED.version}; REDACTION_VERSION is ${REDACTION_VERSION}).\n` +
      "If the change can mask more, or differently, bump REDACTION_VERSION in acp-server/util/redact.ts: records written under the old " +
      "rules are then redacted again when a session is loaded. Then record the new version and fingerprint in this test.",
  );
});
