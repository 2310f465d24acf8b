// Commands that fetch a package from the internet and run its code now: `npx PKG` when PKG is
// not installed in the project, `pnpm dlx`, `yarn dlx`, `uvx`, `pipx run`, `npm create`,
// `go run MODULE@VERSION`, and installs from a URL, a git repository or another index
// (`npm i https://…`, `pip install git+…`, `pip install -i URL`), which run the package's
// install scripts. Each asks ("remote-package"): what runs is whatever the package's author
// published, which nobody has read. Plain `npm install` / `pip install NAME` from the
// project's usual registry stay as they are.
import { existsSync } from "node:fs";
import path from "node:path";
import type { SimpleCommand } from "./shell-types";
import type { Screen } from "./screen-rule";
import { INTERPRETERS, NODE_PACKAGE_MANAGERS, NODE_RUNNERS, PIPS, WELL_KNOWN_BINS } from "./programs/tables";

/** A package spec that is not a name on the registry: a URL, a git repository, `user/repo`, a tarball. */
const REMOTE_SPEC = /^(https?:|git\+|git:|ssh:|github:|gitlab:|bitbucket:|gist:|svn\+|hg\+|bzr\+|[\w.-]+\/[\w.-]+(#.*)?$)|\.(tgz|tar\.gz|whl|zip)$/i;

/** Is `bin` in a `node_modules/.bin` between the command's folder and the workspace root (or the file system root)? */
function installedLocally(s: Screen, bin: string): boolean {
  const stop = s.st.workspace ?? "/";
  for (let dir = s.st.cwd; ; dir = path.posix.dirname(dir)) {
    if (existsSync(path.posix.join(dir, "node_modules", ".bin", bin))) return true;
    if (dir === stop || dir === path.posix.dirname(dir)) return false;
  }
}

/** The package `npx [-p PKG] [options] PKG…` runs, read from the command's text. */
function runnerPackage(raw: string, runner: string): string | undefined {
  const words = raw.trim().split(/\s+/);
  for (let i = words.findIndex((w) => path.posix.basename(w) === runner) + 1; i > 0 && i < words.length; i++) {
    const w = words[i] ?? "";
    if (w === "-p" || w === "--package") return words[i + 1];
    if (w.startsWith("--package=")) return w.slice(10);
    if (!w.startsWith("-")) return w.replace(/^['"]|['"]$/g, "");
  }
  return undefined;
}

export function checkRemotePackage(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  const remote = (what: string) => s.add("dangerous", "remote-package", `${what}: code nobody has read runs on this machine`);
  const runner = cmd.wrappers.findLast((w) => NODE_RUNNERS.has(w));
  if (runner !== undefined && p !== "") {
    // `npx -p PKG cmd`, `npx PKG@1.2`, `npx github:user/repo`: the package may be named apart from the command.
    const spec = runnerPackage(cmd.raw, runner) ?? p;
    const name = spec.replace(/^@[^/]+\//, "").replace(/@.*$/, "");
    const bare = !/[:/]/.test(spec) || /^@[^/]+\/[^/@:]+(@.*)?$/.test(spec);
    if (!(bare && (installedLocally(s, p) || (WELL_KNOWN_BINS.has(name) && name === p)))) remote(`${runner} ${spec} downloads the package and runs it`);
    return;
  }
  const sub = args.find((a) => !a.startsWith("-"));
  const operands = args.slice(args.indexOf(sub ?? "") + 1).filter((a) => !a.startsWith("-"));
  if (NODE_PACKAGE_MANAGERS.has(p)) {
    if ((p === "pnpm" || p === "yarn") && sub === "dlx") remote(`${p} dlx downloads a package and runs it`);
    else if (["create", "init", "innit"].includes(sub ?? "") && operands.length > 0) remote(`${p} ${sub} ${operands[0]} downloads a starter package and runs it`);
    else if ((p === "npm" && (sub === "exec" || sub === "x")) || (p === "bun" && sub === "x")) {
      const pkg = /(?:^|\s)--package[= ](\S+)/.exec(cmd.raw)?.[1] ?? operands[0];
      if (pkg !== undefined && (REMOTE_SPEC.test(pkg) || !(installedLocally(s, pkg) || WELL_KNOWN_BINS.has(pkg)))) remote(`${p} ${sub} ${pkg} downloads the package and runs it`);
    } else if (["install", "i", "add", "isntall", "in"].includes(sub ?? "")) {
      const from = operands.find((o) => REMOTE_SPEC.test(o) && !o.startsWith("@"));
      if (from !== undefined) remote(`${p} ${sub} ${from} installs a package from outside the registry, and its install scripts run`);
      if (args.some((a) => /^--registry(=|$)/.test(a))) remote(`${p} ${sub} --registry installs from another registry, and its install scripts run`);
    }
    return;
  }
  const pipArgs = PIPS.has(p) ? args : INTERPRETERS.has(p) && args[0] === "-m" && PIPS.has(args[1] ?? "") ? args.slice(2) : p === "uv" && args[0] === "pip" ? args.slice(1) : undefined;
  if (pipArgs && pipArgs.find((a) => !a.startsWith("-")) === "install") {
    const from = pipArgs.find((a) => /^(https?:|git\+|svn\+|hg\+|bzr\+|file:)/.test(a));
    if (from !== undefined) remote(`pip install ${from} installs a package from a URL or repository, and its build scripts run`);
    const index = pipArgs.find((a) => /^(-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host)(=|$)/.test(a));
    if (index !== undefined) remote(`pip install ${index} installs from another package index, and its build scripts run`);
    return;
  }
  if (p === "uvx" || (p === "pipx" && sub === "run") || (p === "uv" && args[0] === "tool" && args[1] === "run")) remote(`${p} downloads a Python tool and runs it`);
  else if (p === "go" && sub === "run" && operands.some((o) => /^[\w-]+\.[\w.-]+\//.test(o) || o.includes("@"))) remote("go run MODULE@VERSION downloads a module and runs it");
  else if (p === "gem" && sub === "install" && args.some((a) => /^(-s|--source|--clear-sources)(=|$)/.test(a))) remote("gem install --source installs from another gem server");
  else if (p === "deno" && ["run", "x"].includes(sub ?? "") && operands.some((o) => /^(npm:|jsr:)/.test(o))) remote(`deno ${sub} downloads a package and runs it`);
}
