// The plant guard with real git, where no sandbox helps (an editor's terminal, sandbox off): a
// command plants code for the user's next git run, the guard undoes it, then real `git status`
// and `git commit` run with the user's normal settings and no marker may appear. Each attack
// is first run WITHOUT the guard in a twin repository and must leave its marker there: a case
// that plants nothing would prove nothing.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { plantedConfigKeys } from "../../acp-server/security/git-config-change";
import { GitPlantGuard } from "../../acp-server/security/git-plant-guard";
import { makeTempDirSync } from "../support/temp-dirs";

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

function sh(script: string, cwd: string, marker = path.join(cwd, "..", "MARKER")): string {
  const run = spawnSync("bash", ["-c", script], { cwd, env: { ...GIT_ENV, MARKER: marker }, encoding: "utf8" });
  return `${run.stdout}${run.stderr}`;
}

/** A workspace that is a repository with one commit, and a source repository for submodules. */
function repository(): { workspace: string; marker: string } {
  const root = makeTempDirSync("hermes-plant-");
  const workspace = path.join(root, "project");
  mkdirSync(workspace);
  sh("git init -q src && cd src && git commit -q --allow-empty -m src", root);
  sh("git init -q . && echo hello > readme.md && git add readme.md && git commit -q -m init", workspace);
  return { workspace, marker: path.join(root, "MARKER") };
}

/** The user's next git commands, outside any sandbox, with their normal hooks and settings. */
function usersNextGitRuns(workspace: string, marker: string): boolean {
  writeFileSync(path.join(workspace, "readme.md"), `changed ${Math.random()}\n`);
  for (const dir of [workspace, path.join(workspace, "sub"), path.join(workspace, "lib"), path.join(workspace, "sub", "pkg"), path.join(workspace, "x", "y")]) {
    if (!existsSync(dir)) continue;
    sh("git status >/dev/null 2>&1; git add -A >/dev/null 2>&1; git commit -q -m next >/dev/null 2>&1; git log -1 >/dev/null 2>&1", dir);
  }
  return existsSync(marker);
}

// Each plants code that runs as `touch $MARKER` on the next git status or commit.
const HOOK = `printf '#!/bin/sh\\ntouch "%s"\\n' "$MARKER"`;
const ATTACKS: Array<[string, string, string?]> = [
  ["a hook written in place", `${HOOK} > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`],
  ["an existing hook rewritten", `${HOOK} > .git/hooks/post-commit && chmod +x .git/hooks/post-commit`],
  [".git moved aside and copied back with fresh hooks", `mv .git ../dotgit-aside && cp -a ../dotgit-aside .git && ${HOOK} > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`],
  [".git renamed in the workspace and a copy put back", `mv .git old && cp -a old .git && ${HOOK} > .git/hooks/post-commit && chmod +x .git/hooks/post-commit`],
  ["core.fsmonitor in .git/config", `git config core.fsmonitor "touch $MARKER; false"`],
  ["core.hooksPath to a planted folder", `mkdir -p .myhooks && ${HOOK} > .myhooks/pre-commit && chmod +x .myhooks/pre-commit && git config core.hooksPath .myhooks`],
  ["core.fsmonitor spelled in other case, appended by hand", `printf '[Core]\\n\\tFsMonitor = "touch %s; false"\\n' "$MARKER" >> .git/config`],
  ["an include of a planted file", `printf '[core]\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > planted.cfg && git config include.path ../planted.cfg`],
  ["commondir pointing at a copy whose config has core.fsmonitor", `cp -a .git shadow && git config -f shadow/config core.fsmonitor "touch $MARKER; false" && echo "$PWD/shadow" > .git/commondir`],
  ["a commondir to a copy outside the workspace", `cp -a .git ../shadow-out && git config -f ../shadow-out/config core.fsmonitor "touch $MARKER; false" && echo ../../shadow-out > .git/commondir`],
  ["config.worktree with extensions.worktreeConfig", `git config extensions.worktreeConfig true && printf '[core]\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > .git/config.worktree`],
  ["info/attributes naming a filter the config defines", `git config filter.x.clean "touch $MARKER; cat" && echo '* filter=x' > .git/info/attributes`],
  ["a new submodule whose git dir carries core.fsmonitor", `git -c protocol.file.allow=always submodule add -q ../src lib >/dev/null 2>&1 && git config -f .git/modules/lib/config core.fsmonitor "touch $MARKER; false" && echo x > lib/f`],
  ["a new submodule with a pre-commit hook in its git dir", `git -c protocol.file.allow=always submodule add -q ../src lib >/dev/null 2>&1 && ${HOOK} > .git/modules/lib/hooks/pre-commit && chmod +x .git/modules/lib/hooks/pre-commit`],
  ["a new .git in a subfolder", `mkdir -p sub && cd sub && git init -q && git config core.fsmonitor "touch $MARKER; false"`],
  ["a new .git in a subfolder with a hook", `mkdir -p sub && cd sub && git init -q && ${HOOK} > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`],
  ["a gitfile in a subfolder pointing at a planted git dir", `cp -a .git ../evil-git && git config -f ../evil-git/config core.fsmonitor "touch $MARKER; false" && mkdir -p sub && echo "gitdir: $PWD/../evil-git" > sub/.git`],
  [".git replaced by a gitfile to a planted copy", `cp -a .git ../evil2 && git config -f ../evil2/config core.fsmonitor "touch $MARKER; false" && mv .git ../gone && echo "gitdir: $PWD/../evil2" > .git`],
  [".git/hooks replaced by a link to a planted folder", `mkdir -p tools && ${HOOK} > tools/pre-commit && chmod +x tools/pre-commit && mv .git/hooks .git/hooks-old && ln -s ../tools .git/hooks`],
  [".git/config replaced by a link to a planted file", `cp .git/config cfg && printf '[core]\n\tfsmonitor = "touch %s; false"\n' "$MARKER" >> cfg && rm .git/config && ln -s ../cfg .git/config`],
  ["a .git link in a subfolder to a planted copy", `cp -a .git ../evil3 && git config -f ../evil3/config core.fsmonitor "touch $MARKER; false" && mkdir -p sub && ln -s ../../evil3 sub/.git`],
  ["core.hooksPath in config.worktree", `git config extensions.worktreeConfig true && mkdir -p h && ${HOOK} > h/pre-commit && chmod +x h/pre-commit && printf '[core]\n\thooksPath = %s/h\n' "$PWD" > .git/config.worktree`],
  ["a hook in a repository nested before the command", `${HOOK} > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit`, "mkdir -p sub && git -C sub init -q"],
  ["core.fsmonitor in a repository nested under node_modules", `git -C node_modules/pkg config core.fsmonitor "touch $MARKER; false"`, "mkdir -p node_modules/pkg && git -C node_modules/pkg init -q && mkdir sub && ln -s ../node_modules/pkg sub/pkg"],
  ["a hook in the repository above a workspace subfolder", `${HOOK} > ../.git/hooks/pre-commit && chmod +x ../.git/hooks/pre-commit`, "SUBFOLDER"],
  ["an existing submodule's gitfile pointed at a planted git dir", `cp -a .git/modules/lib ../evil4 && git config -f ../evil4/config core.fsmonitor "touch $MARKER; false" && git config -f ../evil4/config core.worktree "$PWD/lib" && echo "gitdir: $PWD/../evil4" > lib/.git && echo y > lib/g`, "git -c protocol.file.allow=always submodule add -q ../src lib >/dev/null 2>&1 && git commit -q -m sub"],
  ["a hook kept in the work tree through core.hooksPath, rewritten", `${HOOK} > .githooks/pre-commit`, "mkdir .githooks && printf '#!/bin/sh\\nexit 0\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit && git config core.hooksPath .githooks"],
  ["a hook that links to a work-tree script, the script rewritten", `${HOOK} > scripts/pre-commit`, "mkdir scripts && printf '#!/bin/sh\\nexit 0\\n' > scripts/pre-commit && chmod +x scripts/pre-commit && ln -s ../../scripts/pre-commit .git/hooks/pre-commit"],
  ["a repository hidden inside a clean new bare repository", `git init -q --bare x && mkdir -p x/y && git -C x/y init -q && git -C x/y config core.fsmonitor "touch $MARKER; false"`],
  ["a gitfile to a clean new bare repository, planted afterwards from outside", `git init -q --bare ../bare-out && mkdir -p sub && echo "gitdir: $PWD/../bare-out" > sub/.git && git config -f ../bare-out/config core.fsmonitor "touch $MARKER; false" && git config -f ../bare-out/config core.bare false && git config -f ../bare-out/config core.worktree "$PWD/sub"`],
  ["an existing submodule's config planted", `git config -f .git/modules/lib/config core.fsmonitor "touch $MARKER; false" && echo y > lib/g`, "git -c protocol.file.allow=always submodule add -q ../src lib >/dev/null 2>&1 && git commit -q -m sub"],
];

describe("the plant guard undoes code planted for the user's git (real git, no sandbox)", () => {
  for (const [name, attack, setup] of ATTACKS) {
    it(name, () => {
      // SUBFOLDER: the workspace is a folder inside the repository, not its root.
      const prepare = () => {
        const made = repository();
        if (setup === "SUBFOLDER") {
          const inner = path.join(made.workspace, "inner");
          mkdirSync(inner);
          return { ...made, workspace: inner, gitAt: made.workspace };
        }
        if (setup) sh(setup, made.workspace);
        return { ...made, gitAt: made.workspace };
      };
      const control = prepare();
      sh(attack, control.workspace, control.marker);
      assert.equal(usersNextGitRuns(control.gitAt, control.marker), true, "without the guard the attack must run (else this case tests nothing)");

      const { workspace, marker, gitAt } = prepare();
      const guard = GitPlantGuard.before([workspace]);
      sh(attack, workspace, marker);
      const report = guard.check();
      assert.ok(report.undone.length + report.notRestored.length > 0, "the guard reports what it found");
      assert.equal(usersNextGitRuns(gitAt, marker), false, `planted code ran: ${JSON.stringify(report)}`);
    });
  }

  it("keeps ordinary git work: commits, branches, remotes, a clean new repository, a clean submodule", () => {
    const { workspace } = repository();
    const guard = GitPlantGuard.before([workspace]);
    const out = sh(
      [
        "git checkout -q -b topic && echo a > a.txt && git add a.txt && git commit -q -m a",
        // Before the remote: a relative submodule URL resolves against origin's.
        "git -c protocol.file.allow=always submodule add -q ../src lib >/dev/null 2>&1",
        "git remote add origin https://example.com/r.git && git config branch.topic.remote origin && git config user.name someone",
        "mkdir -p sub && git -C sub init -q",
        "git worktree add -q wt 2>/dev/null",
        "git log --oneline | wc -l",
      ].join(" && "),
      workspace,
    );
    assert.match(out, /^2$/m);
    const { undone, notRestored } = guard.check();
    assert.deepEqual({ undone, notRestored }, { undone: [], notRestored: [] });
    assert.match(readFileSync(path.join(workspace, ".git", "config"), "utf8"), /example\.com/);
    assert.ok(existsSync(path.join(workspace, "sub", ".git", "HEAD")), "the new clean repository stays");
    assert.ok(existsSync(path.join(workspace, ".git", "modules", "lib", "HEAD")), "the clean submodule stays");
    assert.ok(existsSync(path.join(workspace, "wt", ".git")) && existsSync(path.join(workspace, ".git", "worktrees", "wt", "commondir")), "the linked worktree stays");
    assert.equal(execFileSync("git", ["status", "--porcelain"], { cwd: path.join(workspace, "lib"), env: GIT_ENV, encoding: "utf8" }), "");
  });

  it("a .git replaced by a gitfile: removed, and a later check (the next command) does not put the gitfile back", () => {
    const { workspace, marker } = repository();
    const guard = GitPlantGuard.before([workspace]);
    sh(`cp -a .git ../evil5 && git config -f ../evil5/config core.fsmonitor "touch $MARKER; false" && mv .git ../gone5 && echo "gitdir: $PWD/../evil5" > .git`, workspace, marker);
    const first = guard.check();
    assert.equal(existsSync(path.join(workspace, ".git")), false);
    assert.match(first.notRestored.join("\n"), /not restored/);
    const second = GitPlantGuard.since([workspace], first.checked).check();
    assert.equal(existsSync(path.join(workspace, ".git")), false, "the planted gitfile stays gone");
    assert.deepEqual(second.undone, []);
  });

  it("removes editors' auto-run files a command creates or changes at the workspace root", () => {
    const { workspace } = repository();
    mkdirSync(path.join(workspace, ".vscode"));
    writeFileSync(path.join(workspace, ".vscode", "settings.json"), "{}\n");
    const guard = GitPlantGuard.before([workspace]);
    sh(`echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"},"command":"touch x"}]}' > .vscode/tasks.json && echo '{"terminal.integrated.shell.linux":"/tmp/x"}' > .vscode/settings.json && echo 'touch x' > .envrc && mkdir -p .husky && echo x > .husky/pre-commit`, workspace);
    const report = guard.check();
    assert.equal(existsSync(path.join(workspace, ".vscode", "tasks.json")), false);
    assert.equal(readFileSync(path.join(workspace, ".vscode", "settings.json"), "utf8"), "{}\n");
    assert.equal(existsSync(path.join(workspace, ".envrc")), false);
    assert.equal(existsSync(path.join(workspace, ".husky", "pre-commit")), false);
    assert.equal(report.undone.length, 4, report.undone.join("\n"));
  });
});

describe("which config changes are harmless (an allowlist: an unknown key is planted)", () => {
  const base = Buffer.from('[core]\n\tbare = false\n[remote "origin"]\n\turl = https://example.com/r.git\n');
  const table: Array<[string, string, string[] | undefined]> = [
    ["a remote and a branch", '[remote "up"]\n\turl = https://x/y.git\n\tfetch = +refs/heads/*:refs/remotes/up/*\n[branch "main"]\n\tremote = up\n\tmerge = refs/heads/main\n', []],
    ["identity and signing", "[user]\n\tname = a\n\tsigningKey = ABC\n[commit]\n\tgpgSign = true\n", []],
    ["core.fsmonitor", "[core]\n\tfsmonitor = touch x\n", ["core.fsmonitor"]],
    ["core.hooksPath", "[core]\n\thooksPath = .h\n", ["core.hookspath"]],
    ["an alias", "[alias]\n\tst = !touch x\n", ["alias.st"]],
    ["an include", "[include]\n\tpath = ../x\n", ["include.path"]],
    ["a filter", '[filter "x"]\n\tclean = touch x\n', ["filter.x.clean"]],
    ["a remote's uploadpack", '[remote "origin"]\n\tuploadpack = touch x\n', ["remote.origin.uploadpack"]],
    ["a submodule's update command", '[submodule "lib"]\n\tupdate = !touch x\n', ["submodule.lib.update"]],
    ["an unknown key", "[future]\n\tthing = 1\n", ["future.thing"]],
    ["text git cannot read", "[core\n\tfsmonitor", undefined],
  ];
  for (const [what, added, expected] of table) {
    it(what, () => assert.deepEqual(plantedConfigKeys(base, Buffer.concat([base, Buffer.from(added)])), expected));
  }
  it("removing a setting that is not harmless counts too", () => {
    assert.deepEqual(plantedConfigKeys(Buffer.from("[core]\n\thooksPath = /dev/null\n"), Buffer.from("[core]\n")), ["core.hookspath"]);
  });
});
