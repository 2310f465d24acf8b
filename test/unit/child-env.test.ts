import assert from "node:assert/strict";
import { test } from "node:test";
import { childEnv, isAllowedEnvName } from "../../acp-server/security/child-env";

const base: NodeJS.ProcessEnv = {
  PATH: "/usr/local/bin:/usr/bin",
  HOME: "/home/dev",
  USER: "dev",
  LANG: "en_US.UTF-8",
  LC_ALL: "en_US.UTF-8",
  LC_CTYPE: "UTF-8",
  TERM: "xterm-256color",
  TZ: "Europe/Paris",
  XDG_CONFIG_HOME: "/home/dev/.config",
  GOPATH: "/home/dev/go",
  VIRTUAL_ENV: "/work/.venv",
  HTTPS_PROXY: "http://proxy:3128",
  http_proxy: "http://alice:pr0xyPass@proxy:3128",
  SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
  NODE_OPTIONS: "--require /tmp/hook.js",
  HERMES_HOME: "/home/dev/.hermes",
  HERMES_API_KEY: "h-secret",
  OPENAI_API_KEY: "sk-secret",
  ANTHROPIC_API_KEY: "sk-ant-secret",
  VAULT_TOKEN: "hvs.secret",
  NPM_TOKEN: "npm_secret",
  MYSQL_PWD: "hunter2",
  PGPASSWORD: "pgsecret",
  DATABASE_URL: "postgres://app:dbpass@db:5432/app",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  GITHUB_TOKEN: "ghp_x",
  FOO_BAR: "company-thing",
  BASH_FUNC_x: "() { echo hi; }",
  EMPTY_LANG: "",
  UNSET: undefined,
};

test("children get the allowlist only: no credential, no unknown variable", () => {
  const env = childEnv(base);
  for (const name of ["VAULT_TOKEN", "NPM_TOKEN", "MYSQL_PWD", "PGPASSWORD", "DATABASE_URL", "FOO_BAR", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "HERMES_API_KEY", "HERMES_HOME", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "BASH_FUNC_x", "UNSET"]) {
    assert.equal(name in env, false, `${name} must not be inherited`);
  }
  assert.deepEqual(env, {
    PATH: "/usr/local/bin:/usr/bin",
    HOME: "/home/dev",
    USER: "dev",
    LANG: "en_US.UTF-8",
    LC_ALL: "en_US.UTF-8",
    LC_CTYPE: "UTF-8",
    TERM: "xterm-256color",
    TZ: "Europe/Paris",
    XDG_CONFIG_HOME: "/home/dev/.config",
    GOPATH: "/home/dev/go",
    VIRTUAL_ENV: "/work/.venv",
    HTTPS_PROXY: "http://proxy:3128",
  });
});

test("decisions: the SSH agent socket, NODE_OPTIONS and a proxy with a password stay out", () => {
  const env = childEnv(base);
  assert.equal("SSH_AUTH_SOCK" in env, false, "the agent socket signs as the user");
  assert.equal("NODE_OPTIONS" in env, false, "loads code into every node child");
  assert.equal("http_proxy" in env, false, "a proxy URL with user:password is a credential");
});

test("passthrough adds exactly the listed names, and never invents one", () => {
  const env = childEnv(base, { passthrough: ["VAULT_TOKEN", "SSH_AUTH_SOCK", "http_proxy", "NOT_SET_ANYWHERE", "openai_api_key"] });
  assert.equal(env.VAULT_TOKEN, "hvs.secret");
  assert.equal(env.SSH_AUTH_SOCK, "/tmp/ssh-agent.sock");
  assert.equal(env.http_proxy, "http://alice:pr0xyPass@proxy:3128");
  assert.equal("NOT_SET_ANYWHERE" in env, false);
  assert.equal("OPENAI_API_KEY" in env, false, "names are matched exactly");
  assert.equal("NPM_TOKEN" in env, false);
});

test("the input is not modified; allowlist names compare case-insensitively (Windows)", () => {
  const input = { ...base };
  childEnv(input);
  assert.deepEqual(input, base);
  assert.equal(isAllowedEnvName("Path"), true);
  assert.equal(isAllowedEnvName("SystemRoot"), true);
  assert.equal(isAllowedEnvName("LC_MESSAGES"), true);
  assert.equal(isAllowedEnvName("MAX_TOKENS"), false);
});

test("a spawned command sees the allowlist, not the agent's secrets", async () => {
  const { LocalShellRunner } = await import("../../acp-server/tools/local-shell");
  const runner = new LocalShellRunner(childEnv({ ...base, PATH: process.env.PATH }, { passthrough: ["FOO_BAR"] }));
  const handle = await runner.start("env", { cwd: process.cwd(), outputLimit: 100_000 });
  await handle.waitForExit();
  const { text } = await handle.output();
  assert.match(text, /^HOME=\/home\/dev$/m);
  assert.match(text, /^FOO_BAR=company-thing$/m);
  for (const secret of ["hunter2", "pgsecret", "dbpass", "hvs.secret", "npm_secret", "sk-secret"]) assert.ok(!text.includes(secret), `${secret} leaked`);
});
