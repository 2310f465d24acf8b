// Terminal sign-in as the built `hermes acp` advertises it: ACP 1.21's typed terminal method
// (the client appends `--setup` to its own Hermes command) for clients with auth.terminal, and
// the older `_meta["terminal-auth"]` key, a whole command line, for clients that predate it.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { HERMES_BIN, scriptedConfig, startHermes } from "../support/acp-harness";

const CONFIG = scriptedConfig("http://127.0.0.1:9/v1");

test("auth.terminal: the typed hermes-setup method, with the legacy key beside it", async () => {
  const hermes = await startHermes({ config: CONFIG, clientCapabilities: { auth: { terminal: true } } });
  try {
    const init = await hermes.initialize();
    const setup = init.authMethods?.find((m) => m.id === "hermes-setup") as any;
    assert.ok(setup, JSON.stringify(init.authMethods));
    assert.equal(setup.type, "terminal");
    assert.deepEqual(setup.args, ["--setup"]);
    const legacy = setup._meta?.["terminal-auth"];
    assert.equal(legacy.command, process.execPath, "the node that runs this Hermes");
    assert.deepEqual(legacy.args.slice(-3), [HERMES_BIN, "acp", "--setup"]);
    assert.ok(existsSync(legacy.args.at(-3)));
    assert.ok(!init.authMethods?.some((m: any) => m.type === "env_var"), "no env_var method: 1.21 removed the variant");
  } finally {
    await hermes.close();
  }
});

test("no auth.terminal: no typed terminal method, the setup only as the legacy key", async () => {
  const hermes = await startHermes({ config: CONFIG });
  try {
    const init = await hermes.initialize();
    assert.ok(!init.authMethods?.some((m: any) => m.type === "terminal"), JSON.stringify(init.authMethods));
    const setup = init.authMethods?.find((m) => m.id === "hermes-setup") as any;
    assert.ok(setup?._meta?.["terminal-auth"], JSON.stringify(init.authMethods));
    assert.deepEqual(setup._meta["terminal-auth"].args.slice(-2), ["acp", "--setup"]);
  } finally {
    await hermes.close();
  }
});
