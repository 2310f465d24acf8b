// Unwraps the prefixes that run another command — assignments, `sudo`, `doas`, `env`,
// `nice`, `timeout`, `xargs`, `command`, `exec`, ... — to reach the real program, and finds
// the scripts that commands hand to a shell (`bash -c '...'`, `eval`, `watch`, `su -c`,
// `env -S`, `find -exec`, a here-document fed to `sh`). Nested scripts are parsed through
// the callback the parser passes in, so they are screened like the typed line.
import type { Redirect, SimpleCommand } from "./shell-types";

const SKIPPED_KEYWORDS = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Strip a leading backslash and take the basename of a path, as the shell would resolve it. */
export function normaliseProgram(word: string): string {
  let name = word;
  while (name.startsWith("\\")) name = name.slice(1);
  if (name.includes("/") && !name.includes("$(") && !name.includes("`")) {
    const trimmed = name.replace(/\/+$/, "");
    name = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  }
  return name;
}

/** Skip options of a wrapper; `withArg` options consume the following word. Returns the index of the first operand. */
function skipOptions(words: string[], k: number, withArg: Set<string>, opts: { stopAtAssignment?: boolean } = {}): number {
  while (k < words.length) {
    const w = words[k];
    if (w === "--") return k + 1;
    if (!w.startsWith("-") || w === "-") return k;
    if (opts.stopAtAssignment && ASSIGNMENT.test(w)) return k;
    if (w.startsWith("--")) {
      const name = w.includes("=") ? w.slice(0, w.indexOf("=")) : w;
      k += withArg.has(name) && !w.includes("=") ? 2 : 1;
      continue;
    }
    // A short cluster: the last letter may take an argument (`-u root`, `-uroot`).
    const last = "-" + w[w.length - 1];
    const first = "-" + w[1];
    if (w.length === 2 && withArg.has(w)) k += 2;
    else if (w.length > 2 && withArg.has(first)) k += 1; // argument glued on: -uroot
    else if (withArg.has(last)) k += 2;
    else k += 1;
  }
  return k;
}

const SUDO_ARGS = new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", "--host", "--command-timeout", "--chroot"]);
const DOAS_ARGS = new Set(["-u", "-C"]);
const ENV_ARGS = new Set(["-u", "-C", "-S", "--unset", "--chdir", "--split-string", "-P"]);
const NICE_ARGS = new Set(["-n", "--adjustment"]);
const TIME_ARGS = new Set(["-f", "-o", "--format", "--output"]);
const TIMEOUT_ARGS = new Set(["-s", "-k", "--signal", "--kill-after"]);
const XARGS_ARGS = new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--max-procs", "--max-lines", "--delimiter", "--eof", "--max-chars", "--arg-file", "--replace", "--process-slot-var"]);
const IONICE_ARGS = new Set(["-c", "-n", "--class", "--classdata"]);
const STDBUF_ARGS = new Set(["-i", "-o", "-e", "--input", "--output", "--error"]);
const EXEC_ARGS = new Set(["-a"]);
const WATCH_ARGS = new Set(["-n", "--interval", "-q", "--equexit", "-s", "--shotsdir"]);
const SHELL_ARGS = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);

export interface Built {
  main: SimpleCommand;
  nested: SimpleCommand[];
}

export interface CommandBase {
  redirects: Redirect[];
  raw: string;
  pipeline: number;
  stage: number;
  depth: number;
  wrappers: string[];
}

/** Parses a nested script at the given depth, with the wrappers that led to it. */
export type ParseScript = (src: string, depth: number, wrappers: string[]) => SimpleCommand[];

/** Unwrap prefixes (assignments, sudo, env, xargs, ...) and find nested scripts. */
export function fromWords(words: string[], base: CommandBase, parseScript: ParseScript): Built {
  const wrappers = base.wrappers;
  const assignments: string[] = [];
  const nested: SimpleCommand[] = [];
  const make = (program: string, args: string[]): SimpleCommand => ({
    program,
    args,
    redirects: base.redirects,
    raw: base.raw,
    wrappers: [...wrappers],
    assignments,
    pipeline: base.pipeline,
    stage: base.stage,
    depth: base.depth,
  });
  const script = (src: string, via: string): void => {
    nested.push(...parseScript(src, base.depth + 1, [...wrappers, via]));
  };

  let k = 0;
  for (let guard = 0; guard < 64; guard++) {
    while (k < words.length && ASSIGNMENT.test(words[k])) assignments.push(words[k++]);
    if (k >= words.length) return { main: make("", []), nested };
    const word = words[k];
    if (SKIPPED_KEYWORDS.has(word)) {
      k++;
      continue;
    }
    const name = normaliseProgram(word);
    const rest = (from: number) => words.slice(from);
    let next = -1;
    switch (name) {
      case "sudo":
        next = skipOptions(words, k + 1, SUDO_ARGS);
        break;
      case "doas":
        next = skipOptions(words, k + 1, DOAS_ARGS);
        break;
      case "pkexec":
        next = skipOptions(words, k + 1, new Set(["--user"]));
        break;
      case "env": {
        const args = rest(k + 1);
        for (let a = 0; a < args.length; a++) {
          if (args[a] === "-S" || args[a] === "--split-string") {
            if (args[a + 1] !== undefined) script(args[a + 1], "env -S");
          } else if (args[a].startsWith("--split-string=")) script(args[a].slice(15), "env -S");
          else if (/^-[^-]*S./.test(args[a])) script(args[a].slice(args[a].indexOf("S") + 1), "env -S");
        }
        next = skipOptions(words, k + 1, ENV_ARGS, { stopAtAssignment: true });
        break;
      }
      case "nohup":
      case "builtin":
      case "setsid":
      case "busybox":
      case "unbuffer":
        next = k + 1;
        break;
      case "nice":
        next = skipOptions(words, k + 1, NICE_ARGS);
        break;
      case "time":
        next = skipOptions(words, k + 1, TIME_ARGS);
        break;
      case "ionice":
        next = skipOptions(words, k + 1, IONICE_ARGS);
        break;
      case "stdbuf":
        next = skipOptions(words, k + 1, STDBUF_ARGS);
        break;
      case "timeout": {
        const d = skipOptions(words, k + 1, TIMEOUT_ARGS);
        next = d < words.length ? d + 1 : d;
        break;
      }
      case "xargs": {
        const after = skipOptions(words, k + 1, XARGS_ARGS);
        if (after >= words.length) return { main: make("xargs", rest(k + 1)), nested };
        next = after;
        break;
      }
      case "command": {
        const after = skipOptions(words, k + 1, new Set());
        if (words.slice(k + 1, after).some((w) => /^-[a-zA-Z]*[vV]/.test(w))) return { main: make("command", rest(k + 1)), nested };
        next = after;
        break;
      }
      case "exec":
        next = skipOptions(words, k + 1, EXEC_ARGS);
        break;
      default:
        break;
    }
    if (next >= 0) {
      if (next >= words.length) return { main: make(name, rest(k + 1)), nested };
      wrappers.push(name);
      k = next;
      continue;
    }

    const args = rest(k + 1);
    const main = make(name, args);
    if (SHELLS.has(name)) {
      const src = shellScript(args);
      if (src !== undefined) script(src, `${name} -c`);
      else {
        // `bash <<EOF ... EOF` and `bash <<< "..."` feed the shell its script on stdin.
        for (const r of base.redirects) {
          if (r.heredoc !== undefined) script(r.heredoc, `${name} <<`);
          else if (r.op === "<<<") script(r.target, `${name} <<<`);
        }
      }
    } else if (name === "eval") {
      if (args.length > 0) script(args.join(" "), "eval");
    } else if (name === "watch") {
      // watch joins its arguments and runs them with `sh -c`.
      const from = skipOptions(args, 0, WATCH_ARGS);
      if (from < args.length) script(args.slice(from).join(" "), "watch");
    } else if (name === "su") {
      for (let a = 0; a < args.length; a++) {
        if ((args[a] === "-c" || args[a] === "--command") && args[a + 1] !== undefined) script(args[a + 1], "su -c");
        else if (args[a].startsWith("--command=")) script(args[a].slice(10), "su -c");
      }
    } else if (name === "find") {
      for (let a = 0; a < args.length; a++) {
        if (["-exec", "-execdir", "-ok", "-okdir"].includes(args[a])) {
          let e = a + 1;
          while (e < args.length && args[e] !== ";" && args[e] !== "+") e++;
          const inner = args.slice(a + 1, e);
          if (inner.length > 0) {
            const sub = fromWords(inner, { ...base, raw: inner.join(" "), redirects: [], depth: base.depth + 1, wrappers: [...wrappers, "find -exec"] }, parseScript);
            nested.push(sub.main, ...sub.nested);
          }
          a = e;
        }
      }
    }
    return { main, nested };
  }
  return { main: make(normaliseProgram(words[k] ?? ""), words.slice(k + 1)), nested };
}

/** The script of `bash -c '...'` / `bash -lc '...'`, or undefined when the shell is not given one. */
export function shellScript(args: string[]): string | undefined {
  let hasC = false;
  let k = 0;
  while (k < args.length) {
    const w = args[k];
    if (w === "--" || w === "-") {
      k++;
      break;
    }
    if (!(w.startsWith("-") || w.startsWith("+")) || w.length < 2) break;
    if (SHELL_ARGS.has(w)) {
      k += 2;
      continue;
    }
    if (w.startsWith("--")) {
      if (w === "--command") hasC = true;
      k++;
      continue;
    }
    if (w.startsWith("-") && w.slice(1).includes("c")) hasC = true;
    k++;
  }
  return hasC && k < args.length ? args[k] : undefined;
}
