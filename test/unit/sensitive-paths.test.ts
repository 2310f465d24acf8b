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
