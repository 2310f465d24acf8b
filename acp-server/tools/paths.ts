// Path helpers shared by the file tools: every path a model gives resolves against
// the session cwd, and titles show paths relative to it when they are inside.
import path from "node:path";
import os from "node:os";
import { relativeInside } from "../util/inside-folder";

export function resolvePath(cwd: string, target: string): string {
  const expanded = target === "~" || target.startsWith("~/") ? path.join(os.homedir(), target.slice(1)) : target;
  return path.resolve(cwd, expanded);
}

export function displayPath(cwd: string, absolute: string): string {
  return relativeInside(cwd, absolute) || absolute;
}

/** The session's workspace roots for the path guard: its cwd, then its extra roots. */
export function toolWorkspace(ctx: { cwd: string; extraRoots?: readonly string[] }): readonly string[] {
  return ctx.extraRoots?.length ? [ctx.cwd, ...ctx.extraRoots] : [ctx.cwd];
}
