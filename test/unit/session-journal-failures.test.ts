// The session journal when the disk misbehaves: a failed folder sync and a failed recovery after a
// partial append are reported in the log (with the session and path), not dropped.
import assert from "node:assert/strict";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { test } from "node:test";
import { SessionStoreError } from "../../acp-server/sessions/errors";
import { SessionJournal } from "../../acp-server/sessions/journal";
import type { SessionMeta } from "../../acp-server/sessions/types";
import { captureStderr } from "../support/capture-stderr";
import { makeTempDirSync } from "../support/temp-dirs";


const meta = (id: string): SessionMeta => ({ id, cwd: "/work/project", createdAt: 1_000, source: "acp" });

function ioError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated disk failure`), { code });
}

/** Runs `fn` with the named node:fs functions replaced (also for ES module imports) and stderr recorded. */
function withBrokenFs(replacements: Partial<Record<"fsyncSync" | "writeSync" | "fstatSync", () => never>>, fn: () => void): string {
  const mutableFs = fs as unknown as Record<string, unknown>;
  const originals = Object.fromEntries(Object.keys(replacements).map((name) => [name, mutableFs[name]]));
  Object.assign(mutableFs, replacements);
  syncBuiltinESMExports();
  try {
    return captureStderr(fn);
  } finally {
    Object.assign(mutableFs, originals);
    syncBuiltinESMExports();
  }
}

test("a failed sync of the sessions folder is logged with the folder", () => {
  const dir = makeTempDirSync("hermes-journal-fail-");
  const stderr = withBrokenFs({ fsyncSync: () => { throw ioError("EIO"); } }, () => {
    SessionJournal.create(dir, meta("s-dirsync")).close();
  });
  assert.match(stderr, /could not sync the sessions folder/);
  assert.ok(stderr.includes(JSON.stringify(dir).slice(1, -1)), stderr);
  assert.match(stderr, /EIO/);
});

test("a folder sync the platform does not support stays quiet", () => {
  const dir = makeTempDirSync("hermes-journal-fail-");
  const stderr = withBrokenFs({ fsyncSync: () => { throw ioError("EINVAL"); } }, () => {
    SessionJournal.create(dir, meta("s-nosync")).close();
  });
  assert.doesNotMatch(stderr, /sessions folder/);
});

test("a failed recovery after a failed append is logged with the session", () => {
  const journal = SessionJournal.create(makeTempDirSync("hermes-journal-fail-"), meta("s-recover"));
  let thrown: unknown;
  const stderr = withBrokenFs(
    { writeSync: () => { throw ioError("ENOSPC"); }, fstatSync: () => { throw ioError("EIO"); } },
    () => {
      try {
        journal.append({ t: "plan", at: 2_000, todos: [] });
      } catch (error) {
        thrown = error;
      }
    },
  );
  journal.close();
  assert.ok(thrown instanceof SessionStoreError, "the append itself still fails to its caller");
  assert.match(stderr, /could not recover the session journal/);
  assert.match(stderr, /s-recover/);
  assert.match(stderr, /EIO/);
});
