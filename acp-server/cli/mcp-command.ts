// `hermes mcp [list] | login NAME | logout NAME`: config.yaml's MCP servers (and the enabled
// plugins') with their sign-in state, a sign-in ahead of time (the link printed and opened in
// the browser, the redirect awaited on the loopback listener, then the server's tools counted),
// and signing out (the stored tokens deleted). Sessions read the same store
// ($HERMES_HOME/mcp-auth/), so a sign-in here serves every editor and chat.
import { describeConfigError } from "../config/config-error";
import { loadConfig } from "../config/load";
import { McpConnection } from "../mcp/connection";
import { describeSignIn } from "../mcp/oauth/auth-state";
import { McpAuthStore } from "../mcp/oauth/auth-store";
import { SIGN_IN_TIMEOUT_MS } from "../mcp/oauth/server-sign-in";
import type { McpServerSpec } from "../mcp/server-spec";
import { configuredSpecs } from "../runtime/session-mcp";
import { configureLogging, createLogger } from "../util/log";
import { checkFlags, parseArgs, printJson, runCommand, UsageError } from "./cli-output";
import { openInBrowser } from "./open-browser";

export async function runMcpCli(args: string[]): Promise<number> {
  return runCommand("mcp", async () => {
    const parsed = parseArgs(args);
    checkFlags(parsed, ["json"]);
    const [verb = "list", name, ...rest] = parsed.words;
    if (rest.length > 0) throw new UsageError(`unexpected arguments: ${rest.join(" ")}`);
    const json = parsed.flags.has("json");
    const loaded = loadConfig();
    if (loaded.error) {
      process.stderr.write(describeConfigError(loaded));
      return 2;
    }
    configureLogging({ home: loaded.home, stderrLevel: "error" });
    const log = createLogger("mcp");
    const specs = configuredSpecs(loaded);
    if (verb === "list") {
      const rows = specs.map((spec) => ({ name: spec.name, transport: spec.transport.kind, target: target(spec), signIn: signInState(spec, log) ?? null, ...(spec.problem ? { problem: spec.problem } : {}) }));
      if (json) printJson(rows);
      else if (rows.length === 0) process.stderr.write("No MCP servers in config.yaml (`mcp_servers:`) or enabled plugins.\n");
      else for (const row of rows) process.stdout.write(`${row.name.padEnd(20)} ${row.transport.padEnd(6)} ${row.target}${row.signIn ? `  (${row.signIn})` : ""}${row.problem ? `  [${row.problem}]` : ""}\n`);
      return 0;
    }
    if (verb !== "login" && verb !== "logout") throw new UsageError(`unknown mcp command "${verb}" (list, login NAME, logout NAME)`);
    if (!name) throw new UsageError(`${verb} needs the server's name (hermes mcp list shows them)`);
    const spec = specs.find((each) => each.name === name);
    if (!spec) throw new UsageError(`no MCP server is named "${name}" in config.yaml${specs.length ? ` (there are: ${specs.map((each) => each.name).join(", ")})` : ""}`);
    if (spec.transport.kind === "stdio") throw new UsageError(`"${name}" runs as a local program: it has no sign-in`);
    if (verb === "logout") {
      const removed = new McpAuthStore(spec.transport.url, name, log).remove();
      if (json) printJson({ server: name, signedOut: removed });
      else process.stdout.write(removed ? `Signed out of ${name}: its stored tokens are deleted.\n` : `${name} had no stored sign-in; nothing to delete.\n`);
      return 0;
    }
    return login(spec, log, json);
  });
}

async function login(spec: McpServerSpec, log: ReturnType<typeof createLogger>, json: boolean): Promise<number> {
  const connection = new McpConnection(spec, process.cwd(), log, () => {});
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  process.once("SIGINT", onInterrupt);
  try {
    await connection.login((url) => {
      process.stderr.write(`Sign in to ${spec.name} in your browser:\n\n  ${url.href}\n\n`);
      process.stderr.write(openInBrowser(url.href) ? "(opened in your browser; waiting for it to come back, Ctrl-C to stop)\n" : "(open it yourself; waiting for the browser to come back, Ctrl-C to stop)\n");
    }, AbortSignal.any([stop.signal, AbortSignal.timeout(SIGN_IN_TIMEOUT_MS)]));
    const state = connection.signIn ? describeSignIn(connection.signIn.store.read(), false) : undefined;
    const tools = connection.tools.length;
    if (json) printJson({ server: spec.name, signIn: state ?? null, tools });
    else process.stdout.write(`${state ? `${state[0]!.toUpperCase()}${state.slice(1)}` : "Connected"} to ${spec.name}: ${tools} tool${tools === 1 ? "" : "s"}.\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return stop.signal.aborted ? 130 : 1;
  } finally {
    process.off("SIGINT", onInterrupt);
    await connection.close();
  }
}

function target(spec: McpServerSpec): string {
  return spec.transport.kind === "stdio" ? [spec.transport.command, ...spec.transport.args].join(" ") : spec.transport.url;
}

function signInState(spec: McpServerSpec, log: ReturnType<typeof createLogger>): string | undefined {
  if (spec.transport.kind === "stdio" || spec.transport.oauth === false) return undefined;
  return describeSignIn(new McpAuthStore(spec.transport.url, spec.name, log).read(), false) ?? "no sign-in stored";
}
