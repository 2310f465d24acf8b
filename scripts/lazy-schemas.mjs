// Build step (esbuild.config.mjs): the ACP SDK's generated zod schemas, built on first use.
//
// The SDK's schema module (and its guards module) declare about 300 zod schemas as top-level
// constants, so importing the SDK builds every one of them: the largest single cost of a first
// session/new (a few tens of ms of zod constructors, plus the garbage they leave), though a
// connection only ever parses a dozen message kinds. Each top-level `const zName = <expr>` becomes
// `const zName = z.lazy(() => <expr>)`: zod's own lazy schema, which builds `<expr>` the first
// time it is parsed with (or looked into by a schema that contains it) and validates exactly as
// `<expr>` does from then on. Nothing else in the files changes. test/unit/lazy-schemas.test.ts
// checks that the SDK's messages parse alike either way.
import ts from "typescript";

/** Files whose top-level zod constants are made lazy (paths inside @agentclientprotocol/sdk/dist). */
export const LAZY_SCHEMA_FILES = /[\\/]@agentclientprotocol[\\/]sdk[\\/]dist[\\/]v1[\\/]unstable[\\/]schema[\\/](zod|guards)\.gen\.js$/;

/**
 * `source` with every top-level `const z… = <expression>` (exported or not) wrapped in
 * `z.lazy(() => (<expression>))`. The module must import zod as the namespace `z`; throws if it
 * does not, or when nothing was wrapped (a changed SDK layout must fail the build, not go unnoticed).
 */
export function lazySchemas(source, fileName = "schemas.js") {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const importsZ = file.statements.some(
    (statement) =>
      ts.isImportDeclaration(statement) &&
      statement.importClause?.namedBindings &&
      ts.isNamespaceImport(statement.importClause.namedBindings) &&
      statement.importClause.namedBindings.name.text === "z",
  );
  if (!importsZ) throw new Error(`${fileName}: expected \`import * as z from "zod/v4"\``);
  const edits = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (!init || !ts.isIdentifier(declaration.name) || !/^z[A-Z]/.test(declaration.name.text)) continue;
      // A plain alias of another schema is already lazy (or cheap).
      if (ts.isIdentifier(init) || ts.isPropertyAccessExpression(init)) continue;
      edits.push({ start: init.getStart(file), end: init.getEnd() });
    }
  }
  if (edits.length === 0) throw new Error(`${fileName}: no top-level zod schema found to make lazy`);
  let out = "";
  let at = 0;
  for (const { start, end } of edits) {
    out += `${source.slice(at, start)}/* @__PURE__ */ z.lazy(() => (${source.slice(start, end)}))`;
    at = end;
  }
  return out + source.slice(at);
}

/** The esbuild plugin: applies lazySchemas to the SDK's schema modules as they are bundled. */
export const lazySdkSchemas = {
  name: "lazy-sdk-schemas",
  setup(build) {
    build.onLoad({ filter: LAZY_SCHEMA_FILES }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      return { contents: lazySchemas(await readFile(args.path, "utf8"), args.path), loader: "js" };
    });
  },
};
