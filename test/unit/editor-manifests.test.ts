// The files in editors/ that other programs read: the ACP registry entry, the Zed extension
// manifest and the JetBrains acp.json. Each is checked against its consumer's format and kept in
// step with package.json (name, version, bin).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EDITORS = path.join(ROOT, "editors");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
const readJson = (file: string) => JSON.parse(readFileSync(path.join(EDITORS, file), "utf8"));

// agentclientprotocol/registry's agent.schema.json (Apache-2.0; commit 3de1678 of that repository),
// kept verbatim as test data and turned into a zod schema, so the entry is checked by the
// registry's own rules rather than a paraphrase of them.
const registryAgentSchema = z.fromJSONSchema(JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/acp-registry-agent.schema.json"), "utf8")));

// Zed's agent-server manifest, written from zed.dev/docs/extensions/agent-servers and Zed's
// AgentServerManifestEntry / TargetConfig (extension manifest): name and per-platform targets
// with archive + cmd required; args, env, sha256 and icon optional.
const zedTarget = z.strictObject({
  archive: z.url(),
  cmd: z.string().min(1),
  args: z.array(z.string()).optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  env: z.record(z.string(), z.string()).optional(),
});
const zedPlatform = z.enum(["darwin-aarch64", "darwin-x86_64", "linux-aarch64", "linux-x86_64", "windows-aarch64", "windows-x86_64"]);
const zedExtension = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  version: z.string(),
  schema_version: z.number().int(),
  authors: z.array(z.string()).min(1),
  description: z.string().min(1),
  repository: z.url(),
  agent_servers: z.record(
    z.string(),
    z.strictObject({
      name: z.string().min(1),
      icon: z.string().optional(),
      env: z.record(z.string(), z.string()).optional(),
      targets: z.partialRecord(zedPlatform, zedTarget).refine((targets) => Object.keys(targets).length > 0, "at least one target"),
    }),
  ),
});

// JetBrains AI Assistant's ~/.jetbrains/acp.json (jetbrains.com/help/ai-assistant/acp.html).
const jetbrainsAcp = z.strictObject({
  agent_servers: z.record(
    z.string().min(1),
    z.strictObject({ command: z.string().min(1), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() }),
  ),
});

test("the ACP registry entry passes the registry's schema and runs this package's `acp` through npx", () => {
  const entry = readJson("acp-registry/hermes/agent.json");
  const checked = registryAgentSchema.safeParse(entry);
  assert.ok(checked.success, checked.error?.message);
  assert.equal(entry.version, pkg.version);
  assert.deepEqual(entry.distribution, { npx: { package: `${pkg.name}@${pkg.version}`, args: ["acp"] } });
  assert.equal(path.basename(path.dirname(path.join(EDITORS, "acp-registry/hermes/agent.json"))), entry.id, "the folder is named after the id");

  // The schema really constrains: entries the registry would refuse are refused here too.
  for (const bad of [
    { ...entry, id: "Hermes" },
    { ...entry, distribution: {} },
    { ...entry, distribution: { npx: { package: entry.distribution.npx.package, cwd: "/" } } },
    { ...entry, distribution: { pip: { package: "hermes" } } },
  ]) {
    assert.equal(registryAgentSchema.safeParse(bad).success, false, JSON.stringify(bad));
  }
});

test("icons are 16×16 SVGs coloured only with currentColor (the registry's rule)", () => {
  for (const file of ["acp-registry/hermes/icon.svg", "zed/icon.svg"]) {
    const svg = readFileSync(path.join(EDITORS, file), "utf8");
    assert.match(svg, /<svg[^>]*width="16"[^>]*height="16"/, file);
    for (const [, value] of svg.matchAll(/(?:fill|stroke)="([^"]*)"/g)) assert.ok(value === "currentColor" || value === "none", `${file}: ${value}`);
  }
});

test("the Zed extension manifest registers agent_servers.hermes running the npm tarball with Zed's node", () => {
  const manifest = zedExtension.parse(parseToml(readFileSync(path.join(EDITORS, "zed/extension.toml"), "utf8")));
  assert.equal(manifest.version, pkg.version);
  const server = manifest.agent_servers.hermes;
  assert.ok(server, "[agent_servers.hermes]");
  if (server.icon) assert.ok(existsSync(path.join(EDITORS, "zed", server.icon)), server.icon);
  const tarball = `https://registry.npmjs.org/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`;
  for (const [platform, target] of Object.entries(server.targets)) {
    assert.equal(target?.archive, tarball, platform);
    assert.equal(target?.cmd, "node", `${platform}: Zed's managed Node.js`);
    // npm tarballs unpack into package/, which Zed keeps; the entry must be one the package ships
    // (test/integration/install.test.ts unpacks the real tarball and runs these args).
    assert.deepEqual(target?.args, [`./package/${pkg.bin.hermes}`, "acp"], platform);
  }
  assert.ok(pkg.files.includes(pkg.bin.hermes), "the bin is in the npm package's files");
});

test("the JetBrains acp.json starts the installed `hermes acp`", () => {
  const config = jetbrainsAcp.parse(readJson("jetbrains/acp.json"));
  const hermes = config.agent_servers.Hermes;
  assert.equal(hermes.command, Object.keys(pkg.bin)[0]);
  assert.deepEqual(hermes.args, ["acp"]);
});
