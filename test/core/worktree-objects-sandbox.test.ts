// A worktree chat's sandboxed commands cannot change the main repository's existing git objects
// (security/sandbox/worktree-commit-mounts.ts, security/worktree-objects.ts). Real bwrap, real
// git, over the in-process agent's real pipes:
// - replacing an existing object (loose, or by planting a pack) fails: the main objects folder is
//   read-only in the sandbox, and the user's next checkout still writes the committed content;
// - an object written to the chat's private object folder under a name that is not its content's
//   hash is never brought into the main repository under that name;
// - a commit inside still works: after it, the main repository holds the commit, fsck is clean,
//   the private folder is empty, and /worktree apply --merge brings the work in.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { makeTempDir, replyTo, scriptedConfig, startAgent, type InProcessAgent } from "../support/in-process-agent";
import { sandboxSkip } from "../support/sandbox";
import { useScriptedModel } from "../support/scripted-model";
import { makeTempDirSync } from "../support/temp-dirs";

const scripted = useScriptedModel();

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
}

function gitOk(cwd: string, ...args: string[]): boolean {
  try {
    execFileSync("git", args, { cwd, stdio: "ignore" });
    return true;
  } catch {
    // expected: git said no (a missing object)
    return false;
  }
}

/** A repository with one commit, and an agent whose worktree session runs commands in bwrap. */
async function setUp(model: { url: string }): Promise<{ repo: string; hermes: InProcessAgent; sessionId: string }> {
  const repo = await makeTempDir("hermes-wobj-repo-");
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(path.join(repo, "readme.md"), "start\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "start");
  const home = makeTempDirSync("hermes-wobj-home-", "/var/tmp");
  writeFileSync(path.join(home, "config.yaml"), JSON.stringify(scriptedConfig(model.url, { terminal: { sandbox: "on" } })));
  const hermes = await startAgent({ env: { HERMES_HOME: home }, permission: "allow" });
  await hermes.initialize();
  const { sessionId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd: repo, mcpServers: [], _meta: { "hermes/worktree": true } });
  return { repo, hermes, sessionId };
}

/** What the terminal tool answered, as the client saw it. */
function toolResults(hermes: InProcessAgent, sessionId: string): string {
  return JSON.stringify(hermes.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "tool_call_update").map((u) => u.update));
}

// The main objects folder as the sandboxed command finds it (git's common dir), and a loose
// object written with node's zlib: no git, so nothing checks the name against the content.
const FIND_MAIN = `main="$(cd "$(git rev-parse --git-common-dir)" && pwd)/objects"`;
const WRITE_EVIL = `node -e 'const fs=require("fs");fs.mkdirSync(require("path").dirname(process.argv[1]),{recursive:true});fs.writeFileSync(process.argv[1],require("zlib").deflateSync(Buffer.from("blob 5\\0evil\\n")))'`;

test("a worktree chat's sandboxed command cannot replace the main repository's objects, nor import one under a false name", { skip: sandboxSkip() }, async () => {
  const model = scripted();
  const { repo, hermes, sessionId } = await setUp(model);
  try {
    const blob = git(repo, "rev-parse", "HEAD:readme.md").trim();
    const future = execFileSync("git", ["hash-object", "--stdin"], { input: "future\n", encoding: "utf8" }).trim();
    const packsBefore = readdirSync(path.join(repo, ".git/objects/pack"));
    const command = [
      FIND_MAIN,
      `f="$main/${blob.slice(0, 2)}/${blob.slice(2)}"`,
      // The loose replacement: move the object aside, write other content under its name.
      `mv -f "$f" "$f.old" 2>&1; ${WRITE_EVIL} "$f" 2>&1; echo loose-done`,
      // A planted pack: a .pack and .idx there are enough to show the folder takes new packs.
      `p="$main/pack/pack-${"0".repeat(40)}"; printf PACK > "$p.pack" 2>&1; printf idx > "$p.idx" 2>&1; echo pack-done`,
      // A name that is not its content's hash, where this chat's git writes (or the main folder, if git writes there).
      `${WRITE_EVIL} "\${GIT_OBJECT_DIRECTORY:-$main}/${future.slice(0, 2)}/${future.slice(2)}" 2>&1; echo false-name-done`,
    ].join("; ");
    model.enqueue({ toolCalls: [{ id: "t1", name: "terminal", arguments: { command } }] }, { text: "Done." });
    await hermes.prompt(sessionId, "tamper");
    const shown = toolResults(hermes, sessionId);
    assert.match(shown, /false-name-done/, "the command ran");
    assert.equal(git(repo, "cat-file", "-p", blob), "start\n", `the existing object still holds the committed content: ${shown}`);
    assert.deepEqual(readdirSync(path.join(repo, ".git/objects/pack")), packsBefore, "no pack was planted");
    assert.ok(!gitOk(repo, "cat-file", "-e", future), "the object planted under a false name is not in the main repository under that name");
    assert.match(shown, /content does not match their names/, "and the chat is told");
    // The user's next checkout writes the committed content.
    writeFileSync(path.join(repo, "readme.md"), "local edit\n");
    git(repo, "checkout", "--", "readme.md");
    assert.equal(readFileSync(path.join(repo, "readme.md"), "utf8"), "start\n");
    assert.equal(git(repo, "fsck", "--no-dangling").trim(), "");
  } finally {
    await hermes.close();
  }
});

test("a sandboxed commit in a worktree chat reaches the main repository verified, and /worktree apply --merge brings it in", { skip: sandboxSkip() }, async () => {
  const model = scripted();
  const { repo, hermes, sessionId } = await setUp(model);
  try {
    const command = "echo sandboxed > inside.txt && git add inside.txt && git -c user.email=t@t -c user.name=t commit -q -m inside && git rev-parse HEAD";
    model.enqueue({ toolCalls: [{ id: "c1", name: "terminal", arguments: { command } }] }, { text: "Done." });
    await hermes.prompt(sessionId, "commit something");
    const branch = `hermes/${sessionId.slice(0, 8)}-session`;
    const shown = toolResults(hermes, sessionId);
    const commit = git(repo, "rev-parse", branch).trim();
    assert.match(shown, new RegExp(commit), "the branch names the commit made inside");
    assert.ok(gitOk(repo, "cat-file", "-e", `${commit}^{tree}`), "the main repository holds the commit and its tree");
    assert.ok(gitOk(repo, "cat-file", "-e", `${commit}:inside.txt`), "and its file");
    assert.equal(git(repo, "fsck", "--no-dangling").trim(), "", "fsck is clean");
    const worktreeGitDir = git(repo, "rev-parse", "--git-common-dir").trim();
    const privateFolder = path.join(path.resolve(repo, worktreeGitDir), "worktrees");
    const leftovers = readdirSync(privateFolder).flatMap((name) => readdirSync(path.join(privateFolder, name, "objects")));
    assert.deepEqual(leftovers.filter((name) => name !== "info" && name !== "pack"), [], "the private folder is emptied");
    const applied = await replyTo(hermes, sessionId, "/worktree apply --merge");
    assert.match(applied, /Done/, applied);
    assert.equal(readFileSync(path.join(repo, "inside.txt"), "utf8"), "sandboxed\n");
    assert.equal(git(repo, "fsck", "--no-dangling").trim(), "");
  } finally {
    await hermes.close();
  }
});

test("another worktree chat's sandboxed command can move this chat's branch, but /worktree apply --merge then refuses and names it", { skip: sandboxSkip() }, async () => {
  const model = scripted();
  const { repo, hermes, sessionId: other } = await setUp(model);
  try {
    const { sessionId } = await hermes.agent.request(acp.methods.agent.session.new, { cwd: repo, mcpServers: [], _meta: { "hermes/worktree": true } });
    const branch = `hermes/${sessionId.slice(0, 8)}-session`;
    model.enqueue({ toolCalls: [{ id: "w1", name: "write_file", arguments: { path: "work.txt", content: "this chat's work\n" } }] }, { text: "Written." });
    await hermes.prompt(sessionId, "write something");
    const left = git(repo, "rev-parse", branch).trim();
    // In the other chat: a commit of its own making, and this chat's branch pointed at it.
    const command = `c=$(git -c user.email=x@x -c user.name=x commit-tree "HEAD^{tree}" -p HEAD -m "not yours") && git update-ref refs/heads/${branch} "$c" && echo moved-$c`;
    model.enqueue({ toolCalls: [{ id: "m1", name: "terminal", arguments: { command } }] }, { text: "Done." });
    await hermes.prompt(other, "move it");
    const moved = /moved-([0-9a-f]{40})/.exec(toolResults(hermes, other))?.[1];
    assert.ok(moved, `the other chat's command ran in its sandbox and moved the branch: ${toolResults(hermes, other)}`);
    assert.equal(git(repo, "rev-parse", branch).trim(), moved);

    const head = git(repo, "rev-parse", "HEAD").trim();
    assert.match(await replyTo(hermes, sessionId, "/worktree"), new RegExp(`⚠ The branch is not where this chat left it \\(${left.slice(0, 10)}\\): something else moved it to ${moved.slice(0, 10)}`));
    const refused = await replyTo(hermes, sessionId, "/worktree apply --merge");
    assert.match(refused, new RegExp(`Not applied: the branch \`${branch}\` was moved by something other than this chat`), refused);
    assert.equal(git(repo, "rev-parse", "HEAD").trim(), head, "the checkout's branch did not move");
    assert.equal(git(repo, "status", "--porcelain"), "", "nothing came into the checkout");
    assert.match(await replyTo(hermes, sessionId, "/worktree apply"), /Done: applied as uncommitted changes/);
    assert.equal(readFileSync(path.join(repo, "work.txt"), "utf8"), "this chat's work\n", "the worktree's own files come in");
  } finally {
    await hermes.close();
  }
});
