// V8's compile cache for the bundle's chunks (Node >= 22.1; nothing on older Node): main.ts turns
// it on for `hermes acp` before the server's chunks load, in $HERMES_HOME/cache/compile (the user's
// own folder, never a shared temp dir whose files another user could plant; Node checks each entry
// against the source it was made from). Later starts reuse the compiled code instead of compiling
// the same JavaScript again. (main.ts does it inline: importing this module there would cost the
// start one more chunk.)
import nodeModule from "node:module";

/**
 * Writes what was compiled so far. Node writes the cache at a normal exit, but an editor often
 * ends its agent with a signal; flushing once the chunks a session needs are loaded keeps them.
 * Node >= 22.10; nothing before. Never throws.
 */
export function flushCompileCache(): void {
  try {
    (nodeModule as unknown as { flushCompileCache?: () => void }).flushCompileCache?.();
  } catch {
    // expected: an unwritable home only costs the compile cache
  }
}
