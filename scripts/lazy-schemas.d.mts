// Types for scripts/lazy-schemas.mjs (a build script, imported by a unit test).
export const LAZY_SCHEMA_FILES: RegExp;
export function lazySchemas(source: string, fileName?: string): string;
export const lazySdkSchemas: { name: string; setup(build: unknown): void };
