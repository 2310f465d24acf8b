import assert from "node:assert/strict";
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { decidePermission } from "../../acp-server/security/permission-policy";
import { planModeAllows } from "../../acp-server/security/read-only-commands";
import type { PermissionAsk } from "../../acp-server/tools/context";
import { tempDir } from "../support/tool-context";

const edit = (file: string): PermissionAsk => ({ action: "edit", title: "Write", paths: [file] });
const read = (file: string): PermissionAsk => ({ action: "read", title: "Read", paths: [file] });
const command = (line: string, cwd: string): PermissionAsk => ({ action: "execute", title: `$ ${line}`, command: line, paths: [cwd] });

test("the policy table", async () => {
  const root = await tempDir("hermes-policy-");
  const cwd = path.join(root, "project");
  await mkdir(cwd);
  const sibling = path.join(root, "project-other");
  await mkdir(sibling);
  await symlink(sibling, path.join(cwd, "escape"));
  const home = "/home/someone";
  const table: [string, Parameters<typeof decidePermission>[0], PermissionAsk, "allow" | "ask" | "deny"][] = [
    ["default asks for edits", "default", edit(path.join(cwd, "a.ts")), "ask"],
    ["default runs plain commands", "default", command("npm test", cwd), "allow"],
    ["default asks for dangerous commands", "default", command("git push --force", cwd), "ask"],
    ["hardline is refused in default", "default", command("rm -rf /", cwd), "deny"],
    ["hardline is refused even in dont_ask", "dont_ask", command("rm -rf ~", cwd), "deny"],
    ["accept_edits allows edits inside the workspace", "accept_edits", edit(path.join(cwd, "src/a.ts")), "allow"],
    ["accept_edits asks outside the workspace", "accept_edits", edit("/etc/hosts"), "ask"],
    ["a sibling folder with the same prefix is outside", "accept_edits", edit(path.join(sibling, "c.ts")), "ask"],
    ["a symlink out of the workspace is outside", "accept_edits", edit(path.join(cwd, "escape", "d.ts")), "ask"],
    ["sensitive files ask even in accept_edits", "accept_edits", edit(path.join(cwd, ".env")), "ask"],
    ["reads inside the workspace just run", "default", read(path.join(cwd, "src/a.ts")), "allow"],
    ["reading a private key asks", "accept_edits", read(path.join(home, ".ssh", "id_rsa")), "ask"],
    ["reading outside asks", "default", read("/etc/passwd"), "ask"],
    ["plan mode refuses edits", "plan", edit(path.join(cwd, "a.ts")), "deny"],
    ["plan mode allows read-only commands", "plan", command("git status && ls -la", cwd), "allow"],
    ["plan mode refuses changing commands", "plan", command("npm install left-pad", cwd), "deny"],
    ["dont_ask allows edits anywhere", "dont_ask", edit("/etc/hosts"), "allow"],
  ];
  for (const [name, mode, ask, expected] of table) {
    const verdict = decidePermission(mode, ask, cwd, home);
    assert.equal(verdict.decision, expected, name);
    if (verdict.decision !== "allow") assert.ok(verdict.reasons.length > 0, `${name}: says why`);
  }
});

test("plan mode's read-only commands", () => {
  for (const line of ["ls -la", "git log --oneline | head -5", "cat package.json", "grep -rn TODO src", "find . -name '*.ts'", "node --version", "git diff HEAD~1"]) {
    assert.ok(planModeAllows(line), line);
  }
  for (const line of ["touch a", "echo x > file.txt", "git commit -m x", "find . -delete", "npm install", "node script.js", "sed -i s/a/b/ f", "git branch -D old", "sudo ls"]) {
    assert.ok(!planModeAllows(line), line);
  }
});

test("MCP tools: plan mode runs only read-only ones, confirmation lists ask, the rest run", () => {
  const mcp = (readOnly: boolean, confirm: boolean): PermissionAsk => ({ action: "other", title: "Run", mcp: { server: "s", tool: "t", readOnly, confirm } });
  const cwd = "/work/project";
  assert.equal(decidePermission("plan", mcp(false, false), cwd).decision, "deny");
  assert.match(decidePermission("plan", mcp(false, false), cwd).reasons.join(" "), /not marked read-only/);
  assert.equal(decidePermission("plan", mcp(true, false), cwd).decision, "allow");
  assert.equal(decidePermission("plan", mcp(true, true), cwd).decision, "ask");
  assert.equal(decidePermission("default", mcp(false, false), cwd).decision, "allow");
  assert.equal(decidePermission("accept_edits", mcp(false, true), cwd).decision, "ask");
  assert.equal(decidePermission("dont_ask", mcp(false, true), cwd).decision, "allow");
});
