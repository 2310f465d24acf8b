// The one list of credential stores, as the file tools see it: what it covers, and what it
// leaves alone (an editor's settings are not its secret storage).
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { sensitiveReason } from "../../acp-server/security/sensitive-paths";

describe("sensitiveReason over the home folder's credential stores", () => {
  const home = os.homedir();
  const stores = [
    ".bash_history",
    ".local/share/fish/fish_history",
    ".mozilla/firefox/p.default/cookies.sqlite",
    ".config/google-chrome/Default/Cookies",
    ".config/Code/User/globalStorage/state.vscdb",
    ".config/Cursor/User/globalStorage/state.vscdb",
    ".config/rclone/rclone.conf",
    ".s3cfg",
    ".m2/settings.xml",
    ".config/configstore/firebase-tools.json",
    ".config/stripe/config.toml",
    ".fly/config.yml",
  ];
  for (const store of stores) {
    it(`${store} is a credential`, () => assert.ok(sensitiveReason(path.join(home, store)), store));
  }
  for (const ordinary of [".config/Code/User/settings.json", ".m2/repository/x.jar", ".bashrc", ".config/git/config"]) {
    it(`${ordinary} is not`, () => assert.equal(sensitiveReason(path.join(home, ordinary)), undefined));
  }
});

describe("sensitiveReason through symlinked stores and folders (each check resolves the home's folders afresh)", () => {
  it("a file reached through a store's real path is a credential, whether the store or its parent folder is the link", async () => {
    const { mkdtempSync, mkdirSync, rmSync, symlinkSync } = await import("node:fs");
    const root = mkdtempSync(path.join(os.tmpdir(), "hermes-sensitive-"));
    const savedHome = process.env.HOME;
    try {
      const home = path.join(root, "home");
      const elsewhere = path.join(root, "elsewhere");
      const keys = path.join(root, "keys");
      mkdirSync(home);
      mkdirSync(path.join(elsewhere, "gh"), { recursive: true });
      mkdirSync(keys);
      symlinkSync(elsewhere, path.join(home, ".config")); // ~/.config → elsewhere, so ~/.config/gh is elsewhere/gh
      process.env.HOME = home;
      assert.match(sensitiveReason(path.join(elsewhere, "gh", "hosts.yml")) ?? "", /credential store/);
      assert.equal(sensitiveReason(path.join(keys, "notes.txt")), undefined);
      symlinkSync(keys, path.join(home, ".aws")); // made after the first check: the next one sees it
      assert.match(sensitiveReason(path.join(keys, "notes.txt")) ?? "", /credential store/);
    } finally {
      process.env.HOME = savedHome;
      rmSync(root, { recursive: true, force: true });
    }
  });
});
