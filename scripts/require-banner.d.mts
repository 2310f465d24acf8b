// Types for scripts/require-banner.mjs (a build script, imported by a unit test).
export declare const REQUIRE_BANNER: string;
export declare function withoutUnusedRequire(code: string): string;
