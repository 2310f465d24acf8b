// Injected by esbuild from package.json; the fallback serves unbundled runs (tests via tsx).
declare const HERMES_VERSION: string | undefined;
export const VERSION: string = typeof HERMES_VERSION === "string" ? HERMES_VERSION : "0.0.0-dev";
