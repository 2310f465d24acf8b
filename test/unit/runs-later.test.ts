// The "runs later" classifier and the policy over it: a file tool that writes what git, an editor
// or Hermes runs later is refused in dont_ask and plan mode and asked each time otherwise, by
// every spelling an attacker has: nested repositories, gitfiles, bare repositories, case and
// trailing-dot variants, symlinks to .git.
import assert from "node:assert/strict";
import { link, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { decidePermission } from "../../acp-server/security/permission-policy";
import { runsLater } from "../../acp-server/security/runs-later";
import { tempDir } from "../support/tool-context";

async function workspace() {
  const root = await tempDir("hermes-runs-later-");
  const home = path.join(root, "home");
  const hermesHome = path.join(home, ".hermes");
  const cwd = path.join(root, "project");
  await mkdir(path.join(cwd, ".git", "hooks"), { recursive: true });
  await mkdir(hermesHome, { recursive: true });
  // A bare repository under another name, and a link that leads into .git.
  await mkdir(path.join(cwd, "vendor", "mirror", "objects"), { recursive: true });
  await writeFile(path.join(cwd, "vendor", "mirror", "HEAD"), "ref: refs/heads/main\n");
  // Half a bare repository: writing its HEAD completes it.
  await mkdir(path.join(cwd, "half", "objects"), { recursive: true });
  await symlink(path.join(cwd, ".git"), path.join(cwd, "dotgit"));
  await symlink(path.join(cwd, ".git", "hooks"), path.join(cwd, "tools"));
  // Another name for git's config (a command outside the sandbox ran `ln .git/config notes.txt`).
  await writeFile(path.join(cwd, ".git", "config"), "[core]\n\thooksPath = .githooks\n");
  await link(path.join(cwd, ".git", "config"), path.join(cwd, "notes.txt"));
  return { home, hermesHome, cwd, context: { hermesHome, sandboxed: true } };
}

/** Every path here is code for later: each must be classified and refused. */
function plantedPaths(cwd: string): string[] {
  const at = (...parts: string[]) => path.join(cwd, ...parts);
  return [
    at(".git", "hooks", "pre-commit"),
    at(".git", "config"),
    at(".git", "commondir"),
    at(".git", "info", "attributes"),
    at(".git", "modules", "lib", "config"),
    at(".git", "modules", "lib", "hooks", "post-checkout"),
    at(".git", "worktrees", "w", "gitdir"),
    at(".git"),
    at("sub", ".git"),
    at("sub", ".git", "config"),
    at("sub", "deeper", ".git", "hooks", "pre-commit"),
    at(".GIT", "config"),
    at(".Git", "hooks", "post-merge"),
    at(".git.", "config"),
    at(".git ", "config"),
    at("dotgit", "config"),
    at("tools", "pre-push"),
    at("vendor", "mirror", "config"),
    at("vendor", "mirror", "hooks", "update"),
    at("half", "HEAD"),
    at(".vscode", "tasks.json"),
    at(".vscode", "settings.json"),
    at(".vscode", "launch.json"),
    at("app", ".VSCode", "Tasks.json"),
    at("project.code-workspace"),
    at(".zed", "tasks.json"),
    at(".zed", "settings.json"),
    at(".idea", "workspace.xml"),
    at(".idea", "runConfigurations", "evil.xml"),
    at(".run", "start.run.xml"),
    at(".devcontainer", "devcontainer.json"),
    at(".devcontainer.json"),
    at(".envrc"),
    at("sub", ".envrc"),
    at(".mise.toml"),
    at(".husky", "pre-commit"),
    at("notes.txt"),
    at(".githooks", "pre-commit"),
    at(".vscode", "mcp.json"),
    at(".cursor", "mcp.json"),
    at(".mcp.json"),
    at(".gemini", "settings.json"),
    at(".claude", "settings.json"),
    at(".claude", "settings.local.json"),
    at(".hermes", "hooks.json"),
    at(".hermes", "hooks.yaml"),
    at(".HERMES", "Hooks.yml"),
  ];
}

/** Ordinary files that merely look alike: none of them may be flagged. */
function ordinaryPaths(cwd: string): string[] {
  const at = (...parts: string[]) => path.join(cwd, ...parts);
  return [
    at("src", "git.ts"),
    at(".gitignore"),
    at(".gitattributes"),
    at(".github", "workflows", "ci.yml"),
    at("docs", "git", "config.md"),
    at(".gitkeep"),
    at("my.git", "config"),
    at(".vscode", "extensions.json"),
    at(".hermes", "skills", "x", "SKILL.md"),
    at("vscode", "tasks.json"),
    at("src", "HEAD.ts"),
    at("objects", "model.ts"),
    at(".envrc.example"),
    at(".code-workspace-notes", "a.md"),
    at(".claude", "commands", "review.md"),
    at(".cursor", "rules", "style.mdc"),
    at("githooks", "pre-commit"),
  ];
}

test("what runs later is classified, by every spelling", async () => {
  const { hermesHome, cwd } = await workspace();
  for (const target of plantedPaths(cwd)) assert.ok(runsLater(target, hermesHome), `planted but not flagged: ${path.relative(cwd, target)}`);
  for (const target of ordinaryPaths(cwd)) assert.equal(runsLater(target, hermesHome), undefined, `ordinary but flagged: ${path.relative(cwd, target)}`);
  assert.equal(runsLater(path.join(hermesHome, "config.yaml"), hermesHome)?.kind, "hermes-state");
  assert.equal(runsLater(path.join(cwd, ".git", "config"), hermesHome)?.kind, "git");
  assert.equal(runsLater(path.join(cwd, ".vscode", "tasks.json"), hermesHome)?.kind, "editor");
});

test("file tools never plant code for later: refused in dont_ask and plan, asked each time (never remembered) otherwise, the card naming the file and why", async () => {
  const { home, cwd, context } = await workspace();
  for (const target of plantedPaths(cwd)) {
    const name = path.relative(cwd, target);
    for (const action of ["edit", "delete"] as const) {
      for (const mode of ["dont_ask", "plan"] as const) {
        const verdict = decidePermission(mode, { action, paths: [path.join(cwd, "ok.txt"), target] }, cwd, home, context);
        assert.equal(verdict.decision, "deny", `${mode} ${action} ${name}`);
        assert.ok(verdict.reasons.join(" ").includes(target), `${mode}: the refusal names ${name}`);
      }
      for (const mode of ["default", "accept_edits"] as const) {
        const verdict = decidePermission(mode, { action, paths: [target] }, cwd, home, context);
        assert.equal(verdict.decision, "ask", `${mode} ${action} ${name}`);
        assert.equal(verdict.askEachTime, true, `${mode} ${name}: never covered by a saved or session approval`);
        assert.ok(verdict.reasons.join(" ").includes(target), `${mode}: the card names ${name}`);
        assert.match(verdict.reasons.join(" "), /git|editor|setting|Hermes/, `${mode}: the card says why ${name} is special`);
      }
    }
  }
  for (const target of ordinaryPaths(cwd)) {
    assert.equal(decidePermission("dont_ask", { action: "edit", paths: [target] }, cwd, home, context).decision, "allow", path.relative(cwd, target));
  }
  // Reading git's config is no plant: it stays an ordinary (sensitive) read.
  assert.notEqual(decidePermission("default", { action: "read", paths: [path.join(cwd, ".git", "config")] }, cwd, home, context).decision, "deny");
});
