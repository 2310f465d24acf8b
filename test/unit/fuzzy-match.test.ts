import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { applyMatches, closestCandidates, dominantEol, findMatches, nonOverlapping } from "../../acp-server/tools/fuzzy-match";

/** Applies the single match the quote must have, or fails. */
function edit(text: string, quoted: string, replacement: string): { level: string; after: string } {
  const result = findMatches(text, quoted, replacement);
  assert.ok(result, `no match for ${JSON.stringify(quoted)}`);
  assert.equal(result.matches.length, 1, `expected one match, got ${result.matches.length} (${result.level})`);
  return { level: result.level, after: applyMatches(text, result.matches) };
}

describe("findMatches: levels from exact to loosest", () => {
  const cases: { name: string; text: string; quoted: string; replacement: string; level: string; after: string }[] = [
    { name: "exact, part of a line", text: "let a = 1;\nlet b = 2;\n", quoted: "= 2", replacement: "= 3", level: "exact", after: "let a = 1;\nlet b = 3;\n" },
    { name: "CRLF file quoted with LF", text: "one\r\ntwo\r\nthree\r\n", quoted: "one\ntwo", replacement: "one\n2\ntwo", level: "line_endings", after: "one\r\n2\r\ntwo\r\nthree\r\n" },
    { name: "LF file quoted with CRLF", text: "one\ntwo\n", quoted: "one\r\ntwo", replacement: "1\r\n2", level: "line_endings", after: "1\n2\n" },
    {
      name: "trailing spaces in the file",
      text: "if (x) {   \n  go();\n}\n",
      quoted: "if (x) {\n  go();",
      replacement: "if (y) {\n  go();",
      level: "trailing_whitespace",
      after: "if (y) {\n  go();\n}\n",
    },
    {
      name: "indentation drift: re-indented to the file's",
      text: "class A {\n    run() {\n        return 1;\n    }\n}\n",
      quoted: "run() {\n    return 1;\n}",
      replacement: "run() {\n    const x = 2;\n    return x;\n}",
      level: "indentation",
      after: "class A {\n    run() {\n        const x = 2;\n        return x;\n    }\n}\n",
    },
    {
      name: "spaces quoted for a tab-indented file become tabs",
      text: "func main() {\n\tif ok {\n\t\tdo()\n\t}\n}\n",
      quoted: "    if ok {\n        do()\n    }",
      replacement: "    if ok {\n        do()\n        again()\n    }",
      level: "indentation",
      after: "func main() {\n\tif ok {\n\t\tdo()\n\t\tagain()\n\t}\n}\n",
    },
    {
      name: "collapsed inner whitespace and typographic quotes",
      text: "x  =   say('hi')\n",
      quoted: "x = say(\u2018hi\u2019)",
      replacement: "x = say('bye')",
      level: "whitespace",
      after: "x = say('bye')\n",
    },
    {
      name: "a quote ending in a line break replaces whole lines, CRLF kept",
      text: "a\r\n  b\r\n  c\r\nd\r\n",
      quoted: "b\nc\n",
      replacement: "B\nB2\n",
      level: "indentation",
      after: "a\r\n  B\r\n  B2\r\nd\r\n",
    },
    { name: "last line without a line break stays without one", text: "a\nb", quoted: "b\n", replacement: "b\nc\n", level: "line_endings", after: "a\nb\nc" },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const { level, after } = edit(entry.text, entry.quoted, entry.replacement);
      assert.equal(level, entry.level);
      assert.equal(after, entry.after);
    });
  }

  test("a stricter level that matches decides, even when a looser one would match elsewhere too", () => {
    const text = "  foo();\nfoo();\n";
    const result = findMatches(text, "  foo();", "  bar();");
    assert.equal(result?.level, "exact");
    assert.equal(result?.matches.length, 1);
  });

  test("loose matches in several places are all reported (the caller refuses the ambiguity)", () => {
    const result = findMatches("if a {\n  x()\n}\nif b {\n    x()\n}\n", "x()  ", "y()");
    assert.equal(result?.level, "indentation");
    assert.equal(result?.matches.length, 2);
    assert.deepEqual(result?.matches.map((match) => match.line), [2, 5]);
  });

  test("blank-only quotes never match loosely; no match is undefined", () => {
    assert.equal(findMatches("a\n\n\nb\n", " \n \n", "x"), undefined);
    assert.equal(findMatches("a\nb\n", "c", "d"), undefined);
  });

  test("from: only matches at or after the offset", () => {
    const text = "x\ny\nx\n";
    assert.deepEqual(findMatches(text, "x", "z", { from: 1 })?.matches.map((match) => match.line), [3]);
  });

  test("nonOverlapping keeps the first of overlapping matches; dominantEol", () => {
    assert.equal(nonOverlapping([{ start: 0, end: 4, replacement: "", line: 1 }, { start: 2, end: 6, replacement: "", line: 1 }, { start: 6, end: 7, replacement: "", line: 2 }]).length, 2);
    assert.equal(dominantEol("a\r\nb\r\nc\n"), "\r\n");
    assert.equal(dominantEol("a\nb\r\nc\n"), "\n");
    assert.equal(dominantEol("no breaks"), "\n");
  });
});

describe("closestCandidates", () => {
  test("ranks the most similar windows with numbered excerpts", () => {
    const text = ["function add(a, b) {", "  return a + b;", "}", "", "function sub(a, b) {", "  return a - b;", "}"].join("\n");
    const [best, second] = closestCandidates(text, "function add(a, c) {\n  return a + c;\n}");
    assert.ok(best && second);
    assert.deepEqual([best.firstLine, best.lastLine], [1, 3]);
    assert.equal(best.excerpt, "1|function add(a, b) {\n2|  return a + b;\n3|}");
    assert.ok(best.score > second.score);
    assert.equal(second.firstLine, 5);
  });

  test("large files are scored through likely starts and still find the place", () => {
    const lines = Array.from({ length: 20_000 }, (_, index) => `const value${index} = compute(${index});`);
    lines[15_000] = "export function target(options) {";
    lines[15_001] = "  return options.enabled && options.ready;";
    const [best] = closestCandidates(lines.join("\n"), "export function target(opts) {\n  return opts.enabled && opts.ready;");
    assert.equal(best?.firstLine, 15_001);
  });

  test("nothing similar: no candidates", () => {
    assert.deepEqual(closestCandidates("aaaa\nbbbb\n", "zzzz qqqq"), []);
  });
});
