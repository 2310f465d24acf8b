// Command-screen rules for running code nobody has read: a download (`curl`, `wget`) or a
// base64 decode piped into a shell or interpreter, and a shell handed a downloaded script
// through `$(curl ...)`, backticks or `<(curl ...)`.
import { SHELLS, type SimpleCommand } from "./shell-parse";
import { shortFlags, type Screen } from "./screen-rule";
import { shellReadsStdin } from "./shell-invocation";

const INTERPRETER = /^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|deno|bun)$/;
const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c"]);
const DOWNLOAD_SUBST = /(\$\(|`|<\()\s*(sudo\s+)?(curl|wget|fetch)\b/;

/** Does this command run a script it reads from stdin (`sh`, `bash -s`, `python -`)? */
function readsScriptFromStdin(cmd: SimpleCommand): boolean {
  if (SHELLS.has(cmd.program)) return shellReadsStdin(cmd.args);
  if (INTERPRETER.test(cmd.program)) {
    let k = 0;
    while (k < cmd.args.length) {
      const a = cmd.args[k];
      if (a === undefined) break; // k < cmd.args.length
      if (a === "-") return true;
      if (!a.startsWith("-")) return false; // a script file
      if (/^-[a-zA-Z]*[cmeEpr]/.test(a) || a === "--eval" || a === "--print") return false;
      k += a === "-W" || a === "-X" || a === "-I" ? 2 : 1;
    }
    return true;
  }
  return false;
}

function isBase64Decode(cmd: SimpleCommand): boolean {
  if (cmd.program === "base64" || cmd.program === "base32" || cmd.program === "basenc") {
    const { short, long } = shortFlags(cmd.args);
    return /[dD]/.test(short) || long.includes("--decode");
  }
  if (cmd.program === "openssl") return cmd.args.includes("-d") && cmd.args.some((a) => a === "base64" || a === "-base64" || a === "-a");
  return false;
}

export function checkPipeToShell(s: Screen, cmd: SimpleCommand, all: SimpleCommand[]): void {
  const { program: p, args } = cmd;
  // Download or decode piped into a shell.
  if (DOWNLOADERS.has(p) || isBase64Decode(cmd)) {
    const sink = all.find((c) => c.pipeline === cmd.pipeline && c.stage > cmd.stage && readsScriptFromStdin(c));
    if (sink) {
      if (DOWNLOADERS.has(p)) s.add("dangerous", "curl-pipe-shell", `pipes a script downloaded by ${p} straight into ${sink.program} without a chance to read it`);
      else s.add("dangerous", "base64-pipe-shell", `decodes hidden base64 content and runs it with ${sink.program}`);
    }
  }
  if (SHELLS.has(p) || INTERPRETER.test(p) || p === "eval" || p === "source" || p === ".") {
    if (args.some((a) => DOWNLOAD_SUBST.test(a))) s.add("dangerous", "curl-pipe-shell", `runs a script downloaded from the internet with ${p} without a chance to read it`);
  }
}
