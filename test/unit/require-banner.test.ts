// The build keeps the `require` banner (scripts/require-banner.mjs) only in the server chunks that
// name `require`: the chunk defining esbuild's __require helper must keep it, one that never names
// it loses it, and a chunk's lines stay where the source map expects them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { REQUIRE_BANNER, withoutUnusedRequire } from "../../scripts/require-banner.mjs";

const chunk = (body: string) => `${REQUIRE_BANNER}\n${body}`;

test("a chunk that never names require loses the banner, keeping every line in place", () => {
  const body = 'import { a } from "./chunk-A.mjs";\nvar x = __require2("x");\nexport { x };\n//# sourceMappingURL=chunk-B.mjs.map\n';
  const trimmed = withoutUnusedRequire(chunk(body));
  assert.ok(!trimmed.includes("createRequire"));
  assert.equal(trimmed.split("\n").length, chunk(body).split("\n").length, "same number of lines");
  assert.equal(trimmed.split("\n").slice(2).join("\n"), body, "the code after the banner is untouched");
});

test("the chunk defining esbuild's __require helper, or any code naming require, keeps it", () => {
  const helper = 'var __require = ((x) => typeof require !== "undefined" ? require : x)(function(x) { return require.apply(this, arguments); });\n';
  assert.equal(withoutUnusedRequire(chunk(helper)), chunk(helper));
  for (const body of ['const fs = require("node:fs");\n', "(0, require)('x');\n", "const r = require;\n"]) {
    assert.equal(withoutUnusedRequire(chunk(body)), chunk(body), body);
  }
});

test("names that only contain the word are not uses; text without the banner is left alone", () => {
  for (const body of ['const r = createRequire(import.meta.url);\n', "module.require('x');\n", "const requireAuth = 1;\n", "var $require = 1;\n"]) {
    assert.ok(!withoutUnusedRequire(chunk(body)).includes("__hermesCreateRequire"), body);
  }
  assert.equal(withoutUnusedRequire('const fs = require("fs");\n'), 'const fs = require("fs");\n');
});
