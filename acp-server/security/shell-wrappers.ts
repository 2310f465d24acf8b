// Unwraps the prefixes that run another command — assignments, `sudo`, `doas`, `env`,
// `nice`, `timeout`, `xargs`, `command`, `exec`, `chroot`, `flock`, `busybox`, ... — to reach
// the real program, and finds the scripts that commands hand to a shell (`bash -c '...'`,
// `eval`, `watch`, `su -c`, `env -S`, `find -exec`, `trap`, `alias`, `ssh host cmd`, a
// here-document fed to `sh`). Nested scripts are parsed through the callback the parser
// passes in, so they are screened like the typed line. What cannot be known statically (a
// computed command name, eval of computed text, a computed `-c` script) is recorded on the
// command as `unresolved`.
import type { Redirect, SimpleCommand, Word } from "./shell-types";
import { PATTERN_MARKERS } from "./shell-words";
import { runnerCandidates, runnerCommandStart } from "./shell-runners";
import { programEntry } from "./programs/registry";
import { SHELLS, valueOptionsOf } from "./programs/tables";
import { shellInvocation } from "./shell-invocation";

const SKIPPED_KEYWORDS = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac", "[[", "]]", "function", "coproc"]);
const COMPOUND_OPENERS = new Set(["{", "while", "until", "if", "for", "select", "case", "[["]);
export { SHELLS } from "./programs/tables";
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** A name the registry knows only in other letters' case (`RM`, `Sudo`), as the registry spells it; any other name as it is. */
function withRegistryCase(name: string): string {
  if (!/[A-Z]/.test(name) || programEntry(name)) return name;
  const lower = name.toLowerCase();
  return programEntry(lower) ? lower : name;
}

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
function skipOptions(words: string[], k: number, withArg: ReadonlySet<string>, opts: { stopAtAssignment?: boolean } = {}): number {
  while (k < words.length) {
    const w = words[k];
    if (w === undefined) break; // k < words.length
    if (w === "--") return k + 1;
    if (!w.startsWith("-") || w === "-") return k;
    if (opts.stopAtAssignment && ASSIGNMENT.test(w)) return k;
    if (w.startsWith("--")) {
      const name = w.includes("=") ? w.slice(0, w.indexOf("=")) : w;
      k += withArg.has(name) && !w.includes("=") ? 2 : 1;
      continue;
    }
    // A short cluster: the last letter may take an argument (`-u root`, `-uroot`).
    const last = "-" + w.charAt(w.length - 1);
    const first = "-" + w.charAt(1);
    if (w.length === 2 && withArg.has(w)) k += 2;
    else if (w.length > 2 && withArg.has(first)) k += 1; // argument glued on: -uroot
    else if (withArg.has(last)) k += 2;
    else k += 1;
  }
  return k;
}

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

const isDynamic = (word: Word | undefined) => word !== undefined && word.dynamic.length > 0;
const isComputed = (word: Word | undefined) => word !== undefined && word.dynamic.some((d) => !PATTERN_MARKERS.has(d));

/** Unwrap prefixes (assignments, sudo, env, xargs, ...) and find nested scripts. */
export function fromWords(words: Word[], base: CommandBase, parseScript: ParseScript): Built {
  const texts = words.map((w) => w.text);
  const wrappers = base.wrappers;
  const assignments: string[] = [];
  const nested: SimpleCommand[] = [];
  const unresolved: string[] = [];
  let chdir: Word | undefined;
  const make = (program: string, from: number): SimpleCommand => ({
    ...(chdir ? { chdir } : {}),
    program,
    args: texts.slice(from),
    argWords: words.slice(from),
    unresolved,
    redirects: base.redirects,
    raw: base.raw,
    wrappers: [...wrappers],
    assignments,
    pipeline: base.pipeline,
    stage: base.stage,
    depth: base.depth,
  });
  const script = (src: string, via: string, word?: Word): void => {
    if (isComputed(word)) unresolved.push(`${via} runs a script computed at run time`);
    nested.push(...parseScript(src, base.depth + 1, [...wrappers, via]));
  };

  let k = 0;
  for (let guard = 0; guard < 64; guard++) {
    for (let text = texts[k]; text !== undefined && ASSIGNMENT.test(text); text = texts[++k]) assignments.push(text);
    const word = texts[k];
    if (word === undefined) return { main: make("", texts.length), nested };
    const wordInfo = words[k];
    if (SKIPPED_KEYWORDS.has(word) && !isDynamic(words[k])) {
      k++;
      // `coproc NAME { ...; }`: NAME names the coprocess, the compound command after it runs.
      if (word === "coproc" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(texts[k] ?? "") && COMPOUND_OPENERS.has(texts[k + 1] ?? "")) k++;
      continue;
    }
    if ((word === "for" || word === "select" || word === "case") && !isDynamic(words[k])) {
      // `for NAME in WORDS`: a loop header, not a command (its substitutions were parsed already).
      return { main: make("", texts.length), nested };
    }
    if (wordInfo && isDynamic(wordInfo)) {
      unresolved.push(`the command name \`${word}\` is computed at run time (${wordInfo.dynamic.join(", ")})`);
    }
    // `\rm`, `r''m`, `$'\x72m'`: the name resolves, but only through our decoding of it; a name
    // spelled to look unlike itself is treated as unknown (fail closed), never as what it decodes to.
    else if (!wordInfo || wordInfo.escaped) unresolved.push(`the command name \`${word}\` is written with escapes or quotes, which hides what it runs`);
    const written = normaliseProgram(word);
    // `RM -rf ~`, `BASH -c …`: macOS's file system ignores letter case, so that is rm, bash.
    // The screen applies the rules of the program it may be, and never trusts the spelling.
    const name = withRegistryCase(written);
    if (name !== written) unresolved.push(`the command name \`${written}\` is \`${name}\` in other letters' case, which a case-insensitive file system (macOS) runs as \`${name}\``);
    let next = -1;
    const callAt = name === "npx" || name === "pnpx" ? texts.slice(k + 1).findIndex((t) => t === "-c" || t === "--call" || t.startsWith("--call=")) : -1;
    if (callAt >= 0) {
      // `npx -c 'cmd'` runs cmd in a shell.
      const at = k + 1 + callAt;
      const option = texts[at] ?? "";
      const text = option.startsWith("--call=") ? option.slice(7) : texts[at + 1];
      if (text !== undefined) script(text, `${name} -c`, option.startsWith("--call=") ? words[at] : words[at + 1]);
      return { main: make(name, k + 1), nested };
    }
    const entry = programEntry(name);
    const runner = entry?.runner;
    const runFrom = runnerCommandStart(name, texts, k);
    if (runFrom !== undefined) {
      // `uv run CMD`, `gosu USER CMD`, `tmux new 'CMD'`: each word that may start the command is tried.
      for (const j of runnerCandidates(texts, runFrom)) {
        const text = texts[j] ?? "";
        if (runner?.wordIsScript) script(texts.slice(j).join(" "), name, words.slice(j).find(isComputed));
        if (!runner?.wordIsScript || !text.includes(" ")) {
          // The runner's redirections are its command's (`su-exec root sh <<EOF` feeds sh its script).
          const sub = fromWords(words.slice(j), { ...base, raw: texts.slice(j).join(" "), depth: base.depth + 1, wrappers: [...wrappers, name] }, parseScript);
          nested.push(sub.main, ...sub.nested);
        }
      }
    }
    const opaque = runner?.opaque;
    if (opaque && texts.slice(k + 1).some((t) => opaque.test(t))) unresolved.push(`\`${name}\` runs keystrokes or code of its own that the screen cannot follow`);
    for (const option of runner?.scriptOptions ?? []) {
      texts.forEach((t, i) => {
        const value = texts[i + 1];
        if (i > k && t === option && value !== undefined) script(value, `${name} ${option}`, words[i + 1]);
        else if (i > k && t.startsWith(`${option}=`)) script(t.slice(option.length + 1), `${name} ${option}`, words[i]);
      });
    }
    if (runFrom !== undefined || opaque || runner?.scriptOptions) return { main: make(name, k + 1), nested };
    const wrapper = entry?.wrapper?.kind;
    if (wrapper === "options") {
      next = skipOptions(texts, k + 1, valueOptionsOf(name));
    } else if (wrapper === "operand") {
      const d = skipOptions(texts, k + 1, valueOptionsOf(name));
      // `flock -c CMD FILE` and `flock FILE -c CMD`: getopt finds -c anywhere.
      const c = name === "flock" ? texts.findIndex((t, i) => i > k && (t === "-c" || t === "--command" || t.startsWith("--command="))) : -1;
      if (c > 0) {
        const glued = (texts[c] ?? "").startsWith("--command=");
        const code = glued ? (texts[c] ?? "").slice(10) : texts[c + 1];
        if (code !== undefined) script(code, "flock -c", words[glued ? c : c + 1]);
        return { main: make(name, k + 1), nested };
      }
      const sgCode = texts[d + 2];
      if (name === "sg" && texts[d + 1] === "-c" && sgCode !== undefined) {
        script(sgCode, "sg -c", words[d + 2]);
        return { main: make(name, k + 1), nested };
      }
      next = d < texts.length ? skipOptions(texts, d + 1, new Set()) : d;
    } else {
      switch (wrapper) {
        case "assignments": {
          for (let a = k + 1; a < texts.length; a++) {
            const t = texts[a];
            if (t === undefined || !t.startsWith("-")) break;
            if (t === "-S" || t === "--split-string") {
              const split = texts[a + 1];
              if (split !== undefined) script(split, "env -S", words[a + 1]);
            } else if (t.startsWith("--split-string=")) script(t.slice(15), "env -S", words[a]);
            else if (/^-[^-]*S./.test(t)) script(t.slice(t.indexOf("S") + 1), "env -S", words[a]);
          }
          next = skipOptions(texts, k + 1, valueOptionsOf(name), { stopAtAssignment: true });
          break;
        }
        case "per-input": {
          const after = skipOptions(texts, k + 1, valueOptionsOf(name));
          if (after >= texts.length) return { main: make("xargs", k + 1), nested };
          next = after;
          break;
        }
        case "builtin-lookup": {
          const after = skipOptions(texts, k + 1, new Set());
          if (texts.slice(k + 1, after).some((w) => /^-[a-zA-Z]*[vV]/.test(w))) return { main: make("command", k + 1), nested };
          next = after;
          break;
        }
        default:
          break;
      }
    }
    if (next >= 0) {
      const folder = wrapperFolder(name, words, k + 1, next);
      if (folder) chdir = folder;
      if (next >= texts.length) return { main: make(name, k + 1), nested };
      wrappers.push(name);
      k = next;
      continue;
    }

    const args = texts.slice(k + 1);
    const argWords = words.slice(k + 1);
    const main = make(name, k + 1);
    if (SHELLS.has(name)) {
      const found = shellScriptAt(args);
      if (found) script(found.code, `${name} -c`, argWords[found.at]);
      else {
        // `bash <<EOF ... EOF` and `bash <<< "..."` feed the shell its script on stdin.
        for (const r of base.redirects) {
          if (r.heredoc !== undefined) script(r.heredoc, `${name} <<`);
          else if (r.op === "<<<") script(r.target, `${name} <<<`, r.dynamic ? { text: r.target, dynamic: r.dynamic } : undefined);
        }
      }
    } else if (name === "eval") {
      if (args.length > 0) script(args.join(" "), "eval", argWords.find(isComputed));
    } else if (name === "watch") {
      // watch joins its arguments and runs them with `sh -c`.
      const from = skipOptions(args, 0, valueOptionsOf(name));
      if (from < args.length) script(args.slice(from).join(" "), "watch", argWords.slice(from).find(isComputed));
    } else if (name === "su" || name === "script") {
      for (const [a, arg] of args.entries()) {
        const value = args[a + 1];
        if ((arg === "-c" || arg === "--command" || (name === "script" && /^-[A-Za-z]*c$/.test(arg))) && value !== undefined) script(value, `${name} -c`, argWords[a + 1]);
        else if (arg.startsWith("--command=")) script(arg.slice(10), `${name} -c`, argWords[a]);
      }
    } else if (name === "trap") {
      // `trap -- 'cmd' SIG`: `--` ends the options, the body follows it.
      const at = args[0] === "--" ? 1 : 0;
      if (args[at] !== undefined && (at === 1 || !args[at].startsWith("-"))) script(args[at], "trap", argWords[at]);
    } else if (name === "alias") {
      for (const [a, arg] of args.entries()) {
        const eq = arg.indexOf("=");
        if (eq > 0) script(arg.slice(eq + 1), "alias", argWords[a]);
      }
    } else if (name === "ssh" || name === "sshpass") {
      const from = skipOptions(args, 0, valueOptionsOf(name));
      // OpenSSH reads options after the host too (`ssh host -t cmd`), and `--` ends them.
      const rest = name === "ssh" ? skipOptions(args, from + 1, valueOptionsOf(name)) : from;
      if (name === "sshpass" && rest < args.length) {
        const inner = fromWords(argWords.slice(rest), { ...base, depth: base.depth + 1, wrappers: [...wrappers, "sshpass"] }, parseScript);
        nested.push(inner.main, ...inner.nested);
      } else if (rest < args.length) script(args.slice(rest).join(" "), "ssh", argWords.slice(rest).find(isComputed));
    } else if (name === "find") {
      for (let a = 0; a < args.length; a++) {
        if (["-exec", "-execdir", "-ok", "-okdir"].includes(args[a] ?? "")) {
          let e = a + 1;
          while (e < args.length && args[e] !== ";" && args[e] !== "+") e++;
          const inner = argWords.slice(a + 1, e);
          if (inner.length > 0) {
            const sub = fromWords(inner, { ...base, raw: args.slice(a + 1, e).join(" "), redirects: [], depth: base.depth + 1, wrappers: [...wrappers, "find -exec"] }, parseScript);
            nested.push(sub.main, ...sub.nested);
          }
          a = e;
        }
      }
    }
    return { main, nested };
  }
  unresolved.push("too many nested wrappers to follow");
  return { main: make(normaliseProgram(texts[k] ?? ""), k + 1), nested };
}

/** The folder `env -C DIR` / `sudo -D DIR` / `--chdir=DIR` names among the wrapper's options (words[from..to)). */
function wrapperFolder(name: string, words: Word[], from: number, to: number): Word | undefined {
  const options = programEntry(name)?.folderOptions;
  if (!options) return undefined;
  let found: Word | undefined;
  for (let i = from; i < to; i++) {
    const text = words[i]?.text ?? "";
    const value = words[i + 1];
    if (options.includes(text) && value) found = value;
    for (const option of options) {
      if (option.startsWith("--") && text.startsWith(`${option}=`)) found = { ...(words[i] as Word), text: text.slice(option.length + 1) };
      else if (!option.startsWith("--") && text.startsWith(option) && text.length > option.length) found = { ...(words[i] as Word), text: text.slice(option.length) };
    }
  }
  return found;
}

/**
 * Where the script of `bash -c '...'` / `bash -lc '...'` / `bash -eo pipefail -c '...'` /
 * `fish --command='...'` is (its index in args, and its text), or undefined when the shell is not given one. Options with a value are skipped with it
 * (shell-invocation.ts, from the registry), so `pipefail` is not taken for the script.
 */
function shellScriptAt(args: string[]): { at: number; code: string } | undefined {
  const invocation = shellInvocation(args);
  if (!invocation.command) return undefined;
  // `fish --command='…'`: the script is glued to the option.
  if (invocation.gluedCommand) return { at: invocation.gluedCommand.at, code: invocation.gluedCommand.script };
  let at = args.length - invocation.operands.length;
  if (args[at] === "-") at++; // `-` ends the options
  const code = args[at];
  return code === undefined ? undefined : { at, code };
}

/** The script of `bash -c '...'`, or undefined when the shell is not given one. */
export function shellScript(args: string[]): string | undefined {
  return shellScriptAt(args)?.code;
}
