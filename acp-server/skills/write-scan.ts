// Every skill write is scanned before it lands: skills are fed back to the model later, so
// they get the memory threat patterns (injected instructions, exfiltration, hidden text), and
// shell code (.sh files, shell shebangs, extension-less files under scripts/, shell code
// blocks in SKILL.md) gets the command screen. Scripts refuse dangerous commands as well as hardline
// ones: a script runs later as one `bash scripts/x.sh`, out of reach of the per-command review.
import { screenCommand } from "../security/command-screen";
import { scanForThreats } from "../security/threat-scan";

export interface WriteScanContext {
  home: string;
  cwd: string;
  hermesHome: string;
}

const SHELL_FENCE = /^(```|~~~)[ \t]*(?:sh|bash|zsh|shell|console|shell-session)[ \t]*\r?\n([\s\S]*?)^\1[ \t]*$/gm;
const SCRIPT_EXTENSIONS = /\.(?:sh|bash|zsh|command)$/i;

/** Why the write is refused, or undefined when it may proceed. `file` is relative to the skill folder. */
export function scanSkillWrite(file: string, content: string, context: WriteScanContext): string | undefined {
  const threat = scanForThreats(content, "skill");
  if (threat) return threat;
  const screen = (script: string, refuse: readonly string[]) => {
    const result = screenCommand(script, { home: context.home, cwd: context.cwd, hermesHome: context.hermesHome });
    // A script's parameters ($1, $@) are unknown by nature: findings that only say "computed at
    // run time" do not refuse it (the command that runs the script is screened when it runs).
    const onlyUnresolved = result.level === "dangerous" && result.keys.every((key) => key.startsWith("unresolved:"));
    return refuse.includes(result.level) && !onlyUnresolved ? `${result.level} command: ${result.reasons.join("; ")}` : undefined;
  };
  if (isScript(file, content)) return screen(content, ["hardline", "dangerous"]);
  if (file.toLowerCase().endsWith(".md")) {
    for (const block of content.matchAll(SHELL_FENCE)) {
      const code = (block[2] ?? "").replace(/^\s*\$ /gm, ""); // group 2 always takes part in a match
      const reason = screen(code, ["hardline"]);
      if (reason) return `${reason} (in a shell code block)`;
    }
  }
  return undefined;
}

/** Shell scripts: by extension, by shebang, or an extension-less file under scripts/. */
function isScript(file: string, content: string): boolean {
  if (SCRIPT_EXTENSIONS.test(file)) return true;
  const shebang = /^#!([^\n]*)/.exec(content)?.[1];
  if (shebang !== undefined) return /\b(?:ba|z|da|k)?sh\b/.test(shebang);
  return file.startsWith("scripts/") && !/\.[a-z0-9]+$/i.test(file);
}
