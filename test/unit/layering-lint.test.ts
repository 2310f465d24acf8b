// The layering check in `npm run lint` (.dependency-cruiser.cjs, run by `npm run lint:layers`):
// a small tree written to a temp folder breaks each kind of rule once, next to imports the map
// allows, and dependency-cruiser must report exactly the broken ones; the real tree passes, with
// no list of tolerated violations. Both run the CLI with the repository's config, as lint does.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { makeTempDirSync } from "../support/temp-dirs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DEPCRUISE = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const SOURCES = "{acp-server,extension,webview-ui,common}";

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

/** Runs depcruise in `cwd` with the repository's config, over the four source folders. */
function depcruise(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DEPCRUISE, "--config", CONFIG, ...args, SOURCES], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The violations depcruise reports as JSON, as "rule: from → to". */
async function violations(cwd: string, args: string[]): Promise<string[]> {
  const { stdout, stderr, code } = await depcruise(cwd, ["--output-type", "json", ...args]);
  let report: { summary: { violations: Violation[] } };
  try {
    report = JSON.parse(stdout) as typeof report;
  } catch {
    throw new Error(`depcruise printed no report (exit ${code}): ${stderr || stdout}`);
  }
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

/** What `npm run lint:layers` runs (package.json), from `cwd`. */
const lintLayers = (cwd: string) => depcruise(cwd, ["--no-cache", "--output-type", "err"]);

/** The small tree: each file's imports are either allowed by the map or broken on purpose. */
const FIXTURE: Record<string, string> = {
  // Allowed: the edge imports the SDK and the loop; the loop imports a tool; a feature's command
  // imports the runtime's contract; the panel imports common/, which re-exports SDK types.
  "acp-server/acp/edge.ts": 'import type { SessionId } from "@agentclientprotocol/sdk";\nimport { runTurn } from "../agent/loop";\nexport const edge = (id: SessionId) => runTurn(id);\n',
  "acp-server/agent/loop.ts": 'import type { A } from "../tools/a";\nexport function runTurn(id: string): A {\n  return { id };\n}\n',
  "acp-server/checkpoints/commands/undo.ts": 'import type { Command } from "../../runtime/command";\nexport const undo: Command = { name: "undo" };\n',
  "acp-server/runtime/command.ts": "export interface Command {\n  name: string;\n}\n",
  "common/protocol.ts": 'export type { SessionId } from "@agentclientprotocol/sdk";\n',
  "webview-ui/app.ts": 'import type { SessionId } from "../common/protocol";\nexport const shown: SessionId[] = [];\n',
  "extension/framing.ts": 'import { lines } from "../acp-server/util/ndjson-lines";\nexport const frames = lines;\n',
  "acp-server/util/ndjson-lines.ts": "export const lines = 1;\n",

  // Broken: util imports the agent (upward), a cycle between two tools, the SDK below the edge,
  // the runtime importing a feature's command (upward), the extension reaching into the ACP edge,
  // the panel importing the server, an SDK value import in common/, and a folder that is on no
  // layer. The cycle and the agent's SDK import are type-only: those count too.
  "acp-server/util/log.ts": 'import { runTurn } from "../agent/loop";\nexport const log = runTurn;\n',
  "acp-server/tools/a.ts": 'import type { B } from "./b";\nexport interface A {\n  id: string;\n  b?: B;\n}\n',
  "acp-server/tools/b.ts": 'import type { A } from "./a";\nexport interface B {\n  a?: A;\n}\n',
  "acp-server/agent/wire.ts": 'import type { SessionId } from "@agentclientprotocol/sdk";\nexport type Wire = SessionId;\n',
  "acp-server/runtime/registry.ts": 'import { undo } from "../checkpoints/commands/undo";\nexport const commands = [undo];\n',
  "extension/edge-peek.ts": 'import { edge } from "../acp-server/acp/edge";\nexport const peek = edge;\n',
  "webview-ui/server-peek.ts": 'import { lines } from "../acp-server/util/ndjson-lines";\nexport const peek = lines;\n',
  "common/sdk-value.ts": 'import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";\nexport const version = PROTOCOL_VERSION;\n',
  "acp-server/newthing/x.ts": 'import { lines } from "../util/ndjson-lines";\nexport const x = lines;\n',

  // A stand-in for the SDK package, so the tree resolves it without the real install.
  "node_modules/@agentclientprotocol/sdk/package.json": '{ "name": "@agentclientprotocol/sdk", "version": "0.0.0", "main": "index.js", "types": "index.d.ts" }\n',
  "node_modules/@agentclientprotocol/sdk/index.js": "export const PROTOCOL_VERSION = 1;\n",
  "node_modules/@agentclientprotocol/sdk/index.d.ts": "export type SessionId = string;\nexport declare const PROTOCOL_VERSION: number;\n",
};

const SDK = "node_modules/@agentclientprotocol/sdk/index.js";

test("each kind of layering violation is reported, and nothing the map allows", async () => {
  const dir = makeTempDirSync("hermes-layering-");
  for (const [file, text] of Object.entries(FIXTURE)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const [found, lint] = await Promise.all([violations(dir, ["--no-cache"]), lintLayers(dir)]);
  assert.deepEqual(
    [...found].sort(),
    [
      `acp-sdk-at-the-edges: acp-server/agent/wire.ts → ${SDK}`,
      `acp-sdk-types-only-in-common: common/sdk-value.ts → ${SDK}`,
      "extension-imports: extension/edge-peek.ts → acp-server/acp/edge.ts",
      "layer-runtime: acp-server/runtime/registry.ts → acp-server/checkpoints/commands/undo.ts",
      "layer-unmapped: acp-server/newthing/x.ts → acp-server/util/ndjson-lines.ts",
      "layer-util: acp-server/util/log.ts → acp-server/agent/loop.ts",
      // A cycle is reported once, at the edge where the cruise closed it.
      "no-circular: acp-server/tools/a.ts → acp-server/tools/b.ts",
      "webview-imports: webview-ui/server-peek.ts → acp-server/util/ndjson-lines.ts",
    ].sort(),
  );
  assert.notEqual(lint.code, 0, "the check lint runs fails");
  for (const rule of ["no-circular", "layer-util", "acp-sdk-at-the-edges"]) assert.match(lint.stdout, new RegExp(`error ${rule}:`));
});

test("the real tree passes, with no tolerated violations, and lint runs the check", async () => {
  const scripts = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  assert.match(scripts.lint, /&& npm run --silent lint:layers$/);
  assert.doesNotMatch(scripts["lint:layers"], /--ignore-known/, "no list of tolerated violations");
  const lint = await lintLayers(ROOT);
  assert.equal(lint.code, 0, `layer violations: fix them\n${lint.stdout}${lint.stderr}`);
  assert.match(lint.stdout, /no dependency violations found/);
});
