// The checks `hermes doctor` runs. Each says ok, warn or fail, what it found, and for anything
// short of ok, the fix. A check never throws: whatever goes wrong inside it is its own failure.
import { existsSync, statSync, statfsSync } from "node:fs";
import path from "node:path";
import { configErrorFix } from "../config/config-error";
import type { LoadedConfig } from "../config/load";
import { probeEndpoint } from "../config/probe-endpoint";
import { probeLocalServers } from "../config/probe-local";
import { isLegacyKeySource } from "../config/endpoint-key";
import { endpointKeyVariable } from "../config/key-hosts";
import { resolveModel, type ResolvedModel } from "../config/resolve-model";
import { ConfigSchema } from "../config/schema";
import { docsPath } from "../util/docs-path";
import { findExecutable } from "../util/find-executable";
import type { Logger } from "../util/log";

export type CheckStatus = "ok" | "warn" | "fail";

export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

const ok = (name: string, detail: string): CheckResult => ({ name, status: "ok", detail });
const warn = (name: string, detail: string, fix: string): CheckResult => ({ name, status: "warn", detail, fix });
const fail = (name: string, detail: string, fix: string): CheckResult => ({ name, status: "fail", detail, fix });

const MIN_NODE_MAJOR = 20;
const DISK_FAIL_BYTES = 100 * 1024 * 1024;
const DISK_WARN_BYTES = 1024 * 1024 * 1024;

export function checkNode(version = process.versions.node): CheckResult {
  const major = Number(version.split(".")[0]);
  return major >= MIN_NODE_MAJOR
    ? ok("node", `v${version}`)
    : fail("node", `v${version} is older than Node ${MIN_NODE_MAJOR}`, `Install Node ${MIN_NODE_MAJOR} or newer (https://nodejs.org, or your version manager).`);
}

/** $HERMES_HOME holds keys, sessions and memory: nobody else may write there, and .env is the owner's alone. */
export function checkHomePermissions(home: string): CheckResult[] {
  if (!existsSync(home)) return [warn("home", `${home} does not exist yet`, "It is created on first use; `hermes acp --check` or a first chat will create it.")];
  const results: CheckResult[] = [];
  const homeMode = statSync(home).mode & 0o777;
  results.push(
    homeMode & 0o022
      ? fail("home", `${home} is writable by ${homeMode & 0o002 ? "everyone" : "its group"} (mode ${octal(homeMode)})`, `chmod go-w ${shellQuote(home)}`)
      : ok("home", `${home} (mode ${octal(homeMode)})`),
  );
  const envFile = path.join(home, ".env");
  if (existsSync(envFile)) {
    const envMode = statSync(envFile).mode & 0o777;
    results.push(
      envMode & 0o077
        ? fail(".env", `${envFile} can be read or written by others (mode ${octal(envMode)}); it holds API keys`, `chmod 600 ${shellQuote(envFile)}`)
        : ok(".env", `${envFile} (mode ${octal(envMode)})`),
    );
  }
  return results;
}

export function checkDiskSpace(home: string): CheckResult {
  let dir = home;
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  try {
    const stats = statfsSync(dir);
    const free = stats.bavail * stats.bsize;
    const text = `${formatBytes(free)} free at ${dir}`;
    if (free < DISK_FAIL_BYTES) return fail("disk", text, "Free some space: sessions and logs are written to $HERMES_HOME.");
    if (free < DISK_WARN_BYTES) return warn("disk", text, "Space is getting short for sessions and logs in $HERMES_HOME.");
    return ok("disk", text);
  } catch (error) {
    return warn("disk", `free space unknown: ${(error as Error).message}`, "Check the free space of $HERMES_HOME's disk yourself.");
  }
}

export function checkConfig(loaded: LoadedConfig): CheckResult {
  if (loaded.error) {
    return fail("config", loaded.error, configErrorFix(loaded) ?? `Fix ${loaded.configPath}.`);
  }
  if (!loaded.configFound) return warn("config", `${loaded.configPath} not found (using defaults)`, `Create it with a \`model:\` section (run \`hermes setup\`); see ${docsPath("configuration.md")}.`);
  const known = new Set(Object.keys(ConfigSchema.shape));
  const unknown = Object.keys(loaded.config).filter((key) => !known.has(key));
  if (unknown.length > 0) return warn("config", `${loaded.configPath}: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a Hermes setting" : "are not Hermes settings"} (ignored)`, `Remove or rename ${unknown.length === 1 ? "it" : "them"}; the sections are: ${[...known].join(", ")}.`);
  return ok("config", loaded.configPath);
}

/** The main model as `hermes acp` would resolve it (a running local server counts when nothing is configured). */
export async function checkModel(loaded: LoadedConfig): Promise<{ result: CheckResult; model?: ResolvedModel }> {
  const model = resolveModel(loaded);
  if (model.ok) {
    const m = model.model;
    const key = m.apiKey ? `key from ${m.apiKeySource}` : "no key";
    const detail = `${m.provider}/${m.name} at ${m.baseUrl} (${m.apiMode}, ${key})`;
    if (isLegacyKeySource(m.apiKeySource)) {
      const variable = endpointKeyVariable(m.baseUrl) ?? "its own variable";
      return { result: warn("model", detail, `Run \`hermes setup --provider ${m.provider} --base-url ${m.baseUrl} --model ${m.name}\` again: it moves the key to ${variable}, where no other provider's key can be mistaken for it.`), model: m };
    }
    return { result: ok("model", detail), model: m };
  }
  if (!loaded.error && /^No model is configured/.test(model.reason)) {
    const local = await probeLocalServers();
    if (local) return { result: ok("model", `none configured; a local ${local.provider} at ${local.baseUrl} will be used (${local.models[0]})`) };
  }
  return { result: fail("model", model.reason.split("\n\n")[0] ?? "", model.reason.split("\n\n").slice(1).join("\n\n") || `Fix ${loaded.configPath}.`) };
}

export async function checkEndpoint(loaded: LoadedConfig, model: ResolvedModel): Promise<CheckResult> {
  const probe = await probeEndpoint(model);
  if (probe.ok) return ok("endpoint", `${probe.url} ${probe.detail}`);
  const fix = probe.keyRejected
    ? model.apiKeyHint
    : `Check model.base_url in ${loaded.configPath} (or HERMES_BASE_URL) and that the server is running.`;
  return fail("endpoint", `${probe.url}: ${probe.detail}`, fix);
}

/** One real, minimal model call (a few output tokens): proves the key, the model name and the API mode together. */
export async function checkModelCall(loaded: LoadedConfig, model: ResolvedModel, timeoutMs = 60_000): Promise<CheckResult> {
  const { createProvider } = await import("../providers/create-provider");
  const { ProviderError } = await import("../providers/types");
  const provider = createProvider(model);
  // Extended thinking needs max_tokens above its budget.
  const maxTokens = (model.thinkingBudget ?? 0) + 16;
  const started = Date.now();
  let text = "";
  try {
    for await (const event of provider.stream(
      { messages: [{ role: "user", content: [{ type: "text", text: "Reply with the single word OK." }] }], tools: [], maxTokens },
      AbortSignal.timeout(timeoutMs),
    )) {
      if (event.type === "text_delta") text += event.text;
    }
    const reply = text.trim().slice(0, 40);
    return ok("model call", `${model.name} answered in ${((Date.now() - started) / 1000).toFixed(1)} s${reply ? `: "${reply}"` : ""}`);
  } catch (error) {
    const message = (error as Error).message;
    const kind = error instanceof ProviderError ? error.kind : undefined;
    const fix =
      kind === "auth"
        ? model.apiKeyHint
        : kind === "bad_request"
          ? `Check model.name ("${model.name}") and model.api_mode in ${loaded.configPath}.`
          : "Try again; if it persists, check the provider's status and your network.";
    return fail("model call", message, fix);
  }
}

/** Optional programs Hermes uses when present (the sandbox has its own check). */
export function checkPrograms(searchPath = process.env.PATH ?? "", platform = process.platform): CheckResult[] {
  const results: CheckResult[] = [];
  const git = findExecutable("git", { searchPath, platform });
  results.push(git ? ok("git", git) : warn("git", "not found on PATH", "Install git: the agent reads the branch and status for its context, and most coding work needs it."));
  const rg = findExecutable("rg", { searchPath, platform });
  results.push(rg ? ok("ripgrep", rg) : warn("ripgrep", "not found on PATH", "Install ripgrep (rg): search_files works without it, but much slower on big trees."));
  return results;
}

/**
 * The OS sandbox around local commands, as a command in `cwd` would get it: active only after a
 * probe command ran inside it with the mounts real commands use (home hidden, /tmp replaced,
 * the workspace bound, $HERMES_HOME read-only); otherwise the exact failure.
 */
export async function checkSandbox(loaded: LoadedConfig, cwd: string): Promise<CheckResult> {
  const { CommandSandbox } = await import("../security/sandbox/command-sandbox");
  const { sandboxConfig } = await import("../runtime/local-shell");
  const setting = loaded.config.terminal.sandbox;
  const sandbox = new CommandSandbox(sandboxConfig(loaded.config.terminal), () => ({ roots: [cwd], readOnlyWorkspace: false, sessionKey: "doctor", hermesHome: loaded.home }));
  const status = sandbox.status();
  if (status.active) return ok("sandbox", `${status.reason.replace(/\.$/, "")}${status.program ? `: ${status.program}` : ""}; a probe command ran inside it with ${cwd} as the workspace`);
  // The program is there but this machine's paths break it: installing it again fixes nothing.
  const fix = status.available ? probeFailureFix(loaded.configPath) : installSandboxFix();
  if (status.refuse) return fail("sandbox", status.reason, fix);
  if (setting === "off") return warn("sandbox", status.reason, `Set terminal.sandbox: auto in ${loaded.configPath} to run commands sandboxed.`);
  return warn("sandbox", status.reason, fix);
}

function probeFailureFix(configPath: string): string {
  return `The sandbox program works but not with these folders (HOME, the workspace, HERMES_HOME): the message above names the mount that failed. Until it is fixed, commands run without the sandbox (terminal.sandbox: auto in ${configPath}) and Default mode asks before any that is not read-only.`;
}

function installSandboxFix(): string {
  return process.platform === "linux"
    ? "Install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap); if it is installed, unprivileged user namespaces must be enabled."
    : "Commands run with command screening only on this platform.";
}

/** Opens the session index ($HERMES_HOME/state.db, rebuilt from the journals when missing or stale). */
export async function checkSessionIndex(home: string, log: Logger): Promise<CheckResult> {
  const dbFile = path.join(home, "state.db");
  try {
    const { SessionStore } = await import("../sessions/session-store");
    const store = new SessionStore({ home, log });
    const page = await store.list({}).finally(() => store.close());
    const count = page.sessions.length;
    return ok("sessions", `${dbFile}: index opened, ${count}${page.nextCursor ? "+" : ""} session${count === 1 ? "" : "s"}`);
  } catch (error) {
    return fail("sessions", `${dbFile}: ${(error as Error).message}`, `Move ${shellQuote(dbFile)} aside: it is only an index, rebuilt from the session journals on the next start.`);
  }
}

/** Installed plugins: a broken one is skipped by sessions, so it is a warning with its reason. */
export async function checkPlugins(home: string): Promise<CheckResult[]> {
  const { installedPlugins } = await import("../plugins/plugin-store");
  let plugins;
  try {
    plugins = installedPlugins(home);
  } catch (error) {
    return [fail("plugins", (error as Error).message, "Fix or remove the file named; `hermes plugins list` reads it.")];
  }
  if (plugins.length === 0) return [];
  return plugins.map((entry) =>
    entry.read.ok
      ? ok(`plugin ${entry.name}`, `${entry.state.enabled ? "enabled" : "disabled"}${entry.read.plugin.version ? `, v${entry.read.plugin.version}` : ""}`)
      : warn(`plugin ${entry.name}`, `skipped by sessions: ${entry.read.problem}`, `Reinstall it (hermes plugins install ${entry.state.source}) or remove it (hermes plugins remove ${entry.name}).`),
  );
}

/** The plugins this project wants (.hermes/plugins.json): one missing or off is a warning naming the command. */
export async function checkProjectPlugins(home: string, cwd: string): Promise<CheckResult[]> {
  const { projectPlugins, fixFor } = await import("../plugins/project-plugins");
  let project;
  try {
    project = projectPlugins(home, cwd);
  } catch (error) {
    return [warn("project plugins", (error as Error).message, "Fix the file named (it lists the plugins this project wants).")];
  }
  if (!project) return [];
  const off = project.wanted.filter((plugin) => plugin.status !== "enabled");
  if (off.length === 0) return [ok("project plugins", `${project.wanted.length} wanted by ${project.file}, all enabled`)];
  return [
    warn(
      "project plugins",
      `${project.file} wants ${off.map((plugin) => `${plugin.name} (${plugin.status === "missing" ? "not installed" : "disabled"})`).join(", ")}`,
      `hermes plugins install --project installs the missing ones (it asks for each); ${off.map(fixFor).join("; ")}`,
    ),
  ];
}

/** Session worktrees whose session was deleted: a warning naming `hermes worktrees prune`. */
export async function checkWorktrees(loaded: LoadedConfig, log: Logger): Promise<CheckResult[]> {
  const [{ worktreeInventory }, { worktreesRoot }, { SessionStore }] = await Promise.all([import("../worktrees/worktree-inventory"), import("../worktrees/worktree-location"), import("../sessions/session-store")]);
  const store = new SessionStore({ home: loaded.home, log });
  try {
    const entries = await worktreeInventory(worktreesRoot(loaded.home, loaded.config.worktrees.root), async (id) => (await store.read(id))?.meta);
    if (entries.length === 0) return [];
    const stale = entries.filter((entry) => !entry.sessionExists);
    if (stale.length === 0) return [ok("worktrees", `${entries.length} session worktree${entries.length === 1 ? "" : "s"}, each with its chat`)];
    const withWork = stale.filter((entry) => entry.unapplied).length;
    return [
      warn(
        "worktrees",
        `${stale.length} worktree${stale.length === 1 ? "" : "s"} of deleted chats${withWork ? ` (${withWork} with unapplied work)` : ""}`,
        `hermes worktrees prune removes those without unapplied work${withWork ? "; hermes worktrees list names the branches of the others" : ""}.`,
      ),
    ];
  } finally {
    await store.close();
  }
}

/** Connects every MCP server in config.yaml and lists its tools, within a time limit. */
export async function checkMcpServers(loaded: LoadedConfig, cwd: string, log: Logger, timeoutMs = 15_000): Promise<CheckResult[]> {
  const { configServerSpecs } = await import("../mcp/server-spec");
  const specs = configServerSpecs(loaded.config.mcp_servers, loaded.env, loaded.configPath);
  if (specs.length === 0) return [];
  const { McpBridge } = await import("../mcp/bridge");
  const bridge = new McpBridge(specs, cwd, log);
  try {
    await bridge.settle(timeoutMs);
    return bridge.states().map((state) => {
      const name = `mcp ${state.name}`;
      if (state.status === "ready") return ok(name, `${state.transport}: ${state.tools} tool${state.tools === 1 ? "" : "s"}${state.signIn ? ` (${state.signIn})` : ""}`);
      if (state.status === "needs_sign_in") return warn(name, `${state.transport}: needs sign-in (OAuth)`, `Sign in once: hermes mcp login ${state.name} (or /mcp login ${state.name} in a chat).`);
      if (state.status === "connecting") return fail(name, `${state.transport}: no answer within ${timeoutMs / 1000} s`, `Check mcp_servers.${state.name} in ${loaded.configPath}: does the command start on its own?`);
      return fail(name, `${state.transport}: ${state.error ?? state.status}`, `Check mcp_servers.${state.name} in ${loaded.configPath}.`);
    });
  } finally {
    await bridge.close();
  }
}

function octal(mode: number): string {
  return mode.toString(8).padStart(3, "0");
}

function formatBytes(bytes: number): string {
  const gb = bytes / 1024 ** 3;
  return gb >= 1 ? `${gb.toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
}

function shellQuote(text: string): string {
  return /^[\w./~-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
