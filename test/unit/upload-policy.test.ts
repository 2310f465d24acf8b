// browser_upload's rule in the permission policy: the bytes leave for a site, so it is stricter
// than a read. Workspace: allowed in every mode but Plan. Outside: asked each time in Default
// and Accept edits, refused in Don't ask and Plan. Credentials: refused in every mode, even in
// the workspace, even through a link.
import assert from "node:assert/strict";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { decidePermission } from "../../acp-server/security/permission-policy";
import type { SessionMode } from "../../acp-server/security/modes";
import type { PermissionAsk } from "../../acp-server/tools/context";
import { tempDir } from "../support/tool-context";

const upload = (file: string): PermissionAsk => ({ action: "read", title: "Upload", paths: [file], upload: { destination: "127.0.0.1" } });

test("the upload table", async () => {
  const root = await tempDir("hermes-upload-policy-");
  const cwd = path.join(root, "project");
  await mkdir(cwd);
  await writeFile(path.join(root, "outside.txt"), "x");
  await writeFile(path.join(cwd, "report.pdf"), "x");
  await writeFile(path.join(cwd, ".env"), "TOKEN=x");
  await symlink(path.join(cwd, ".env"), path.join(cwd, "innocent.txt"));
  const inside = path.join(cwd, "report.pdf");
  const outside = path.join(root, "outside.txt");
  const modes: SessionMode[] = ["default", "accept_edits", "dont_ask", "plan"];
  const expected: Record<string, Record<SessionMode, "allow" | "ask" | "deny">> = {
    [inside]: { default: "allow", accept_edits: "allow", dont_ask: "allow", plan: "deny" },
    [outside]: { default: "ask", accept_edits: "ask", dont_ask: "deny", plan: "deny" },
    [path.join(cwd, ".env")]: { default: "deny", accept_edits: "deny", dont_ask: "deny", plan: "deny" },
    [path.join(cwd, "innocent.txt")]: { default: "deny", accept_edits: "deny", dont_ask: "deny", plan: "deny" },
    [path.join(root, "home", ".ssh", "id_ed25519")]: { default: "deny", accept_edits: "deny", dont_ask: "deny", plan: "deny" },
  };
  for (const [file, byMode] of Object.entries(expected)) {
    for (const mode of modes) {
      const verdict = decidePermission(mode, upload(file), cwd);
      assert.equal(verdict.decision, byMode[mode], `${mode}: ${file} (${verdict.reasons.join("; ")})`);
      // Outside the workspace nothing is remembered: asked each time.
      if (verdict.decision === "ask") assert.equal(verdict.askEachTime, true, `${mode}: ${file}`);
    }
  }
  // The same outside file as a plain read is still what it was (asked, allowed in dont_ask).
  assert.equal(decidePermission("dont_ask", { action: "read", paths: [outside] }, cwd).decision, "allow");
});
