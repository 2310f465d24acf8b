import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { OutputBuffer, truncateMiddle } from "../../acp-server/tools/output-buffer";
import { clipLine } from "../../acp-server/tools/search-files";
import { redactDeep, redactSecrets } from "../../acp-server/util/redact";
import { isSecretName } from "../../acp-server/util/secret-names";
import { clearSecretValues, registerSecretsFromEnv, registerSecretValue } from "../../acp-server/util/secret-values";
import { StreamRedactor } from "../../acp-server/util/stream-redactor";
import { NEGATIVES, POSITIVES, SECRETS } from "../fixtures/secret-corpus";

describe("redaction corpus: every format, every place", () => {
  for (const [what, input, secret] of POSITIVES) {
    it(`redacts ${what}`, () => {
      assert.ok(input.includes(secret), "the case must contain its secret");
      const out = redactSecrets(input);
      assert.ok(!out.includes(secret), `still present in: ${out}`);
      assert.ok(out.includes("[REDACTED]"), out);
      assert.equal(redactSecrets(out), out, "idempotent");
    });
  }
});

describe("redaction corpus: ordinary text is left alone", () => {
  for (const [what, input] of NEGATIVES) {
    it(`keeps ${what}`, () => assert.equal(redactSecrets(input), input));
  }
});

describe("secret names", () => {
  it("decides names as documented", () => {
    for (const name of ["MYSQL_PWD", "PGPASSWORD", "VAULT_TOKEN", "NPM_TOKEN", "SECRET_KEY_BASE", "apiKey", "x-api-key", "AUTH", "GOOGLE_CREDENTIALS", "db.password", "AccountKey"]) {
      assert.equal(isSecretName(name), true, name);
    }
    for (const name of ["KEYBOARD_LAYOUT", "PUBKEY_PATH", "PUBLIC_KEY", "token_count", "password_field", "AUTHOR", "SECRET_NAME", "TOKEN_URL", "monkey", "KEY_SIZE", "PATH", "HOME"]) {
      assert.equal(isSecretName(name), false, name);
    }
  });
});

describe("the agent's own secrets by value", () => {
  afterEach(() => clearSecretValues());
  const value = "Corr3ct-H0rse_Battery!Staple";

  it("finds a registered value verbatim, reversed, base64 at every alignment, url-safe and hex", () => {
    registerSecretsFromEnv({ MY_SERVICE_PASSWORD: value, HOME: "/home/me", EDITOR: "vim" });
    const forms = [value, [...value].reverse().join(""), Buffer.from(value).toString("hex"), Buffer.from(value).toString("hex").toUpperCase()];
    for (const prefix of ["", "a", "ab", "abc"]) {
      const encoded = Buffer.from(prefix + value + "\n").toString("base64");
      forms.push(encoded, encoded.replace(/\+/g, "-").replace(/\//g, "_"));
    }
    for (const form of forms) {
      const out = redactSecrets(`echo ${form} | base64 -d`);
      assert.ok(out.includes("[REDACTED]"), `not redacted: ${form} → ${out}`);
      // Whatever is left around the mask carries at most a byte or two of the value.
      const left = out.replace("echo ", "").replace(" | base64 -d", "").split("[REDACTED]").join("");
      assert.ok(left.length <= 8, `too much left of ${form}: ${out}`);
    }
    assert.equal(redactSecrets("HOME is /home/me, EDITOR vim"), "HOME is /home/me, EDITOR vim");
  });

  it("registers the configured provider key, and ignores values too common to mask", () => {
    registerSecretValue("p4ss-Provider-Key-0001");
    registerSecretsFromEnv({ DEPLOY_TOKEN: "development", APP_SECRET: "$OTHER" });
    assert.equal(redactSecrets(JSON.stringify({ k: "p4ss-Provider-Key-0001" })), `{"k":"[REDACTED]"}`);
    assert.equal(redactSecrets("npm run development"), "npm run development");
  });

  it("does not take the shell's working directory (PWD, OLDPWD) for a password", () => {
    registerSecretsFromEnv({ PWD: "/home/alice/project", OLDPWD: "/home/alice", MYSQL_PWD: "s3cret-Pw-99" });
    assert.equal(redactSecrets("edited /home/alice/project/src/app.ts with s3cret-Pw-99"), "edited /home/alice/project/src/app.ts with [REDACTED]");
  });
});

describe("streamed replies", () => {
  function streamed(text: string, size: number): string {
    const redactor = new StreamRedactor();
    let out = "";
    for (let i = 0; i < text.length; i += size) out += redactor.push(text.slice(i, i + size));
    return out + redactor.end();
  }

  it("catches a secret split across chunks, at every chunk size", () => {
    const reply = `Done. Your token is ${SECRETS.githubClassic} and the header is\nAuthorization: Bearer abcDEF123456ghiJKL789\nexport MYSQL_PWD=hunter2\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7Vx1Q2w3E4r5T6y7U8i9O0pAsDfGhJkL\n-----END RSA PRIVATE KEY-----\nbye`;
    for (const size of [1, 2, 3, 5, 7, 16, 64]) {
      const out = streamed(reply, size);
      for (const secret of [SECRETS.githubClassic.slice(4, 16), "abcDEF123456ghiJKL789", "hunter2", "MIIEowIBAAKCAQEA"]) {
        assert.ok(!out.includes(secret), `size ${size}: ${secret} in ${out}`);
      }
      assert.ok(out.startsWith("Done. Your token is ghp_") && out.endsWith("bye"), out);
    }
  });

  it("catches context-dependent secrets split anywhere (quoted values, flags, headers)", () => {
    const reply = `Set DB_PASSWORD="correct horse battery" then run psql --password hunter2x and curl -u alice:s3cr3tpw https://x.test -H "Authorization: Bearer zX9yW8vU7tS6rQ5pO4nM".\nThen mysql -u root -pS3cretPw app.`;
    for (const size of [1, 2, 3, 4, 5, 6, 7, 9, 11, 13]) {
      const out = streamed(reply, size);
      for (const secret of ["correct horse", "horse battery", "hunter2x", "s3cr3tpw", "zX9yW8vU7tS6rQ5pO4nM", "S3cretPw"]) assert.ok(!out.includes(secret), `size ${size}: ${secret} in ${out}`);
    }
  });

  it("catches values that continue on the next lines (Bearer, YAML block, PuTTY, ANSI), split anywhere", () => {
    const v = "Ab3dEfGh1jKlMnOp2rStUvWx4z5678AbCdEfGh9J";
    const reply = `config:\n  api_key: |\n    ${v}\n  other: 1\nAuthorization: Bearer\n  ${v.slice(5)}Q\nPuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n${v.slice(3)}Z\n\u001b[32msk-proj-\u001b[0m${v}Y done\nscript: |\n  npm test\nend`;
    for (const size of [1, 2, 3, 5, 7, 16, 64]) {
      const out = streamed(reply, size);
      for (const secret of [v, v.slice(5) + "Q", v.slice(3) + "Z", v + "Y"]) assert.ok(!out.includes(secret.slice(-16)), `size ${size}: ${secret} in ${out}`);
      assert.ok(out.includes("  other: 1\n") && out.includes("script: |\n  npm test\nend"), out);
    }
  });

  it("a non-secret YAML block streams line by line", () => {
    const redactor = new StreamRedactor();
    assert.equal(redactor.push("script: |\n  npm ci\n"), "script: |\n  npm ci\n");
  });

  it("prose about passwords and keys still streams word by word", () => {
    const redactor = new StreamRedactor();
    assert.equal(redactor.push("The password policy passes review and the key rotation "), "The password policy passes review and the key rotation ");
    assert.equal(redactor.push("is monthly"), "is ");
  });

  it("releases ordinary text as it comes, word by word", () => {
    const redactor = new StreamRedactor();
    assert.equal(redactor.push("Hello wor"), "Hello ");
    assert.equal(redactor.push("ld, all good\n"), "world, all good\n");
    assert.equal(redactor.end(), "");
  });

  it("never holds more than its bound", () => {
    const redactor = new StreamRedactor();
    let out = "";
    for (let i = 0; i < 2_000; i++) out += redactor.push("x".repeat(10));
    assert.ok(out.length >= 20_000 - 8_192, `held too much: ${20_000 - out.length}`);
  });
});

describe("redact before truncating", () => {
  it("a truncated command output never shows part of a key", () => {
    for (let shift = 0; shift < 40; shift += 3) {
      const buffer = new OutputBuffer(200);
      buffer.append("x".repeat(100 - shift) + ` ${SECRETS.anthropic} ` + "y ".repeat(200) + ` ${SECRETS.npm}` + " z".repeat(shift));
      const out = redactSecrets(buffer.text());
      assert.ok(!out.includes(SECRETS.anthropic.slice(14, 26)), out);
      assert.ok(!out.includes(SECRETS.npm.slice(10, 22)), out);
    }
    const capped = redactSecrets(truncateMiddle(`${"a ".repeat(30)}${SECRETS.huggingFace}${" b".repeat(30)}`, 70).text);
    assert.ok(!capped.includes(SECRETS.huggingFace.slice(10, 20)), capped);
  });

  it("a search hit on a long line is redacted before the window is cut", () => {
    for (let at = 150; at < 260; at += 9) {
      const line = "x".repeat(at) + `"key":"${SECRETS.openaiProject}"` + "y".repeat(400);
      const clipped = clipLine(line, 10);
      assert.ok(!clipped.includes(SECRETS.openaiProject.slice(8, 16)) && !clipped.includes(SECRETS.openaiProject.slice(-10)), clipped);
    }
  });

  it("redactDeep masks env-style keys whatever the value's length", () => {
    assert.deepEqual(redactDeep({ MYSQL_PWD: "x", KEYBOARD: "us", token_count: "5" }), { MYSQL_PWD: "[REDACTED]", KEYBOARD: "us", token_count: "5" });
  });
});
