import assert from "node:assert/strict";
import { test } from "node:test";
import { childEnv, isSecretEnvName } from "../../acp-server/security/child-env";

const base: NodeJS.ProcessEnv = {
  PATH: "/usr/local/bin:/usr/bin",
  HOME: "/home/dev",
  LANG: "en_US.UTF-8",
  TERM: "xterm-256color",
  SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
  HTTPS_PROXY: "http://proxy:3128",
  HERMES_HOME: "/home/dev/.hermes",
  HERMES_API_KEY: "h-secret",
  OPENAI_API_KEY: "sk-secret",
  ANTHROPIC_API_KEY: "sk-ant-secret",
  OPENROUTER_API_KEY: "sk-or-secret",
  OPENAI_ORG_ID: "org-1",
  OPENAI_PROJECT_ID: "proj-1",
  ANTHROPIC_AUTH_TOKEN: "tok",
  AWS_ACCESS_KEY_ID: "AKIAEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  AWS_SESSION_TOKEN: "aws-session",
  GITHUB_TOKEN: "ghp_x",
  GH_TOKEN: "ghp_y",
  CI_JOB_API_TOKEN: "ci",
  SLACK_ACCESS_TOKEN: "xoxb",
  CLIENT_SECRET: "cs",
  DJANGO_SECRET_KEY: "dj",
  VERCEL_AUTH_TOKEN: "v",
  NODE_OPTIONS: "--max-old-space-size=4096",
  TOKENIZERS_PARALLELISM: "false",
  SECRET_SAUCE_ENABLED: "1",
  EMPTY: "",
  UNSET: undefined,
};

const removed = [
  "HERMES_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "OPENROUTER_API_KEY",
  "OPENAI_ORG_ID",
  "OPENAI_PROJECT_ID",
  "ANTHROPIC_AUTH_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "CI_JOB_API_TOKEN",
  "SLACK_ACCESS_TOKEN",
  "CLIENT_SECRET",
  "DJANGO_SECRET_KEY",
  "VERCEL_AUTH_TOKEN",
];

test("credentials are removed, everything else is kept", () => {
  const env = childEnv(base, {});
  for (const name of removed) assert.equal(name in env, false, `${name} should be removed`);
  assert.deepEqual(env, {
    PATH: "/usr/local/bin:/usr/bin",
    HOME: "/home/dev",
    LANG: "en_US.UTF-8",
    TERM: "xterm-256color",
    SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
    HTTPS_PROXY: "http://proxy:3128",
    HERMES_HOME: "/home/dev/.hermes",
    AWS_ACCESS_KEY_ID: "AKIAEXAMPLE",
    NODE_OPTIONS: "--max-old-space-size=4096",
    TOKENIZERS_PARALLELISM: "false",
    SECRET_SAUCE_ENABLED: "1",
    EMPTY: "",
  });
});

test("undefined values are dropped and the input is not modified", () => {
  const input = { ...base };
  const env = childEnv(input, {});
  assert.equal("UNSET" in env, false);
  assert.deepEqual(input, base);
  assert.equal(input.OPENAI_API_KEY, "sk-secret");
});

test("passthrough keeps exactly the listed names", () => {
  const env = childEnv(base, { passthrough: ["GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "NOT_SET_ANYWHERE", "openai_api_key"] });
  assert.equal(env.GITHUB_TOKEN, "ghp_x");
  assert.equal(env.AWS_SECRET_ACCESS_KEY, "aws-secret");
  assert.equal("NOT_SET_ANYWHERE" in env, false, "passthrough never adds variables");
  assert.equal("OPENAI_API_KEY" in env, false, "names are matched exactly");
  assert.equal("GH_TOKEN" in env, false);
});

test("options may be omitted", () => {
  assert.equal("OPENAI_API_KEY" in childEnv(base), false);
});

test("name matching is case-insensitive (Windows environments)", () => {
  assert.equal(isSecretEnvName("openai_api_key"), true);
  assert.equal(isSecretEnvName("Github_Token"), true);
  assert.equal(isSecretEnvName("PATH"), false);
  assert.equal(isSecretEnvName("SSH_AUTH_SOCK"), false);
  assert.equal(isSecretEnvName("MAX_TOKENS"), false);
});
