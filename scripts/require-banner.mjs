// Build step (esbuild.config.mjs): the `require` the server's ES module chunks get, only where used.
//
// Bundled CommonJS dependencies call require() (esbuild turns those calls into its `__require`
// helper, which uses a `require` in scope), so the app build prepends REQUIRE_BANNER to every
// chunk. But createRequire() costs each chunk that runs it about 0.1 ms at load (a CommonJS
// Module object, path work), and only the chunk that defines esbuild's helper, or one that names
// `require` itself, ever uses it: of ~130 chunks, a few dozen of which load with the first
// session/new, one does. withoutUnusedRequire() blanks the banner where nothing else in the chunk
// names `require`, keeping its two lines so that the source map still matches.

export const REQUIRE_BANNER =
  "import { createRequire as __hermesCreateRequire } from 'node:module';\nconst require = __hermesCreateRequire(import.meta.url);";

/** `require` as a name in code (conservative: a word in a string or comment counts too). */
const NAMES_REQUIRE = /(?<![\w$.])require(?![\w$])/;

/** The chunk's text without the banner when nothing after it names `require`; else unchanged. */
export function withoutUnusedRequire(code) {
  if (!code.startsWith(REQUIRE_BANNER)) return code;
  const rest = code.slice(REQUIRE_BANNER.length);
  if (NAMES_REQUIRE.test(rest)) return code;
  return "\n" + rest; // the banner's two lines become empty ones
}
