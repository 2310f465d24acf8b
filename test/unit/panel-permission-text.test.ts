// The permission card's explanation: the command stays code, the reason reads as prose.
import assert from "node:assert/strict";
import { test } from "node:test";
import { splitPermissionText } from "../../webview-ui/lib/permission-text";

test("a command and its reason: code, then prose", () => {
  assert.deepEqual(splitPermissionText("```sh\nrm -rf build\n```\nNeeds approval: deletes files recursively."), [
    { kind: "code", text: "rm -rf build" },
    { kind: "prose", text: "Needs approval: deletes files recursively." },
  ]);
});

test("prose only, code only, and prose around a multi-line block", () => {
  assert.deepEqual(splitPermissionText("Needs approval: writes outside the workspace."), [{ kind: "prose", text: "Needs approval: writes outside the workspace." }]);
  assert.deepEqual(splitPermissionText("```\nls\n```"), [{ kind: "code", text: "ls" }]);
  assert.deepEqual(splitPermissionText("Before.\n```bash\na\nb\n```\nAfter."), [
    { kind: "prose", text: "Before." },
    { kind: "code", text: "a\nb" },
    { kind: "prose", text: "After." },
  ]);
  assert.deepEqual(splitPermissionText(""), []);
});
