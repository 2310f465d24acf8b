// Sandbox tests need bubblewrap (Linux) or sandbox-exec (macOS). On CI a missing sandbox is a
// failure, not a skip: CI installs bubblewrap (.ci/run), and a silent skip would hide that the
// floor under every command is untested. Locally they skip, saying why.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { detectSandbox } from "../../acp-server/security/sandbox/detect";
import { exportablePort } from "../../acp-server/security/sandbox/port-export";
import { freePort } from "./mcp-servers";
import { makeTempDirSync } from "./temp-dirs";

/** `skip` for node:test's `describe(name, { skip }, …)`; throws on CI when there is no sandbox. */
export function sandboxSkip(): string | false {
  const detection = detectSandbox();
  if (detection.kind === "bwrap") return false;
  const why = `no usable bubblewrap: ${detection.problem ?? detection.kind}`;
  if (process.env.CI === "true") throw new Error(`Sandbox tests cannot run on CI: ${why}. .ci/run installs bubblewrap.`);
  process.stderr.write(`\n  ⚠ sandbox tests SKIPPED: ${why}\n\n`);
  return why;
}

/**
 * A fake machine: home with credentials and notes, Hermes's home, a workspace, an outside folder.
 * Under /var/tmp, which the sandbox shows (read-only), not /tmp, which it replaces: under /tmp a
 * write outside the workspace fails because the path is not there at all (ENOENT), so a test
 * would pass even if the host were mounted writable. Removed when the test process exits.
 */
export function fakeMachine() {
  const root = makeTempDirSync("hermes-test-sandbox-", "/var/tmp");
  const home = path.join(root, "home");
  const hermesHome = path.join(home, ".hermes");
  const workspace = path.join(root, "work", "project");
  const outside = path.join(root, "outside");
  for (const dir of [path.join(home, ".ssh"), path.join(home, ".aws"), hermesHome, workspace, outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(home, ".ssh", "id_rsa"), "-----BEGIN PRIVATE KEY----- secret-key-material");
  writeFileSync(path.join(home, ".aws", "credentials"), "aws_secret_access_key=abc");
  writeFileSync(path.join(home, ".npmrc"), "//registry.npmjs.org/:_authToken=npm-secret");
  writeFileSync(path.join(home, "notes.txt"), "my notes");
  // Secrets that are not credential files: a history, a browser profile, an editor's secret storage.
  writeFileSync(path.join(home, ".bash_history"), "export GITHUB_TOKEN=ghp_history_secret");
  for (const [file, content] of [
    [".mozilla/firefox/p.default/cookies.sqlite", "cookie-secret"],
    [".config/Code/User/globalStorage/state.vscdb", "vscode-secret-storage"],
  ]) {
    mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    writeFileSync(path.join(home, file), content);
  }
  writeFileSync(path.join(hermesHome, ".env"), "OPENAI_API_KEY=sk-secret");
  writeFileSync(path.join(hermesHome, "config.yaml"), "model: x\n");
  writeFileSync(path.join(outside, "keep.txt"), "keep me");
  writeFileSync(path.join(workspace, "readme.md"), "hello");
  return { root, home, hermesHome, workspace, outside };
}

/** Output of a write the sandbox refused: a read-only mount (or a permission error), never a missing path. */
export const BLOCKED_WRITE = /Read-only file system|EROFS|Permission denied|EACCES/;

/** Every file under `dir` with its content (folders as "<dir>"): equal snapshots mean nothing changed. */
export function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      const info = statSync(full);
      if (info.isDirectory()) {
        entries[full] = "<dir>";
        walk(full);
      } else entries[full] = readFileSync(full, "latin1");
    }
  };
  walk(dir);
  return entries;
}

/**
 * A free port a sandboxed server can take and Hermes will forward: the picked range holds a few
 * well-known service ports (MongoDB's 27017…) that port forwarding refuses on purpose.
 */
export async function freeExportablePort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (exportablePort(port)) return port;
  }
}
