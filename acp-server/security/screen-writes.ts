// Command-screen rules for commands that write files: they find the files each command
// writes (`tee`, `cp`/`mv`/`install`/`rsync`, `sed -i`, `truncate`, `dd of=`, `curl -o`)
// and hand them to Screen.write, which flags raw disk devices and sensitive files.
import path from "node:path";
import type { SimpleCommand } from "./shell-parse";
import { BLOCK_DEVICE, SYSTEM_DIRS, isWithin, sensitiveArea } from "./screen-paths";
import { shortFlags, type Screen } from "./screen-rule";
import { classifyDelete } from "./screen-delete";
import { parseSed } from "./awk-sed";

export function checkTee(s: Screen, args: string[]): void {
  for (const a of shortFlags(args).operands) s.write(a, "tee");
}

export function checkDd(s: Screen, args: string[]): void {
  for (const a of args) if (a.startsWith("of=")) s.write(a.slice(3), "dd");
  for (const a of args) if (a.startsWith("of=") && BLOCK_DEVICE.test(s.abs(a.slice(3)))) s.add("hardline", "dd-block-device", `dd overwrites the disk device ${s.abs(a.slice(3))}, destroying its data`);
}

export function checkTruncate(s: Screen, args: string[]): void {
  const ops: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (a === "-s" || a === "-r") k++;
    else if (!a.startsWith("-")) ops.push(a);
  }
  for (const a of ops) s.write(a, "truncate");
}

/** `curl -o FILE`, `wget -O FILE`: the download lands in a file. */
export function checkDownloadOutput(s: Screen, p: string, args: string[]): void {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if ((p === "curl" && (a === "-o" || a === "--output")) || (p === "wget" && (a === "-O" || a === "--output-document"))) s.write(args[k + 1] ?? "", p);
    else if (a.startsWith("--output=") || a.startsWith("--output-document=")) s.write(a.slice(a.indexOf("=") + 1), p);
  }
}

export function checkCopy(s: Screen, cmd: SimpleCommand): void {
  const p = cmd.program;
  const args = cmd.args;
  const operands: string[] = [];
  let targetDir: string | undefined;
  let ended = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!; // k < args.length
    if (ended || !a.startsWith("-") || a === "-") operands.push(a);
    else if (a === "--") ended = true;
    else if (a === "-t") targetDir = args[++k];
    else if (a.startsWith("--target-directory=")) targetDir = a.slice(19);
    else if (a === "-S" || a === "--suffix" || a === "-m" || a === "-o" || a === "-g" || a === "-e") k++;
  }
  if (operands.length === 0) return;
  if (p === "ln" && operands.length === 1 && targetDir === undefined) operands.push(".");
  const dest = targetDir ?? operands[operands.length - 1]!; // operands is not empty (checked above)
  if (p === "rsync") checkRsyncDelete(s, args, dest);
  const sources = targetDir !== undefined ? operands : operands.slice(0, -1);
  if (p === "mv" && s.abs(dest) === "/dev/null") {
    s.add("dangerous", "mv-dev-null", "mv into /dev/null destroys the moved files");
    return;
  }
  const destAbs = s.abs(dest);
  // The destination may be a folder: then the file lands at dest/<source name>.
  if (BLOCK_DEVICE.test(destAbs) || sensitiveArea(destAbs, s.st)) s.write(dest, p);
  else for (const src of sources) s.write(path.posix.join(dest, path.posix.basename(src)), p);
  // One source and no -t: dest may also be the new name (`mv dotgit .git`).
  if (sources.length === 1 && targetDir === undefined && !BLOCK_DEVICE.test(destAbs) && !sensitiveArea(destAbs, s.st)) s.write(dest, p);
  if (p === "mv") {
    for (const src of sources) {
      // Moving / or the home folder away is as good as deleting it.
      const cls = classifyDelete(src, s.st);
      if (cls?.kind === "root") s.add("hardline", "rm-recursive-root", `mv moves ${cls.what} away, breaking the whole system`);
      else if (cls?.kind === "home") s.add("hardline", "rm-recursive-home", `mv moves the home directory (${cls.what}) away`);
      else if (cls?.kind === "system") s.add("hardline", "rm-recursive-system", `mv moves ${cls.what} away, breaking the system`);
      s.deleted(src, "mv", "moves away");
    }
  }
}

/** `rsync --delete` makes the destination an exact copy: onto home, /, a system folder or the workspace it deletes everything else. */
function checkRsyncDelete(s: Screen, args: string[], dest: string): void {
  if (!args.some((a) => /^--(del|delete.*|remove-source-files)$/.test(a))) return;
  if (/^[^/]*:/.test(dest)) return; // a remote destination
  const abs = s.abs(dest);
  const removesSource = args.includes("--remove-source-files");
  const what = removesSource ? "deletes the source files after copying them" : "deletes everything in the destination that the source lacks";
  if (abs === "/" || isWithin(s.st.home, abs) || SYSTEM_DIRS.includes(abs) || (s.st.workspace !== undefined && isWithin(s.st.workspace, abs)) || s.st.extraRoots?.some((root) => isWithin(root, abs))) {
    s.add("hardline", "rsync-delete-root", `rsync --delete onto ${s.show(abs)} ${what}: it would wipe that folder`);
  } else s.add("dangerous", "rsync-delete", `rsync ${removesSource ? "--remove-source-files" : "--delete"} ${what} (${s.show(abs)})`);
}

export function checkSed(s: Screen, args: string[]): void {
  const sed = parseSed(args);
  if (sed.inPlace) for (const file of sed.files) s.write(file, "sed -i");
}
