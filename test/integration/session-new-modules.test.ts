// What the first session/new loads: the command screen, the shell parser, the program registry,
// the outbound-secret check and the runs-later classifier are needed when a tool runs, not when a
// chat opens. Importing one of them from a module the session needs at once (agent/session.ts
// once imported approval-scope.ts for one comparison) put ~200 KB of parsing into every first
// session/new and pushed it past its 100 ms target (bench:first-session). Which sources a chunk
// holds comes from its source map.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { useScriptedModel } from "../support/scripted-model";
import { HERMES_BIN, makeTempDir, ROOT, scriptedConfig, startHermes } from "../support/acp-harness";

const scripted = useScriptedModel();
const REGISTER = path.join(ROOT, "test/support/chunk-load-register.mjs");

/** Sources (repository-relative) held by the chunks named in the hook's stderr lines. */
function loadedSources(stderr: string): Set<string> {
  const sources = new Set<string>();
  for (const match of stderr.matchAll(/^hermes-chunk-loaded (\S+)$/gm)) {
    const map = JSON.parse(readFileSync(path.join(ROOT, "dist/chunks", `${match[1]}.map`), "utf8")) as { sources: string[] };
    for (const source of map.sources) sources.add(source.replace(/^(\.\.\/)+/, ""));
  }
  return sources;
}

test("the first session/new loads no command screening, parsing or outbound checking", async () => {
  const model = scripted();
  const project = await makeTempDir();
  const hermes = await startHermes({ config: scriptedConfig(model.url), command: [process.execPath, "--import", REGISTER, HERMES_BIN, "acp"] });
  try {
    await hermes.initialize();
    await hermes.newSession(project);
    const sources = loadedSources(hermes.stderr());
    // The hook works: the session itself was loaded through it.
    assert.ok(sources.has("acp-server/agent/session.ts"), `the load hook saw no session module: ${[...sources].length} sources`);
    const toolTime = [
      "acp-server/security/command-screen.ts",
      "acp-server/security/shell-parse.ts",
      "acp-server/security/programs/registry.ts",
      "acp-server/security/approval-scope.ts",
      "acp-server/security/outbound-secrets.ts",
      "acp-server/security/runs-later.ts",
    ];
    assert.deepEqual(toolTime.filter((source) => sources.has(source)), []);
  } finally {
    await hermes.close();
  }
});
