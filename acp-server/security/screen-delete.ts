// Command-screen rules for deleting files: `rm` (hardline when it would wipe /, a system
// folder or the home directory; dangerous when recursive or forced), `shred`, `unlink`,
// `find -delete` / `find -exec rm`, and deleters fed a file list by `xargs`.
import path from "node:path";
import type { SimpleCommand } from "./shell-parse";
import { TOP_LEVEL_DIRS, isWithin, resolvePath, tildeLabel, type State } from "./screen-paths";
import { shortFlags, type Screen } from "./screen-rule";
import { DELETES_OPERANDS } from "./programs/tables";


type DeleteClass = { kind: "root" | "system" | "home"; what: string } | undefined;

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/** Is deleting this operand (recursively) catastrophic: /, a system folder, or the home directory? */
export function classifyDelete(word: string, st: State): DeleteClass {
  const abs = resolvePath(word, st.cwd, st.home, st.hermesHome);
  let target = abs;
  let contents = false;
  const last = path.posix.basename(abs);
  if (abs !== "/" && /^[*.?]+$/.test(last)) {
    target = path.posix.dirname(abs);
    contents = true;
  } else if (abs !== "/" && /[*?[]/.test(last) && path.posix.dirname(abs) === "/") {
    // `/u*` may match /usr.
    const re = globToRegExp(last);
    const hit = TOP_LEVEL_DIRS.find((d) => re.test(d.slice(1)));
    if (hit) return { kind: "system", what: `${abs}, which matches the system folder ${hit}` };
  }
  const show = contents ? `everything in ${target}` : target;
  const showSystem = contents ? `everything in the system folder ${target}` : `the system folder ${target}`;
  if (target === "/") return { kind: "root", what: contents ? "everything in /" : "/" };
  if (target === st.home || isWithin(st.home, target)) return { kind: "home", what: tildeLabel(target, st.home) === "~" ? (contents ? "everything in ~" : "~") : show };
  if (TOP_LEVEL_DIRS.includes(target)) return { kind: "system", what: showSystem };
  return undefined;
}

export function checkRm(s: Screen, cmd: SimpleCommand): void {
  const { short, long, operands } = shortFlags(cmd.args);
  const recursive = /[rR]/.test(short) || long.includes("--recursive");
  const force = short.includes("f") || long.includes("--force");
  if (long.includes("--no-preserve-root")) {
    s.add("hardline", "rm-no-preserve-root", "rm --no-preserve-root switches off the safeguard against deleting the whole filesystem");
  }
  let catastrophic = false;
  if (recursive) {
    for (const op of operands) {
      const cls = classifyDelete(op, s.st);
      if (!cls) continue;
      catastrophic = true;
      if (cls.kind === "root") s.add("hardline", "rm-recursive-root", `recursive delete of the root filesystem (${cls.what})`);
      else if (cls.kind === "home") s.add("hardline", "rm-recursive-home", cls.what.startsWith("~") || cls.what.includes(" ~") ? `recursive delete of the home directory (${cls.what})` : `recursive delete of ${cls.what}, which holds the home directory`);
      else s.add("hardline", "rm-recursive-system", `recursive delete of ${cls.what}`);
    }
  }
  if (!catastrophic) {
    const what = operands.length > 0 ? operands.map((o) => (o === "" ? '""' : o)).join(" ") : "the files it is given";
    if (recursive) s.add("dangerous", "rm-recursive", `recursive delete (rm -r) of ${what}`);
    else if (force) s.add("dangerous", "rm-force", `forced delete (rm -f) of ${what}, without confirmation`);
  }
  for (const op of operands) s.deleted(op, "rm");
}

export function checkShred(s: Screen, args: string[]): void {
  s.add("dangerous", "shred", "shred irrecoverably overwrites and deletes files");
  for (const a of shortFlags(args).operands) s.write(a, "shred");
}

export function checkUnlink(s: Screen, args: string[]): void {
  for (const a of args) s.deleted(a, "unlink");
}

const FIND_ACTIONS = ["-exec", "-execdir", "-ok", "-okdir"];

export function checkFindDelete(s: Screen, args: string[]): void {
  const starts: string[] = [];
  for (const a of args) {
    if (a.startsWith("-") || a === "(" || a === "!" || a === ")") break;
    starts.push(a);
  }
  const deletes = args.includes("-delete") || args.some((a, k) => FIND_ACTIONS.includes(a) && DELETES_OPERANDS.has(path.posix.basename(args[k + 1] ?? "").replace(/^\\/, "")));
  if (deletes) {
    for (const start of starts.length > 0 ? starts : ["."]) {
      const cls = classifyDelete(start, s.st);
      if (cls?.kind === "root") s.add("hardline", "rm-recursive-root", `find ${start} deletes files across the whole filesystem`);
      else if (cls?.kind === "home") s.add("hardline", "rm-recursive-home", `find ${start} deletes files across the home directory (${cls.what})`);
      else if (cls?.kind === "system") s.add("hardline", "rm-recursive-system", `find ${start} deletes files across ${cls.what}`);
      s.deleted(start, "find -delete", "deletes files in");
    }
  }
  if (args.includes("-delete")) {
    s.add("dangerous", "find-delete", "find -delete removes every file the search matches");
    s.unresolved("find-delete", "find -delete removes files chosen at run time");
  }
  for (const [k, a] of args.entries()) {
    const operand = args[k + 1];
    if (FIND_ACTIONS.includes(a) && DELETES_OPERANDS.has(path.posix.basename(operand ?? "").replace(/^\\/, ""))) {
      s.add("dangerous", "find-exec-rm", `find ${a} ${operand} deletes every file the search matches`);
    }
    if (/^-f(print0?|printf|ls)$/.test(a) && operand !== undefined) s.write(operand, `find ${a}`);
  }
}

/** rm (or any deleter) fed a file list by xargs. */
export function checkXargsDelete(s: Screen, cmd: SimpleCommand): void {
  if (cmd.wrappers.includes("xargs") && DELETES_OPERANDS.has(cmd.program)) {
    s.add("dangerous", "xargs-rm", `xargs ${cmd.program} deletes every file named on its input`);
  }
}
