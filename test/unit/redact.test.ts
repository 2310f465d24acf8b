import assert from "node:assert/strict";
import { test } from "node:test";
import { containsSecret, redactDeep, redactSecrets } from "../../acp-server/util/redact";

// Fake credentials, assembled from parts so that no file holds a scanner-shaped token.
const body40 = "Ab3dEfGh1jKlMnOp2rStUvWx4z5678AbCdEfGh9J";
const openai = "sk-" + "T3BlbkFJ" + body40;
const openaiProj = "sk-proj-" + body40 + "_-xY7z";
const anthropic = "sk-ant-" + "api03-" + body40 + "-AAAA";
const openrouter = "sk-or-" + "v1-" + "0123456789abcdef0123456789abcdef0123456789abcdef";
const google = "AIza" + "SyD1xM2nB3vC4xZ5aS6dF7gH8jK9lQ0wErT";
const ghp = "ghp_" + "aBcD1234eFgH5678iJkL9012mNoP3456qRsT";
const gho = "gho_" + "16C7e42F292c6912E7710c838347Ae178B4a";
const ghu = "ghu_" + "16C7e42F292c6912E7710c838347Ae178B4b";
const ghs = "ghs_" + "16C7e42F292c6912E7710c838347Ae178B4c";
const ghr = "ghr_" + "16C7e42F292c6912E7710c838347Ae178B4d";
const githubPat = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP";
const gitlab = "glpat-" + "xY7zAb3dEfGh1jKlMnOp";
const slack = "xoxb-" + "1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
const slackUser = "xoxp-" + "1234567890-0987654321-AbCdEf";
const stripe = "sk_live_" + "51HxYzAbCdEfGhIjKlMnOpQr";
const stripeRestricted = "rk_live_" + "51HxYzAbCdEfGhIjKlMnOpQr";
const awsId = "AKIA" + "IOSFODNN7EXAMPLE";
const awsSessionId = "ASIA" + "Z2X3C4V5B6N7M8Q9";
const awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const pemBody = "MIIEowIBAAKCAQEA7Vx1Q2w3E4r5T6y7U8i9O0pAsDfGhJkL\nzXcVbNm1234567890qwertyuiopASDFGHJKL+/=";
const jwt =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ" + "." + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

// [description, input, secret substring that must disappear]
const positives: [string, string, string][] = [
  ["OpenAI key", `export OPENAI_KEY_VALUE ${openai}`, openai.slice(3)],
  ["OpenAI project key in env", `OPENAI_API_KEY=${openaiProj}`, body40],
  ["Anthropic key", `using key ${anthropic} now`, body40],
  ["OpenRouter key", `Authorization header missing; key=${openrouter}`, "0123456789abcdef0123456789abcdef"],
  ["Google API key", `https://maps.googleapis.com/x?key=${google}&q=1`, google.slice(4)],
  ["GitHub ghp_", `token ${ghp}`, ghp.slice(4)],
  ["GitHub gho_", `"${gho}"`, gho.slice(4)],
  ["GitHub ghu_", ghu, ghu.slice(4)],
  ["GitHub ghs_", `x ${ghs} y`, ghs.slice(4)],
  ["GitHub ghr_", `(${ghr})`, ghr.slice(4)],
  ["GitHub fine-grained PAT", `GH=${githubPat}`, githubPat.slice(11)],
  ["GitLab PAT", `git clone with ${gitlab}`, gitlab.slice(6)],
  ["Slack bot token", `SLACK=${slack}`, slack.slice(5)],
  ["Slack user token", `tok ${slackUser}`, slackUser.slice(5)],
  ["Stripe secret key", `stripe.setKey(${JSON.stringify(stripe)})`, stripe.slice(8)],
  ["Stripe restricted key", `key: ${stripeRestricted}`, stripeRestricted.slice(8)],
  ["AWS access key id", `aws_access_key_id = ${awsId}`, awsId.slice(4)],
  ["AWS temporary key id", `"AccessKeyId": "${awsSessionId}"`, awsSessionId.slice(4)],
  ["AWS secret (ini)", `[default]\naws_secret_access_key = ${awsSecret}\n`, awsSecret],
  ["AWS secret (env)", `AWS_SECRET_ACCESS_KEY=${awsSecret}`, awsSecret],
  ["RSA private key", `before\n-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----\nafter`, pemBody],
  ["OpenSSH private key", `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody}\n-----END OPENSSH PRIVATE KEY-----`, pemBody],
  ["PKCS8 private key in JSON", JSON.stringify({ key: `-----BEGIN PRIVATE KEY-----\n${pemBody}\n-----END PRIVATE KEY-----\n` }), "MIIEowIBAAKCAQEA7Vx1Q2w3E4r5T6y7U8i9O0pAsDfGhJkL"],
  ["truncated private key", `-----BEGIN EC PRIVATE KEY-----\n${pemBody}\n...(output truncated)`, "MIIEowIBAAKCAQEA7Vx1Q2w3E4r5T6y7U8i9O0pAsDfGhJkL"],
  ["Authorization Bearer header", `curl -H "Authorization: Bearer abcDEF123456ghiJKL789" https://api.example.com`, "abcDEF123456ghiJKL789"],
  ["authorization basic, lower case", `authorization: basic dXNlcjpwYXNzd29yZA==`, "dXNlcjpwYXNzd29yZA=="],
  ["AUTHORIZATION in JSON", `{"AUTHORIZATION":"Bearer tok_9f8e7d6c5b4a3210"}`, "tok_9f8e7d6c5b4a3210"],
  ["bare Bearer token in a log", `request failed with Bearer zX9yW8vU7tS6rQ5pO4nM`, "zX9yW8vU7tS6rQ5pO4nM"],
  ["JSON api_key", `{"api_key": "a1b2c3d4e5f6g7h8"}`, "a1b2c3d4e5f6g7h8"],
  ["JSON apiKey, no spaces", `{"apiKey":"Zq8Xw7Vu6Ts5"}`, "Zq8Xw7Vu6Ts5"],
  ["escaped JSON api_key", `{\\"api_key\\": \\"a1b2c3d4e5f6g7h8\\"}`, "a1b2c3d4e5f6g7h8"],
  ["YAML api_key", `model:\n  api_key: a1b2c3d4e5f6g7h8\n`, "a1b2c3d4e5f6g7h8"],
  ["YAML quoted password", `db:\n  password: 'Tr0ub4dor&3'\n`, "Tr0ub4dor&3"],
  ["YAML token", `token: abcdef123456`, "abcdef123456"],
  ["env password", `DB_PASSWORD=s3cr3tP@ssw0rd`, "s3cr3tP@ssw0rd"],
  ["env secret quoted", `JWT_SECRET="9f86d081884c7d659a2feaa0c55ad015"`, "9f86d081884c7d659a2feaa0c55ad015"],
  ["api_key= in a query string", `GET /v1/data?api_key=q1w2e3r4t5y6u7&page=2`, "q1w2e3r4t5y6u7"],
  ["access_token in a query string", `https://x.test/cb?access_token=ya29.a0AfH6SMBxyz1234567890abcdef&x=1`, "a0AfH6SMBxyz1234567890abcdef"],
  ["secret= assignment", `client_secret=Hx7Kp2Lm9Qz4`, "Hx7Kp2Lm9Qz4"],
  ["code string literal", `const password = "hunter2hunter2";`, "hunter2hunter2"],
  ["x-api-key header", `x-api-key: 7f3c9a1e5b2d8f4a`, "7f3c9a1e5b2d8f4a"],
  ["JWT", `cookie session=${jwt}; path=/`, jwt.split(".")[2]],
  ["JWT payload gone", `id_token ${jwt}`, jwt.split(".")[1]],
  ["URL credentials", `git remote add origin https://alice:hunter2pass@git.example.com/repo.git`, "hunter2pass"],
  ["database URL credentials", `DATABASE_URL=postgres://app:Zx9!pw@db.internal:5432/app`, "Zx9!pw"],
];

for (const [name, input, secret] of positives) {
  test(`redacts ${name}`, () => {
    assert.ok(input.includes(secret), "test case must contain its secret");
    const out = redactSecrets(input);
    assert.ok(!out.includes(secret), `secret still present in: ${out}`);
    assert.ok(out.includes("[REDACTED]"), `no [REDACTED] marker in: ${out}`);
    assert.equal(containsSecret(input), true);
    assert.equal(redactSecrets(out), out, "redaction is idempotent");
  });
}

test("keeps a recognisable, non-secret prefix", () => {
  assert.equal(redactSecrets(`key=${anthropic}`), "key=sk-ant-api03-…[REDACTED]");
  assert.equal(redactSecrets(ghp), "ghp_…[REDACTED]");
  assert.equal(redactSecrets(awsId), "AKIA…[REDACTED]");
  assert.equal(
    redactSecrets(`https://alice:hunter2pass@git.example.com/x`),
    "https://alice:[REDACTED]@git.example.com/x",
  );
  assert.equal(redactSecrets(`{"api_key": "a1b2c3d4e5f6g7h8"}`), `{"api_key": "[REDACTED]"}`);
});

test("a private key block is replaced whole, text around it kept", () => {
  const out = redactSecrets(`a\n-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----\nb`);
  assert.equal(out, "a\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\n-----END RSA PRIVATE KEY-----\nb");
  const json = JSON.stringify({ key: `-----BEGIN PRIVATE KEY-----\n${pemBody}\n-----END PRIVATE KEY-----\n` });
  assert.deepEqual(JSON.parse(redactSecrets(json)), { key: "-----BEGIN PRIVATE KEY-----\n[REDACTED]\n-----END PRIVATE KEY-----\n" });
});

const tsSource = `import { getToken, type Credentials } from "./auth";

export interface LoginForm {
  username: string;
  password: string;
  token?: string;
  apiKey: string | undefined;
}

export async function login(form: LoginForm, password: string): Promise<void> {
  const token = getToken();
  const secret = await loadSecret(form.username);
  const apiKey = process.env.OPENAI_API_KEY ?? "";
  const password2 = form.password;
  if (password === "") throw new Error("password: required");
  headers["Authorization"] = \`Bearer \${token}\`;
  const auth = { authorization: authHeader, token: session.token, password: hashedPassword };
  return fetchWithToken(token, { secret: secret.value, apiKey: config.model.apiKey });
}
// skip-worktree, task-runner, disk-usage, sk-learn-is-great-for-machine-learning
const max_tokens: number = 4096;
`;

const packageJson = JSON.stringify(
  {
    name: "hermes-agent-editors",
    version: "0.1.0",
    type: "module",
    scripts: { build: "node esbuild.config.mjs", test: "node --import tsx --test" },
    dependencies: { "@agentclientprotocol/sdk": "^2.4.0", "js-tiktoken": "^1.0.12" },
    devDependencies: { typescript: "^5.6.3", tsx: "^4.19.2" },
  },
  null,
  2,
);

const yamlConfig = `model:
  provider: openai
  name: gpt-4.1
  base_url: https://api.openai.com/v1
  api_key: \${OPENAI_API_KEY}
  api_mode: chat_completions
terminal:
  env_passthrough: [GITHUB_TOKEN]
  token: "{{ secrets.DEPLOY_TOKEN }}"
  password: $DB_PASSWORD
  secret: "%SECRET%"
agent:
  max_turns: 90
  max_tokens: 16384
`;

const sha = "3f2a9c0d1e4b5a6978877665544332211009988f";
const gitLog = `commit ${sha}
Author: A Dev <dev@example.com>
Date:   Mon Jan 1 12:00:00 2024 +0000

    fix token refresh (closes #12)
`;

function pseudoBase64(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let seed = 12345;
  let out = "";
  while (out.length < length) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out += alphabet[(seed >> 16) & 63];
  }
  return out;
}

const negatives: [string, string][] = [
  ["TypeScript with token/password identifiers and types", tsSource],
  ["package.json", packageJson],
  ["YAML config with references", yamlConfig],
  ["git log with a SHA", gitLog],
  ["a bare git SHA and JSON sha field", `${sha}\n{"sha": "${sha}", "tree": {"sha": "${sha}"}}`],
  ["UUIDs", `id=123e4567-e89b-12d3-a456-426614174000 {"uuid": "550e8400-e29b-41d4-a716-446655440000"}`],
  ["base64 image data URL", `<img src="data:image/png;base64,${pseudoBase64(200_000)}==">`],
  ["a long line", "const x = [" + "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ".repeat(20_000) + "];"],
  ["prose about passwords", `The password: field must be set. Use "Enter your password" as placeholder; Basic authentication is disabled.`],
  ["placeholders", `OPENAI_API_KEY=your-api-key-here\napi_key: "YOUR_API_KEY"\npassword: ********\ntoken: <your token>`],
  ["URLs without credentials", `https://example.com:8080/path?q=1 ssh://git@github.com/org/repo.git git@github.com:org/repo.git`],
  ["numbers and dates", `token_count: 12\npassword_changed: 2024-01-02\ntoken: 4096`],
  ["Go and Python lookups", `token := os.Getenv("GITHUB_TOKEN")\napi_key = os.environ["OPENAI_API_KEY"]\npassword = getpass.getpass()`],
  ["type annotations", `function f(password: string, token: Token, secret: SecretValue): void {}`],
];

for (const [name, input] of negatives) {
  test(`leaves ${name} unchanged`, () => {
    assert.equal(redactSecrets(input), input);
    assert.equal(containsSecret(input), false);
  });
}

test("redactDeep redacts every string in a nested value and leaves the input alone", () => {
  const input = {
    title: "Run env",
    rawOutput: {
      stdout: `PATH=/usr/bin\nGITHUB_TOKEN=${ghp}\n`,
      lines: ["ok", `key ${anthropic}`, { nested: [`Bearer zX9yW8vU7tS6rQ5pO4nM`] }],
      exitCode: 0,
      ok: true,
      missing: null,
    },
    config: { password: "Tr0ub4dor&3", apiKey: "a1b2c3d4e5f6g7h8", token: "string", name: "gpt-4.1" },
  };
  const before = structuredClone(input);
  const out = redactDeep(input);
  assert.deepEqual(input, before, "input not mutated");
  assert.notEqual(out, input);
  assert.equal(out.rawOutput.stdout, "PATH=/usr/bin\nGITHUB_TOKEN=ghp_…[REDACTED]\n");
  assert.equal(out.rawOutput.lines[0], "ok");
  assert.equal(out.rawOutput.lines[1], "key sk-ant-api03-…[REDACTED]");
  assert.deepEqual(out.rawOutput.lines[2], { nested: ["Bearer [REDACTED]"] });
  assert.equal(out.rawOutput.exitCode, 0);
  assert.equal(out.rawOutput.ok, true);
  assert.equal(out.rawOutput.missing, null);
  // Values under secret-named keys are masked whole; type-ish words and other keys are not.
  assert.deepEqual(out.config, { password: "[REDACTED]", apiKey: "[REDACTED]", token: "string", name: "gpt-4.1" });
  assert.ok(!JSON.stringify(out).includes(ghp.slice(4)));
});

test("redactDeep handles primitives, cycles and non-plain objects", () => {
  assert.equal(redactDeep(42), 42);
  assert.equal(redactDeep(null), null);
  assert.equal(redactDeep(`x ${ghp}`), "x ghp_…[REDACTED]");
  const date = new Date(0);
  assert.equal(redactDeep({ when: date }).when, date);
  const cyclic: { self?: unknown; s: string } = { s: ghp };
  cyclic.self = cyclic;
  const copy = redactDeep(cyclic);
  assert.equal(copy.s, "ghp_…[REDACTED]");
  assert.equal(copy.self, copy);
});

// Speed is not asserted here: the timeout is 100x a normal run, so only a regression into
// catastrophic backtracking (quadratic or worse: minutes on these sizes) fails it.
const HANG_GUARD = { timeout: 60_000 };

test("1 MB of ordinary code comes back unchanged", HANG_GUARD, () => {
  let big = "";
  while (big.length < 1_000_000) big += tsSource + packageJson + yamlConfig + gitLog;
  assert.equal(redactSecrets(big), big);
});

test("adversarial inputs do not backtrack catastrophically", HANG_GUARD, () => {
  // Each is a near-miss of a rule repeated hundreds of thousands of times; every one completes.
  const harmless = ["a-".repeat(300_000), "sk-".repeat(200_000), "token=".repeat(100_000), "http://a".repeat(100_000), "password: " + "a".repeat(500_000), "https://" + "u".repeat(300_000) + ":" + "p".repeat(300_000)];
  for (const input of harmless) assert.equal(redactSecrets(input), input, input.slice(0, 20));
  const tokens = redactSecrets("eyJaaaaaaaaaa.".repeat(50_000));
  assert.ok(tokens.startsWith("eyJ…[REDACTED]") && !tokens.includes("eyJaaaaaaaaaa"), tokens.slice(0, 40));
  const keys = redactSecrets("-----BEGIN PRIVATE KEY-----\n(x) y\n".repeat(20_000));
  assert.ok(keys.startsWith("-----BEGIN PRIVATE KEY-----\n[REDACTED]"), keys.slice(0, 60));
});

test("a value registered after a text was redacted is masked in that text from then on (the redaction memo follows the registered values)", async () => {
  const { clearSecretValues, registerSecretValue } = await import("../../acp-server/util/secret-values");
  const text = "deploy with pass Zq8-memo-Plain-Value-77 today";
  try {
    assert.equal(redactSecrets(text), text); // nothing format-shaped: left as is, and remembered
    registerSecretValue("Zq8-memo-Plain-Value-77");
    assert.equal(redactSecrets(text), "deploy with pass [REDACTED] today");
    clearSecretValues();
    assert.equal(redactSecrets(text), text);
  } finally {
    clearSecretValues();
  }
});

test("redacting a redaction's result gives the same answer as redacting it afresh (the memo's shortcut for the next door)", () => {
  const once = redactSecrets(`key ${openai} and ${ghp}`);
  assert.notEqual(once, `key ${openai} and ${ghp}`);
  assert.equal(redactSecrets(once), once);
});
