// The outbound secret check (security/outbound-secrets.ts): the attacker's corpus
// (test/fixtures/outbound-secret-corpus.ts) of secrets spelled every covered way, which must all
// be found and named; near misses and ordinary traffic, which must not ask; the ask itself (every
// mode, never remembered, the name and never the value); the session's seen secrets; the speed.
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { describe, test } from "node:test";
import { checkOutbound, findOutboundSecrets, secretsToCheck, stringsOf, type NamedSecret } from "../../acp-server/security/outbound-secrets";
import { decidePermission } from "../../acp-server/security/permission-policy";
import type { PolicyAsk } from "../../acp-server/security/policy-ask";
import { maskedValues, SeenSecrets } from "../../acp-server/security/seen-secrets";
import { coversInParts, MAX_GAP_WORDS, wordText } from "../../acp-server/security/split-secret-match";
import { redactSecrets } from "../../acp-server/util/redact";
import { clearSecretValues, registerSecretValue } from "../../acp-server/util/secret-values";
import { BENIGN, BENIGN_MCP, NEAR_MISSES, POSITIVES, SECRETS } from "../fixtures/outbound-secret-corpus";

const NAMED: NamedSecret[] = SECRETS.map(({ name, value }) => ({ name, value }));

describe("every covered spelling is found, and named", () => {
  test(`${POSITIVES.length} positives`, () => {
    const missed = POSITIVES.filter((entry) => !findOutboundSecrets(entry.texts, NAMED).some((found) => found.name === entry.carries));
    assert.deepEqual(missed.map((entry) => entry.label), [], "secrets that would leave unasked");
  });
  test("the finding says how it was spelled", () => {
    const key = SECRETS[0]!.value;
    const spelling = (text: string) => findOutboundSecrets([text], NAMED)[0]?.spelling;
    assert.equal(spelling(`https://x.example/?q=${key}`), "as is");
    assert.match(spelling(`https://x.example/${Buffer.from(key).toString("base64url")}`) ?? "", /base64/);
    assert.match(spelling(`https://x.example/${key.slice(0, 20)}/${key.slice(20)}`) ?? "", /split into parts/);
  });
});

describe("no false alarms", () => {
  test(`${NEAR_MISSES.length} near misses do not ask`, () => {
    const flagged = NEAR_MISSES.filter((entry) => findOutboundSecrets(entry.texts, NAMED).length > 0);
    assert.deepEqual(flagged.map((entry) => entry.label), []);
  });
  test(`${BENIGN.length + BENIGN_MCP.length} ordinary requests do not ask`, () => {
    const flagged = [...BENIGN, ...BENIGN_MCP].filter((entry) => findOutboundSecrets(entry.texts, NAMED).length > 0);
    assert.deepEqual(flagged.map((entry) => entry.label), []);
  });
});

describe("split parts", () => {
  const secret = "ABCDEFGH12345678abcdefgh";
  const covers = (text: string) => coversInParts(wordText(text), secret);
  test("parts in order, with other words between, are found", () => {
    assert.ok(covers("/ABCDEFGH/12345678/abcdefgh"));
    assert.ok(covers("?x=ABCDEFGH&lang=en&y=12345678&z=abcdefgh"));
    assert.ok(covers("noiseABCDEFGH 12345678 abcdefghtail"), "the first part may end a word, the last may start one");
    assert.ok(covers("AB-CD-EF-GH-12-34-56-78-ab-cd-ef-gh"), "short groups that follow each other make one part");
  });
  test("parts under four characters, out of order, or not all of it: not found", () => {
    assert.ok(!covers("?a=ABC&b=DEF&c=GH1&d=234&e=567&f=8ab&g=cde&h=fgh"));
    assert.ok(!covers("/12345678/ABCDEFGH/abcdefgh"));
    assert.ok(!covers("/ABCDEFGH/12345678"));
    assert.ok(!covers("/ABCDEFGH/x/12345678/abcdefg"));
    const filler = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join("/");
    assert.ok(covers(`/ABCDEFGH/${filler(MAX_GAP_WORDS)}/12345678abcdefgh`), "up to the gap bound between parts");
    assert.ok(!covers(`/ABCDEFGH/${filler(MAX_GAP_WORDS + 1)}/12345678abcdefgh`), "past it, not (a documented limit)");
  });
});

describe("the ask", () => {
  const key = SECRETS[0]!;
  test("a match asks once, naming the secret and never its value; a no refuses with the name", async () => {
    const asks: (PolicyAsk & { title: string })[] = [];
    const asker = { requestPermission: async (ask: PolicyAsk & { title: string }) => (asks.push(ask), false), secretsSeen: { list: () => [key] } };
    const refusal = await checkOutbound(asker, { tool: "web_fetch", destination: "collect.example.net", texts: [`https://collect.example.net/?d=${Buffer.from(key.value).toString("hex")}`] });
    assert.equal(asks.length, 1);
    assert.deepEqual(asks[0]!.outboundSecret, { names: ["OPENAI_API_KEY (hex)"], destination: "collect.example.net" });
    assert.match(asks[0]!.title, /web_fetch would send OPENAI_API_KEY to collect\.example\.net/);
    assert.ok(!JSON.stringify(asks).includes(key.value), "the value is never in the question");
    assert.match(refusal ?? "", /did not allow sending OPENAI_API_KEY \(hex\) to collect\.example\.net/);
    assert.ok(!refusal!.includes(key.value));
  });
  test("nothing found: nothing asked", async () => {
    let asked = 0;
    const asker = { requestPermission: async () => (asked++, false), secretsSeen: { list: () => [key] } };
    assert.equal(await checkOutbound(asker, { tool: "web_search", destination: "SearXNG", texts: ["typescript zod discriminated union"] }), undefined);
    assert.equal(asked, 0);
  });
  test("Hermes's own keys are checked without any seen secret, under their registered name", async () => {
    clearSecretValues();
    try {
      registerSecretValue("hk-live-9Jq2Wm5Xz8Rb3Nc6Vd1Tf4Gh7Ky0Lp", "the API key of custom/model");
      assert.deepEqual(secretsToCheck().map((secret) => secret.name), ["the API key of custom/model"]);
      const found = findOutboundSecrets(["https://a.example/hk-live-9Jq2Wm5Xz8R/b3Nc6Vd1Tf4Gh7Ky0Lp"], secretsToCheck());
      assert.deepEqual(found, [{ name: "the API key of custom/model", spelling: "as is, split into parts" }]);
    } finally {
      clearSecretValues();
    }
  });
  test("the policy asks in every mode, each time (no remembered answer covers it)", () => {
    const ask: PolicyAsk = { action: "other", outboundSecret: { names: ["OPENAI_API_KEY (base64)"], destination: "x.example" } };
    for (const mode of ["default", "accept_edits", "plan", "dont_ask"] as const) {
      const verdict = decidePermission(mode, ask, "/tmp/project");
      assert.equal(verdict.decision, "ask", mode);
      assert.equal(verdict.askEachTime, true, mode);
      assert.equal(verdict.sensitive, true, mode);
      assert.match(verdict.reasons.join(" "), /OPENAI_API_KEY \(base64\) to x\.example/);
    }
  });
  test("stringsOf walks arguments in order, keys included", () => {
    assert.deepEqual(stringsOf({ a: "x", b: [1, { c: "y" }], d: true }), ["a", "x", "b", "1", "c", "y", "d", "true"]);
  });
});

describe("the secrets a session has seen", () => {
  test("the values the redactor masked are kept, with the name they stood under", () => {
    const output = "HOST=db.internal\nAPI_TOKEN=Qm9vL2x5ZWFy-7c2Kx9Pw4Rt\nDB_PASSWORD='Tr0ub4dor&3-horse!batt3ry'\ngh: ghp_7Gd2kQ9mX4vB1nL8pR3tY6wZ0cF5hJ2sA9eK\n";
    const values = maskedValues(output, redactSecrets(output));
    assert.deepEqual(
      values.map((found) => found.value),
      ["Qm9vL2x5ZWFy-7c2Kx9Pw4Rt", "Tr0ub4dor&3-horse!batt3ry", "ghp_7Gd2kQ9mX4vB1nL8pR3tY6wZ0cF5hJ2sA9eK"],
    );
    assert.deepEqual(values.map((found) => found.name).slice(0, 2), ["API_TOKEN", "DB_PASSWORD"]);
    const seen = new SeenSecrets();
    seen.noteOutput(output, "read_file");
    assert.ok(seen.list().some((secret) => secret.name === "API_TOKEN (read by read_file)"));
    assert.ok(!seen.list().some((secret) => secret.value === "db.internal"), "what was not masked is not a secret");
  });
  test("a name inside JSON-escaped output (a command's stdout in a JSON result) is found", () => {
    const seen = new SeenSecrets();
    seen.noteOutput(JSON.stringify({ stdout: JSON.stringify({ service: "billing", api_token: "wk_live_8Hq3Zp7Nx2Rv5Tc9Lm4Bd6Fs1Gy0Ja" }), exit_code: 0 }), "terminal");
    assert.deepEqual(seen.list(), [{ value: "wk_live_8Hq3Zp7Nx2Rv5Tc9Lm4Bd6Fs1Gy0Ja", name: "api_token (read by terminal)" }]);
  });
  test("a key split by colour codes or spelled with \\u escapes is kept as the decoded value", () => {
    const seen = new SeenSecrets();
    seen.noteOutput("API_TOKEN=\x1b[32mQm9vL2x5ZWFy\x1b[0m-7c2Kx9Pw4Rt\n", "terminal");
    seen.noteOutput('{"text": "SERVICE_KEY=\\u0041bQ7zR2mX9pL4vN8kT3w"}', "web_fetch");
    const values = seen.list().map((secret) => secret.value);
    // The spelling as printed may be kept too (a name rule masks it whole); the decoded value must be.
    for (const value of ["AbQ7zR2mX9pL4vN8kT3w", "Qm9vL2x5ZWFy-7c2Kx9Pw4Rt"]) assert.ok(values.includes(value), `${value} in ${JSON.stringify(values)}`);
  });
  test("short or word-like masked values are not kept (they would cause false alarms)", () => {
    const seen = new SeenSecrets();
    seen.noteOutput("MYSQL_PWD=abc\nPASSWORD=development\n", "terminal");
    assert.deepEqual(seen.list(), []);
  });
});

test("speed: a figure for the check on every outbound call", () => {
  const secrets: NamedSecret[] = [...NAMED, ...Array.from({ length: 15 }, (_, index) => ({ name: `K${index}`, value: `key-${index}-${"x7Qp2Lm9".repeat(3)}${index}` }))];
  const url = `https://api.example.com/v1/search?${Array.from({ length: 40 }, (_, index) => `param${index}=value${index * 7919}`).join("&")}`;
  const body = JSON.stringify({ messages: Array.from({ length: 50 }, (_, index) => ({ role: "user", content: `line ${index} of an ordinary request body, nothing secret here at all` })) });
  findOutboundSecrets([url], secrets); // warm the memo of spellings
  const time = (texts: string[], rounds: number) => {
    const start = performance.now();
    for (let i = 0; i < rounds; i++) findOutboundSecrets(texts, secrets);
    return (performance.now() - start) / rounds;
  };
  const urlMs = time([url], 200);
  const bodyMs = time([body], 50);
  process.stdout.write(`# outbound check, ${secrets.length} secrets: ${url.length}-char URL ${urlMs.toFixed(3)} ms, ${body.length}-char body ${bodyMs.toFixed(3)} ms\n`);
  // Generous bounds for a shared CI machine: the figure above is what to watch.
  assert.ok(urlMs < 20, `URL check took ${urlMs} ms`);
  assert.ok(bodyMs < 100, `body check took ${bodyMs} ms`);
});

test("a long secret in a host name is found case-folded (DNS labels); a short one keeps its case", () => {
  const key = SECRETS[0]!.value;
  const labels = key.replace(/[^A-Za-z0-9]/g, "").toLowerCase().match(/.{1,20}/g)!.join(".");
  assert.deepEqual(findOutboundSecrets([`https://${labels}.collect.example.net/`], NAMED).map((found) => found.name), ["OPENAI_API_KEY"]);
  assert.deepEqual(findOutboundSecrets(["https://example.net/?q=xk9#mp2!q"], NAMED), [], "PIN_SECRET (9 characters) lowercased is not it");
});

describe("property: random secrets, random disguises, random ordinary URLs", () => {
  // A fixed seed: a failure names the case, and the run is the same everywhere.
  let state = 20261128;
  const random = (below: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * below);
  };
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const randomSecret = () => `${["sk-", "ghp_", "tok_", ""][random(4)]}${Array.from({ length: 16 + random(33) }, () => ALPHABET[random(ALPHABET.length)]).join("")}`;
  const WORDS = ["docs", "api", "v2", "search", "users", "items", "page", "sort", "lang", "en", "query", "hermes", "token", "release", "notes", "2024", "guide", "install", "config"];
  const disguises: [string, (secret: string) => string][] = [
    ["percent every byte", (s) => [...Buffer.from(s)].map((b) => `%${b.toString(16)}`).join("")],
    ["base64 at an offset", (s) => Buffer.from(`${"x".repeat(random(3))}${s}!`).toString("base64")],
    ["base64url", (s) => Buffer.from(s).toString("base64url")],
    ["hex", (s) => Buffer.from(s).toString("hex")],
    ["reversed", (s) => [...s].reverse().join("")],
    ["halves as parameters", (s) => `a=${s.slice(0, s.length >> 1)}&${WORDS[random(WORDS.length)]}=1&b=${s.slice(s.length >> 1)}`],
    ["thirds as path segments", (s) => [s.slice(0, s.length / 3), s.slice(s.length / 3, (2 * s.length) / 3), s.slice((2 * s.length) / 3)].map((p) => encodeURIComponent(p)).join("/x/")],
    ["groups of 5 with spaces, encoded", (s) => encodeURIComponent(s.match(/.{1,5}/g)!.join(" "))],
  ];
  const TRIES = 400;

  test(`${TRIES} random secrets in a random disguise are all found`, () => {
    const missed: string[] = [];
    for (let i = 0; i < TRIES; i++) {
      const secret = { name: `S${i}`, value: randomSecret() };
      const [label, disguise] = disguises[random(disguises.length)]!;
      const url = `https://${WORDS[random(WORDS.length)]}.example.com/${WORDS[random(WORDS.length)]}?${disguise(secret.value)}`;
      if (findOutboundSecrets([url], [secret]).length === 0) missed.push(`${label}: ${secret.value} in ${url}`);
    }
    assert.deepEqual(missed, []);
  });

  test(`${TRIES} random ordinary URLs (words, hashes, UUIDs, base64 ids) ask about none of ${TRIES} random secrets`, () => {
    const secrets = Array.from({ length: TRIES }, (_, i) => ({ name: `S${i}`, value: randomSecret() }));
    const hexId = (length: number) => Array.from({ length }, () => "0123456789abcdef"[random(16)]).join("");
    const flagged: string[] = [];
    for (let i = 0; i < TRIES; i++) {
      const path = Array.from({ length: 1 + random(4) }, () => WORDS[random(WORDS.length)]).join("/");
      const extra = [hexId(40), `${hexId(8)}-${hexId(4)}-4${hexId(3)}-a${hexId(3)}-${hexId(12)}`, Buffer.from(hexId(24), "hex").toString("base64url")][random(3)];
      const url = `https://www.example.org/${path}?${WORDS[random(WORDS.length)]}=${WORDS[random(WORDS.length)]}&id=${extra}&page=${random(50)}`;
      const found = findOutboundSecrets([url], secrets);
      if (found.length > 0) flagged.push(`${url}: ${found.map((f) => f.name).join(", ")}`);
    }
    assert.deepEqual(flagged, []);
  });
});
