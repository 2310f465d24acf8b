// $HERMES_HOME/worktrees/ is the user's code (session worktrees), not Hermes's state, but only
// where the real path agrees: a link planted in it that leads back into $HERMES_HOME stays
// Hermes's state for the file tools (runs-later) and the command screen.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { inHermesWorktrees } from "../../acp-server/security/hermes-worktrees";
import { runsLater } from "../../acp-server/security/runs-later";
import { realPath } from "../../acp-server/security/sensitive-paths";
import { makeTempDir } from "../support/acp-harness";

test("a worktree file is not Hermes's state; the folder itself, a link back into $HERMES_HOME and a lookalike are", async () => {
  const home = await makeTempDir("hermes-home-");
  writeFileSync(path.join(home, "config.yaml"), "model: {}\n");
  const tree = path.join(home, "worktrees", "repo-1234abcd", "session-1");
  mkdirSync(path.join(tree, "src"), { recursive: true });
  writeFileSync(path.join(tree, "config.yaml"), "app: config\n");
  symlinkSync(path.join(home, "config.yaml"), path.join(tree, "linked.yaml"));
  symlinkSync(home, path.join(tree, "home-link"));

  assert.equal(inHermesWorktrees(path.join(tree, "src", "new.ts"), home, realPath), true);
  assert.equal(runsLater(path.join(tree, "src", "new.ts"), home), undefined);
  assert.equal(runsLater(path.join(tree, "config.yaml"), home), undefined, "a repository's own config.yaml is just a file");
  for (const target of [path.join(tree, "linked.yaml"), path.join(tree, "home-link", "config.yaml"), path.join(home, "worktrees"), path.join(home, "worktreesX", "a"), path.join(home, "config.yaml")]) {
    assert.equal(inHermesWorktrees(target, home, realPath) && runsLater(target, home) === undefined, false, target);
    assert.equal(runsLater(target, home)?.kind, "hermes-state", target);
  }
  assert.equal(runsLater(path.join(tree, ".git"), home)?.kind, "git", "a worktree's .git is still git's");
});
