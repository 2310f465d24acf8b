// Command-screen rules for code that runs without being read: interpreter one-liners
// (`python -c`, `node -e`, `perl -e`, ...), text piped, here-doc'd or here-string'd into a
// shell or interpreter, `source` of something computed, awk/sed programs that run commands,
// variables that make the next program run other code (GIT_PAGER, LD_PRELOAD, ...), `git -c`
// settings that run commands, and a download written to a file and run by a later command.
// Literal text fed to a shell is screened as a script; everything else is unresolved.
import { parseAwk, parseSed, sedEffects } from "./awk-sed";
import path from "node:path";
import type { SimpleCommand } from "./shell-parse";
import { shellReadsStdin } from "./shell-invocation";
import { programEntry } from "./programs/registry";
import { AWKS, ASSIGNERS, CODE_FROM_DESCRIPTOR, DOWNLOADERS, EDITORS, INTERPRETERS, RUNS_TEMPLATES, SHELLS, STDIN_SHELLS, VIMS, valueOptionsOf } from "./programs/tables";
import type { Screen } from "./screen-rule";

/** Identifiers a one-liner may use and still be "trivially safe": printing, JSON, versions. */
// registry-scan: identifiers of one-line scripts (print, json, set), not programs.
const SAFE_IDENTIFIERS = new Set([
  "print", "console", "log", "info", "warn", "error", "JSON", "stringify", "parse", "process", "version", "versions", "platform", "arch",
  "argv", "sys", "stdin", "stdout", "read", "load", "loads", "dumps", "json", "import", "from", "python_version", "len", "str", "int",
  "float", "sorted", "list", "dict", "keys", "values", "items", "for", "in", "if", "else", "not", "and", "or", "True", "False", "None",
  "null", "undefined", "true", "false", "Math", "max", "min", "sum", "range", "require", "puts", "p", "say", "format", "join", "split",
  "strip", "lower", "upper", "map", "filter", "length", "Object", "entries", "Date", "now", "toISOString", "Number", "String",
  "toString", "x", "v", "k", "i", "line", "lines", "data", "d", "s", "n", "write", "exit", "encoding", "indent", "sep", "end", "trim",
  "slice", "replace", "re", "math", "sqrt", "pi", "datetime", "time", "platform", "node", "hex", "const", "let", "var", "return", "pkg",
  "name", "dependencies", "devDependencies", "scripts", "main", "type", "tuple", "set", "bool", "repr", "abs", "round", "uname", "sum",
]);

/** A one-liner that only prints or reads JSON: no identifiers beyond SAFE_IDENTIFIERS, `require` only of .json files. */
export function trivialCode(code: string): boolean {
  if (code.length > 300 || /[`\\]/.test(code)) return false;
  for (const m of code.matchAll(/\brequire\s*\(\s*(['"])([^'"]*)\1\s*\)/g)) if (!/\.json$/.test(m[2] ?? "")) return false;
  if (/\brequire\b(?!\s*\(\s*['"][^'"]*\.json['"]\s*\))/.test(code)) return false;
  const stripped = code.replace(/"(?:[^"\\\n])*"|'(?:[^'\\\n])*'/g, '""');
  if (/["']/.test(stripped.replace(/""/g, ""))) return false;
  for (const m of stripped.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*/g)) {
    if (!SAFE_IDENTIFIERS.has(m[0].replace(/^\$/, "")) && m[0] !== "$_") return false;
  }
  return true;
}

/** Options that carry inline code for an interpreter the registry gives none for. */
const DEFAULT_INLINE = /^(-e|-c|--eval)$/;

/** The inline code of an interpreter invocation (`-c`, `-e`, `eval`, ...), or undefined. */
function inlineCode(cmd: SimpleCommand): { code: string; flag: string } | undefined {
  const { program: p, args } = cmd;
  const entry = programEntry(p);
  if (entry?.subcommands?.eval && (args[0] === "eval" || args[0] === "repl")) return { code: args.slice(1).filter((a) => !a.startsWith("-")).join(" "), flag: "eval" };
  const carries = entry?.inlineCodeOption ?? DEFAULT_INLINE;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (!a.startsWith("-")) return undefined; // a script file: its code is the project's
    if (carries.test(a)) return { code: args[k + 1] ?? "", flag: a };
    if (a.startsWith("--") && a.includes("=") && /^--(eval|print|command)=/.test(a)) return { code: a.slice(a.indexOf("=") + 1), flag: a.slice(0, a.indexOf("=")) };
    // `node -r ./x`: a module loaded before anything else runs, as unread as inline code.
    if (entry?.loadsCodeOptions?.includes(a)) return { code: "", flag: a };
    if (a === "-m") return undefined; // a module: like a script file
    if (entry?.valueOptions?.includes(a)) k++;
  }
  return undefined;
}

/** Does this command take its program from stdin (`sh`, `bash -s`, `python -`, `node`)? */
export function readsScriptFromStdin(cmd: SimpleCommand): boolean {
  const { program: p, args } = cmd;
  if (SHELLS.has(p)) return shellReadsStdin(args);
  if (INTERPRETERS.has(p)) {
    if (inlineCode(cmd) !== undefined || args.includes("-m")) return false;
    // The first operand is the script file, past the options and their values (`python -W ignore`).
    const values = valueOptionsOf(p);
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!; // k < args.length
      if (a === "-" || a === "/dev/stdin") return true;
      if (a === "--") return args[k + 1] === undefined || args[k + 1] === "-" || args[k + 1] === "/dev/stdin";
      if (!a.startsWith("-")) return false;
      if (values.has(a)) k++;
    }
    return true;
  }
  if (!STDIN_SHELLS.has(p)) return false;
  const entry = programEntry(p);
  const operands = args.filter((a) => !a.startsWith("-") || a === "-");
  if (entry?.rule === "run-script-file") return operands[0] === "/dev/stdin" || operands[0] === "-";
  // `sudo -s`, `sudo -i`, `su`, `doas -s` with no command start a root shell that reads stdin.
  if (entry?.escalates) return args.every((a) => a.startsWith("-") || a === "root" || args[args.indexOf(a) - 1] === "-u");
  // `at` and `batch` read the job they schedule from stdin (unless given -f FILE).
  return !args.some((a) => /^-[a-zA-Z]*[flrcd]/.test(a));
}

/** Where the command's stdin comes from, when it carries text: a pipe, a here-document, a here-string, a file. */
function stdinText(cmd: SimpleCommand, all: SimpleCommand[]): { literals?: string[]; source: string } | undefined {
  for (const r of cmd.redirects) {
    if (r.heredoc !== undefined) return { literals: [r.heredoc], source: "a here-document" };
    if (r.op === "<<<") return r.dynamic ? { source: "a here-string computed at run time" } : { literals: [r.target], source: "a here-string" };
    if (r.op === "<") return { source: `the file ${r.target}` };
  }
  if (cmd.stage === 0) return undefined;
  const before = all.find((c) => c.pipeline === cmd.pipeline && c.stage === cmd.stage - 1 && c.depth === cmd.depth);
  if (!before) return { source: "a pipe" };
  const literalArgs = before.argWords.every((w) => w.dynamic.length === 0) && before.unresolved.length === 0;
  if ((before.program === "echo" || before.program === "printf") && literalArgs) {
    let words = before.args.filter((a, i) => !(before.program === "echo" && i === 0 && /^-[neE]+$/.test(a)));
    let joiner = " ";
    if (before.program === "printf" && words.length > 1 && /^%s(\\n|\n| )?$/.test(words[0] ?? "")) {
      joiner = "\n";
      words = words.slice(1);
    }
    // Whether `\n` is decoded depends on the shell and the program (dash's echo does, bash's does not): both readings are screened.
    const text = words.join(joiner);
    const decoded = text.replace(/\\n/g, "\n");
    return { literals: decoded === text ? [text] : [text, decoded], source: `${before.program}` };
  }
  if (before.program === "cat" && before.args.length === 0) {
    const doc = before.redirects.find((r) => r.heredoc !== undefined || (r.op === "<<<" && !r.dynamic));
    if (doc) return { literals: [doc.heredoc ?? doc.target], source: "a here-document" };
  }
  return { source: `the output of ${before.program || "a command"}` };
}

const FD_PATH = /^(\/dev\/(stdin|fd\/\d+)|\/proc\/self\/fd\/\d+)$/;

export function checkCodeFedToShell(s: Screen, cmd: SimpleCommand, all: SimpleCommand[]): void {
  const p = cmd.program;
  // A program's code read from a descriptor (`bash /dev/fd/3`, `make -f /dev/stdin`, `bash <&3`).
  if ((SHELLS.has(p) || INTERPRETERS.has(p) || CODE_FROM_DESCRIPTOR.has(p)) && (cmd.args.some((a) => FD_PATH.test(a)) || cmd.redirects.some((r) => r.op === "<&" && /^\d+$/.test(r.target) && r.fd === undefined))) {
    const input = stdinText(cmd, all);
    if (cmd.args.includes("/dev/stdin") && input?.literals && (SHELLS.has(p) || programEntry(p)?.rule === "run-script-file")) {
      for (const literal of input.literals) s.nested(literal, `${input.source} | ${p}`);
      return;
    }
    s.unresolved("code-on-stdin", `${p} runs code it reads from a pipe or descriptor at run time`);
    return;
  }
  if (!readsScriptFromStdin(cmd)) return;
  const input = stdinText(cmd, all);
  if (!input) return;
  const shell = SHELLS.has(p) || STDIN_SHELLS.has(p);
  if (shell && input.literals !== undefined) {
    // `bash <<EOF` is parsed by the parser already; a pipe from echo/cat is screened here.
    if (cmd.stage > 0 || !SHELLS.has(p)) for (const literal of input.literals) s.nested(literal, `${input.source} | ${p}`);
    return;
  }
  if (shell && /^the file (\/dev\/(stdin|fd\/|tcp\/|udp\/)|\/proc\/self\/fd\/)/.test(input.source)) {
    s.unresolved("code-on-stdin", `${p} runs code it reads from ${input.source.slice(9)} at run time`);
    return;
  }
  if (shell && input.source.startsWith("the file ")) {
    s.executes(input.source.slice(9), p);
    return;
  }
  s.unresolved("code-on-stdin", `${p} runs code it reads from ${input.source}, which cannot be checked before it runs`);
}

export function checkInterpreter(s: Screen, cmd: SimpleCommand): void {
  const p = cmd.program;
  if (!INTERPRETERS.has(p)) return;
  const inline = inlineCode(cmd);
  if (inline) {
    if (inline.code === "" || !trivialCode(inline.code)) {
      s.unresolved("interpreter-code", `${p} ${inline.flag} runs inline code that cannot be checked before it runs${inline.code ? ` (${clip(inline.code)})` : ""}`);
      // Code that names Hermes's state (`open('~/.hermes/config.yaml','a')`) may be writing it: never in dont_ask.
      if (/\.hermes\b|HERMES_HOME/i.test(inline.code) || inline.code.includes(s.st.hermesHome)) s.add("dangerous", "hermes-state", `${p} ${inline.flag} runs code that names Hermes's own state folder`);
    }
    return;
  }
  if (p === "deno" && ["run", "install", "compile"].includes(cmd.args[0] ?? "") && cmd.args.some((a) => /^https?:\/\//.test(a))) {
    s.unresolved("download-run", `deno ${cmd.args[0]} runs code straight from the internet`);
  }
  const script = cmd.args.find((a) => !a.startsWith("-"));
  if (script !== undefined) s.executes(script, p);
}

/** Editors told to run commands (`vim -c '!...'`), and runners of command templates (`parallel`). */
export function checkCommandRunners(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  // vim's -c/-S/-u/-s (a script of keystrokes)/-e/-E (ex mode, commands on stdin) in any cluster (`ex -sc '%d|x'`).
  const vimScript = (a: string) => VIMS.has(p) && /^-[A-Za-z]*[cSsueE]/.test(a);
  if (EDITORS.has(p) && args.some((a) => vimScript(a) || /^(-c|--cmd|-S|--eval|-batch|--batch|-l|--load|-x|--exec|--script|-f|--funcall|-u)$/.test(a) || /^--(eval|load|funcall|script)=/.test(a) || /^\+./.test(a))) {
    s.unresolved("editor-command", `${p} is told to run editor commands, which can run shell commands`);
  }
  if (RUNS_TEMPLATES.has(p)) s.unresolved("xargs", `${p} runs commands built from input read at run time`);
}

export function checkAwkSed(s: Screen, cmd: SimpleCommand): void {
  const { program: p, args } = cmd;
  if (AWKS.has(p)) {
    const awk = parseAwk(args);
    if (awk.loadsCode.length > 0) s.unresolved("awk-program-file", `${p} loads code screening cannot read (${awk.loadsCode.join(", ")})`);
    for (const prog of awk.programs) {
      if (/\bsystem\s*\(|\|\s*getline|\|\s*["'a-zA-Z_$]|\|&/.test(prog)) s.unresolved("awk-runs-commands", `${p} runs shell commands from its program (system() or a pipe)`);
      for (const [, file = ""] of prog.matchAll(/>>?\s*"([^"]+)"/g)) s.write(file, p);
    }
    if (awk.inplace) for (const f of awk.files) if (!/^[A-Za-z_]\w*=/.test(f)) s.write(f, `${p} -i inplace`);
  } else if (p === "sed") {
    const sed = parseSed(args);
    if (sed.scriptFiles.length > 0) s.unresolved("sed-script-file", `sed runs the script file ${sed.scriptFiles.join(", ")}, which screening cannot read`);
    for (const text of sed.scripts) {
      const effects = sedEffects(text);
      if (effects.runs) s.unresolved("sed-runs-commands", "sed's e command runs shell commands from its script");
      for (const file of effects.writes) {
        if (file === "" || file === "/dev/stdout" || file === "/dev/stderr") continue;
        s.write(file, "sed w");
        s.add("dangerous", "sed-writes", `sed's w command writes to ${file}`);
      }
    }
  }
}

/** Variables that make the next program run other code, or load code into it. */
const COMMAND_VARS = /^(GIT_PAGER|PAGER|MANPAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_SSH|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|LESSOPEN|LESSCLOSE|BROWSER|TERMINAL)$/;
const CODE_VARS = /^(LD_PRELOAD|LD_AUDIT|LD_LIBRARY_PATH|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH|BASH_ENV|ENV|PROMPT_COMMAND|PS4|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|NODE_PATH|GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_KEY_\d+|GIT_CONFIG_VALUE_\d+|GIT_EXEC_PATH|GIT_TEMPLATE_DIR|GIT_DIR|GIT_WORK_TREE|GIT_CONFIG|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|IFS|SHELLOPTS|BASHOPTS|PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|RUSTC_WRAPPER|RUSTC_WORKSPACE_WRAPPER|RUSTC|CARGO_BUILD_RUSTC_WRAPPER|TAR_OPTIONS|PSQLRC|MYSQL_HOME|CURL_HOME|WGETRC|INPUTRC|VIMINIT|EXINIT|MYVIMRC|GVIMINIT|MAKEFLAGS|GNUMAKEFLAGS|MFLAGS|PYTHONWARNINGS|PYTHONBREAKPOINT|PYTHONUSERBASE|NPM_CONFIG_USERCONFIG|NPM_CONFIG_GLOBALCONFIG|BASH_XTRACEFD)$/i;

export function checkEnvAssignments(s: Screen, cmd: SimpleCommand): void {
  const declared = ASSIGNERS.has(cmd.program) ? cmd.args : [];
  for (const assignment of [...cmd.assignments, ...declared]) {
    const eq = assignment.indexOf("=");
    if (eq <= 0) continue;
    const name = assignment.slice(0, eq).replace(/\+$/, "");
    const value = assignment.slice(eq + 1);
    if (COMMAND_VARS.test(name)) {
      if (value !== "") s.nested(value, name);
      // `PAGER=./x git log`: a file of the workspace run behind another program's back is
      // hidden code, not a visible `./x`: unresolved (plan refuses, dont_ask only sandboxed).
      if (/^\s*[^\s]*\//.test(value)) s.unresolved("env-code", `${name}=${clip(value)} makes the next program run that file`);
    } else if (name === "NODE_OPTIONS") {
      if (/(^|\s)(-r|--require|--import|--loader|--experimental-loader|--eval|-e)(\s|=|$)/.test(value)) s.unresolved("env-code", `NODE_OPTIONS=${clip(value)} loads code into every node process`);
    } else if (name === "PATH") {
      const dirs = value.split(":").filter((d) => d !== "" && !d.startsWith("$"));
      if (dirs.some((d) => !d.startsWith("/") || d.startsWith("/tmp") || d.startsWith("/dev/shm"))) s.unresolved("env-code", `PATH=${clip(value)} puts a folder that may hold anything ahead of the system commands`);
    } else if (CODE_VARS.test(name) || /^BASH_FUNC_/.test(name)) {
      s.unresolved("env-code", `${name}=${clip(value)} makes the next program load or run other code`);
    }
  }
}

/** git settings whose value is a command git runs (or that pull in more settings). */
export const GIT_EXEC_KEY = /^(core\.(pager|editor|sshcommand|fsmonitor|hookspath|gitproxy|askpass|attributesfile)|alias\..+|diff\..+\.(command|textconv)|diff\.external|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential\..*helper|pager\..+|sequence\.editor|gpg\.program|gpg\..+\.program|uploadpack\.packobjectshook|protocol\..*allow|remote\..+\.(receivepack|uploadpack|proxy)|.+\.command|include\.path|includeif\..+)$/i;

/** `git -c core.pager=...`, `git config alias.x '!...'`: settings that run commands. */
export function checkGitExec(s: Screen, args: string[]): void {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (a === "-c" || a === "--config-env") {
      const kv = args[k + 1] ?? "";
      const key = kv.slice(0, kv.includes("=") ? kv.indexOf("=") : kv.length);
      if (GIT_EXEC_KEY.test(key)) {
        s.unresolved("git-config-exec", `git -c ${key} makes git run a command of the caller's choosing`);
        if (kv.includes("=")) s.nested(kv.slice(kv.indexOf("=") + 1).replace(/^!/, ""), `git -c ${key}`);
      }
      k++;
      continue;
    }
    const next = args[k + 1];
    if (a.startsWith("--exec-path=") || (a === "--exec-path" && next !== undefined && !next.startsWith("-"))) {
      s.unresolved("git-config-exec", "git --exec-path makes git run its commands from another folder");
      continue;
    }
    // `--git-dir=x`: git reads x/config, whose fsmonitor, pager or hooks run commands.
    if (/^--(git-dir|work-tree)(=|$)/.test(a)) s.unresolved("git-config-exec", `git ${a.replace(/=.*/, "")} makes git read the settings (which may run commands) of another repository`);
    if (/^(-C|--git-dir|--work-tree|--namespace|--super-prefix|--list-cmds|--attr-source)$/.test(a)) {
      k++;
      continue;
    }
    if (!a.startsWith("-")) {
      const rest = args.slice(k + 1);
      if ((a === "init" || a === "clone") && rest.some((x) => x === "--template" || x.startsWith("--template="))) {
        s.add("dangerous", "git-template", `git ${a} --template copies hooks from that folder into the new repository, where git runs them later, outside any sandbox`);
      }
      if (a === "clone") {
        rest.forEach((x, i) => {
          const kv = x === "-c" || x === "--config" ? rest[i + 1] ?? "" : x.startsWith("--config=") ? x.slice(9) : /^-c./.test(x) ? x.slice(2) : undefined;
          if (kv === undefined) return;
          const key = kv.slice(0, kv.includes("=") ? kv.indexOf("=") : kv.length);
          if (GIT_EXEC_KEY.test(key)) {
            s.unresolved("git-config-exec", `git clone -c ${key} saves a setting in the new repository that makes git run a command`);
            if (kv.includes("=")) s.nested(kv.slice(kv.indexOf("=") + 1).replace(/^!/, ""), `git clone -c ${key}`);
          }
        });
      }
      if (a === "credential" || a === "credential-store" || a === "credential-cache") {
        if (rest.some((x) => /^(fill|get|approve|store)$/.test(x))) s.add("dangerous", "read-credentials", `git ${a} ${rest.find((x) => !x.startsWith("-"))} reads or stores your saved git credentials`);
      }
      if (a === "config") {
        const rest = args.slice(k + 1).filter((x, i, all) => !x.startsWith("-") && !/^(-f|--file|--blob|--type|--default|--comment)$/.test(all[i - 1] ?? ""));
        const [key, value] = rest;
        if (key !== undefined && value !== undefined && GIT_EXEC_KEY.test(key)) {
          s.unresolved("git-config-exec", `git config ${key} saves a setting that makes git run a command`);
          s.nested(value.replace(/^!/, ""), `git config ${key}`);
        }
      }
      return;
    }
  }
}

/** Files a downloader writes in this line (`curl -o x`, `curl -O url/x`, `wget url/x`, `wget -O x`). */
export function downloadedFiles(p: string, args: string[]): string[] {
  if (!DOWNLOADERS.has(p)) return [];
  const files: string[] = [];
  let named = false;
  let remoteName = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if ((p === "curl" && (a === "-o" || a === "--output" || /^-[a-zA-Z]+o$/.test(a))) || (p !== "curl" && (a === "-O" || a === "--output-document" || a === "-o"))) {
      const file = args[k + 1];
      if (file !== undefined && file !== "-") files.push(file);
      named = true;
      k++;
    } else if (/^--output(-document)?=/.test(a)) {
      files.push(a.slice(a.indexOf("=") + 1));
      named = true;
    } else if (p === "curl" && (a === "-O" || a === "--remote-name" || a === "--remote-name-all" || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a))) remoteName = true;
  }
  if (!named && (p !== "curl" || remoteName)) {
    for (const a of args) if (/^(https?|ftp):\/\//.test(a)) files.push(path.posix.basename(a.replace(/[?#].*$/, "")) || "index.html");
  }
  return files;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
