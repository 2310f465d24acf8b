// ESLint flat config (run by `npm run lint`, part of `npm test`). Typed linting through the
// TypeScript project service, so the promise rules see real types: a floating promise in the
// server is an unhandled rejection that takes the process (and the editor's session) down.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import hermesRules from "./scripts/eslint-rules/no-silent-catch.mjs";

export default tseslint.config(
  {
    ignores: ["dist/**", ".test-build/**", "node_modules/**", "coverage/**", "test-artifacts/**", ".hermes-test/**", ".e2e-tools/**", "redteam/**", "**/*.js", "**/*.cjs", "**/*.mjs"],
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // Off: most hits are async implementations of Promise-returning interfaces (tool
      // handlers, test fakes) where `async` without `await` is the clearest spelling.
      "@typescript-eslint/require-await": "off",
      // `let x!: T` read by a callback defined before the one assignment is a forward reference.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // An abort signal's reason and a caught error are `any`/`unknown` and are passed on as they are.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      "@typescript-eslint/no-floating-promises": [
        "error",
        // node:test's test()/describe() return promises the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: "package", package: "node:test", name: ["test", "it", "describe", "suite", "before", "after", "beforeEach", "afterEach"] }] },
      ],
    },
  },
  {
    // Product code may not drop a caught error silently: see scripts/eslint-rules/no-silent-catch.mjs.
    files: ["acp-server/**/*.ts", "extension/**/*.ts", "webview-ui/**/*.ts", "webview-ui/**/*.tsx", "common/**/*.ts"],
    plugins: { hermes: hermesRules },
    rules: { "hermes/no-silent-catch": "error" },
  },
  {
    // stdout of the server is the ACP stream: a stray console.log corrupts the protocol.
    // Everything goes through util/log.ts (stderr + log file, redacted).
    // common/ is shared with the server (and checked with it by acp-server/tsconfig.strict.json).
    files: ["acp-server/**/*.ts", "common/**/*.ts"],
    rules: {
      "no-console": "error",
      // Off: ESLint types acp-server through the root tsconfig, without noUncheckedIndexedAccess
      // (acp-server/tsconfig.strict.json, run by `npm run typecheck`), so every `xs[i]!` that
      // the strict check needs would look unnecessary here.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
    },
  },
  {
    // Tests and benchmarks read untyped JSON off the wire and poke at it; the no-unsafe-*
    // family would demand a cast on every assertion without finding bugs there.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/restrict-template-expressions": "off",
      // Style, not bugs: an assertion that spells out what a test expects is harmless.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
    },
  },
);
