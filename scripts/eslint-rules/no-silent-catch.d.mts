import type { ESLint, Rule } from "eslint";

/** The rule hermes/no-silent-catch: a caught error must be used or explained by `// expected: ...`. */
export const noSilentCatch: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
