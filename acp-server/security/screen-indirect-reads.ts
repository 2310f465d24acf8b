// Files read through a helper that gets their names at run time: `find ~/.ssh -name id_rsa
// -exec cat {} \;`, `ls ~/.ssh/id_* | xargs cat`, `find ~/.hermes -type f | xargs head`,
// `cat $(echo ~/.hermes/config.yaml)`. The
// reader's own argument is `{}` or nothing, so the credential rule would see no path; the
// folders and names that find or the earlier stage are given are what gets read.
import type { SimpleCommand } from "./shell-parse";
import { NO_CONTENT_READ } from "./programs/tables";

type ReadsFile = (word: string, how: string) => void;
const EXEC_ACTIONS = /^-(exec|execdir|ok|okdir)$/;

/** The program find runs on what it finds, when it reads file contents (`cat`, `head`, `base64`, `curl -F`…). */
function findReader(args: string[]): string | undefined {
  const at = args.findIndex((a) => EXEC_ACTIONS.test(a));
  const program = at < 0 ? undefined : args[at + 1];
  if (program === undefined) return undefined;
  const name = program.slice(program.lastIndexOf("/") + 1);
  return NO_CONTENT_READ.has(name) ? undefined : name;
}

export function checkIndirectReads(cmd: SimpleCommand, all: SimpleCommand[], readsFile: ReadsFile): void {
  const reader = findReader(cmd.args);
  if (reader !== undefined && !cmd.wrappers.includes("find -exec")) {
    // The roots find searches and the names it matches are the files `reader` is handed.
    for (const word of cmd.args.filter((a) => !a.startsWith("-") && a !== "{}" && a !== ";" && a !== "+" && a !== "(" && a !== ")" && a !== "!")) readsFile(word, `find -exec ${reader}`);
  }
  // `cat $(echo ~/.ssh/id_rsa)`, `head $(ls ~/.hermes/*)`: the reader gets what the substitution prints.
  if (cmd.program !== "" && !NO_CONTENT_READ.has(cmd.program) && cmd.argWords.some((word) => word.dynamic.some((d) => d.startsWith("$(") || d.startsWith("`")))) {
    for (const inner of all) {
      if (inner.depth <= cmd.depth || !cmd.raw.includes(inner.raw.trim())) continue;
      for (const word of inner.args.filter((a) => !a.startsWith("-"))) readsFile(word, `${cmd.program} $(${inner.program} …)`);
    }
  }
  if (cmd.wrappers.includes("xargs") && cmd.program !== "" && !NO_CONTENT_READ.has(cmd.program)) {
    for (const before of all) {
      if (before.pipeline !== cmd.pipeline || before.depth !== cmd.depth || before.stage >= cmd.stage) continue;
      for (const word of before.args.filter((a) => !a.startsWith("-"))) readsFile(word, `xargs ${cmd.program}`);
    }
  }
}
