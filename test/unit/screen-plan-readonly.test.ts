// Plan mode runs only read-only commands: "readers" given options that load code or write
// (red-team finding 15) are refused, and a look-alike command name is never run unasked.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decidePermission } from "../../acp-server/security/permission-policy";
import type { PermissionAsk } from "../../acp-server/tools/context";

const CWD = "/home/dev/project";
const decide = (mode: "plan" | "default" | "dont_ask", command: string) => {
  const ask: PermissionAsk = { action: "execute", title: `$ ${command}`, command, paths: [CWD] };
  return decidePermission(mode, ask, CWD, "/home/dev", { hermesHome: "/home/dev/.hermes", user: "dev" }).decision;
};

test("plan mode refuses readers that load code or write", () => {
  for (const command of ["go list -export -toolexec ./evil ./...", "kubectl get pods --kubeconfig ./evil-exec-plugin.yaml", "tree -Jo out", "ldd ./evil", "nm --plugin ./evil.so x", "objdump --plugin ./evil.so -d x", "bash --rcfile evil -ic ls", "bash --init-file evil -c ls", "cargo metadata --manifest-path x/Cargo.toml", "cargo tree --manifest-path evil/Cargo.toml"]) {
    assert.equal(decide("plan", command), "deny", command);
  }
  for (const command of ["tree -L 2", "nm -C x.o", "kubectl get pods", "cargo tree", "git status"]) assert.equal(decide("plan", command), "allow", command);
});

test("a command name with look-alike non-ASCII letters is unresolved", () => {
  assert.equal(decide("default", "rｍ -rf ~"), "ask");
  assert.equal(decide("dont_ask", "rｍ -rf ~"), "deny");
});
