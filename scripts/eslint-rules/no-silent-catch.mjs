// ESLint rule `hermes/no-silent-catch`: a caught error must either be used or be explained.
//
// Flags every `catch (e) { ... }` clause and every `.catch(fn)` handler whose error is not used
// (not logged, rethrown, wrapped, returned or recorded) and that carries no comment of the form
//
//   // expected: <which case this is and why it is safe to ignore>
//
// on the line of the `catch` or on a line before the first statement of its body. "Used" means
// the error binding is read somewhere in the handler (`void err` does not count), or the catch
// clause throws. A `.catch(fn)` whose argument is not a function literal (`.catch(reject)`,
// `.catch(log.warn)`) passes the error on and is not flagged.
//
// Runs in `npm run lint` (wired in eslint.config.mjs, product code only); `npm run lint:catches`
// runs it alone, without type information, in a few seconds (`-- --all` includes acp-server/acp/).
// ESLint's cache does not notice a change to this file: after editing it, lint with --no-cache.
//
// WHY: a failure swallowed with no trace is the hardest kind to debug (a log that stops writing,
// a command output reported as empty). The comment keeps the deliberate cases visible in review.

const EXPECTED = /^\s*expected:\s*\S/;

/** @type {import("eslint").Rule.RuleModule} */
export const noSilentCatch = {
  meta: {
    type: "problem",
    docs: { description: "a caught error must be used (logged, rethrown, wrapped, returned) or explained by `// expected: ...`" },
    schema: [],
    messages: {
      silent:
        "This {{kind}} drops the error. Use it (log it with context, rethrow, wrap or return it), or say why that is safe with `// expected: <which case and why>` on the catch line or the first line of its body.",
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;

    /** True when a comment `// expected: ...` sits on a line from `fromLine` to `toLine`. */
    function explained(fromLine, toLine) {
      return sourceCode.getAllComments().some(
        (comment) => comment.loc.start.line >= fromLine && comment.loc.start.line <= toLine && EXPECTED.test(comment.value),
      );
    }

    /** True when the variable bound to the error is read other than by `void err`. */
    function readsError(declaringNode) {
      return sourceCode.getDeclaredVariables(declaringNode).some((variable) =>
        variable.references.some((ref) => ref.isRead() && !(ref.identifier.parent?.type === "UnaryExpression" && ref.identifier.parent.operator === "void")),
      );
    }

    /** True when the parameter `name` of the function `fn` is read other than by `void name`. */
    function readsNamed(fn, name) {
      return sourceCode.getDeclaredVariables(fn).some((variable) =>
        variable.name === name &&
        variable.references.some((ref) => ref.isRead() && !(ref.identifier.parent?.type === "UnaryExpression" && ref.identifier.parent.operator === "void")),
      );
    }

    /** True when `body` (a catch block) throws, outside nested functions. */
    function throwsDirectly(node) {
      if (!node || typeof node.type !== "string") return false;
      if (node.type === "ThrowStatement") return true;
      if (node.type === "FunctionDeclaration" || node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression") return false;
      for (const key of Object.keys(node)) {
        if (key === "parent") continue;
        const child = node[key];
        if (Array.isArray(child)) {
          if (child.some((c) => c && typeof c.type === "string" && throwsDirectly(c))) return true;
        } else if (child && typeof child.type === "string" && throwsDirectly(child)) return true;
      }
      return false;
    }

    /** Last line an `expected:` comment may sit on: the first statement of the body, or its end when empty. */
    function lastCommentLine(body) {
      if (body.type !== "BlockStatement") return body.loc.start.line;
      const first = body.body[0];
      return first ? first.loc.start.line : body.loc.end.line;
    }

    return {
      CatchClause(node) {
        if (node.param && readsError(node)) return;
        if (throwsDirectly(node.body)) return;
        if (explained(node.loc.start.line, lastCommentLine(node.body))) return;
        context.report({ node, messageId: "silent", data: { kind: "catch block" } });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier" || callee.property.name !== "catch") return;
        const handler = node.arguments[0];
        if (!handler || (handler.type !== "ArrowFunctionExpression" && handler.type !== "FunctionExpression")) return;
        const param = handler.params[0];
        if (param && (param.type !== "Identifier" || readsNamed(handler, param.name))) return;
        if (handler.body.type === "BlockStatement" && throwsDirectly(handler.body)) return;
        if (explained(callee.property.loc.start.line, lastCommentLine(handler.body))) return;
        context.report({ node: callee.property, messageId: "silent", data: { kind: ".catch() handler" } });
      },
    };
  },
};

export default { rules: { "no-silent-catch": noSilentCatch } };
