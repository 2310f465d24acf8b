// The yaml package, loaded the first time something parses or edits YAML, synchronously. The
// bundle ships it as its own CommonJS file (dist/chunks/yaml.cjs, esbuild.config.mjs) rather than
// in the code-split chunks: a chunk is compiled whenever a module in it is imported, and yaml's
// 265 KB were compiled by every first session/new, which reads no YAML when config.yaml is cached
// (config/config-cache.ts) and the skills are the bundled ones (their frontmatter parsed at build).
// Everything that reads or writes YAML goes through here, so there is one copy of the package.
import { createRequire } from "node:module";

type Yaml = typeof import("yaml");

declare const HERMES_BUILD_ID: string | undefined;

let loaded: Yaml | undefined;

export function yaml(): Yaml {
  if (!loaded) {
    const requireHere = createRequire(import.meta.url);
    // The bundle (a chunk beside yaml.cjs), or the sources (tests, tsx), which have node_modules.
    loaded = (typeof HERMES_BUILD_ID === "string" ? requireHere("./yaml.cjs") : requireHere("yaml")) as Yaml;
  }
  return loaded;
}
