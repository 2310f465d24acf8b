// The one list of credential stores, as the file tools see it: what it covers, and what it
// leaves alone (an editor's settings are not its secret storage).
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { credentialStorePaths, credentialStoreRealPaths, realPath, sensitiveReason } from "../../acp-server/security/sensitive-paths";

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

describe("credentialStoreRealPaths (the stores resolved together, folders listed once)", () => {
  it("gives exactly realPath of each store, whatever the home folder holds", async () => {
    const { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } = await import("node:fs");
    const root = mkdtempSync(path.join(os.tmpdir(), "hermes-stores-"));
    try {
      const home = path.join(root, "home");
      const elsewhere = path.join(root, "elsewhere");
      const at = (...parts: string[]) => path.join(home, ...parts);
      mkdirSync(home);
      mkdirSync(elsewhere);
      const paths = () => credentialStorePaths(home, at(".hermes"));
      const check = (label: string, homeAs = home) =>
        assert.deepEqual(credentialStoreRealPaths(homeAs, at(".hermes")), credentialStorePaths(homeAs, at(".hermes")).map(realPath), label);
      check("an empty home folder");
      mkdirSync(at(".ssh"));
      mkdirSync(path.join(elsewhere, "aws"));
      symlinkSync(path.join(elsewhere, "aws"), at(".aws")); // a store that is a link
      symlinkSync(path.join(elsewhere, "missing"), at(".gnupg")); // a dangling link
      writeFileSync(at(".kube"), "a file where a folder was expected");
      mkdirSync(at(".docker")); // without its config.json
      mkdirSync(at(".config", "gcloud"), { recursive: true });
      mkdirSync(path.join(elsewhere, "gh"));
      symlinkSync(path.join(elsewhere, "gh"), at(".config", "gh"));
      mkdirSync(path.join(elsewhere, "git"));
      writeFileSync(path.join(elsewhere, "git", "credentials"), "x");
      symlinkSync(path.join(elsewhere, "git"), at(".config", "git")); // a linked folder holding a store
      mkdirSync(path.join(elsewhere, "local", "share", "keyrings"), { recursive: true });
      symlinkSync(path.join(elsewhere, "local"), at(".local")); // a linked parent of stores
      symlinkSync(path.join(elsewhere, "no-cargo"), at(".cargo")); // a dangling parent of stores
      writeFileSync(at(".gem"), "a file as a parent of a store");
      mkdirSync(at(".m2"));
      writeFileSync(path.join(elsewhere, "settings.xml"), "x");
      symlinkSync(path.join(elsewhere, "settings.xml"), at(".m2", "settings.xml"));
      mkdirSync(at(".MOZILLA")); // the same name in another case
      mkdirSync(at(".hermes"));
      writeFileSync(at(".hermes", ".env"), "KEY=x");
      writeFileSync(at(".netrc"), "machine x");
      check("stores as folders, files, links, dangling links, linked and file parents");
      const linkedHome = path.join(root, "home-link");
      symlinkSync(home, linkedHome);
      check("the home folder reached through a link", linkedHome);
      check("the home folder named with a trailing separator", `${home}${path.sep}`);
      assert.equal(paths().length, credentialStoreRealPaths(home, at(".hermes")).length);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
