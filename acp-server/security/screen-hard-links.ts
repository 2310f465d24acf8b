// Hard links to files outside the workspace: `ln ~/.bashrc notes.txt`, `cp -l ~/.ssh/config x`,
// `cp -al ~/.hermes backup`. The new name is inside the workspace but the file is the outside
// one: whoever edits the new name (the file tools, a formatter, `sed -i`) edits `~/.bashrc`.
// Each asks ("hard-link-outside"); a credential or Hermes's own state is named as such.
import type { SimpleCommand } from "./shell-parse";
import { isWithin } from "./screen-paths";
import { shortFlags, type Screen } from "./screen-rule";
import { credentialArea, inHermesState } from "./screen-state";
import { valueOptionsOf } from "./programs/tables";

/** The files a hard-linking command links to (its sources), or none when it makes symlinks or copies. */
function linkedSources(cmd: SimpleCommand): string[] {
  const withValue = valueOptionsOf(cmd.program);
  const operands: string[] = [];
  let targetDir = false;
  for (let k = 0; k < cmd.args.length; k++) {
    const a = cmd.args[k]!; // k < cmd.args.length
    if (a === "--") {
      operands.push(...cmd.args.slice(k + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") operands.push(a);
    else if (a === "-t" || a === "--target-directory") {
      targetDir = true;
      k++;
    } else if (a.startsWith("--target-directory=")) targetDir = true;
    else if (withValue.has(a)) k++;
  }
  const { short, long } = shortFlags(cmd.args.filter((a) => a.startsWith("-")));
  // ln links unless told -s; link always does; cp only with -l / --link.
  const hard = cmd.program === "link" || (cmd.program === "ln" ? !short.includes("s") && !long.some((l) => l === "--symbolic" || l === "--relative") : short.includes("l") || long.includes("--link"));
  if (!hard || operands.length === 0) return [];
  // `ln FILE` links FILE into the current folder; `ln A B` links A as B; `-t DIR A B` links both.
  return targetDir || operands.length === 1 ? operands : operands.slice(0, -1);
}

export function checkHardLinks(s: Screen, cmd: SimpleCommand): void {
  for (const source of linkedSources(cmd)) {
    const abs = s.abs(source);
    const roots = s.st.workspace ? [s.st.workspace, ...(s.st.extraRoots ?? [])] : [s.st.cwd];
    const area = inHermesState(abs, s.st) ? "Hermes's own state" : credentialArea(abs, s.st);
    if (area) s.add("dangerous", "hard-link-outside", `${cmd.program} makes a hard link to ${s.show(abs)} (${area}): editing the link edits that file`);
    else if (!roots.some((root) => isWithin(abs, root))) s.add("dangerous", "hard-link-outside", `${cmd.program} makes a hard link to ${s.show(abs)}, outside the workspace: editing the link edits that file`);
  }
}
