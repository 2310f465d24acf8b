import assert from "node:assert/strict";
import { test } from "node:test";
import { decidePermission } from "../../acp-server/security/permission-policy";
import type { PermissionAsk } from "../../acp-server/tools/context";

const inside: PermissionAsk = { action: "edit", title: "Write a", paths: ["/work/p/src/a.ts"] };
const outside: PermissionAsk = { action: "edit", title: "Write b", paths: ["/etc/hosts"] };
const sibling: PermissionAsk = { action: "edit", title: "Write c", paths: ["/work/p-other/c.ts"] };
const command: PermissionAsk = { action: "execute", title: "$ ls", command: "ls" };

const table: [string, Parameters<typeof decidePermission>[0], PermissionAsk, string][] = [
  ["default asks for edits", "default", inside, "ask"],
  ["default runs plain commands", "default", command, "allow"],
  ["accept_edits allows edits inside the workspace", "accept_edits", inside, "allow"],
  ["accept_edits asks outside the workspace", "accept_edits", outside, "ask"],
  ["a sibling folder with the same prefix is outside", "accept_edits", sibling, "ask"],
  ["dont_ask allows everything", "dont_ask", outside, "allow"],
];

for (const [name, mode, ask, expected] of table) {
  test(name, () => assert.equal(decidePermission(mode, ask, "/work/p"), expected));
}
