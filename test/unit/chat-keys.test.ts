// The chat's keys are read from readline's key objects: which keypress is which chat key.
import assert from "node:assert/strict";
import { test } from "node:test";
import { chatKeyOf } from "../../acp-server/cli/chat-keys";

test("Ctrl-O is expand and Ctrl-S is steer; other keys and Alt variants are readline's", () => {
  const table: [Parameters<typeof chatKeyOf>[0], ReturnType<typeof chatKeyOf>][] = [
    [{ name: "o", ctrl: true }, "expand"],
    [{ name: "s", ctrl: true }, "steer"],
    [{ name: "s", ctrl: true, meta: true }, undefined],
    [{ name: "s" }, undefined],
    [{ name: "r", ctrl: true }, undefined],
    [undefined, undefined],
  ];
  for (const [key, expected] of table) assert.equal(chatKeyOf(key), expected, JSON.stringify(key));
});
