// What a file tool resolves before it asks, so that the approval and the I/O are about the same
// file: the path's real target (dangling links followed to where a write would land) and whether
// it had other hard links then. The I/O later opens exactly that real path without following
// links (util/no-follow-io.ts), and refuses with PathMovedError when the name now leads elsewhere.
import { hasOtherNames, realPath } from "../security/sensitive-paths";
import { PathMovedError, type PinnedTarget } from "../util/no-follow-io";
import type { PermissionAsk } from "./context";
import { ToolError } from "./registry";

export function pinTarget(absolute: string): PinnedTarget {
  const real = realPath(absolute);
  return { real, linked: hasOtherNames(real) };
}

/** Throws PathMovedError when `absolute` no longer resolves to the pinned real path. */
export function checkStillPinned(absolute: string, pin: PinnedTarget): void {
  const now = realPath(absolute);
  if (now !== pin.real) throw new PathMovedError(absolute, `it now leads to ${now}, not ${pin.real}`);
}

/**
 * Runs `io` on the pinned file. When the path moved since it was judged (PathMovedError), the
 * old answer does not carry over: the user is asked again about where it now leads (refused in
 * dont_ask and plan mode by the policy), and `io` runs on the new pin. Twice at most: a path that
 * keeps moving is refused.
 */
export async function ioAsApproved<T>(
  ctx: { requestPermission(ask: PermissionAsk): Promise<boolean> },
  absolute: string,
  pin: PinnedTarget,
  ask: PermissionAsk,
  io: (pin: PinnedTarget) => Promise<T>,
): Promise<T> {
  let current = pin;
  for (let attempt = 0; ; attempt++) {
    try {
      return await io(current);
    } catch (error) {
      if (!(error instanceof PathMovedError)) throw error;
      if (attempt >= 2) throw new ToolError(`${error.message}. It kept changing, so Hermes stopped.`);
      current = pinTarget(absolute);
      if (!(await ctx.requestPermission({ ...ask, resolved: [current.real], moved: true, partialAccept: false }))) {
        throw new ToolError(`${error.message}. The user did not allow it where it now leads (${current.real}).`);
      }
    }
  }
}
