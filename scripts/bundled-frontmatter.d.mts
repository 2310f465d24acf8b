// Types for scripts/bundled-frontmatter.mjs (a build script, imported by a unit test).
export function bundledFrontmatter(skillsDir: string): Record<string, string>;
