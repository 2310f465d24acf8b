// search_files leaves credential files out of folder searches (content and names, with the
// JS walker and with ripgrep), says which it skipped, and asks when pointed straight at one.
import assert from "node:assert/strict";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, afterEach, describe, test } from "node:test";
import { decidePermission } from "../../acp-server/security/permission-policy";
import { isSensitiveName, isSensitiveRelative } from "../../acp-server/security/sensitive-paths";
import { ripgrepPath, setRipgrepPath } from "../../acp-server/tools/ripgrep";
import { ToolError } from "../../acp-server/tools/registry";
import { searchFilesTool } from "../../acp-server/tools/search-files";
import { recordingContext, tempDir } from "../support/tool-context";

const realRipgrep = ripgrepPath();
after(() => setRipgrepPath(undefined));

const SECRET = "hunter2-SECRET";
const CREDENTIALS: Record<string, string> = {
  ".env": `API_KEY=${SECRET}\n`,
  ".env.local": `API_KEY=${SECRET}\n`,
  "config/.env.production": `API_KEY=${SECRET}\n`,
  ".npmrc": `//registry/:_authToken=${SECRET}\n`,
  "keys/id_rsa": `-----BEGIN ${SECRET}\n`,
  "certs/server.pem": `${SECRET}\n`,
  "credentials.json": `{"token":"${SECRET}"}\n`,
  "config/secrets.yaml": `token: ${SECRET}\n`,
  "infra/prod.tfvars": `password = "${SECRET}"\n`,
  ".aws/credentials": `aws_secret_access_key=${SECRET}\n`,
  ".docker/config.json": `{"auth":"${SECRET}"}\n`,
};
const ORDINARY: Record<string, string> = {
  ".env.example": "API_KEY=SECRET-goes-here\n",
  "src/app.ts": "const SECRET_NAME = 'API_KEY';\n",
  "docs/keys.md": "Never commit a SECRET.\n",
};

async function project(): Promise<string> {
  const root = await tempDir();
  for (const [file, content] of Object.entries({ ...CREDENTIALS, ...ORDINARY })) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  return root;
}

async function search(cwd: string, args: Record<string, unknown>, allow = true) {
  const ctx = recordingContext({ cwd, allow });
  const result = await searchFilesTool.handler(searchFilesTool.schema.parse(args), ctx);
  return { ctx, result, output: result.output as Record<string, any>, all: JSON.stringify(result) };
}

test("one list: env files but not their templates, keys, tokens, cloud credentials", () => {
  for (const name of [".env", ".env.local", ".env.production", ".env.development.local", "prod.env", "id_rsa", "id_ed25519.pub", "a.pem", "tls.key", "store.p12", "app.jks", ".npmrc", ".pypirc", ".netrc", "credentials.json", ".git-credentials", "secrets.yaml", "prod.tfvars", "kubeconfig"]) {
    assert.ok(isSensitiveName(name), name);
  }
  for (const name of [".env.example", ".env.sample", ".env.template", "app.ts", "README.md", "environment.ts", "keyboard.ts", "monkey.key.ts"]) assert.ok(!isSensitiveName(name), name);
  assert.ok(isSensitiveRelative(".aws/credentials") && isSensitiveRelative("home/.ssh/known_hosts") && isSensitiveRelative(".docker/config.json"));
  assert.ok(!isSensitiveRelative("src/aws/client.ts"));
});

const backends: { name: string; rg: string | null }[] = [{ name: "JS walker", rg: null }];
if (realRipgrep) backends.push({ name: "ripgrep", rg: realRipgrep });

for (const backend of backends) {
  describe(`search_files and credentials (${backend.name})`, () => {
    afterEach(() => setRipgrepPath(undefined));
    const use = () => setRipgrepPath(backend.rg);

    test("content search over the workspace skips credential files and names them", async () => {
      use();
      const cwd = await project();
      const { ctx, output, all } = await search(cwd, { pattern: "SECRET" });
      // The one permission check is for the workspace itself, which policy allows without a prompt.
      assert.deepEqual(ctx.asks.map((ask) => ask.paths), [[cwd]]);
      assert.equal(decidePermission("default", ctx.asks[0], cwd).decision, "allow");
      assert.ok(!all.includes(SECRET), "a credential's content leaked");
      assert.deepEqual(output.matches.map((m: { path: string }) => m.path).sort(), [".env.example", "docs/keys.md", "src/app.ts"]);
      assert.equal(output.sensitive_skipped.count, Object.keys(CREDENTIALS).length);
      assert.ok(output.sensitive_skipped.files.includes(".env"));
      assert.match(output.note, /11 sensitive files were not searched/);
    });

    test("file_glob cannot pull a credential file back in", async () => {
      use();
      const cwd = await project();
      for (const glob of [".env", "*.pem", "**/*", ".env*"]) {
        const { all } = await search(cwd, { pattern: "SECRET", file_glob: glob });
        assert.ok(!all.includes(SECRET), `leaked with file_glob ${glob}`);
      }
    });

    test("file-name search leaves them out of the list and reports them", async () => {
      use();
      const cwd = await project();
      const { output } = await search(cwd, { pattern: "*", target: "files" });
      assert.deepEqual([...output.files].sort(), [".env.example", "docs/keys.md", "src/app.ts"]);
      assert.equal(output.sensitive_skipped.count, Object.keys(CREDENTIALS).length);
    });

    test("a symlink inside the workspace to a secret outside: never followed by a folder search, asked about when named", async () => {
      use();
      const cwd = await project();
      const outside = await tempDir();
      await writeFile(path.join(outside, "notes.txt"), `${SECRET}\n`);
      await symlink(path.join(outside, "notes.txt"), path.join(cwd, "notes.txt"));
      await symlink(outside, path.join(cwd, "linked"));
      const folder = await search(cwd, { pattern: "SECRET" });
      assert.ok(!folder.all.includes(SECRET));
      for (const target of ["notes.txt", "linked"]) {
        const named = await search(cwd, { pattern: "SECRET", path: target }, false).catch((error: unknown) => error);
        assert.ok(named instanceof ToolError && !named.message.includes(SECRET));
        const ask = { action: "read" as const, title: "Search", paths: [path.join(cwd, target)] };
        assert.equal(decidePermission("default", ask, cwd).decision, "ask", `${target} resolves outside the workspace`);
      }
    });

    test("pointed straight at a credential file, it asks; allowed, it searches it; refused, nothing", async () => {
      use();
      const cwd = await project();
      const allowed = await search(cwd, { pattern: "API_KEY", path: ".env" });
      assert.equal(allowed.ctx.asks.length, 1);
      assert.deepEqual(allowed.ctx.asks[0].paths, [path.join(cwd, ".env")]);
      assert.equal(decidePermission("default", allowed.ctx.asks[0], cwd).decision, "ask", "policy puts the question to the user");
      assert.ok(allowed.all.includes(SECRET), "the approved file is searched");
      assert.equal(allowed.output.sensitive_skipped, undefined);

      const ctx = recordingContext({ cwd, allow: false });
      await assert.rejects(searchFilesTool.handler(searchFilesTool.schema.parse({ pattern: "API_KEY", path: ".aws" }), ctx), (error: unknown) => {
        assert.ok(error instanceof ToolError && !error.message.includes(SECRET));
        return true;
      });
      assert.equal(ctx.asks.length, 1);
    });
  });
}
