// The SSRF corpus (test/fixtures/ssrf-corpus.ts) through web_fetch's own URL check and address
// classification: every private, loopback, metadata and special-purpose spelling is refused
// with its reason, public addresses pass, and web.allow_private opens exactly what it lists.
import assert from "node:assert/strict";
import { test } from "node:test";
import { classifyAddress } from "../../acp-server/security/private-network";
import { checkUrl, resolveTarget } from "../../acp-server/tools/web/guarded-fetch";
import { parseRange } from "../../acp-server/util/ip-address";
import { PUBLIC, REFUSED } from "../fixtures/ssrf-corpus";

const destination = async (url: string, allow: string[] = []) => resolveTarget(checkUrl(url), allow.map((range) => parseRange(range)), new AbortController().signal);

test("every URL of the SSRF corpus is refused, with its reason", async () => {
  assert.ok(REFUSED.length >= 55, `corpus size ${REFUSED.length}`);
  for (const [url, reason] of REFUSED) {
    await assert.rejects(destination(url), (error: Error) => reason.test(error.message), `${url} was not refused for ${String(reason)}`);
  }
});

test("public addresses are reachable", async () => {
  for (const url of PUBLIC) {
    const target = await destination(url);
    assert.equal(target.literal, true, url);
  }
});

test("web.allow_private opens what it lists and nothing next to it", async () => {
  assert.equal((await destination("http://127.0.0.1/", ["127.0.0.1"])).address, "127.0.0.1");
  await assert.rejects(destination("http://127.0.0.2/", ["127.0.0.1"]), /loopback/);
  assert.equal((await destination("http://10.1.2.3/", ["10.0.0.0/8"])).address, "10.1.2.3");
  await assert.rejects(destination("http://11.0.0.1./", ["10.0.0.0/8"]).then(() => Promise.reject(new Error("public"))), /public/);
  await assert.rejects(destination("http://192.168.0.1/", ["10.0.0.0/8"]), /private network/);
  // An allowed IPv4 range covers its IPv4-mapped spelling; an allowed IPv6 range is exact.
  assert.equal((await destination("http://[::ffff:10.0.0.1]/", ["10.0.0.0/8"])).address, "::ffff:a00:1");
  assert.equal((await destination("http://[fd00::5]/", ["fd00::/8"])).address, "fd00::5");
  await assert.rejects(destination("http://[fe80::5]/", ["fd00::/8"]), /link-local/);
});

test("addresses in notations the classifier does not read are refused, not guessed", () => {
  for (const text of ["0x7f.1", "2130706433", "017.0.0.1", "127.1", "1::2::3", "fe80::1%eth0", "::ffff:127.0.0.256", "", "localhost", "12345::"]) {
    const verdict = classifyAddress(text);
    assert.equal(verdict.public, false, text);
  }
});
