// The published package, installed the way a newcomer installs it: `npm pack`, then
// `npm install -g` into an empty prefix with a fresh HOME and an empty npm cache, and `npx`
// on the tarball. Every runtime dependency is bundled, so neither may need the registry
// (--offline proves it). Also: the build leaves dist/hermes.js executable.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { agentText, HERMES_BIN, makeTempDir, ROOT, scriptedConfig, startHermes } from "../support/acp-harness";
import { useScriptedModel } from "../support/scripted-model";
import { startServer } from "../support/web-servers";

const run = promisify(execFile);
const scripted = useScriptedModel();
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

/** A machine that has never seen Hermes or npm's cache: nothing from the developer's setup leaks in. */
async function freshMachine() {
  const dir = await makeTempDir("hermes-install-");
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("HERMES_") && !key.startsWith("npm_") && !key.endsWith("_API_KEY")) env[key] = value;
  }
  Object.assign(env, {
    HOME: path.join(dir, "home"),
    HERMES_HOME: path.join(dir, "home", ".hermes"),
    npm_config_cache: path.join(dir, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
  });
  return { dir, env, prefix: path.join(dir, "prefix") };
}

/**
 * The tarball, packed once for this file (each pack is ~1.5 s of CPU) into its own folder, then
 * copied into `destination`; returns its file name there.
 */
let packedOnce: Promise<string> | undefined;
async function packTarball(destination: string, env: Record<string, string>): Promise<string> {
  packedOnce ??= makeTempDir("hermes-pack-").then(async (folder) => path.join(folder, await packInto(folder, env)));
  const tarball = await packedOnce;
  copyFileSync(tarball, path.join(destination, path.basename(tarball)));
  return path.basename(tarball);
}

async function packInto(destination: string, env: Record<string, string>): Promise<string> {
  assert.ok(existsSync(HERMES_BIN), "dist/hermes.js is missing: run npm run build first");
  // --ignore-scripts: `prepack` would rebuild dist/ under the other tests running from it (npm test built it once).
  const { stdout } = await run(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", destination], { cwd: ROOT, env, timeout: 60_000 });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  const files = packed.files.map((f) => f.path);
  assert.ok(files.includes("dist/hermes.js") && files.includes("dist/sql-wasm.wasm") && files.includes("skills/code-review/SKILL.md"), files.join("\n"));
  assert.ok(files.includes("dist/chunks/app.mjs") && files.some((f) => /^dist\/chunks\/.+-\w+\.mjs$/.test(f)), "the lazily loaded chunks ship");
  assert.ok(files.includes("dist/vendor/playwright-core/index.mjs") && files.includes("dist/vendor/playwright-core/browsers.json"), "the browser tools' engine ships (scripts/vendor-playwright.mjs)");
  assert.ok(files.includes("dist/package.json"), "dist/package.json ships: it makes dist/hermes.js CommonJS in a type: module package");
  assert.ok(files.includes("docs/configuration.md") && files.includes("docs/cli.md"), "the docs that doctor and --help point at ship with the package");
  assert.deepEqual(
    files.filter((f) => /\.map$|extension\.cjs|webview|^acp-server\/|^test\//.test(f)),
    [],
    "the npm package carries the server only: no sources, tests, source maps or editor-extension bundles",
  );
  return packed.filename;
}

test("the packed tarball installs globally with nothing else and serves ACP; npx runs it too", async () => {
  const model = scripted();
  const { dir, env, prefix } = await freshMachine();
  const tarball = await packTarball(dir, env);

  await run(npm, ["install", "--global", "--offline", "--prefix", prefix, path.join(dir, tarball)], { env, timeout: 60_000 });
  const installed = path.join(prefix, "lib", "node_modules", pkg.name);
  assert.deepEqual(readdirSync(path.dirname(installed)), [pkg.name], "no other package was installed");
  assert.equal(existsSync(path.join(installed, "node_modules")), false, "the package has no runtime dependencies");
  const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
  assert.deepEqual(
    ["preinstall", "install", "postinstall", "prepare"].filter((script) => manifest.scripts?.[script]),
    [],
    "no install-time scripts: npm would warn and offer to run them, and a build cannot run outside a clone",
  );

  // Run the bin as a shell would: through its shebang, which needs the execute bit.
  const bin = path.join(prefix, "bin", "hermes");
  const version = await run(bin, ["--version"], { env, timeout: 30_000 });
  assert.equal(version.stdout.trim(), pkg.version);

  // The installed copy answers initialize and runs a turn: chunks, wasm and bundled skills resolve from the install.
  model.enqueue({ text: "Installed and answering." });
  const hermes = await startHermes({ bin, config: scriptedConfig(model.url), env: { HOME: env.HOME } });
  try {
    const init = await hermes.initialize();
    assert.equal(init.agentInfo?.version, pkg.version);
    const cwd = await makeTempDir();
    const { sessionId } = await hermes.newSession(cwd);
    const commands = await hermes.waitForUpdate((u) => u.sessionUpdate === "available_commands_update");
    assert.ok(
      commands.sessionUpdate === "available_commands_update" && commands.availableCommands.some((c) => c.name === "code-review"),
      "the bundled skills are found inside the installed package",
    );
    assert.equal((await hermes.prompt(sessionId, "hello")).stopReason, "end_turn");
    assert.match(agentText(hermes, sessionId), /Installed and answering\./);
    const listed = await hermes.agent.request(acp.methods.agent.session.list, { cwd });
    assert.equal(listed.sessions.length, 1, "the session index (sql.js + its wasm) works from the install");
  } finally {
    await hermes.close();
  }

  // npx on the tarball (relative path: npx runs an absolute path as a command, not a package).
  const viaNpx = await run(npx, ["--yes", "--offline", `./${tarball}`, "--version"], { cwd: dir, env, timeout: 60_000 });
  assert.equal(viaNpx.stdout.trim(), pkg.version);
});

test("an installed copy drives Debian's Chromium with the browser tools, from the engine it ships", async () => {
  const model = scripted();
  const site = await startServer({ "/": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<title>Shipped</title><h1>Engine inside the package</h1>") });
  const { dir, env, prefix } = await freshMachine();
  try {
    await run(npm, ["install", "--global", "--offline", "--prefix", prefix, path.join(dir, await packTarball(dir, env))], { env, timeout: 60_000 });
    model.enqueue({ toolCalls: [{ id: "n1", name: "browser_navigate", arguments: { url: `${site.origin}/` } }] }, { text: "Seen." });
    const config = scriptedConfig(model.url, { tools: { enabled: ["browser"] }, browser: { executable: "/usr/bin/chromium" } });
    // NODE_PATH empty and cwd outside the checkout: the engine can only come from the installed package.
    const hermes = await startHermes({ bin: path.join(prefix, "bin", "hermes"), config, env: { HOME: env.HOME, NODE_PATH: "" }, permission: "allow" });
    try {
      await hermes.initialize();
      const { sessionId } = await hermes.newSession(await makeTempDir("hermes-installed-browser-"));
      const first = model.requests.length;
      assert.equal((await hermes.prompt(sessionId, "Open the page")).stopReason, "end_turn");
      const result = JSON.stringify(model.requests[first + 1]!.body.messages.at(-1));
      assert.match(result, /Engine inside the package/, `the page was read through the shipped playwright-core: ${result}`);
    } finally {
      await hermes.close();
    }
  } finally {
    await site.close();
  }
});

test("the tarball unpacked as Zed's agent-server extension does it (top folder kept) starts with the manifest's arguments", async () => {
  const { dir, env } = await freshMachine();
  const tarball = await packTarball(dir, env);
  // Zed downloads the archive into a version folder, unpacks it there as it is, and starts
  // `node` (its own) with the target's args from that folder.
  const unpacked = path.join(dir, "zed-version-dir");
  mkdirSync(unpacked);
  await run("tar", ["-xzf", path.join(dir, tarball), "-C", unpacked], { timeout: 60_000 });
  const manifest = readFileSync(path.join(ROOT, "editors", "zed", "extension.toml"), "utf8");
  const args = JSON.parse(/^args = (\[.*\])$/m.exec(manifest)?.[1] ?? "null") as string[] | null;
  assert.ok(args, "the Zed manifest names its args");
  const entry = args[0] ?? "";
  assert.ok(existsSync(path.join(unpacked, entry)), `${entry} exists in the unpacked tarball`);
  const hermes = await startHermes({ command: [process.execPath, ...args], cwd: unpacked, config: scriptedConfig("http://127.0.0.1:9/v1"), env: { HOME: env.HOME } });
  try {
    const init = await hermes.initialize();
    assert.equal(init.agentInfo?.version, pkg.version);
  } finally {
    await hermes.close();
  }
});

// npm test builds dist/ once, with esbuild.config.mjs, and that build removes its output folder
// first: every build, a rebuild included, takes the one path checked here. (This test used to
// build twice more into a temporary folder, about 12 s, to check that same path.)
test("the build leaves dist/hermes.js executable with its shebang, and it runs directly", async () => {
  assert.equal(statSync(HERMES_BIN).mode & 0o111, 0o111, "hermes.js is executable by everyone");
  assert.match(readFileSync(HERMES_BIN, "utf8"), /^#!\/usr\/bin\/env node\n/, "the shebang is the first line");
  const { stdout } = await run(HERMES_BIN, ["--version"], { timeout: 30_000 });
  assert.equal(stdout.trim(), pkg.version, "the build runs directly");
});
