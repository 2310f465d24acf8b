// Saving an "always" answer edits config.yaml in place, under the shared lock, atomically and
// through a symlink; a config Hermes cannot read or parse is never overwritten.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { ApprovalRules, saveRule } from "../../acp-server/security/approval-rules";
import { createLogger } from "../../acp-server/util/log";
import { makeTempDirSync } from "../support/temp-dirs";

const CONFIG = `# Hermes settings (hand-written)
model:
  provider: openai # the one I pay for
  default: gpt-x

approvals:
  timeout: 120
  # rules below were saved by Hermes
  rules:
    - command: git push
      decision: allow

# trailing comment
display:
  theme: dark
`;

const rulesIn = (file: string) => (parse(readFileSync(file, "utf8")) as { approvals: { rules: unknown[] } }).approvals.rules;

describe("approval rules in config.yaml", () => {
  test("a rule is added in place: comments, other keys and their order are kept", () => {
    const dir = makeTempDirSync();
    const file = path.join(dir, "config.yaml");
    writeFileSync(file, CONFIG);
    assert.equal(saveRule(file, { edit: "src/**", decision: "allow" }), undefined);
    const text = readFileSync(file, "utf8");
    for (const comment of ["# Hermes settings (hand-written)", "# the one I pay for", "# rules below were saved by Hermes", "# trailing comment"]) {
      assert.ok(text.includes(comment), `lost ${comment}`);
    }
    assert.deepEqual(Object.keys(parse(text)), ["model", "approvals", "display"]);
    assert.deepEqual(rulesIn(file), [{ command: "git push", decision: "allow" }, { edit: "src/**", decision: "allow" }]);
  });

  test("a missing config.yaml is created; a config without approvals gains the section", () => {
    const dir = makeTempDirSync();
    const file = path.join(dir, "config.yaml");
    assert.equal(saveRule(file, { command: "npm publish", decision: "reject" }), undefined);
    assert.deepEqual(rulesIn(file), [{ command: "npm publish", decision: "reject" }]);
    writeFileSync(file, "# mine\nmodel:\n  default: x\napprovals:\n");
    assert.equal(saveRule(file, { command: "ls", decision: "allow" }), undefined);
    assert.match(readFileSync(file, "utf8"), /^# mine/);
    assert.deepEqual(rulesIn(file), [{ command: "ls", decision: "allow" }]);
  });

  test("a symlinked config stays a symlink and its target gets the rule", () => {
    const dir = makeTempDirSync();
    mkdirSync(path.join(dir, "dotfiles"));
    const target = path.join(dir, "dotfiles", "hermes.yaml");
    const link = path.join(dir, "config.yaml");
    writeFileSync(target, CONFIG);
    symlinkSync(target, link);
    assert.equal(saveRule(link, { command: "make", decision: "allow" }), undefined);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readlinkSync(link), target);
    assert.equal(rulesIn(target).length, 2);
    assert.ok(readFileSync(target, "utf8").includes("# trailing comment"));
  });

  test("a legacy key-only rule covers a command only when every finding is approved (and it may cover it at all); a rejection wins", () => {
    const rules = new ApprovalRules(
      [
        { command: "rm-recursive", decision: "allow" },
        { command: "git-push-force", decision: "reject" },
      ],
      path.join(makeTempDirSync(), "config.yaml"),
      createLogger("test"),
    );
    const scope = { folder: "/w", commands: ["x"], keys: [] };
    assert.equal(rules.forCommand(["rm-recursive"], scope, true), "allow");
    assert.equal(rules.forCommand(["rm-recursive"], scope, false), undefined, "a command that names a path is not covered by a key alone");
    assert.equal(rules.forCommand(["rm-recursive"], undefined, true), undefined, "nor one without a scope");
    assert.equal(rules.forCommand(["rm-recursive", "sudo"], scope, true), undefined, "sudo was never approved");
    assert.equal(rules.forCommand(["rm-recursive", "git-push-force"], scope, true), "reject");
    assert.equal(rules.forCommand(["git-push-force"], undefined, false), "reject", "a rejected key rejects with or without a scope");
    assert.equal(rules.forCommand([], scope, true), undefined);
  });

  test("an unparseable or unreadable config is never overwritten; the rule holds for the process and the user is told", () => {
    const dir = makeTempDirSync();
    const file = path.join(dir, "config.yaml");
    const broken = "model:\n  provider: [openai\napprovals: {rules: \n";
    writeFileSync(file, broken);
    const rules = new ApprovalRules([], file, createLogger("test"));
    const notice = rules.remember({ command: "git push", decision: "allow" });
    assert.match(notice ?? "", /holds until Hermes restarts.*not valid YAML/);
    assert.equal(readFileSync(file, "utf8"), broken);
    assert.equal(rules.forCommand(["git push"], { folder: "/w", commands: ["git push"], keys: [] }, true), "allow");

    for (const content of ["- just\n- a list\n", "approvals:\n  rules: not-a-list\n", "approvals: 3\n"]) {
      writeFileSync(file, content);
      assert.match(saveRule(file, { command: "x", decision: "allow" }) ?? "", /not a (list|mapping)|mapping at the top level/);
      assert.equal(readFileSync(file, "utf8"), content);
    }

    const folder = path.join(dir, "folder.yaml");
    mkdirSync(folder);
    assert.match(saveRule(folder, { command: "x", decision: "allow" }) ?? "", /cannot be read/);
    const dangling = path.join(dir, "dangling.yaml");
    symlinkSync(path.join(dir, "nowhere.yaml"), dangling);
    assert.match(saveRule(dangling, { command: "x", decision: "allow" }) ?? "", /symlink to a missing file/);
    assert.ok(lstatSync(dangling).isSymbolicLink());
  });

  test("two processes saving rules at the same time lose none of them", async () => {
    const dir = makeTempDirSync();
    const file = path.join(dir, "config.yaml");
    writeFileSync(file, CONFIG);
    const perProcess = 40;
    const module = path.resolve(import.meta.dirname, "../../acp-server/security/approval-rules.ts");
    const script = (tag: string) => `
      const { saveRule } = await import(${JSON.stringify(module)});
      for (let i = 0; i < ${perProcess}; i++) {
        const problem = saveRule(${JSON.stringify(file)}, { command: "${tag}-" + i, decision: "allow" });
        if (problem) { console.error(problem); process.exit(1); }
      }`;
    const run = (tag: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script(tag)], { stdio: ["ignore", "inherit", "inherit"] });
        child.on("exit", resolve);
      });
    assert.deepEqual(await Promise.all([run("a"), run("b")]), [0, 0]);
    const commands = new Set(rulesIn(file).map((rule) => (rule as { command: string }).command));
    for (const tag of ["a", "b"]) for (let i = 0; i < perProcess; i++) assert.ok(commands.has(`${tag}-${i}`), `${tag}-${i} was lost`);
    assert.equal(commands.size, perProcess * 2 + 1);
    const text = readFileSync(file, "utf8");
    assert.ok(text.includes("# the one I pay for") && text.includes("# trailing comment"));
    assert.ok(!readFileSync(file, "utf8").includes(".lock"));
  });
});

test("a remembered rule stays in its own ApprovalRules: two built from one config list share nothing", () => {
  // Config defaults hand every load the same (zod default) array: a rule remembered by one
  // runtime must not turn up in the next runtime of the same process.
  const dir = makeTempDirSync();
  const shared: ConstructorParameters<typeof ApprovalRules>[0] = [];
  const first = new ApprovalRules(shared, path.join(dir, "missing", "config.yaml"), createLogger("test"));
  first.remember({ edit: "a.txt", decision: "allow" });
  assert.equal(first.forEdit([path.join(dir, "a.txt")], dir), "allow");
  assert.deepEqual(shared, [], "the config's list is left alone");
  const second = new ApprovalRules(shared, path.join(dir, "config.yaml"), createLogger("test"));
  assert.equal(second.forEdit([path.join(dir, "a.txt")], dir), undefined);
});

describe("web rules", () => {
  test("hosts match exactly or by *.domain; a rejection wins; the rule is saved like the others", () => {
    const dir = makeTempDirSync();
    const file = path.join(dir, "config.yaml");
    const rules = new ApprovalRules(
      [
        { web: "docs.example.com", decision: "allow" },
        { web: "*.trusted.dev", decision: "allow" },
        { web: "evil.trusted.dev", decision: "reject" },
      ],
      file,
      createLogger("test"),
    );
    assert.equal(rules.forWeb("docs.example.com"), "allow");
    assert.equal(rules.forWeb("DOCS.example.com."), "allow");
    assert.equal(rules.forWeb("example.com"), undefined);
    assert.equal(rules.forWeb("xdocs.example.com"), undefined);
    assert.equal(rules.forWeb("api.trusted.dev"), "allow");
    assert.equal(rules.forWeb("trusted.dev"), undefined);
    assert.equal(rules.forWeb("nottrusted.dev"), undefined);
    assert.equal(rules.forWeb("evil.trusted.dev"), "reject");
    assert.equal(rules.remember({ web: "new.example.org", decision: "allow" }), undefined);
    assert.equal(rules.forWeb("new.example.org"), "allow");
    assert.deepEqual(rulesIn(file), [{ web: "new.example.org", decision: "allow" }]);
  });
});
