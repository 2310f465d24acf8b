// The browser tools' engine, shipped inside dist/ so an installed Hermes (npm package, .vsix) has it.
//
// playwright-core is not bundled: it finds its own files (driver scripts, browsers.json, wasm) from
// __dirname and requires parts of itself dynamically, which esbuild's ESM chunks would break. It is
// copied whole (less its type declarations) to dist/vendor/playwright-core, and the chunks import it
// by a relative path (playwrightFromVendor, below), so no node_modules folder and no install step is
// needed: the npm tarball's `files` and .vscodeignore name dist/vendor/.
import { cpSync } from "node:fs";
import path from "node:path";

export const VENDORED_PLAYWRIGHT = "vendor/playwright-core";

/** Copies node_modules/playwright-core to <outdir>/vendor/playwright-core, without types/ and *.d.ts. */
export function vendorPlaywright(root, outdir) {
  const from = path.join(root, "node_modules", "playwright-core");
  cpSync(from, path.join(outdir, VENDORED_PLAYWRIGHT), {
    recursive: true,
    dereference: true,
    filter: (source) => {
      const relative = path.relative(from, source);
      return relative !== "types" && !relative.endsWith(".d.ts");
    },
  });
}

/**
 * esbuild plugin: `import("playwright-core")` in the chunks (all in <outdir>/chunks/) becomes an import
 * of the vendored copy, relative to the chunk, so it resolves wherever dist/ is installed.
 */
export const playwrightFromVendor = {
  name: "playwright-from-vendor",
  setup(build) {
    build.onResolve({ filter: /^playwright-core$/ }, () => ({ path: `../${VENDORED_PLAYWRIGHT}/index.mjs`, external: true }));
  },
};
