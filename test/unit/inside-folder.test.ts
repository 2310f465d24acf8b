import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { insideWorkspace } from "../../acp-server/security/sensitive-paths";
import { isWithin } from "../../acp-server/security/screen-paths";
import { isInside, relativeInside } from "../../acp-server/util/inside-folder";
import { tempDir } from "../support/tool-context";

test("isInside: the folder itself and what is below it, nothing else", () => {
  assert.equal(isInside("/w", "/w"), true);
  assert.equal(isInside("/w", "/w/a/b.txt"), true);
  assert.equal(isInside("/w", "/w/..hidden"), true, "a name starting with .. is inside");
  assert.equal(isInside("/w/", "/w/a"), true, "a trailing separator on the folder changes nothing");
  assert.equal(isInside("/", "/etc/passwd"), true);
  assert.equal(isInside("/w", "/wx/a"), false, "a sibling sharing the prefix is outside");
  assert.equal(isInside("/w", "/"), false);
  assert.equal(isInside("/w", "/w/../etc"), false, "`..` is applied before comparing");
  assert.equal(isInside("/w/a", "/w"), false);
});

test("isInside: a relative path is inside nothing (never resolved against this process's cwd)", () => {
  assert.equal(isInside(process.cwd(), "src/a.ts"), false);
  assert.equal(isInside(process.cwd(), "$HOME/x"), false);
  assert.equal(isInside("w", "w/a"), false);
});

test("relativeInside: the path below the folder, '' for the folder, undefined outside", () => {
  assert.equal(relativeInside("/w", "/w/a/b.txt"), path.join("a", "b.txt"));
  assert.equal(relativeInside("/w", "/w"), "");
  assert.equal(relativeInside("/w", "/x/a"), undefined);
});

test("the command screen's isWithin is the same check with its argument order", () => {
  assert.equal(isWithin("/home/u/.ssh/id_rsa", "/home/u"), true);
  assert.equal(isWithin("/home/user2/x", "/home/u"), false);
  assert.equal(isWithin("$HOME/.ssh", "/home/u"), false);
});

test("insideWorkspace resolves symlinks on both sides first: a link leading out is outside", async () => {
  const root = await tempDir();
  const workspace = path.join(root, "ws");
  const outside = path.join(root, "outside");
  mkdirSync(workspace);
  mkdirSync(outside);
  symlinkSync(outside, path.join(workspace, "escape"));
  assert.equal(isInside(workspace, path.join(workspace, "escape", "secret.txt")), true, "lexically it looks inside");
  assert.equal(insideWorkspace(workspace, path.join(workspace, "escape", "secret.txt")), false);
  assert.equal(insideWorkspace(workspace, path.join(workspace, "new", "file.txt")), true, "a missing path resolves through its existing parent");
});
