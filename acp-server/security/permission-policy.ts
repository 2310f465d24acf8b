// Decides, from the session mode alone, whether an action runs, is refused, or needs
// the user's answer. Command screening (hardline / dangerous) plugs in here later.
import path from "node:path";
import type { PermissionAsk } from "../tools/context";
import type { SessionMode } from "./modes";

export type PermissionDecision = "allow" | "ask";

export function decidePermission(mode: SessionMode, ask: PermissionAsk, cwd: string): PermissionDecision {
  if (mode === "dont_ask") return "allow";
  // Plain commands run without a prompt in every mode until command screening lands;
  // edits and deletions are what the default mode guards.
  if (ask.action === "execute") return "allow";
  if (mode === "accept_edits" && ask.action === "edit" && (ask.paths ?? []).every((p) => isInside(cwd, p))) {
    return "allow";
  }
  return "ask";
}

export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
