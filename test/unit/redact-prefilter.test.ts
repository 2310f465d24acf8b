// The redactor's prefilter skips the rules for text that cannot hold a formatted secret. It
// must never skip text a rule would change: every corpus case, and every prefix and suffix of
// it (a secret cut anywhere, a context word without its value…), is run through the rules
// alone and compared.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mayHoldFormattedSecret, redactAllRules, redactSecrets } from "../../acp-server/util/redact";
import { NEGATIVES, POSITIVES } from "../fixtures/secret-corpus";

test("the prefilter never skips text a rule would change", () => {
  const inputs = [...POSITIVES.map(([, input]) => input), ...NEGATIVES.map(([, input]) => input)];
  let skipped = 0;
  let checked = 0;
  for (const input of inputs) {
    for (let cut = 0; cut <= input.length; cut++) {
      for (const text of [input.slice(cut), input.slice(0, cut)]) {
        checked++;
        if (mayHoldFormattedSecret(text)) continue;
        skipped++;
        assert.equal(redactAllRules(text), text, `skipped, but a rule changes it: ${JSON.stringify(text)}`);
      }
    }
  }
  assert.ok(skipped > checked / 20, `the prefilter skipped only ${skipped} of ${checked}`);
});

test("ordinary prose skips the rules; the words and shapes rules need do not", () => {
  for (const prose of ["Let me look at module12.ts.", "module3.ts exports value3 and f3, which doubles it.", "Question 7: what does it export, and why?"]) {
    assert.equal(mayHoldFormattedSecret(prose), false, prose);
    assert.equal(redactSecrets(prose), prose);
  }
  for (const context of ["MYSQL_PWD=x", "curl -u a:b", "mysql -pX", "https://u:p@h", "Authorization: x", "a\u001b[0mb", "\\u0073k", "Basic dXNlcjpw", "xoxb-1234567890"]) {
    assert.equal(mayHoldFormattedSecret(context), true, context);
  }
});
