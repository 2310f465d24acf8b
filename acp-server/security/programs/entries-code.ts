// Programs that run code: interpreters, awk, build tools, package managers and git (whose
// settings, hooks and transports run commands). "version-only": plan mode runs them only to
// print their version.
import type { ProgramEntry, Subcommand } from "./program-entry";

const READS: Subcommand = { effects: ["read"] };
const INTERPRETER = { versioned: true, traits: ["interpreter"] } as const;
const RUNS_CODE: Subcommand = { effects: ["runs-code"] };
const NETWORK: Subcommand = { effects: ["network"] };
/** `-c CODE`, `-Ic CODE`: python's inline code ends a cluster. */
const E_CLUSTER_C = /^-[A-Za-z]*c$/;
/** `-e CODE` (also in a cluster), `--eval CODE`, `--expr CODE`. */
const EVAL_E = /^-[A-Za-z]*e$|^--eval$|^--expr$/;
const NODE_EVAL = /^(-e|-p|-pe|--eval|--print)$/;
/** node's options that load a module before the script: code nobody has read. */
const NODE_LOADS = ["-r", "--require", "--import", "--loader"];
/** `-g`, `--global` (npm also `--location=global`), as a word of the arguments. */
const GLOBAL = "(-g|--global|--location=global)(\\s|$)";

/** git's subcommands. "read" ones are read-only for plan mode (branch, tag, config, … then have their flags checked). */
const GIT_SUBCOMMANDS: Record<string, Subcommand> = Object.fromEntries([
  ...["status", "log", "diff", "show", "blame", "annotate", "ls-files", "ls-tree", "ls-remote", "rev-parse", "rev-list", "describe", "shortlog", "grep", "cat-file", "whatchanged", "show-ref", "for-each-ref", "merge-base", "name-rev", "count-objects", "var", "check-ignore", "check-attr", "cherry", "range-diff", "version", "help", "branch", "tag", "remote", "config", "reflog", "stash", "worktree", "submodule"].map((sub) => [sub, READS] as const),
  ...["push", "fetch", "pull", "clone"].map((sub) => [sub, NETWORK] as const),
  ...["rebase", "bisect", "difftool", "mergetool", "filter-branch", "filter-repo"].map((sub) => [sub, RUNS_CODE] as const),
  ...["reset", "rm", "clean", "checkout", "restore", "switch", "gc", "prune", "update-ref"].map((sub) => [sub, { effects: ["write", "delete"] } as Subcommand] as const),
]);

export const CODE_ENTRIES: ProgramEntry[] = [
  // Interpreters (any letter case, any version suffix: `python3.12`, `Python`).
  // inlineCodeOption: the option whose next word is code (`python -c CODE`, `perl -e CODE`), in a cluster too (`python -Ic`).
  { names: ["python", "pypy"], ...INTERPRETER, traits: ["interpreter", "version-only"], valueOptions: ["-W", "-X"], inlineCodeOption: E_CLUSTER_C },
  { names: ["perl"], ...INTERPRETER, traits: ["interpreter", "version-only"], valueOptions: ["-I"], inlineCodeOption: /^-[A-Za-z]*[eE]$/ },
  { names: ["ruby", "lua"], ...INTERPRETER, traits: ["interpreter", "version-only"], valueOptions: ["-I"], inlineCodeOption: EVAL_E },
  { names: ["php", "php-cgi"], ...INTERPRETER, traits: ["interpreter", "version-only"], inlineCodeOption: /^-(r|R|B|E)$/ },
  { names: ["node"], ...INTERPRETER, traits: ["interpreter", "version-only"], inlineCodeOption: NODE_EVAL, loadsCodeOptions: NODE_LOADS, valueOptions: NODE_LOADS },
  { names: ["nodejs"], ...INTERPRETER, inlineCodeOption: NODE_EVAL, loadsCodeOptions: NODE_LOADS, valueOptions: NODE_LOADS },
  { names: ["deno"], ...INTERPRETER, traits: ["interpreter", "version-only"], installsGlobally: new RegExp(`^install\\s(.*\\s)?${GLOBAL}`), subcommands: { eval: RUNS_CODE, repl: RUNS_CODE, run: RUNS_CODE, install: RUNS_CODE, compile: RUNS_CODE, x: RUNS_CODE } },
  { names: ["bun"], ...INTERPRETER, traits: ["interpreter", "version-only", "node-package-manager"], inlineCodeOption: NODE_EVAL, runner: { after: [["x"], ["exec"]] }, installsGlobally: new RegExp(`^(add|install|i)\\s(.*\\s)?${GLOBAL}`) },
  { names: ["luajit", "rscript", "r", "julia", "osascript", "elixir", "escript"], ...INTERPRETER, inlineCodeOption: EVAL_E },
  { names: ["pwsh", "powershell"], ...INTERPRETER, inlineCodeOption: /^-(c|command|encodedcommand|ec|e)$/i },
  { names: ["tclsh", "wish", "groovy", "jshell", "irb", "jjs", "gjs", "qjs", "guile", "racket", "sbcl", "clisp", "ocaml", "ghci", "scala", "kotlin", "erl", "swift"], ...INTERPRETER, inlineCodeOption: /^(-e|-c|--eval)$/ },
  { names: ["tsx", "ts-node"], ...INTERPRETER, traits: ["interpreter", "well-known-bin"], inlineCodeOption: /^(-e|-c|--eval)$/ },
  { names: ["awk", "gawk", "mawk", "nawk", "busybox-awk"], traits: ["awk", "code-from-descriptor"], readOnly: { by: "awk-program" }, valueOptions: ["-v", "-F", "-W", "--assign", "--field-separator"], codeFileOptions: ["-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load"], codeOptions: ["-e", "--source"] },
  { names: ["expect"], runner: { opaque: /^(-c|-f|-)$|\.exp$/ } },
  // Build tools and compilers.
  { names: ["make", "gmake"], traits: ["version-only", "code-from-descriptor"], runCheck: "make-shell" },
  { names: ["tsc"], traits: ["version-only", "well-known-bin"] },
  { names: ["rustc", "java", "gcc", "clang"], traits: ["version-only"] },
  { names: ["go"], traits: ["version-only"], installsGlobally: /^install(\s|$)/, subcommands: { list: READS, env: { effects: ["read"], writesWhen: /^-(w|u)$/ }, version: READS, doc: READS, run: RUNS_CODE } },
  { names: ["cargo"], traits: ["version-only"], installsGlobally: /^install(\s|$)/, writesIntoOption: { short: [], long: ["--root", "--target-dir"] }, subcommands: { tree: READS, metadata: READS, search: READS }, destroys: [[/^(publish|yank|push|upload)/, "publishes a package"]] },
  { names: ["gem"], installsGlobally: /^install(\s|$)/, destroys: [[/^(publish|yank|push|upload)/, "publishes a package"]] },
  { names: ["twine"], destroys: [[/^(publish|yank|push|upload)/, "publishes a package"]] },
  { names: ["ldd"] },
  // Package managers.
  {
    names: ["npm"], traits: ["version-only", "node-package-manager"], runner: { after: [["exec"], ["x"]] }, runCheck: "npm-scripts",
    installsGlobally: new RegExp(`^(i|install|add|link|ln)\\s(.*\\s)?${GLOBAL}`), writesIntoOption: { short: [], long: ["--prefix"] },
    subcommands: { ls: READS, list: READS, view: READS, info: READS, outdated: READS, explain: READS, why: READS, help: READS, search: READS, config: READS, root: READS, prefix: READS, bin: READS, audit: { effects: ["read"], writesWhen: /^fix$/ } },
    destroys: [[/^(publish|unpublish|deprecate|owner|dist-tag (rm|add)|access)/, "publishes or changes a package on the registry"]],
    printsSecret: /^token (list|create)/,
  },
  {
    names: ["pnpm"], traits: ["version-only", "node-package-manager"], runner: { after: [["exec"], ["dlx"]] }, runCheck: "npm-scripts",
    installsGlobally: new RegExp(`^(i|install|add|link|ln)\\s(.*\\s)?${GLOBAL}`), writesIntoOption: { short: [], long: ["--dir", "--prefix"] },
    subcommands: { ls: READS, list: READS, outdated: READS, why: READS, view: READS, info: READS, root: READS, audit: { effects: ["read"], writesWhen: /^--fix/ } },
    destroys: [[/^(publish|unpublish|deprecate|owner|dist-tag (rm|add)|access)/, "publishes or changes a package on the registry"]],
  },
  {
    names: ["yarn"], traits: ["version-only", "node-package-manager"], runner: { after: [["exec"], ["dlx"]] },
    installsGlobally: /^global (add|upgrade)(\s|$)/, writesIntoOption: { short: [], long: ["--cwd", "--modules-folder"] },
    subcommands: { list: READS, info: READS, why: READS, outdated: READS },
    destroys: [[/^(publish|unpublish|deprecate|owner|dist-tag (rm|add)|access)/, "publishes or changes a package on the registry"]],
  },
  { names: ["npx"], traits: ["version-only", "node-runner"], wrapper: { kind: "options" }, valueOptions: ["-p", "--package", "--cache", "--userconfig"], runOptions: { long: ["--call"], short: ["-c"] } },
  { names: ["pnpx"], traits: ["node-runner"], wrapper: { kind: "options" } },
  { names: ["bunx"], traits: ["node-runner"], wrapper: { kind: "options" }, valueOptions: ["--bun"] },
  {
    names: ["pip"], versioned: true, traits: ["version-only", "pip"],
    installsGlobally: /^install\s(.*\s)?--user(\s|$)/, writesIntoOption: { short: ["-t"], long: ["--target", "--prefix", "--root", "--src"] },
    subcommands: { list: READS, show: READS, freeze: READS, check: READS, config: READS, search: READS, index: READS },
    removesPackages: /^uninstall$/,
  },
  { names: ["poetry"], runner: { after: [["run"]] }, destroys: [[/^(publish|yank|push|upload)/, "publishes a package"]] },
  { names: ["vitest", "jest", "eslint", "prettier", "mocha", "vite", "webpack", "rollup", "esbuild", "playwright", "next", "turbo", "nx", "lerna", "nodemon", "concurrently", "serve", "http-server", "knip", "depcheck"], traits: ["well-known-bin"] },
  // git: global options before the subcommand, some with a value.
  {
    names: ["git"], traits: ["o-is-not-output"], rule: "version-control", runCheck: "git-transport", readOnly: { by: "git-subcommand" },
    valueOptions: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path", "--super-prefix", "--list-cmds", "--attr-source"],
    subcommands: GIT_SUBCOMMANDS,
  },
];
