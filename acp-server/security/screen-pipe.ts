// Command-screen rules for running code nobody has read: a download (`curl`, `wget`) or a
// base64 decode piped into a shell or interpreter, and a shell handed a downloaded script
// through `$(curl ...)`, backticks or `<(curl ...)`.
import type { SimpleCommand } from "./shell-parse";
import { shortFlags, type Screen } from "./screen-rule";
import { readsScriptFromStdin } from "./screen-exec";
import { DOWNLOADERS, INTERPRETERS, SHELLS } from "./programs/tables";

/** `$(curl …)`, `` `wget …` ``, `<(fetch …)`: a download substituted into the command line. */
const DOWNLOAD_SUBST = new RegExp(`(\\$\\(|\`|<\\()\\s*(sudo\\s+)?(${DOWNLOADERS.names.map((n) => n.replace(/[.+-]/g, "\\$&")).join("|")})\\b`);

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
  if (SHELLS.has(p) || INTERPRETERS.has(p) || p === "eval" || p === "source" || p === ".") {
    if (args.some((a) => DOWNLOAD_SUBST.test(a))) s.add("dangerous", "curl-pipe-shell", `runs a script downloaded from the internet with ${p} without a chance to read it`);
  }
}
